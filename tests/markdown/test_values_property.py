"""The property of issue 12: no body the loader accepts lets a value run.

Bodies come from :mod:`.shellgen` (a grammar of shell constructs, placeholders anywhere).
Those the markdown loader accepts (warnings about values given to ``eval``, ``sh -c``... set
aside: those run code by design and say so) are rendered with hostile values and run by the
real shells of their dialect: bash and dash when the file names no shell, bash for
``shell: bash``, dash and ``bash --posix`` (macOS's sh) for ``shell: sh``, in a scratch
directory. The marker file must never appear.

A few thousand runs by default, seeded and bounded in time; more on demand::

    TOOLDROP_FUZZ_CASES=200000 TOOLDROP_FUZZ_SECONDS=3600 TOOLDROP_FUZZ_SEED=7 \\
        uv run pytest tests/markdown/test_values_property.py

Runs are batched: one driver process per shell and batch runs each script with
``SHELL -c SCRIPT`` (at most 5 s of CPU each) and names those that left the marker.
"""

from __future__ import annotations

import os
import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import attrs

from tooldrop_markdown import load_markdown, posix_quote, render

from .conftest import frontmatter
from .shellgen import VALUES, BodyGenerator

CASES = int(os.environ.get("TOOLDROP_FUZZ_CASES", "2000"))
SECONDS = float(os.environ.get("TOOLDROP_FUZZ_SECONDS", "60"))
SEED = int(os.environ.get("TOOLDROP_FUZZ_SEED", "12"))
BATCH = 250

PARAMS = (
    "  x:\n    type: string\n  n:\n    type: integer\n  b:\n    type: boolean\n"
    "  xs:\n    type: array\n    items: {type: string}\n"
)
# The commands that run each dialect's scripts.
RUNNERS = {
    None: (("bash",), ("dash",)),
    "bash": (("bash",),),
    "sh": (("dash",), ("bash", "--posix")),
}
DRIVER = """
cd "$1" || exit 3
for f in ../scripts/*.sh; do
  S=$(cat "$f"; printf x); S=${S%x}
  ( ulimit -t 5; exec "${@:2}" -c "$S" ) </dev/null >/dev/null 2>&1
  if [ -e PWNED ]; then echo "$f"; fi
  # each script starts from an empty directory: a file one wrote (echo {{ x }} > lit holds
  # the value as data) must not become code for the next (source lit)
  rm -rf -- ./* ./.[!.]* 2>/dev/null
done
"""


@attrs.frozen
class Case:
    body: str
    shell: str | None
    args: dict[str, object]
    script: str


@attrs.define
class Outcome:
    generated: int = 0
    accepted: int = 0
    runs: int = 0
    hits: list[tuple[Case, tuple[str, ...]]] = attrs.Factory(list)


def accepted_cases(folder: Path, seed: int, outcome: Outcome) -> Iterator[Case]:
    """Loader-accepted bodies, each rendered with a few hostile values."""
    generator = BodyGenerator(seed)
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "t.md"
    while True:
        pick = rng.random()
        if pick < 0.6:
            body = generator.body()
        else:
            body = generator.commands() if pick < 0.85 else generator.declared()
        shell = rng.choice([None, "bash", "sh"])
        outcome.generated += 1
        extra = "" if shell is None else f"shell: {shell}\n"
        path.write_text(frontmatter(body, PARAMS, extra), encoding="utf-8")
        result = load_markdown(path, "project")
        if not result.tools or any("is given to" in p.message for p in result.problems):
            continue
        outcome.accepted += 1
        template = result.tools[0].payload
        for _ in range(3):
            args = {
                "x": rng.choice(VALUES),
                "xs": rng.sample(VALUES, 2),
                "n": rng.randrange(0, 4),
                "b": rng.random() < 0.5,
            }
            yield Case(body, shell, args, render(template, args, posix_quote))  # type: ignore[arg-type]


def run_batch(where: Path, cases: list[Case], outcome: Outcome) -> None:
    """Run each case under the shells of its dialect; record those that left the marker."""
    by_runner: dict[tuple[str, ...], list[Case]] = {}
    for case in cases:
        for runner in RUNNERS[case.shell]:
            by_runner.setdefault(runner, []).append(case)
    for runner, group in by_runner.items():
        scripts = where / "scripts"
        scratch = where / "scratch"
        for folder in (scripts, scratch):
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.iterdir():
                if old.is_file():
                    old.unlink()
        for index, case in enumerate(group):
            (scripts / f"{index:05d}.sh").write_text(case.script, encoding="utf-8")
        done = subprocess.run(
            ["bash", "-c", DRIVER, "driver", str(scratch), *runner],
            capture_output=True, text=True, timeout=600, check=False, cwd=where,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outcome.runs += len(group)
        for line in done.stdout.split():
            outcome.hits.append((group[int(Path(line).stem)], runner))


def explore(where: Path, seed: int, cases: int, seconds: float) -> Outcome:
    outcome = Outcome()
    deadline = time.monotonic() + seconds
    batch: list[Case] = []
    for total, case in enumerate(accepted_cases(where / "files", seed, outcome), 1):
        batch.append(case)
        if len(batch) >= BATCH or total >= cases:
            run_batch(where, batch, outcome)
            batch = []
            if total >= cases or time.monotonic() > deadline:
                break
    return outcome


def test_no_accepted_body_lets_a_value_run(tmp_path: Path) -> None:
    outcome = explore(tmp_path, SEED, CASES, SECONDS)
    shown = [
        f"{' '.join(runner)} (shell: {case.shell}): {case.body!r} with {case.args}"
        for case, runner in outcome.hits[:10]
    ]
    assert not outcome.hits, "\n".join(shown)
    # The generator must keep producing bodies that load, or the test proves nothing.
    assert outcome.accepted >= 50, outcome
    assert outcome.runs >= min(CASES, 500), outcome


def test_the_generator_reaches_the_constructs_of_the_issue() -> None:
    generator = BodyGenerator(SEED)
    text = "\n".join(generator.body() for _ in range(400))
    for construct in ("$'", "$$", "$((", "$[", "[[", ">&", "<<", "\\\n", "=(", "case ", "f() {"):
        assert construct in text, construct
