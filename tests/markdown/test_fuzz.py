"""Thousands of random and mutated tool files: the loader never raises, and each file is a
tool or a problem naming it."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldrop import LoadResult, RenderError
from tooldrop_markdown import load_markdown, posix_quote, render
from tooldrop_markdown._scaffold import scaffold

ROOT = Path(__file__).resolve().parents[2]
SEEDS: list[bytes] = [
    case["markdown"].encode()
    for case in json.loads((ROOT / "tests" / "conformance" / "public.json").read_text())
]
SEEDS += [path.read_bytes() for path in sorted((ROOT / ".tooldrop" / "tools").glob("*.md"))]
SEEDS.append(scaffold("k8s-pods")[1].encode())
SEEDS.append(
    b"---\nname: t\ndescription: d\nparameters:\n  - name: xs\n    type: array\n"
    b"    items: {type: string}\n  - name: n\n    type: integer\n    min: 1\n    default: 3\n"
    b"env:\n  A: &x [1, 2]\n  B: *x\ncwd: ./x\nshell: sh\n---\n"
    b"cat <<'EOF'\nliteral\nEOF\nprintf '%s\\n' {{ xs }} # {{ n }}\n"
    b'{{# n }}echo "n set"{{/ n }}{{^ n }}x=$(( 1 + 2 )){{/ n }}\n'
)
PIECES = [
    b"---", b"---\n", b"\n", b"\r\n", b"\r", b"\0", b"\xef\xbb\xbf", b"\xff", b"\xc3", b":", b": ",
    b"- ", b"  ", b"\t", b"{", b"}", b"[", b"]", b"&a ", b"*a", b"!!int ", b"!!binary ", b"? ",
    b"'", b'"', b"`", b"$(", b")", b"$((", b"${", b"<<EOF\n", b"EOF\n", b"<<-'X'\n", b"#", b"\\",
    b"{{", b"}}", b"{{ x }}", b"{{# x }}", b"{{/ x }}", b"{{^ x }}", b"{{ nope }}", b"%",
    b"name: t\n", b"description: d\n", b"parameters:\n  x:\n    type: string\n", b"yes", b"1e3",
    b"0x1F", b"30_000", b".inf", b"~", b"null", b"- name: x\n", b"type: array\n", b"env:\n  A: 1\n",
    b"timeout_ms: 99999999\n", b"pattern: '('\n", b"\xe2\x80\xa8", b"\xc2\xa0", "é😀".encode(),
]  # fmt: skip


def mutate(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.randint(1, 6)):
        choice = rng.random()
        at = rng.randint(0, len(data))
        if choice < 0.2 and data:
            flip = rng.randrange(len(data))
            data = data[:flip] + bytes([data[flip] ^ (1 << rng.randrange(8))]) + data[flip + 1 :]
        elif choice < 0.35:
            data = data[:at]
        elif choice < 0.7:
            data = data[:at] + rng.choice(PIECES) + data[at:]
        elif choice < 0.8 and data:
            end = rng.randint(at, len(data))
            data = data[:at] + data[end:]
        elif choice < 0.88:
            piece = rng.choice(PIECES)
            data = data[:at] + piece * rng.choice((10, 1000, 20_000)) + data[at:]
        elif choice < 0.94:
            depth = rng.choice((10, 1000, 20_000))
            data = data[:at] + b"[" * depth + b"]" * depth + data[at:]
        else:
            other = rng.choice(SEEDS)
            cut = rng.randint(0, len(other))
            data = data[:at] + other[cut:]
    return data


def check(path: Path, data: bytes) -> LoadResult:
    path.write_bytes(data)
    result = load_markdown(path, "project")
    assert isinstance(result, LoadResult)
    errors = [p for p in result.problems if p.severity == "error"]
    assert result.tools or errors, "a file must give a tool or an error"
    assert not (result.tools and errors), "a tool loads only without errors"
    for problem in result.problems:
        assert problem.path == path
        assert problem.message
    for tool in result.tools:
        assert tool.input_schema["type"] == "object"
        # Render with every parameter left out (defaults applied, as a call does).
        args = {
            name: prop["default"]
            for name, prop in tool.parameters.items()
            if isinstance(prop, dict) and "default" in prop
        }
        # A default holding a NUL byte is refused, which is the point.
        with contextlib.suppress(RenderError):
            assert isinstance(render(tool.payload, args, posix_quote), str)
    return result


def test_mutated_tool_files(tmp_path: Path) -> None:
    rng = random.Random(20260501)
    path = tmp_path / "fuzz.md"
    loaded = 0
    for seed in SEEDS:
        loaded += bool(check(path, seed).tools) or 0
    for _ in range(3000):
        loaded += bool(check(path, mutate(rng, rng.choice(SEEDS))).tools)
    # The mutants exercise both outcomes, not just the error path.
    assert loaded > 150


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=600))
def test_random_bytes(tmp_path: Path, data: bytes) -> None:
    check(tmp_path / "random.md", data)


FRONT = st.dictionaries(
    st.sampled_from(["name", "description", "parameters", "approval", "read_only", "timeout_ms",
                     "cwd", "env", "shell", "x"]),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    ),
)  # fmt: skip
BODY = st.lists(
    st.sampled_from(["echo ", "{{ x }}", "{{# x }}", "{{/ x }}", "{{^ y }}", "{{/ y }}", '"', "'",
                     "`", "$(", ")", "\n", "#", "<<E\n", "E\n", "\\", "$", " ", "a=", "(("]),
    max_size=30,
).map("".join)  # fmt: skip


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(front=FRONT, body=BODY)
def test_random_structured_files(tmp_path: Path, front: dict, body: str) -> None:
    text = "---\n" + json.dumps(front, allow_nan=True) + "\n---\n" + body
    check(tmp_path / "structured.md", text.encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("seed", range(len(SEEDS)))
def test_every_seed_loads_or_fails_cleanly(tmp_path: Path, seed: int) -> None:
    check(tmp_path / "seed.md", SEEDS[seed])
