"""One configuration path: a ``ToolHost`` an app embeds reads the same config files as the CLI.

The personal ``config.yaml`` and the project's ``.tooldrop/config.yaml`` (``alwaysAllow``,
``disabledTools``, ``sandbox``...), with the rule that a project's ``alwaysAllow`` counts
only while the project is trusted applied by the host itself, so an embedding app cannot
forget it. ``settings=`` replaces the files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tooldrop import Decision, Settings, ToolCall, load_settings

from .conftest import write_tool


def asked_for(host, name: str) -> bool:
    """Whether calling ``name`` asks the person (the ask callback answers no)."""
    asked: list[ToolCall] = []

    def ask(call: ToolCall) -> Decision:
        asked.append(call)
        return Decision.deny("no")

    host.call(name, {}, ask=ask)
    return bool(asked)


@pytest.fixture
def guarded(user_dir: Path) -> str:
    """A personal tool that asks in normal mode: personal tools need no trust."""
    write_tool(user_dir / "tools", "guarded.json", name="guarded", approval="always")
    return "guarded"


def project_config(project: Path, text: str) -> None:
    (project / ".tooldrop" / "config.yaml").write_text(text)


def test_an_embedded_host_honours_the_projects_disabled_tools(make_host, project):
    write_tool(project / ".tooldrop" / "tools", "a.json", name="kept")
    write_tool(project / ".tooldrop" / "tools", "b.json", name="dropped")
    project_config(project, "disabledTools: [dropped]\n")
    host = make_host()
    assert [spec.name for spec in host.all_tools()] == ["kept"]
    assert host.disabled_tools == {"dropped"}


def test_an_embedded_host_honours_the_personal_config(make_host, user_dir, guarded):
    (user_dir / "config.yaml").write_text(
        "alwaysAllow: [guarded]\ndisabledTools: [other]\nsandbox: auto\n"
        "sandboxUntrustedReadOnly: true\n"
    )
    host = make_host()
    assert not asked_for(host, guarded)
    assert host.disabled_tools == {"other"}
    assert (host.sandbox, host.sandbox_untrusted_read_only) == ("auto", True)


def test_an_untrusted_projects_always_allow_does_not_count(make_host, project, guarded):
    project_config(project, "alwaysAllow: [guarded]\n")
    host = make_host()
    assert guarded not in host.always_allow
    assert asked_for(host, guarded)


def test_a_trusted_projects_always_allow_counts_until_trust_is_revoked(make_host, project, guarded):
    project_config(project, "alwaysAllow: [guarded]\n")
    host = make_host()
    host.trust()
    assert guarded in host.always_allow
    assert not asked_for(host, guarded)
    host.revoke_trust()
    assert asked_for(host, guarded)


def test_a_project_changed_after_trust_loses_its_always_allow(make_host, project, guarded):
    project_config(project, "alwaysAllow: [guarded]\n")
    make_host().trust()
    # The config file is part of what was trusted: a new line in it is not trusted yet.
    project_config(project, "alwaysAllow: [guarded, another]\n")
    host = make_host()
    assert not host.is_trusted()
    assert asked_for(host, guarded)


def test_the_always_allow_argument_adds_to_the_settings(make_host, user_dir, guarded):
    (user_dir / "config.yaml").write_text("alwaysAllow: [from-file]\n")
    host = make_host(always_allow=[guarded])
    assert host.always_allow == {"from-file", guarded}
    assert not asked_for(host, guarded)


def test_a_project_cannot_set_the_sandbox(make_host, project):
    project_config(project, "sandbox: off\nsandboxUntrustedReadOnly: true\n")
    host = make_host()
    assert (host.sandbox, host.sandbox_untrusted_read_only) == ("off", False)
    fields = {p.field for p in host.settings.problems if p.severity == "warning"}
    assert fields == {"sandbox", "sandboxUntrustedReadOnly"}


def test_explicit_settings_replace_the_files(make_host, project, user_dir, guarded):
    (user_dir / "config.yaml").write_text("alwaysAllow: [guarded]\nsandbox: required\n")
    project_config(project, "disabledTools: [guarded]\n")
    host = make_host(settings=Settings())
    assert [spec.name for spec in host.all_tools()] == [guarded]
    assert host.sandbox == "off"
    assert asked_for(host, guarded)


def test_explicit_settings_keep_the_trust_rule(make_host, project, guarded):
    settings = Settings(project_always_allow={guarded})
    host = make_host(settings=settings)
    assert asked_for(host, guarded)
    host.trust()
    assert not asked_for(host, guarded)


def test_explicit_arguments_win_over_the_personal_sandbox(make_host, user_dir):
    (user_dir / "config.yaml").write_text("sandbox: required\nsandboxUntrustedReadOnly: true\n")
    host = make_host(sandbox="off", sandbox_untrusted_read_only=False)
    assert (host.sandbox, host.sandbox_untrusted_read_only) == ("off", False)


def test_a_broken_config_file_is_a_problem_of_the_host_not_a_crash(make_host, project):
    project_config(project, "alwaysAllow: nope\n")
    host = make_host()
    assert [(p.field, p.message) for p in host.settings.problems] == [
        ("alwaysAllow", "must be a list of tool names")
    ]


def test_load_settings_is_what_the_host_reads(project, user_dir):
    (user_dir / "config.yaml").write_text("alwaysAllow: [a]\n")
    project_config(project, "alwaysAllow: [b]\ndisabledTools: [c]\n")
    settings = load_settings(project, user_dir, "tooldrop")
    assert (settings.always_allow, settings.project_always_allow) == ({"a"}, {"b"})
    assert settings.disabled_tools == {"c"}


def test_the_cli_and_an_embedded_host_offer_the_same_tools(tmp_path):
    """The public path in a fresh process: entry-point plugins, the config files, both ways."""
    project = tmp_path / "project"
    tools = project / ".tooldrop" / "tools"
    tools.mkdir(parents=True)
    for name in ("kept", "dropped"):
        (tools / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: The {name} tool.\n---\necho {name}\n"
        )
    (project / ".tooldrop" / "config.yaml").write_text("disabledTools: [dropped]\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TOOLDROP_CONFIG_DIR": str(tmp_path)}
    code = (
        "import sys, tooldrop; "
        "print(' '.join(s.name for s in tooldrop.ToolHost(project_dir=sys.argv[1]).all_tools()))"
    )
    embedded = subprocess.run(
        [sys.executable, "-c", code, str(project)],
        capture_output=True, text=True, env=env, timeout=60, check=True,
    )  # fmt: skip
    listed = subprocess.run(
        [sys.executable, "-m", "tooldrop", "--project", str(project), "list"],
        capture_output=True, text=True, env=env, timeout=60, check=True,
    )  # fmt: skip
    assert embedded.stdout.split() == ["kept"]
    assert listed.stdout.startswith("Tools (1)")
    assert "Disabled by disabledTools in config.yaml (1): dropped" in listed.stdout


def test_a_config_yaml_is_read_up_to_one_mebibyte_and_refused_a_byte_over(project, user_dir):
    config = project / ".tooldrop" / "config.yaml"
    head = "disabledTools: [gone]\n"
    config.write_text(head + "#" * (1024 * 1024 - len(head) - 1) + "\n")
    assert config.stat().st_size == 1024 * 1024
    settings = load_settings(project, user_dir, "tooldrop")
    assert (settings.disabled_tools, settings.problems) == ({"gone"}, [])
    config.write_text(config.read_text() + "\n")
    settings = load_settings(project, user_dir, "tooldrop")
    assert settings.disabled_tools == set()
    assert [(p.path, p.message) for p in settings.problems] == [
        (config, "cannot read: larger than 1 MiB")
    ]


def test_a_config_yaml_that_is_a_fifo_is_named_and_skipped_at_once(project, user_dir):
    config = project / ".tooldrop" / "config.yaml"
    os.mkfifo(config)
    settings = load_settings(project, user_dir, "tooldrop")
    assert [(p.path, p.message) for p in settings.problems] == [
        (config, "cannot read: not a regular file")
    ]
