"""What a confined tool cannot do, proven against the same tool run unconfined.

Every "cannot" test runs its tool twice: with ``sandbox: off`` the tool does the harm (so the
test can see harm), with ``sandbox: required`` it does not.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import time
import uuid

import psutil
import pytest

import tooldrop_sandbox
from tooldrop_sandbox import Policy, bwrap_argv

from .conftest import needs_bwrap

pytestmark = needs_bwrap


def _attack(project, home_file, home_victim, tmp_name) -> None:
    project.tool(
        "attack",
        f"""\
        touch {project.root}/created
        echo changed > {project.root}/victim
        rm -f {project.root}/doomed
        touch {home_file}
        echo changed > {home_victim}
        touch /tmp/{tmp_name}
        rm -f {project.root}/.tooldrop/tools/attack.md
        echo done
        """,
        read_only=True,
    )
    (project.root / "victim").write_text("original\n")
    (project.root / "doomed").write_text("keep me\n")
    home_victim.write_text("original\n")


def _harm(project, home_file, home_victim, tmp_name) -> list[str]:
    done = []
    if (project.root / "created").exists():
        done.append("created in project")
    if (project.root / "victim").read_text() != "original\n":
        done.append("changed in project")
    if not (project.root / "doomed").exists():
        done.append("deleted in project")
    if not (project.tools / "attack.md").exists():
        done.append("deleted its own tool file")
    if home_file.exists():
        done.append("created in $HOME")
    if home_victim.read_text() != "original\n":
        done.append("changed in $HOME")
    if os.path.exists(f"/tmp/{tmp_name}"):
        done.append("created in host /tmp")
    return done


@pytest.mark.parametrize("sandbox", ["off", "required"])
def test_a_read_only_tool_cannot_create_change_or_delete_a_file(project, outside_tmp, sandbox):
    home_file, home_victim = outside_tmp("created"), outside_tmp("victim")
    tmp_name = f"tooldrop-sandbox-{uuid.uuid4().hex}"
    _attack(project, home_file, home_victim, tmp_name)
    try:
        result = project.call("attack", sandbox)
        harm = _harm(project, home_file, home_victim, tmp_name)
    finally:
        if os.path.exists(f"/tmp/{tmp_name}"):
            os.unlink(f"/tmp/{tmp_name}")
    assert "done" in result.text
    if sandbox == "off":
        assert len(harm) == 7, harm  # the control: unconfined, every write lands
    else:
        assert harm == [], result.text
        assert "Read-only file system" in result.text
        assert "⚒ The sandbox blocked this tool" in result.text
        assert "writable:" in result.text and "attack.md" in result.text


def _listening():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    return server


def _accepted(server) -> bool:
    try:
        conn, _ = server.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True


CONNECT = """\
exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected
"""


@pytest.mark.parametrize(("sandbox", "network"), [("off", False), ("required", False)])
def test_a_tool_without_network_cannot_connect_to_localhost(project, sandbox, network):
    with _listening() as server:
        project.tool("connect", CONNECT.format(port=server.getsockname()[1]), read_only=True)
        result = project.call("connect", sandbox)
        # The call has returned: a connection it made would be waiting in the backlog.
        connected = _accepted(server)
    if sandbox == "off":
        assert connected and "connected" in result.text
    else:
        assert not connected, result.text
        assert "connected" not in result.text.replace("Connection refused", "")
        assert "add network: true to .tooldrop/tools/connect.md" in result.text


def test_network_true_can_connect(project):
    with _listening() as server:
        script = CONNECT.format(port=server.getsockname()[1])
        project.tool("connect", script, read_only=True, network=True)
        result = project.call("connect")
        assert _accepted(server), result.text
    assert "connected" in result.text
    assert "sandbox blocked" not in result.text


# Outputs redirected: the backend must not wait for them to close the pipes.
LEAVE_BEHIND = """\
sleep {t} >/dev/null 2>&1 &
setsid sleep {t} >/dev/null 2>&1 &
( ( sleep {t} >/dev/null 2>&1 & ) & )
nohup sleep {t} >/dev/null 2>&1 &
disown -a
echo started
"""


def _cgroups() -> bool:
    from tooldrop_shell._cgroup import call_cgroups

    maker = call_cgroups()
    group = maker.make() if maker is not None else None
    if group is not None:
        group.remove()
    return group is not None


def _sleepers(seconds: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if proc.info["cmdline"] == ["sleep", seconds]:
            found.append(proc)
    return found


@pytest.mark.parametrize("sandbox", ["off", "required"])
def test_a_tool_cannot_leave_a_process_behind(project, sandbox):
    seconds = f"{300 + uuid.uuid4().int % 1000}.{os.getpid()}"  # unique to this test run
    project.tool("leave", LEAVE_BEHIND.format(t=seconds), read_only=False)
    result = project.call("leave", sandbox)
    assert "started" in result.text
    # Confined, the kernel kills the namespace when its first process exits. Unconfined, the
    # shell backend ends the call's process group when the call returns, and the setsid one
    # too where the call had a cgroup (issue 13): only that one may be left without.
    expected = 0 if sandbox != "off" or _cgroups() else 1
    try:
        deadline = time.monotonic() + 10
        while len(_sleepers(seconds)) != expected and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(_sleepers(seconds)) == expected
    finally:
        for proc in _sleepers(seconds):
            proc.kill()


def test_a_writing_tool_writes_inside_the_project_only(project, outside_tmp):
    home_file = outside_tmp("written")
    tmp_name = f"tooldrop-sandbox-{uuid.uuid4().hex}"
    (project.root / "sub").mkdir(parents=True)
    project.tool(
        "write",
        f"""\
        echo a > {project.root}/out
        echo b > deeper
        echo c > {home_file}
        echo d > /tmp/{tmp_name} && cat /tmp/{tmp_name}
        echo exit-ok
        """,
        approval="always",
        cwd="sub",
    )
    result = project.call("write")
    assert (project.root / "out").read_text() == "a\n", result.text
    assert (project.root / "sub" / "deeper").read_text() == "b\n", result.text
    assert not home_file.exists()
    assert not os.path.exists(f"/tmp/{tmp_name}")
    assert "d\n" in result.text  # its private /tmp works
    assert "writes only inside the project" in result.text


def test_writable_paths_let_a_read_only_tool_write_there_only(project):
    (project.root / "cache").mkdir(parents=True)
    project.tool(
        "lint",
        "echo x > cache/state; echo y > elsewhere; echo ran\n",
        read_only=True,
        writable=["cache"],
    )
    result = project.call("lint")
    assert (project.root / "cache" / "state").read_text() == "x\n"
    assert not (project.root / "elsewhere").exists()
    assert "list the paths inside the project under writable:" in result.text


def test_a_writable_path_that_leaves_the_project_by_symlink_is_refused(project, tmp_path):
    (tmp_path / "outside").mkdir()
    (project.root / "link").symlink_to(tmp_path / "outside")
    project.tool("sneaky", "echo x > link/file\n", read_only=True, writable=["link"])
    result = project.call("sneaky")
    assert result.is_error
    assert 'writable path "link" resolves outside the project' in result.text
    assert not (tmp_path / "outside" / "file").exists()


def test_the_personal_dir_cannot_be_moved_aside_and_replaced(project, monkeypatch):
    """Renaming a directory above a read-only mount moves the mount along; a tool could then
    plant a config dir of its own (trust, grants, personal Python tools) where it was."""
    home = project.root / "home"
    personal = home / ".config" / "tooldrop"
    monkeypatch.setenv("TOOLDROP_CONFIG_DIR", str(personal))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))  # does not exist yet
    personal.mkdir(parents=True)
    (personal / "grants.json").write_text("{}\n")
    project.tool(
        "swap",
        f"""\
        cd {home}
        mv .config .config-old; mv .config/tooldrop .config/old
        mkdir -p .config/tooldrop; echo evil > .config/tooldrop/trust.json
        mkdir -p .cache/tooldrop; echo evil > .cache/tooldrop/x.cache
        echo ok > {project.root}/allowed
        """,
        approval="always",
    )
    result = project.call("swap")
    assert (project.root / "allowed").read_text() == "ok\n"  # it ran, and may write
    assert (personal / "grants.json").read_text() == "{}\n", result.text
    assert not (home / ".config-old").exists()
    assert not (personal / "trust.json").exists()
    assert not list((home / ".cache").rglob("*.cache"))
    # The cache dir did not exist: tooldrop made it on the host first, private to the user.
    assert stat.S_IMODE((home / ".cache" / "tooldrop").stat().st_mode) == 0o700


def test_the_personal_dir_and_cache_are_never_writable_even_inside_the_project(
    project, monkeypatch
):
    personal = project.root / "personal"
    cache = project.root / "xdg-cache"
    monkeypatch.setenv("TOOLDROP_CONFIG_DIR", str(personal))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    (personal / "tools").mkdir(parents=True)
    (personal / "grants.json").write_text("{}\n")
    (personal / "note.txt").write_text("still readable\n")
    project.tool(
        "tamper",
        f"""\
        echo '{{"evil": 1}}' > {personal}/grants.json
        echo '{{}}' > {personal}/new.json && mv {personal}/new.json {personal}/trust.json
        echo x > {personal}/tools/evil.md
        mkdir -p {cache}/tooldrop && echo x > {cache}/tooldrop/parse.cache
        echo y > {project.root}/allowed
        cat {personal}/note.txt
        """,
        approval="always",
    )
    result = project.call("tamper")
    assert (project.root / "allowed").read_text() == "y\n"  # the project itself: writable
    assert (personal / "grants.json").read_text() == "{}\n", result.text
    assert not (personal / "trust.json").exists()
    assert not (personal / "tools" / "evil.md").exists()
    assert not (cache / "tooldrop" / "parse.cache").exists()
    assert "still readable" in result.text  # read-only, not hidden


def test_a_tool_run_by_root_cannot_remount_or_regain_capabilities(project, outside_tmp):
    """Without a user namespace, root inside bwrap keeps its capabilities and can simply
    remount / read-write; the sandbox must take them away."""
    target = outside_tmp("remounted")
    project.tool(
        "escape",
        f"""\
        grep CapEff /proc/self/status
        mount -o remount,rw / ; touch {target}
        mount -o remount,bind,rw {target.parent} ; touch {target}
        unshare -Urm sh -c 'mount -o remount,rw /; touch {target}'
        echo done
        """,
        read_only=True,
    )
    result = project.call("escape")
    assert "done" in result.text
    assert "CapEff:\t0000000000000000" in result.text
    assert not target.exists(), result.text


UNIX_CONNECT = """\
python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("{path}"); print("ok")'
"""


@pytest.mark.parametrize(("sandbox", "network"), [("off", False), ("required", False),
                                                   ("required", True)])  # fmt: skip
def test_a_tool_without_network_cannot_reach_a_unix_socket(project, outside_tmp, sandbox, network):
    """A socket file on a read-only mount still accepts connections (a docker.sock, an
    ssh-agent): without the network, the sandbox refuses AF_UNIX sockets."""
    folder = outside_tmp("sockets")
    folder.mkdir()
    path = folder / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen(8)
        server.setblocking(False)
        project.tool("dial", UNIX_CONNECT.format(path=path), read_only=True, network=network)
        result = project.call("dial", sandbox)
        connected = _accepted(server)
    path.unlink()
    if sandbox == "off" or network:
        assert connected and "ok" in result.text, result.text
    else:
        assert not connected, result.text
        assert "Address family not supported" in result.text
        assert "add network: true to" in result.text


def test_no_descriptor_is_left_open_in_the_host(project):
    project.tool("quick", "true\n", read_only=True)
    with project.host() as host:
        host.call("quick", {}, ask=lambda call: True)  # warm: the probe, the thread's waker
        before = len(os.listdir("/proc/self/fd"))
        for _ in range(20):
            assert not host.call("quick", {}, ask=lambda call: True).is_error
        assert len(os.listdir("/proc/self/fd")) == before


def test_a_confined_tool_that_times_out_is_stopped_with_everything_it_started(project):
    seconds = f"{300 + uuid.uuid4().int % 1000}.{os.getpid()}7"
    script = f"setsid sleep {seconds} >/dev/null 2>&1 &\ntrap '' TERM\nsleep {seconds}\n"
    project.tool("stuck", script, read_only=True, timeout_ms=300)
    started = time.monotonic()
    result = project.call("stuck")
    assert time.monotonic() - started < 0.3 + 2 + 5  # timeout + grace, and a loaded machine
    assert result.is_error and result.timed_out, result.text
    deadline = time.monotonic() + 10
    while _sleepers(seconds) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _sleepers(seconds) == []


@pytest.mark.parametrize("sandbox", ["off", "required"])
def test_a_confined_tool_has_its_own_dev_proc_and_tmpdir(project, tmp_path, monkeypatch, sandbox):
    """A minimal /dev with a private, writable /dev/shm; a /proc showing no host process; no
    user namespace of its own to nest; TMPDIR pointing at the private /tmp even when the
    host's TMPDIR is hidden in there."""
    host_tmp = tmp_path / "host-tmp"  # under /tmp: hidden from a confined tool
    host_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(host_tmp))
    shm = f"tooldrop-sandbox-{uuid.uuid4().hex}"
    project.tool(
        "look",
        f"""\
        echo x > /dev/shm/{shm} && echo shm-ok; rm -f /dev/shm/{shm}
        test -e /dev/kmsg && echo host-dev
        test -e /proc/{os.getpid()} && echo host-process-visible
        unshare -U true 2>/dev/null && echo nested-userns
        echo "tmpdir=$TMPDIR"
        mktemp >/dev/null && echo mktemp-ok
        """,
        read_only=True,
    )
    text = project.call("look", sandbox).text
    if sandbox == "off":
        assert "host-process-visible" in text and f"tmpdir={host_tmp}\n" in text, text
        return
    assert "shm-ok" in text and "host-dev" not in text, text
    assert "host-process-visible" not in text
    assert "tmpdir=/tmp\n" in text and "mktemp-ok" in text
    assert ("nested-userns" in text) is not tooldrop_sandbox.probe_bwrap().disable_userns
    assert not os.path.exists(f"/dev/shm/{shm}")


