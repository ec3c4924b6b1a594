"""The sandbox's rules without running it: the command line, the policy, the explanations,
the tool-file fields, and the plugin's public names."""

from __future__ import annotations

import importlib.metadata
import itertools
import os
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooldrop_sandbox
import tooldrop_sandbox.plugin
from tooldrop import Origin, SandboxError, ToolHost, ToolSpec
from tooldrop_markdown import load_markdown
from tooldrop_sandbox import Policy, bwrap_argv, explainer, policy_for
from tooldrop_sandbox._seccomp import unix_socket_filter

# A small tree of absolute paths: writable and protected ones nest in every way.
PATHS = ["/w", "/w/a", "/w/a/b", "/w/c", "/tmp/p", "/tmp/p/q", "/home/u", "/home/u/.config/x"]


@given(
    writable=st.lists(st.sampled_from(PATHS), unique=True, max_size=4),
    protected=st.lists(st.sampled_from(PATHS), unique=True, max_size=4),
    network=st.booleans(),
    seccomp=st.sampled_from([None, 7]),
)
def test_the_command_line_applies_every_rule_in_order(writable, protected, network, seccomp):
    policy = Policy(
        writable=tuple(writable),
        protected=tuple(protected),
        visible=("/tmp/p",),
        network=network,
        cwd="/w",
    )
    argv = bwrap_argv("/usr/bin/bwrap", policy, ["/bin/bash", "-c", "echo hi"], seccomp_fd=seccomp)
    assert argv[:4] == ["/usr/bin/bwrap", "--unshare-user", "--cap-drop", "ALL"]
    assert argv[-4:] == ["--", "/bin/bash", "-c", "echo hi"]
    options = argv[:-4]
    pairs = list(itertools.pairwise(options))
    binds = [i for i, (flag, _) in enumerate(pairs) if flag == "--bind-try"]
    # Every writable path is bound, after the root and the private /tmp.
    assert sorted(options[i + 1] for i in binds) == sorted(writable)
    assert all(i > options.index("--tmpfs") for i in binds)
    assert options.index("--ro-bind") < options.index("--tmpfs")
    # Every protected path inside a writable one is made read-only after all the binds.
    for path in protected:
        covered = any(path == w or path.startswith(w + "/") for w in writable)
        shielded = [
            i for i, (flag, value) in enumerate(pairs)
            if flag in ("--ro-bind", "--tmpfs") and value == path and i > max(binds, default=-1)
        ]  # fmt: skip
        assert shielded or not covered, (path, argv)
        if not covered:
            continue
        # ... and every directory between it and its writable root is a mount point (bound
        # onto itself before it), so it cannot be renamed away with the mount inside.
        root = min((w for w in writable if path.startswith(w + "/")), key=len, default=path)
        above = os.path.dirname(path)
        while above != root and above.startswith(root + "/"):
            bound = [i for i, pair in enumerate(pairs) if pair == ("--bind", above)]
            assert bound and bound[0] < shielded[0], (above, argv)
            above = os.path.dirname(above)
    assert ("--unshare-net" in options) is not network
    assert ("--seccomp" in options) is (seccomp is not None)
    for flag in ("--unshare-pid", "--die-with-parent", "--unshare-ipc", "--disable-userns"):
        assert flag in options


def _spec(**fields):
    fields.setdefault("read_only", True)
    return ToolSpec(
        name="t",
        description="d",
        input_schema={"type": "object"},
        origin=Origin(source="test", scope="project"),
        runner="shell",
        **fields,
    )


def test_the_policy_of_read_only_and_writing_tools(tmp_path):
    (tmp_path / "sub").mkdir()
    host = ToolHost(tmp_path, plugins=[])
    project = str(host.project_dir)
    assert policy_for(_spec(), host).writable == ()
    assert policy_for(_spec(read_only=False), host).writable == (project,)
    # A cwd inside is covered by the project; one outside is never made writable.
    assert policy_for(_spec(read_only=False), host, str(tmp_path / "sub")).writable == (project,)
    assert policy_for(_spec(read_only=False), host, "/usr").writable == (project,)
    extra = policy_for(_spec(writable=("sub", "later")), host).writable
    assert extra == (os.path.join(project, "sub"), os.path.join(project, "later"))
    protected = policy_for(_spec(), host).protected
    assert str(host.config_dir) in protected and str(host.cache_dir) in protected


