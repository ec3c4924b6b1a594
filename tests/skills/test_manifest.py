"""``skill.yaml`` checked field by field, with Nanocoder 1.30's exact messages (E4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldrop.skills._manifest import SKILL_NAME, read_manifest
from tooldrop.yaml12 import load, too_big

from .conftest import Tree, a, t

NAME = (
    'Invalid or missing "name" - must match /^[a-z][a-z0-9-]*$/ (kebab-case starting with a letter)'
)
HEAD = "name: x\ndescription: d\n"

# (skill.yaml text, exact message, field, line): every rejection of the reference's E4.
REJECTED = [
    ("name: MySkill\ndescription: d\n", NAME, "name", 1),
    ("name: my_skill\ndescription: d\n", NAME, "name", 1),
    ("description: d\n", NAME, "name", 1),
    ("name: 12\ndescription: d\n", NAME, "name", 1),
    ('name: x\ndescription: "   "\n', 'Missing or empty "description"', "description", 2),
    ("name: x\n", 'Missing or empty "description"', "description", 1),
    (HEAD + "version: 1.0\n", '"version" must be a string', "version", 3),
    (HEAD + "version: 1\n", '"version" must be a string', "version", 3),
    (HEAD + "author: 42\n", '"author" must be a string', "author", 3),
    (HEAD + "tags: git\n", '"tags" must be an array of strings', "tags", 3),
    (HEAD + "tags: [a, 1]\n", '"tags" must be an array of strings', "tags", 3),
    (
        HEAD + "tools_visibility: private\n",
        '"tools_visibility" must be one of: global, scoped (got "private")',
        "tools_visibility",
        3,
    ),
    (
        HEAD + "tools_visibility: {default: everyone}\n",
        '"tools_visibility.default" must be one of: global, scoped',
        "tools_visibility.default",
        3,
    ),
    (
        HEAD + "tools_visibility: [global]\n",
        '"tools_visibility" must be a mapping or one of: global, scoped',
        "tools_visibility",
        3,
    ),
    (HEAD + "include: [tools]\n", '"include" must be a mapping', "include", 3),
    (
        HEAD + "include: {tools: [1]}\n",
        '"include.tools" must be an array of glob strings',
        "include.tools",
        3,
    ),
    (
        HEAD + 'include:\n  tools: ["../shared/*.md"]\n',
        '"include.tools[0]" must not traverse upward with ".." (got "../shared/*.md")',
        "include.tools[0]",
        4,
    ),
    (
        HEAD + 'include:\n  agents:\n    - ok.md\n    - "/etc/*.md"\n',
        '"include.agents[1]" must be a relative path (got "/etc/*.md")',
        "include.agents[1]",
        6,
    ),
    (
        HEAD + "subscribe:\n  - kind: file.changed\n",
        "subscribe[0].target is required in skill.yaml - manifest subscriptions must name a "
        'member as "kind:name"',
        "subscribe[0]",
        4,
    ),
    (
        HEAD + "subscribe:\n  - kind: file.changed\n    target: Tool:x\n",
        'subscribe[0].target "Tool:x" must match /^(command|agent|tool):[a-z][a-z0-9_-]*$/ '
        '(e.g. "agent:foo", "command:bar", "tool:baz")',
        "subscribe[0].target",
        5,
    ),
    (
        HEAD + "subscribe:\n  - kind: git.push\n    target: tool:x\n",
        'subscribe[0].kind "git.push" is not a supported event kind '
        "(expected: file.changed, schedule.cron)",
        "subscribe[0].kind",
        4,
    ),
    (
        HEAD + "subscribe: {kind: file.changed}\n",
        '"subscribe" must be a list of subscription entries',
        "subscribe",
        3,
    ),
    (
        HEAD + "subscribe: [file.changed]\n",
        'subscribe[0] must be a mapping with at least a "kind" field',
        "subscribe[0]",
        3,
    ),
    (
        HEAD + "subscribe:\n  - kind: schedule.cron\n    target: tool:x\n",
        "subscribe[0].cron must be a non-empty cron expression",
        "subscribe[0]",
        4,
    ),
    (
        HEAD + "subscribe:\n  - {kind: file.changed, target: tool:x, confirm: yes}\n",
        "subscribe[0].confirm must be a boolean",
        "subscribe[0].confirm",
        4,
    ),
    (
        HEAD + "subscribe:\n  - {kind: file.changed, target: tool:x, eventKinds: [delete]}\n",
        'subscribe[0].eventKinds must be an array of "add" | "change" | "unlink"',
        "subscribe[0].eventKinds",
        4,
    ),
    (
        HEAD + "subscribe:\n  - {kind: file.changed, target: tool:x, paths: src}\n",
        "subscribe[0].paths must be an array of glob strings",
        "subscribe[0].paths",
        4,
    ),
    ("- just\n- a list\n", "skill.yaml is not a valid YAML mapping", "", 1),
    ("plain words\n", "skill.yaml is not a valid YAML mapping", "", 1),
]


@pytest.mark.parametrize(("text", "message", "field", "line"), REJECTED)
def test_each_rejection_drops_the_bundle_with_nanocoders_message_field_and_line(
    tree: Tree, text: str, message: str, field: str, line: int
) -> None:
    tree.bundle("b", text, tools={"x.md": t("b_tool")}, agents={"a.md": "---\nname: n\n---\n"})
    host = tree.host()
    assert host.skills() == []
    assert host.all_tools() == []  # the bundle's members never load
    manifest = tree.project_skills / "b" / "skill.yaml"
    found = [p for p in host.problems() if p.path == manifest]
    assert [(p.message, p.field, p.line, p.severity) for p in found] == [
        (message, field, line, "error")
    ]


def test_empty_manifest_is_a_name_error_and_broken_yaml_is_not_a_mapping(tree: Tree) -> None:
    tree.bundle("empty", "")
    tree.bundle("broken", "description: d\nname: [unclosed\n\n")
    problems = {p.path.parent.name: p for p in tree.host().problems() if p.path}
    assert problems["empty"].message == NAME
    assert problems["broken"].message == (
        "skill.yaml is not a valid YAML mapping: a [ list opens here (column 7) and is never closed"
    )
    assert problems["broken"].line == 2  # where the list opens, not the end of the file


def test_accepted_variants_load_as_the_reference_says(tree: Tree) -> None:
    tree.bundle("padded", 'name: padded\ndescription: "  padded  "\nversion: "1.0"\nextra: 1\n')
    tree.bundle(
        "nulls",
        "name: nulls\ndescription: d\nversion:\ntags: ~\ninclude: null\nsubscribe:\n"
        "include2: {other: [1]}\n",
    )
    tree.bundle(
        "vis",
        "name: vis\ndescription: d\ntools_visibility: {default: global, extra: 1}\n"
        "include: {other: 5, tools: [extra/*.md]}\n",
    )
    tree.bundle("yes", "name: 'yes'\ndescription: yes\nauthor: no\n")  # YAML 1.2: strings
    skills = {s.name: s for s in tree.host().skills()}
    assert sorted(skills) == ["nulls", "padded", "vis", "yes"]
    assert skills["padded"].description == "padded"
    assert skills["padded"].version == "1.0"
    assert skills["nulls"].version is None
    assert skills["vis"].visibility == "global"
    assert skills["vis"].manifest.include == {"tools": ("extra/*.md",)}
    assert skills["yes"].manifest.author == "no"
    assert skills["padded"].visibility == "scoped"  # the default


def test_manifest_subscriptions_are_kept(tree: Tree) -> None:
    tree.bundle(
        "w",
        """
        name: w
        description: d
        subscribe:
          - {kind: file.changed, target: tool:w_scan, paths: [src/**], eventKinds: [add]}
          - {kind: schedule.cron, target: agent:w-agent, cron: "0 * * * *", confirm: true}
        """,
        tools={"scan.md": t("w_scan")},
        agents={"a.md": "---\nname: w-agent\ndescription: d\n---\nbody\n"},
    )
    host = tree.host()
    (skill,) = host.skills()
    kept = [
        (s.kind, s.target, s.paths, s.event_kinds, s.cron, s.confirm) for s in skill.subscriptions
    ]
    assert kept == [
        ("file.changed", "tool:w_scan", ("src/**",), ("add",), None, False),
        ("schedule.cron", "agent:w-agent", (), (), "0 * * * *", True),
    ]
    assert host.problems() == []


@given(st.text(alphabet="abcxyzAZ019-_ .é:", max_size=12))
def test_a_name_is_accepted_exactly_when_it_is_kebab_case(tmp_path_factory, name: str) -> None:  # type: ignore[no-untyped-def]
    import json

    folder = tmp_path_factory.mktemp("m")
    path = folder / "skill.yaml"
    path.write_text(f"name: {json.dumps(name)}\ndescription: d\n")
    manifest, problem = read_manifest(path)
    expected = bool(SKILL_NAME.fullmatch(name)) and name.isascii()
    assert (manifest is not None) == expected, (name, problem)
    if not expected:
        assert problem is not None
        assert problem.message == NAME


_SEGMENT = st.sampled_from(["a", "..", ".", "b*", "..x", "x..", ""])


@given(st.lists(_SEGMENT, min_size=1, max_size=5), st.sampled_from(["/", "\\"]))
def test_include_paths_refuse_exactly_absolute_paths_and_parent_segments(  # type: ignore[no-untyped-def]
    tmp_path_factory, parts: list[str], sep: str
) -> None:
    import json

    value = sep.join(parts)
    path = tmp_path_factory.mktemp("m") / "skill.yaml"
    path.write_text(f"name: x\ndescription: d\ninclude:\n  tools: [{json.dumps(value)}]\n")
    manifest, problem = read_manifest(path)
    absolute = value.startswith(("/", "\\"))
    upward = ".." in value.replace("\\", "/").split("/")
    assert (manifest is None) == (absolute or upward), value
    if absolute:
        assert problem is not None
        assert "must be a relative path" in problem.message
    elif upward:
        assert problem is not None
        assert 'must not traverse upward with ".."' in problem.message


# A few lines that expand to about 12,000 values through aliases: over the skill files'
# bound, under the tool files' (tooldrop.yaml12.MAX_VALUES).
BOMB = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}' if i else 'x'] * 10)}]\n" for i in range(4))


def test_skill_files_read_yaml_as_tool_files_do(tree: Tree) -> None:
    # One reader (tooldrop.yaml12) for tool frontmatter, skill.yaml and agent files: a
    # redefined anchor is accepted and a duplicate key names its first line, in both.
    tree.bundle(
        "anchors",
        "name: anchors\ndescription: &d first\nversion: *d\nauthor: &d second\ntags: [*d]\n",
        tools={"x.md": t("anchors_tool", extra="category: &d one\nnote: &d two\nseen: *d\n")},
    )
    tree.bundle("twice", "name: twice\ndescription: d\nname: again\n")
    tree.bundle("agent", "name: agent\ndescription: d\n", agents={"a.md": a("n", "n: 1\nn: 2\n")})
    host = tree.host()
    [skill] = [s for s in host.skills() if s.name == "anchors"]
    assert skill.manifest.version == "first"
    assert skill.manifest.tags == ("second",)
    assert "anchors_tool" in {spec.name for spec in host.all_tools()}
    problems = {p.path.parent.name: p for p in host.problems() if p.path}
    assert problems["twice"].message == (
        'skill.yaml is not a valid YAML mapping: duplicate key "name" (first on line 1); '
        "each key may appear only once"
    )
    assert problems["twice"].line == 3
    assert problems["agents"].message.startswith('Frontmatter is not valid YAML: duplicate key "n"')
    assert problems["agents"].line == 5


def test_an_alias_bomb_in_a_skill_file_is_refused_at_ten_thousand_values(tree: Tree) -> None:
    tree.bundle("bomb", BOMB + "name: bomb\ndescription: d\n")
    tree.bundle("agentbomb", "name: agentbomb\ndescription: d\n", agents={"a.md": a("n", BOMB)})
    host = tree.host()
    assert [s.name for s in host.skills()] == ["agentbomb"]
    problems = {p.path.parent.name: p for p in host.problems() if p.path}
    expected = "it expands to more than 10000 values through aliases"
    assert problems["bomb"].message == f"skill.yaml is not a valid YAML mapping: {expected}"
    assert problems["agents"].message == f"Frontmatter is not valid YAML: {expected}"
    assert too_big(load(BOMB)) is None  # a tool file may hold it
