"""The ``shell`` plugin (entry point ``shell``): runs rendered scripts under bash, sh or cmd.exe.

It executes calls whose tool has ``runner == "shell"`` and a rendered ``script``, and lints
such tools at load time (forbidden ``env:`` names, unknown ``shell:``). See DESIGN §6.
"""

from __future__ import annotations

import functools
import os

from tooldrop import (
    Command,
    Problem,
    SandboxError,
    ToolCall,
    ToolHost,
    ToolResult,
    ToolSpec,
    hookimpl,
    wrap_command,
)

from ._capture import output_text, stopped_text
from ._cwd import resolve_cwd
from ._env import build_env, env_name_problem
from ._errors import SetupError, StartError
from ._select import SHELLS, shell_argv

__all__ = ["run_call", "tooldrop_execute", "tooldrop_validate_spec"]


def run_call(call: ToolCall, host: ToolHost) -> ToolResult:
    """Run a rendered call and turn what it did into the text the model sees.

    Nothing is spawned when the shell, the ``cwd`` or the ``env`` is refused, or when the
    call must run confined and cannot be; every failure is an error result. A non-zero exit
    is a normal result. The command goes through ``tooldrop_wrap_command`` first, so a
    sandbox plugin can confine it.
    """
    spec = call.spec
    assert call.script is not None  # tooldrop_execute checked it
    limit = host.output_limit
    try:
        argv = shell_argv(spec.shell, call.script)
        cwd = resolve_cwd(spec.cwd, host.project_dir)
        env = build_env(spec.env)
        command = wrap_command(call, Command(argv=argv, env=env, cwd=cwd), host)
    except (SetupError, SandboxError) as exc:
        return ToolResult.error(str(exc))
    # Imported by the first call: a start-up that only lists tools never spawns anything.
    from ._process import run_process

    try:
        outcome = run_process(
            list(command.argv),
            cwd=command.cwd,
            env=None if command.env is None else dict(command.env),
            timeout=spec.timeout_ms / 1000,
            cancel=call.cancel,
            keep=max(limit, 0),
            pass_fds=command.pass_fds,
            keep_background=spec.keep_background,
            on_output=call.on_output,
        )
    except StartError as exc:
        return ToolResult.error(f"Custom tool failed to start: {exc}")
    finally:
        for fd in command.pass_fds:  # handed over to us (a sandbox's seccomp filter)
            os.close(fd)
    stdout, stderr = outcome.stdout.piece(), outcome.stderr.piece()
    if outcome.stopped == "timeout":
        message = f"Custom tool timed out after {spec.timeout_ms}ms"
        text, cut = stopped_text(message, stdout, stderr, limit)
        return ToolResult.error(text, timed_out=True, truncated=cut)
    if outcome.stopped == "cancelled":
        text, cut = stopped_text("Tool call cancelled", stdout, stderr, limit)
        return ToolResult.error(text, truncated=cut)
    code = outcome.exit_code if outcome.exit_code is not None else -1
    text, cut = output_text(code, stdout, stderr, limit)
    if command.explain is not None and (note := command.explain(text)):
        # The sandbox's one line on what it blocked, after the tool's own output.
        sep = "" if text.endswith("\n") else "\n"
        text = f"{text}{sep}{note}\n"
    return ToolResult(text=text, exit_code=code, truncated=cut)


@hookimpl
def tooldrop_execute(call: ToolCall, host: ToolHost) -> ToolResult | None:
    if call.spec.runner != "shell" or call.script is None:
        return None
    return run_call(call, host)


# Every discovery asks this for every tool, and tools set the same few names: remembered.
_env_name_problem = functools.lru_cache(maxsize=1024)(env_name_problem)


@hookimpl
def tooldrop_validate_spec(spec: ToolSpec, host: ToolHost) -> list[Problem] | None:
    """Refuse, at load time, shell tools that set a forbidden variable or name no known shell.

    Loaders (markdown) report these with the file's own line numbers first; this catches
    tools that plugins register directly.
    """
    if spec.runner != "shell":
        return None
    path, line = spec.origin.path, spec.origin.line
    problems = [
        Problem(path=path, line=line, field=f"env.{name}", message=message)
        for name in spec.env
        if (message := _env_name_problem(name)) is not None
    ]
    if spec.shell is not None and spec.shell not in SHELLS:
        message = f'unknown shell "{spec.shell}" (expected one of: {", ".join(SHELLS)})'
        problems.append(Problem(path=path, line=line, field="shell", message=message))
    return problems
