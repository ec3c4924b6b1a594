#!/usr/bin/env bash
# The Python versions the distributions declare besides the locked one (3.11): each gets the
# core, format and backend tests in a venv of its own, from the same lock file. Interpreters are
# not downloaded (no network for them in CI): one that is not on the machine is reported, and the
# run fails, because the classifiers would then promise a version nobody tested.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
for version in 3.12 3.13; do
    python=$(uv python find --no-project "$version" 2>/dev/null || true)
    if [ -z "$python" ]; then
        for candidate in "$HOME"/.pyenv/versions/"$version".*/bin/python; do
            [ -x "$candidate" ] && python=$candidate
        done
    fi
    if [ -z "$python" ]; then
        echo "other-pythons: no Python $version on this machine; the classifiers declare it" >&2
        status=1
        continue
    fi
    venv=$(mktemp -d)/venv
    echo "other-pythons: Python $version ($python)"
    UV_PROJECT_ENVIRONMENT=$venv uv sync --locked --quiet --python "$python"
    # The dev Hypothesis profile: the locked run already explores with the ci profile.
    HYPOTHESIS_PROFILE=dev UV_PROJECT_ENVIRONMENT=$venv uv run --locked --python "$python" \
        pytest -q tests/core tests/markdown tests/python tests/shell tests/conformance
done
exit $status