@pytest.mark.parametrize("path", ["../outside", "/etc", "sub/../../x"])
def test_a_writable_path_outside_the_project_refuses_the_call(tmp_path, path):
    host = ToolHost(tmp_path, plugins=[])
    with pytest.raises(SandboxError, match="resolves outside the project"):
        policy_for(_spec(writable=(path,)), host)


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        ("touch: cannot touch 'x': Read-only file system", "a write"),
        ("OSError: [Errno 30] Read-only file system: 'x'", "a write"),
        ("bash: connect: Network is unreachable", "no network"),
        ("curl: (6) Could not resolve host: example.com", "no network"),
        ("bash: /dev/tcp/127.0.0.1/80: Connection refused", "no network"),
        ("OSError: [Errno 97] Address family not supported by protocol", "no network"),
        ("everything went fine", None),
    ],
)
def test_the_explanation_names_what_was_blocked_and_the_fix(tmp_path, text, blocked):
    spec = _spec()
    line = explainer(spec, tmp_path)(text)
    if blocked is None:
        assert line is None
        return
    assert line is not None and line.startswith("⚒ The sandbox blocked this tool: ")
    assert blocked in line
    assert ("network: true" in line) is (blocked == "no network")


def test_a_tool_with_network_is_never_told_it_was_blocked_from_it(tmp_path):
    assert explainer(_spec(network=True), tmp_path)("Connection refused") is None


def test_the_seccomp_filter_is_written_for_known_machines_only():
    assert len(unix_socket_filter("x86_64")) == 11 * 8
    assert unix_socket_filter("aarch64") != unix_socket_filter("x86_64")
    assert unix_socket_filter("riscv64") is None


def _load(tmp_path, front: str):
    path = tmp_path / "t.md"
    path.write_text(f"---\nname: t\ndescription: d\n{front}---\necho hi\n")
    return load_markdown(path, "project")


def test_the_markdown_fields(tmp_path):
    (spec,) = _load(tmp_path, "network: true\nwritable:\n  - build/\n  - .cache\n").tools
    assert spec.network is True
    assert spec.writable == ("build", ".cache")
    (spec,) = _load(tmp_path, "writable: build\n").tools
    assert spec.writable == ("build",)
    (spec,) = _load(tmp_path, "").tools
    assert (spec.network, spec.writable) == (False, ())


@pytest.mark.parametrize(
    ("front", "line", "field", "message"),
    [
        ("network: yes\n", 4, "network", "YAML 1.2 reads yes as text"),
        ("writable:\n  - /etc\n", 4, "writable", "entry 1 must be relative to the project"),
        ("writable: [ok, ../up]\n", 4, "writable", "entry 2 must stay inside the project"),
        ("writable: [~/x]\n", 4, "writable", "must be relative to the project root"),
        ("writable: [.]\n", 4, "writable", "names the whole project"),
        ("writable: {a: 1}\n", 4, "writable", "must be a list of paths"),
        ("writable: [3]\n", 4, "writable", "entry 1 must be a path inside the project"),
    ],
)
def test_a_bad_field_names_file_line_and_field(tmp_path, front, line, field, message):
    result = _load(tmp_path, front)
    assert result.tools == ()
    (problem,) = [p for p in result.problems if p.severity == "error"]
    assert (problem.path, problem.line, problem.field) == (tmp_path / "t.md", line, field)
    assert message in problem.message


def test_all_is_sorted_and_complete():
    names = list(tooldrop_sandbox.__all__)
    assert names == sorted(names)
    for name in names:  # the machinery's names are imported on first use
        assert getattr(tooldrop_sandbox, name) is not None
    public = {
        name
        for name, value in vars(tooldrop_sandbox).items()
        if not name.startswith("_")
        and (not isinstance(value, types.ModuleType) or name == "plugin")
        and name != "annotations"
    }
    assert public == set(names)


def test_entry_point_loads_the_plugin_module():
    (entry,) = [
        ep for ep in importlib.metadata.entry_points(group="tooldrop") if ep.name == "sandbox"
    ]
    assert entry.load() is tooldrop_sandbox.plugin


@pytest.mark.parametrize("variable", ["XDG_CACHE_HOME", "HOME"])
def test_the_protected_cache_dir_follows_its_environment(tmp_path, monkeypatch, variable):
    """The parse cache a tool must never write moves with XDG_CACHE_HOME (or HOME): the
    protected paths, remembered per host, are worked out again when either changes."""
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    host = ToolHost(tmp_path, plugins=[])
    monkeypatch.setenv(variable, str(tmp_path / "one"))
    first = policy_for(_spec(), host).protected
    monkeypatch.setenv(variable, str(tmp_path / "two"))
    second = policy_for(_spec(), host).protected
    assert os.path.realpath(host.cache_dir) in second
    assert str(tmp_path / "two") in os.path.realpath(host.cache_dir)
    assert first != second
    assert policy_for(_spec(), host).protected == second  # and remembered again


def test_inside_is_by_whole_path_components_and_never_true_for_a_relative_path():
    from tooldrop_sandbox._policy import inside

    assert inside("/ws", "/ws") and inside("/ws/a/b", "/ws")
    assert not inside("/ws-evil", "/ws")
    assert inside("ws/a", "/ws") is False  # relative: commonpath refuses to compare
