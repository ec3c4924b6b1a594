"""Where the mutation runner finds things, and the copies of the repository it works in."""

from __future__ import annotations

import compileall
import os
import py_compile
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EQUIVALENTS = HERE / "equivalents.txt"
CACHE = ROOT / ".mutation-cache"

#: The safety modules, each with the tests that exercise it: the coverage step runs these,
#: and a survivor runs them all once more before it counts.
_CORE = "core/src/tooldrop"
_MARKDOWN = "plugins/markdown/src/tooldrop_markdown"
_SHELL = "plugins/shell/src/tooldrop_shell"
_SANDBOX = "plugins/sandbox/src/tooldrop_sandbox"
TARGETS: dict[str, tuple[str, ...]] = {
    # who may run what: the approval decision, its invariants, trust, grants
    f"{_CORE}/approval.py": ("tests/core", "tests/integration", "tests/python", "tests/sandbox"),
    f"{_CORE}/policy/_invariants.py": ("tests/core", "tests/integration", "tests/sandbox"),
    f"{_CORE}/policy/_trust.py": ("tests/core", "tests/integration"),
    f"{_CORE}/policy/_grants.py": ("tests/core", "tests/integration"),
    f"{_CORE}/_files.py": ("tests/core", "tests/integration"),
    f"{_CORE}/_registry.py": ("tests/core",),
    f"{_CORE}/host/_speccheck.py": ("tests/core",),
    # what a tool's process gets: its environment, its directory, its sandbox
    f"{_CORE}/policy/_envrules.py": ("tests/core", "tests/shell", "tests/markdown"),
    f"{_SHELL}/_env.py": ("tests/shell",),
    f"{_SHELL}/_cwd.py": ("tests/shell",),
    f"{_CORE}/calls/_sandbox.py": ("tests/core", "tests/sandbox", "tests/shell"),
    f"{_SANDBOX}/_bwrap.py": ("tests/sandbox",),
    f"{_SANDBOX}/_policy.py": ("tests/sandbox",),
    # what the model sees of its output
    f"{_CORE}/calls/_output.py": ("tests/core", "tests/shell"),
    f"{_SHELL}/_capture.py": ("tests/shell",),
    # arguments: patterns run on RE2 as ECMA-262 means them
    f"{_CORE}/schemas/_pattern.py": ("tests/core",),
    f"{_CORE}/schemas/_ecma.py": ("tests/core",),
    # values never become code: placeholders, the shell's parse, quoting
    f"{_MARKDOWN}/_template.py": ("tests/markdown",),
    f"{_MARKDOWN}/_shell.py": ("tests/markdown",),
    f"{_MARKDOWN}/_tagcheck.py": ("tests/markdown",),
    f"{_MARKDOWN}/_bashtree.py": ("tests/markdown",),
    f"{_MARKDOWN}/_bashwords.py": ("tests/markdown",),
    f"{_MARKDOWN}/_positions.py": ("tests/markdown",),
    f"{_MARKDOWN}/_placement.py": ("tests/markdown",),
    f"{_MARKDOWN}/_commandwords.py": ("tests/markdown",),
    f"{_MARKDOWN}/_scriptfacts.py": ("tests/markdown",),
    f"{_MARKDOWN}/_shapes.py": ("tests/markdown",),
    f"{_MARKDOWN}/_plainbody.py": ("tests/markdown",),
    f"{_MARKDOWN}/_lint.py": ("tests/markdown",),
    f"{_MARKDOWN}/_quote.py": ("tests/markdown",),
    # values handed to programs that run code: the run-again warnings
    f"{_MARKDOWN}/_runners.py": ("tests/markdown",),
    f"{_MARKDOWN}/_cmdline.py": ("tests/markdown",),
}
SOURCE_DIRS = ["core/src", *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("plugins/*/src"))]
#: Every pytest run here: no cache, no plugins that only cost start-up time.
PYTEST = [
    "-q",
    "--no-header",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:langsmith_plugin",
    "-p",
    "no:pytest_cov",
]


def tracked() -> list[str]:
    return subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()


def copy_tree(files: list[str], dest: Path) -> Path:
    for name in files:
        src = ROOT / name
        if src.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    # Bytecode checked by the source's hash, not its time stamp: every import of an unchanged
    # module skips compiling it, and a mutant (same size, same second) never loads stale code.
    for directory in SOURCE_DIRS:
        compileall.compile_dir(
            dest / directory, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
        )
    return dest


def env_for(copy: Path, **extra: str) -> dict[str, str]:
    paths = [str(copy / d) for d in SOURCE_DIRS]
    inherited = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([*paths, *([inherited] if inherited else [])]),
        "PYTHONDONTWRITEBYTECODE": "1",  # a mutant's bytecode must never outlive it
        "HYPOTHESIS_PROFILE": "mutation",  # the same examples in every run (tests/conftest.py)
        **extra,
    }
