"""The skills page's examples are real: its skill.yaml and agent file load as shown."""

from __future__ import annotations

import re
from pathlib import Path

from tooldrop import ToolHost

PAGE = Path(__file__).resolve().parents[2] / "docs" / "skills.md"


def _block(lang: str, starts: str) -> str:
    for body in re.findall(rf"^```{lang}\n(.*?)^```$", PAGE.read_text(), flags=re.S | re.M):
        if body.startswith(starts):
            return str(body)
    raise AssertionError(f"no {lang} block starting {starts!r}")


def test_the_pages_bundle_loads_as_described(tmp_path: Path) -> None:
    bundle = tmp_path / "P" / ".tooldrop" / "skills" / "k8s"
    (bundle / "agents").mkdir(parents=True)
    (bundle / "tools").mkdir()
    (bundle / "skill.yaml").write_text(_block("yaml", "name: k8s"))
    (bundle / "agents" / "k8s-agent.md").write_text(_block("md", "---\nname: k8s-agent"))
    (bundle / "tools" / "pods.md").write_text(
        "---\nname: k8s_pods\ndescription: Pods.\napproval: never\n---\nkubectl get pods\n"
    )
    host = ToolHost(tmp_path / "P", user_dir=tmp_path / "C", cache=False)
    assert host.problems() == []
    skill = host.skill("k8s")
    assert skill is not None and skill.agent is not None
    assert (skill.version, skill.manifest.author, skill.manifest.tags) == (
        "0.1.0", "Ops team", ("k8s", "ops"),
    )  # fmt: skip
    assert skill.agent.tools == ("k8s_pods", "k8s_logs", "git_recent")
    assert skill.agent.prompt.startswith("You look after the cluster. Check pods")
    assert [s.name for s in host.tools(skill="k8s")] == ["k8s_pods"]
    assert host.tools() == []
