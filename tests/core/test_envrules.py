"""The environment variables a tool may not set, written out here by hand (not derived from
``FORBIDDEN_ENV``), so that a pattern dropped or mistyped in ``_envrules`` fails a test."""

from __future__ import annotations

import pytest

from tooldrop.policy._envrules import FORBIDDEN_ENV, forbidden_env_pattern, is_forbidden_env

REFUSED = {
    "LD_PRELOAD": "LD_*",
    "LD_LIBRARY_PATH": "LD_*",
    "DYLD_INSERT_LIBRARIES": "DYLD_*",
    "BASH_ENV": "BASH_ENV",
    "ENV": "ENV",
    "BASH_FUNC_ls%%": "BASH_FUNC_*",
    "IFS": "IFS",
    "PS4": "PS4",
    "SHELLOPTS": "SHELLOPTS",
    "BASHOPTS": "BASHOPTS",
    "PROMPT_COMMAND": "PROMPT_COMMAND",
    "BASH_LOADABLES_PATH": "BASH_LOADABLES_PATH",
    "ZDOTDIR": "ZDOTDIR",
    "GCONV_PATH": "GCONV_PATH",
    "GLIBC_TUNABLES": "GLIBC_TUNABLES",
    "LESSOPEN": "LESSOPEN",
    "LESSCLOSE": "LESSCLOSE",
    "GIT_CONFIG_KEY_0": "GIT_CONFIG*",
    "GIT_CONFIG_PARAMETERS": "GIT_CONFIG*",
    "GIT_CONFIG": "GIT_CONFIG*",
    "GIT_SSH_COMMAND": "GIT_*_COMMAND",
    "GIT_PAGER_COMMAND": "GIT_*_COMMAND",
    "GIT_SSH": "GIT_SSH",
    "GIT_EXEC_PATH": "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR": "GIT_TEMPLATE_DIR",
    "GIT_EXTERNAL_DIFF": "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS": "GIT_ASKPASS",
    "SSH_ASKPASS": "SSH_ASKPASS",
    "SUDO_ASKPASS": "SUDO_ASKPASS",
    "NODE_OPTIONS": "NODE_OPTIONS",
    "NODE_PATH": "NODE_PATH",
    "PYTHONPATH": "PYTHONPATH",
    "PYTHONHOME": "PYTHONHOME",
    "PYTHONSTARTUP": "PYTHONSTARTUP",
    "PYTHONUSERBASE": "PYTHONUSERBASE",
    "PYTHONBREAKPOINT": "PYTHONBREAKPOINT",
    "PYTHONWARNINGS": "PYTHONWARNINGS",
    "PYTHONINSPECT": "PYTHONINSPECT",
    "PYTHONPLATLIBDIR": "PYTHONPLATLIBDIR",
    "PYTHONPYCACHEPREFIX": "PYTHONPYCACHEPREFIX",
    "PERL5OPT": "PERL5*",
    "PERL5LIB": "PERL5*",
    "PERLLIB": "PERLLIB",
    "PERLDB_OPTS": "PERLDB_OPTS",
    "RUBYOPT": "RUBYOPT",
    "RUBYLIB": "RUBYLIB",
    "JAVA_TOOL_OPTIONS": "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS": "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS": "JDK_JAVA_OPTIONS",
}

ALLOWED = [
    "PATH", "HOME", "LANG", "TERM", "GIT_AUTHOR_NAME", "GITHUB_TOKEN", "PYTHONUNBUFFERED",
    "NODE_ENV", "ENVIRONMENT", "LD", "MY_LD_PRELOAD", "XLD_PRELOAD", "IFS2", "PS1", "GIT_DIR",
    "GIT_SSH_COMMANDS", "PERL", "RUBY_VERSION", "JAVA_HOME", "",
]  # fmt: skip


@pytest.mark.parametrize(("name", "pattern"), sorted(REFUSED.items()))
def test_each_dangerous_name_is_refused_in_any_case_and_names_its_rule(name, pattern):
    for spelled in (name, name.lower(), name.title()):
        assert is_forbidden_env(spelled) is True, spelled
        assert forbidden_env_pattern(spelled) == pattern, spelled


@pytest.mark.parametrize("name", ALLOWED)
def test_ordinary_names_are_allowed(name):
    assert is_forbidden_env(name) is False
    assert forbidden_env_pattern(name) is None


def test_every_rule_is_exercised_here():
    assert set(REFUSED.values()) == set(FORBIDDEN_ENV)
