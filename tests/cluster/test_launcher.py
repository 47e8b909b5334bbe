"""``python -m app cluster`` (``make cluster``): it starts its nodes and nginx, serves, and on
SIGINT stops every process it started (none is left running) and frees its ports.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.cluster.launcher import ROOT, drop_database
from tests.cluster.harness import PG_SERVER, REDIS_SERVER, need_cluster

pytestmark = pytest.mark.cluster

LAUNCHER_PORT = 18460


def _descendants(pid: int) -> set[int]:
    """Every process under ``pid`` (children, theirs, …), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _listening(port: int) -> bool:
    """Something accepts connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), 1):
            return True
    except OSError:
        return False


def test_make_cluster_runs_the_launcher() -> None:
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    made = subprocess.run(
        ["make", "-n", "cluster", "NODES=3"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "-m app cluster --nodes 3" in made.stdout


def test_the_launcher_starts_and_stops_everything_it_started(tmp_path: Path) -> None:
    need_cluster()
    database = "t31_d_launcher"
    url = f"{PG_SERVER}/{database}"
    drop_database(url)  # the launcher creates it when missing
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("NODE_", "PYTEST"))},
        "DATABASE_URL": url,
        "REDIS_URL": f"{REDIS_SERVER}/4",
        "REDIS_PREFIX": "t31_d_launcher:",
        "ENVIRONMENT": "test",
        "LOG_FORMAT": "text",
    }
    env.pop("ADMIN_TOKEN", None)
    options = ["--nodes", "2", "--port", str(LAUNCHER_PORT), "--dir", str(tmp_path)]
    launcher = subprocess.Popen(
        [sys.executable, "-m", "app", "cluster", *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    started: set[int] = set()
    lines: list[str] = []
    try:
        assert launcher.stdout is not None
        deadline = time.monotonic() + 120
        while not any("Ctrl-C stops them all" in line for line in lines):
            assert time.monotonic() < deadline and launcher.poll() is None, "".join(lines)
            lines.append(launcher.stdout.readline())
        out = "".join(lines)
        assert f"open http://127.0.0.1:{LAUNCHER_PORT}" in out
        assert "created the database" in out
        token = re.search(r"host's token: (\S+)", out)
        assert token, out
        ports = [LAUNCHER_PORT, LAUNCHER_PORT + 1, LAUNCHER_PORT + 2]
        for port in ports:
            # the timeouts: deadlines for a stuck node, never a measure
            assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30).status_code == 200
        # the nodes share the host's token the launcher printed
        for port in ports[1:]:
            got = httpx.get(
                f"http://127.0.0.1:{port}/api/admin/settings",
                headers={"authorization": f"Bearer {token.group(1)}"},
                timeout=30,
            )
            assert got.status_code == 200, got.text
        started = _descendants(launcher.pid)
        commands = [Path(f"/proc/{p}/cmdline").read_bytes() for p in started if _alive(p)]
        assert sum(b"app\x00serve" in c for c in commands) == 2, commands
        assert any(c.startswith(b"nginx: master") for c in commands), commands
        launcher.send_signal(signal.SIGINT)
        rest, _ = launcher.communicate(timeout=90)
        assert launcher.returncode == 0, out + rest
        assert "stopped" in rest
    finally:
        if launcher.poll() is None:
            started |= _descendants(launcher.pid)
            launcher.kill()
            launcher.wait(10)
        left = [p for p in started if _alive(p)]
        for pid in left:  # what it left behind, so that this run leaves nothing either
            os.kill(pid, signal.SIGKILL)
        drop_database(url)
    assert not left, f"processes the launcher left running: {left}"
    assert not [p for p in ports if _listening(p)], "a port is still served"


def test_the_compose_cluster_profile_names_each_replica() -> None:
    """docker-compose.yml's cluster profile: the front mounts the config nginx.py writes and
    publishes the one app's port (both at once fail loudly); each replica of ``node`` gets
    NODE_ID from its host name and NODE_ADDRESS from its address (its command's shell, run
    here as compose hands it over: ``$$`` is a ``$``)."""
    import yaml

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name in ("redis", "migrate", "node", "front"):
        assert services[name]["profiles"] == ["cluster"], name
    assert "profiles" not in services["app"] and "profiles" not in services["db"]
    mount = services["front"]["volumes"][0].split(":")[0]
    assert (ROOT / mount).resolve() == (ROOT / "deploy/nginx.cluster.conf").resolve()
    assert services["front"]["ports"] == services["app"]["ports"]
    assert services["node"]["environment"]["TRUST_PROXY_HEADERS"] == "true"
    works = (
        shutil.which("hostname")
        and not subprocess.run(
            ["hostname", "-i"], capture_output=True, timeout=10, check=False
        ).returncode
    )
    if not works:
        pytest.skip("hostname -i does not work here (the image has it)")
    script = services["node"]["command"][-1].replace("$$", "$")
    assert script.endswith("exec python -m app serve")
    shown = subprocess.run(
        ["sh", "-c", script.replace("exec python -m app serve", "env")],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    ).stdout
    values = dict(line.split("=", 1) for line in shown.splitlines() if line.startswith("NODE_"))
    assert values["NODE_ID"] == socket.gethostname()
    assert re.fullmatch(r"[\d.]+:8000", values["NODE_ADDRESS"]), values
