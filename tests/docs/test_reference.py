"""The API reference is complete: every public name and every hook is on a reference page and
has a docstring, and the diagrams the pages promise are there as Mermaid code."""

from __future__ import annotations

import inspect
import re

import pytest

import tooldrop
import tooldrop.yaml12
from tooldrop import hookspecs

from .conftest import DOCS

API_PAGE = DOCS / "reference" / "api.md"
HOOKS_PAGE = DOCS / "reference" / "hookspecs.md"

# Names that are values, not objects with a docstring of their own: documented by a `#:`
# comment beside their definition (which mkdocstrings renders) or in prose on the page.
_VALUES = {"converter"}


def _documented_names() -> set[str]:
    text = API_PAGE.read_text(encoding="utf-8")
    directives = set(re.findall(r"^::: tooldrop\.(\w+)\s*$", text, flags=re.MULTILINE))
    anchors = set(re.findall(r"\{ #tooldrop\.(\w+) \}", text))
    return directives | anchors


def test_every_public_name_is_in_the_reference():
    missing = sorted(set(tooldrop.__all__) - _documented_names())
    assert not missing, f"add `::: tooldrop.NAME` to docs/reference/api.md for: {missing}"


def test_the_reference_names_only_public_names():
    extra = sorted(_documented_names() - set(tooldrop.__all__))
    assert not extra, f"not in tooldrop.__all__: {extra}"


@pytest.mark.parametrize("name", sorted(set(tooldrop.__all__) - _VALUES))
def test_every_public_name_has_a_docstring(name):
    obj = getattr(tooldrop, name)
    if not (inspect.isclass(obj) or inspect.isroutine(obj)):
        # A constant or a type alias: its docstring is the `#:` comment where it is defined.
        sources = [inspect.getsource(m) for m in _core_modules()]
        assert any(re.search(rf"^#:.*\n{name}\b", s, flags=re.MULTILINE) for s in sources), (
            f"{name}: document it with a `#:` comment on the line above its definition"
        )
        return
    doc = inspect.getdoc(obj)
    assert doc, f"tooldrop.{name} has no docstring"
    assert len(doc.split()) >= 4, f"tooldrop.{name}: a docstring of a few words says too little"


def _core_modules() -> list:
    import importlib
    import pkgutil

    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(tooldrop.__path__, prefix="tooldrop.")
        if info.name != "tooldrop.__main__"
    ]


def _hook_names() -> list[str]:
    return sorted(name for name in dir(hookspecs) if name.startswith("tooldrop_"))


def test_the_hook_page_renders_the_hookspecs_module():
    assert re.search(r"^::: tooldrop\.hookspecs\s*$", HOOKS_PAGE.read_text(), flags=re.MULTILINE)


@pytest.mark.parametrize("hook", _hook_names())
def test_every_hook_has_a_docstring_with_its_parameters(hook):
    fn = getattr(hookspecs, hook)
    doc = inspect.getdoc(fn) or ""
    assert doc, hook
    for param in inspect.signature(fn).parameters:
        assert f":param {param}:" in doc, f"{hook}: no `:param {param}:` line"


@pytest.mark.parametrize(
    ("page", "starts"),
    [
        ("index.md", 'flowchart TB\n    app["'),  # the architecture
        ("plugins.md", "flowchart TB\n    call("),  # the call pipeline
        ("plugins.md", 'flowchart TB\n    start(["host.tools()"])'),  # discovery
        ("approval.md", "flowchart TB\n    call("),  # the approval decision
    ],
)
def test_the_diagrams_are_mermaid_code_beside_their_text(page, starts):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert f"```mermaid\n{starts}" in text


def _attrs_classes() -> list[str]:
    import attrs

    return sorted(n for n in tooldrop.__all__ if attrs.has(getattr(tooldrop, n, None)))


@pytest.mark.parametrize("name", _attrs_classes())
def test_every_field_of_a_public_model_class_is_explained(name):
    """A loader author reads the fields on the reference page: each has a ``#:`` comment,
    which the docs' griffe extension (docs/_ext/sphinx_comments.py) turns into its docstring."""
    import attrs

    cls = getattr(tooldrop, name)
    lines = inspect.getsource(cls).splitlines()
    doc = inspect.getdoc(cls) or ""
    for f in attrs.fields(cls):
        if f.name.startswith("_") or re.search(rf":param (\S+ )?{f.name}:", doc):
            continue
        at = next(i for i, line in enumerate(lines) if re.match(rf"\s+{f.name}\s*:", line))
        assert lines[at - 1].lstrip().startswith("#:"), f"{name}.{f.name} has no `#:` comment"


@pytest.mark.parametrize("name", sorted(tooldrop.yaml12.__all__))
def test_the_yaml12_module_is_in_the_reference_with_docstrings(name):
    # A public submodule: each of its names has its own `::: tooldrop.yaml12.NAME`.
    assert re.search(rf"^::: tooldrop\.yaml12\.{name}\s*$", API_PAGE.read_text(), re.MULTILINE)
    obj = getattr(tooldrop.yaml12, name)
    if inspect.isclass(obj) or inspect.isroutine(obj):
        assert len((inspect.getdoc(obj) or "").split()) >= 4, name
    else:
        source = inspect.getsource(tooldrop.yaml12)
        assert re.search(rf"^#:.*\n{name}\b", source, flags=re.MULTILINE), name