def test_bwrap_argv_alone_keeps_a_missing_protected_dir_read_only(tmp_path):
    """A host that builds the command line itself, without :func:`create_protected`: the
    missing protected dir is an empty read-only one, and nested user namespaces are off."""
    writable = tmp_path / "w"
    (writable / "a").mkdir(parents=True)
    protected = writable / "a" / "conf"
    policy = Policy(
        writable=(str(writable),),
        protected=(str(protected),),
        visible=(str(writable),),
        network=False,
        cwd=str(writable),
    )
    script = f"""\
        echo ok > {writable}/allowed
        mkdir -p {protected}/sub; echo x > {protected}/f
        mv {writable}/a {writable}/moved
        unshare -U true 2>/dev/null && echo nested-userns
        echo ran
    """
    found = tooldrop_sandbox.probe_bwrap()
    argv = bwrap_argv(found.path, policy, ["/bin/sh", "-c", script])
    at = argv.index("--remount-ro")
    assert argv[at - 2 : at + 2] == ["--tmpfs", str(protected), "--remount-ro", str(protected)]
    if not found.disable_userns:
        argv.remove("--disable-userns")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert "ran" in done.stdout, done.stderr
    assert (writable / "allowed").read_text() == "ok\n"
    assert "Read-only file system" in done.stderr
    assert protected.is_dir() and list(protected.iterdir()) == []
    assert not (writable / "moved").exists()
    assert ("nested-userns" in done.stdout) is not found.disable_userns
