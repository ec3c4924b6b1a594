"""The ``shell`` plugin: runs ``shell`` tools' rendered scripts.

(First cut, without process-group kills or bounded capture; those arrive with the
shell-backends issue.)
"""

from __future__ import annotations

import subprocess

from tooldrop import ToolCall, ToolHost, ToolResult, hookimpl


@hookimpl
def tooldrop_execute(call: ToolCall, host: ToolHost) -> ToolResult | None:
    if call.spec.runner != "shell" or call.script is None:
        return None
    done = subprocess.run(
        ["/bin/sh", "-c", call.script],
        cwd=host.project_dir,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return ToolResult(text=f"EXIT_CODE: {done.returncode}\n{done.stdout.rstrip()}", exit_code=done.returncode)
