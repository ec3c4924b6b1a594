"""ECMA-262 character sets and property names, for the pattern translator (:mod:`._ecma`)."""

from __future__ import annotations

import re

# ECMA-262 WhiteSpace and LineTerminator code points, as (first, last) ranges.
SPACE = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)
DIGIT = ((0x30, 0x39),)
WORD = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
LINE_ENDS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
MAX = 0x10FFFF
ALL = ((0, MAX),)
CLASS_ESCAPES = {"d": DIGIT, "w": WORD, "s": SPACE}
CONTROL = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
SYNTAX = frozenset("^$\\.*+?()[]{}|/")
MAX_REPEAT = 1000

# General category names, long and short (ECMA-262 table "Value aliases"), to RE2's short ones.
CATEGORIES = {
    "L": "L", "Letter": "L",
    "Lu": "Lu", "Uppercase_Letter": "Lu",
    "Ll": "Ll", "Lowercase_Letter": "Ll",
    "Lt": "Lt", "Titlecase_Letter": "Lt",
    "Lm": "Lm", "Modifier_Letter": "Lm",
    "Lo": "Lo", "Other_Letter": "Lo",
    "M": "M", "Mark": "M", "Combining_Mark": "M",
    "Mn": "Mn", "Nonspacing_Mark": "Mn",
    "Mc": "Mc", "Spacing_Mark": "Mc",
    "Me": "Me", "Enclosing_Mark": "Me",
    "N": "N", "Number": "N",
    "Nd": "Nd", "Decimal_Number": "Nd", "digit": "Nd",
    "Nl": "Nl", "Letter_Number": "Nl",
    "No": "No", "Other_Number": "No",
    "P": "P", "Punctuation": "P", "punct": "P",
    "Pc": "Pc", "Connector_Punctuation": "Pc",
    "Pd": "Pd", "Dash_Punctuation": "Pd",
    "Ps": "Ps", "Open_Punctuation": "Ps",
    "Pe": "Pe", "Close_Punctuation": "Pe",
    "Pi": "Pi", "Initial_Punctuation": "Pi",
    "Pf": "Pf", "Final_Punctuation": "Pf",
    "Po": "Po", "Other_Punctuation": "Po",
    "S": "S", "Symbol": "S",
    "Sm": "Sm", "Math_Symbol": "Sm",
    "Sc": "Sc", "Currency_Symbol": "Sc",
    "Sk": "Sk", "Modifier_Symbol": "Sk",
    "So": "So", "Other_Symbol": "So",
    "Z": "Z", "Separator": "Z",
    "Zs": "Zs", "Space_Separator": "Zs",
    "Zl": "Zl", "Line_Separator": "Zl",
    "Zp": "Zp", "Paragraph_Separator": "Zp",
    "C": "C", "Other": "C",
    "Cc": "Cc", "Control": "Cc", "cntrl": "Cc",
    "Cf": "Cf", "Format": "Cf",
    "Co": "Co", "Private_Use": "Co",
    "Cs": "Cs", "Surrogate": "Cs",
}  # fmt: skip
SCRIPT_NAME = re.compile(r"[A-Za-z][A-Za-z_]*")
QUANTIFIER = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
GROUP_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
