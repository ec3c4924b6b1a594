"""A config.yaml a byte over one mebibyte is refused unread, saying the limit (fast: the
test beside it in test_host_settings.py also parses a whole mebibyte of YAML)."""

from __future__ import annotations

from tooldrop import load_settings


def test_a_config_yaml_a_byte_over_one_mebibyte_is_refused(project, user_dir):
    config = project / ".tooldrop" / "config.yaml"
    config.write_bytes(b"disabledTools: [gone]\n" + b"#" * (1024 * 1024 - 22) + b"\n")
    assert config.stat().st_size == 1024 * 1024 + 1
    settings = load_settings(project, user_dir, "tooldrop")
    assert settings.disabled_tools == set()
    assert [(p.path, p.message) for p in settings.problems] == [
        (config, "cannot read: larger than 1 MiB")
    ]
