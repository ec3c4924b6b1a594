"""Every hook is documented: in its docstring (pytest style) and in docs/plugins.md."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tooldrop import hookspecs

DOCS = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
HOOKS = sorted(
    (name, fn)
    for name, fn in vars(hookspecs).items()
    if name.startswith("tooldrop_") and callable(fn)
)


def test_there_are_hooks():
    assert len(HOOKS) >= 10


@pytest.mark.parametrize(("name", "fn"), HOOKS)
def test_each_hook_has_a_heading_with_its_exact_signature_in_the_docs(name, fn):
    params = ", ".join(inspect.signature(fn).parameters)
    headings = re.findall(r"^### (\S+\(.*\))$", DOCS.read_text(), flags=re.MULTILINE)
    assert f"{name}({params})" in headings, f"docs/plugins.md has no '### {name}({params})'"


@pytest.mark.parametrize(("name", "fn"), HOOKS)
def test_each_hook_docstring_documents_every_parameter(name, fn):
    doc = inspect.getdoc(fn) or ""
    assert doc, f"{name} has no docstring"
    for param in inspect.signature(fn).parameters:
        assert f":param {param}:" in doc, f"{name} does not document {param}"


@pytest.mark.parametrize(("name", "fn"), HOOKS)
def test_firstresult_hooks_say_so(name, fn):
    opts = fn.tooldrop_spec
    says = "Stops at first non-None result" in (fn.__doc__ or "")
    assert says == bool(opts.get("firstresult")), name
    documented = re.search(
        rf"^### {name}\(.*\)\n\n\*firstresult\.\*", DOCS.read_text(), re.MULTILINE
    )
    assert bool(documented) == bool(opts.get("firstresult")), f"docs: mark {name} *firstresult.*"


def test_no_heading_documents_a_hook_that_does_not_exist():
    names = {name for name, _ in HOOKS}
    documented = set(re.findall(r"^### (tooldrop_\w+)\(", DOCS.read_text(), flags=re.MULTILINE))
    assert documented <= names, documented - names
