#!/usr/bin/env bash
# The distributions as a user gets them: build every wheel and sdist (and the sample plugin's),
# check their metadata, install only the built wheels into a clean virtual environment outside
# the workspace, and run the README tour and the sample plugin there. Fails loudly on any
# mismatch. Run from anywhere: bash .ci/wheels.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export UV_PYTHON_DOWNLOADS=never   # the machine's Python is enough
started=$SECONDS

fail() { echo "wheels.sh: FAIL: $*" >&2; exit 1; }
step() { echo "wheels.sh: $* ($((SECONDS - started))s)"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tooldrop-wheels.XXXXXX")
trap 'rm -rf "$work"' EXIT
dist=$work/dist

# -- build ----------------------------------------------------------------------------------
uv build --all-packages -q -o "$dist"
uv build -q -o "$dist" docs/examples/tooldrop-toml
step "built: $(cd "$dist" && echo *)"

expected=(tooldrop tooldrop_core tooldrop_markdown tooldrop_python tooldrop_shell tooldrop_mcp
    tooldrop_sandbox tooldrop_adapters llm_tools_tooldrop tooldrop_toml)
for name in "${expected[@]}"; do
    compgen -G "$dist/$name-*-py3-none-any.whl" >/dev/null || fail "no wheel for $name"
    compgen -G "$dist/$name-*.tar.gz" >/dev/null || fail "no sdist for $name"
done

# -- metadata: license, classifiers, URLs and a readme in every wheel and sdist -------------
check_metadata() {  # $1: archive, $2: its METADATA / PKG-INFO text
    local archive=$1 text=$2 field
    for field in '^License-Expression: MIT$' '^License-File: LICENSE$' '^Classifier: ' \
        '^Project-URL: ' '^Description-Content-Type: text/markdown$' '^Requires-Python: '; do
        grep -qE "$field" <<<"$text" || fail "$archive: no '$field' in its metadata"
    done
    # The readme is the body after the headers: it must be there and start with a title.
    local readme
    readme=$(awk 'body {print} /^$/ {body=1}' <<<"$text")
    grep -qE '^# tooldrop' <<<"$readme" || fail "$archive: its metadata has no readme"
}
for wheel in "$dist"/*.whl; do
    check_metadata "$(basename "$wheel")" "$(unzip -p "$wheel" '*.dist-info/METADATA')"
    # (Listings are captured first: grep -q closing a pipe early would fail it under pipefail.)
    files=$(unzip -Z1 "$wheel")
    grep -qE '\.dist-info/licenses/LICENSE$' <<<"$files" \
        || fail "$(basename "$wheel") does not ship its LICENSE"
done
for sdist in "$dist"/*.tar.gz; do
    base=$(basename "$sdist" .tar.gz)
    check_metadata "$base.tar.gz" "$(tar -xOzf "$sdist" "$base/PKG-INFO")"
    files=$(tar -tzf "$sdist")
    grep -qx "$base/LICENSE" <<<"$files" || fail "$base.tar.gz does not ship its LICENSE"
done
step "metadata complete in ${#expected[@]} wheels and sdists"

# -- a clean virtual environment with only the built wheels -----------------------------------
python=$(python3 -c 'import sys; print(sys.executable)')
uv venv -q --python "$python" "$work/venv"
# The meta wheel pulls core and every plugin from the wheel dir; third-party deps come from PyPI.
uv pip install -q --python "$work/venv/bin/python" --find-links "$dist" \
    "$dist"/tooldrop-[0-9]*.whl "$dist"/tooldrop_toml-*.whl
# Prove the installed code is what was built here, not a same-named release from an index.
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
for pair in tooldrop:core tooldrop_markdown:plugins/markdown tooldrop_python:plugins/python \
    tooldrop_shell:plugins/shell tooldrop_mcp:plugins/mcp tooldrop_sandbox:plugins/sandbox \
    tooldrop_toml:docs/examples/tooldrop-toml; do
    package=${pair%%:*} source=$repo/${pair#*:}/src/${pair%%:*}
    differs=$(diff -rq -x __pycache__ "$source" "$site/$package") \
        || fail "the installed $package differs from $source (edited during the build?):"$'\n'"$differs"
done
step "installed into a clean venv"

# Everything below runs outside the workspace, with nothing but the venv on PATH for tooldrop.
export PATH="$work/venv/bin:$PATH" TOOLDROP_CONFIG_DIR="$work/config" COLUMNS=100
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/xdg"
unset PYTHONPATH VIRTUAL_ENV TOOLDROP_PLUGINS TOOLDROP_STRICT_PLUGINS
[ "$(command -v tooldrop)" = "$work/venv/bin/tooldrop" ] || fail "tooldrop is not the venv's"
tooldrop --version | grep -qE '^tooldrop, version [0-9]' || fail "tooldrop --version"

# -- the README tour, as written: files from <!-- tour-file: PATH --> blocks, then each `$ `
# command of <!-- tour --> blocks; it must exit 0 and print every output line shown ------------
tour=$work/tour
mkdir -p "$tour"
(cd "$tour" && python - "$repo/README.md" <<'PY') || fail "the README tour"
import re, subprocess, sys
from pathlib import Path

text = Path(sys.argv[1]).read_text(encoding="utf-8")
blocks = re.findall(r"<!-- (tour(?:-file: (\S+))?) -->\n```\w*\n(.*?)\n```", text, re.S)
if not any(kind == "tour" for kind, _, _ in blocks):
    sys.exit("README.md has no <!-- tour --> block")
squash = lambda s: " ".join(s.split())
for kind, path, body in blocks:
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(body + "\n", encoding="utf-8")
        continue
    steps = re.findall(r"^\$ (.*)\n((?:(?!\$ ).*(?:\n|$))*)", body, re.M)
    for command, shown in steps:
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
        output = squash(done.stdout + done.stderr)
        missing = [ln for ln in shown.splitlines() if ln.strip() and squash(ln) not in output]
        if done.returncode or missing:
            sys.exit(f"$ {command}\nexit {done.returncode}; missing {missing}\n"
                     f"{done.stdout}{done.stderr}")
        print(f"  ok  $ {command}")
PY
step "README tour ran"

# -- the sample plugin, installed from its wheel: tooldrop list / call / plugins / check -------
project=$work/project
mkdir -p "$project/.tooldrop/tools"
cd "$project"
git init -q
git -c user.name=ci -c user.email=ci@example.invalid commit -q --allow-empty -m "first commit"
git -c user.name=ci -c user.email=ci@example.invalid commit -q --allow-empty -m "it's the second"
cat > .tooldrop/tools/git-log.toml <<'EOF'
name = "git_log"
description = "Show recent commits."
command = ["git", "log", "--oneline", "-n", "{count}", "--author={author}"]
approval = "never"
read_only = true
[parameters.count]
type = "integer"
default = 10
[parameters.author]
type = "string"
EOF
cp "$tour/.tooldrop/tools/word-count.md" .tooldrop/tools/

expect() {  # $1: what it is; $2: an extended regex its output must match; then the command
    local what=$1 pattern=$2 output
    shift 2
    output=$("$@" 2>&1) || fail "$what: \`$*\` exited $?:"$'\n'"$output"
    grep -qE -- "$pattern" <<<"$output" || fail "$what: no /$pattern/ in:"$'\n'"$output"
}
expect "plugins" '^toml  \(tooldrop-toml 1\.0\.0, entrypoint\)  tooldrop_toml\.plugin$' tooldrop plugins
expect "plugins hooks" 'hooks: tooldrop_load_file, tooldrop_render, tooldrop_scaffold' tooldrop plugins
expect "list (toml)" '^toml · project  \.tooldrop/tools' tooldrop list
expect "list (toml tool)" '^  git_log +Show recent commits\. +never · read-only$' tooldrop list
expect "list (markdown)" '^  word_count +Count the words in a text\.' tooldrop list
expect "check" '^2 tools loaded, no problems$' tooldrop check
expect "render" "^git log --oneline -n 10 '--author=Ada L'$" tooldrop render git_log 'author=Ada L'
expect "trust" '^Trusted the 2 tools in \.tooldrop/tools: git_log, word_count\.$' tooldrop trust
expect "call (toml)" "^[0-9a-f]+ it's the second$" tooldrop call git_log count=1
[ "$(tooldrop call git_log count=1 | head -1)" = "EXIT_CODE: 0" ] || fail "call: no EXIT_CODE: 0"
[ "$(tooldrop call git_log count=5 | grep -c "")" = 3 ] || fail "call (toml): count=5 gave the wrong lines"
expect "call (markdown)" '^3$' tooldrop call word_count 'text=a b c'
expect "yolo call" '^EXIT_CODE: 0$' tooldrop --mode yolo call git_log --args '{"count": 2}'
expect "schema" '"name": "git_log"' tooldrop schema --format openai

# Broken files: named with file, line and field; the other tools still load and run.
printf 'name = "broken"\ndescription = "d"\ncommand = ["{prog}"]\n' > .tooldrop/tools/broken.toml
set +e
output=$(tooldrop check 2>&1)
status=$?
set -e
[ "$status" = 1 ] || fail "check exited $status with a broken file:"$'\n'"$output"
grep -qF '.tooldrop/tools/broken.toml:3: command[0]: the program must be fixed text' <<<"$output" \
    || fail "check did not name the broken file's line and field:"$'\n'"$output"
expect "call beside a broken file" '^EXIT_CODE: 0$' tooldrop call word_count --yes 'text=x'
step "sample plugin: list, check, render, trust, call, schema"

# -- a framework user's install: core, loaders, shell and the adapters, no MCP server, beside a
# framework that pins mcp<2 (langchain-mcp-adapters 0.3.2); a LangChain tool call runs there ---
fw=$work/frameworks
uv venv -q --python "$python" "$fw/venv"
uv pip install -q --python "$fw/venv/bin/python" --find-links "$dist" \
    "$dist"/tooldrop_core-*.whl "$dist"/tooldrop_markdown-*.whl "$dist"/tooldrop_shell-*.whl \
    "$dist"/tooldrop_adapters-*.whl "langchain-mcp-adapters==0.3.2" "mcp<2" \
    || fail "tooldrop-core, -markdown, -shell and -adapters do not install beside mcp<2"
mkdir -p "$fw/config/tools" "$fw/project"
cat > "$fw/config/tools/shout.md" <<'EOF'
---
name: shout
description: Shout a word.
approval: never
parameters:
  word:
    type: string
    required: true
  mark:
    type: string
    default: "!"
---
echo {{word}}{{mark}}
EOF
(cd "$fw/project" && TOOLDROP_CONFIG_DIR="$fw/config" "$fw/venv/bin/python" - <<'PY') \
    || fail "the LangChain adapter beside mcp<2"
from importlib.metadata import PackageNotFoundError, version

import langchain_mcp_adapters.client  # the release that needs mcp<2 imports
from tooldrop_adapters.langchain import TooldropToolkit

assert version("mcp").startswith("1."), version("mcp")
for server in ("tooldrop-mcp", "tooldrop"):
    try:
        version(server)
    except PackageNotFoundError:
        continue
    raise SystemExit(f"{server} was installed: the framework user's install needs no MCP server")
[tool] = TooldropToolkit().get_tools()
out = tool.invoke({"word": "hey"})
assert out == "EXIT_CODE: 0\nhey!", out
print(f"  ok  mcp {version('mcp')}, langchain-mcp-adapters {version('langchain-mcp-adapters')}")
PY
step "adapters beside mcp<2: installed without the MCP server, a LangChain tool call ran"

# -- the first example of docs/plugins.md, a pack of Python tools, runs where tooldrop-python is
# not installed (a venv with tooldrop-core alone): the core runs in-process tools itself ---------
core_only=$work/core-only
uv venv -q --python "$python" "$core_only/venv"
uv pip install -q --python "$core_only/venv/bin/python" --find-links "$dist" \
    "$dist"/tooldrop_core-*.whl || fail "tooldrop-core does not install alone"
mkdir -p "$fw/pack"
awk '/^# tooldrop_weather\.py$/ {on=1} on && /^```$/ {exit} on {print}' "$repo/docs/plugins.md" \
    > "$fw/pack/tooldrop_weather.py"
grep -q '^def tooldrop_register_tools' "$fw/pack/tooldrop_weather.py" \
    || fail "docs/plugins.md no longer opens with the tooldrop_weather.py example"
(cd "$fw/project" && PYTHONPATH="$fw/pack" TOOLDROP_CONFIG_DIR="$core_only/config" \
    "$core_only/venv/bin/python" - <<'PY') || fail "a plugin's tooldrop.Tool with tooldrop-core alone"
import importlib.util

import tooldrop
import tooldrop_weather

assert importlib.util.find_spec("tooldrop_python") is None, "tooldrop-python is installed"
host = tooldrop.ToolHost(plugins=[tooldrop_weather])
result = host.call("weather", {"city": "Paris"})
assert (result.text, result.is_error) == ("Sunny in Paris", False), result
print("  ok  docs/plugins.md's tooldrop_weather ran on tooldrop-core alone")
PY
step "a plugin's Python tool ran without tooldrop-python"

echo "wheels.sh: OK in $((SECONDS - started))s"
