"""The front of a cluster: nginx, configured for a list of node addresses and run as a
process of our own (never the system's service).

Routing (docs/protocol/cluster.md):

* a table's socket ``/ws/tables/{id}`` must reach the one node whose actor plays that table.
  nginx asks any node first, with ``auth_request``, ``GET /api/cluster/route?table={id}``;
  the node answers 200 with ``X-Table31-Node: ip:port``, the address of the table's live
  owner (from the leases in PostgreSQL), and nginx proxies the socket there
  (``proxy_pass http://$t31_node``: an ip:port needs no resolver). A table with no live owner
  routes to the node asked, which closes the socket with 4409 ("ask again");
* everything else (pages, REST, ``/healthz``, ``/metrics``) goes round-robin to any node:
  a per-table request that reaches a node which does not own the table is forwarded to the
  owner through Redis (app/cluster/forward.py). nginx tries the next node when one refuses,
  times out or answers 502/503, for methods that may be repeated only (GET, HEAD, …: nginx
  never repeats a POST unless told to, and it is not told).

The table id reaches the subrequest through a named capture of the socket's location
(``$t31_table``): a subrequest shares its parent's variables, and the internal location it
runs in has no regex of its own to overwrite them (tests/cluster/test_front.py checks it with
real sockets).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROUTE_HEADER = "X-Table31-Node"
"""The route endpoint's answer: the owner's ``ip:port`` (app/cluster/node.py)."""

SOCKET_READ_TIMEOUT = "60s"
"""A table socket over which the node has sent nothing for this long is closed by the front.
A node sends a WebSocket ping on every socket every 20 s (uvicorn's default), so a live socket
never waits that long, idle table and silent client included; a socket to a node cut off from
the network gets nothing and no reset, and without this it would hang for as long as TCP
retries (a quarter of an hour), while its table is served elsewhere after the lease. Closed,
the client connects again and is routed anew."""

FORWARDED = """\
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;  # replaced, never appended
            proxy_set_header X-Forwarded-Host $http_host;
            proxy_set_header X-Forwarded-Proto $scheme;"""
"""What every proxied request carries (each location that sets a header must set them all:
nginx inherits ``proxy_set_header`` only into a location that sets none). The client's
address REPLACES any ``X-Forwarded-For`` it sent: the nodes trust that header
(``TRUST_PROXY_HEADERS=true``) for their per-address limits."""

TABLE_ID = r"[A-Za-z0-9_-]{1,64}"
"""What the socket's location accepts as a table id; anything else is not a table."""


def render(
    nodes: Sequence[str],
    listen: str,
    directory: Path | None,
    *,
    workers: int | str = "auto",
    access_log: bool = True,
    resolver: str | None = None,
    socket_timeout: str = SOCKET_READ_TIMEOUT,
) -> str:
    """nginx.conf for a front listening on ``listen`` (``port`` or ``ip:port``) in front of
    ``nodes`` (each ``ip:port``), with its pid, logs and temporary files in ``directory``.

    ``resolver`` (Docker Compose's, deploy/nginx.cluster.conf): ``nodes`` is one name, a
    service's, whose every replica the resolver returns; nginx asks again at run time (every
    10 s), so replicas added later (``--scale``) get their share. Without a directory the
    logs go to the standard output and error and the image's own paths are used."""
    if not nodes:
        raise ValueError("a front needs at least one node")
    head, paths = _process(directory, workers, access_log)
    if resolver:
        pool = "$t31_nodes"
        nodes_block = f"""    resolver {resolver} valid=10s ipv6=off;
    map $host $t31_nodes {{
        default {nodes[0]};
    }}"""
    else:
        pool = "table31_nodes"
        servers = "\n".join(f"        server {node} max_fails=1 fail_timeout=3s;" for node in nodes)
        # No keep-alive connections to the nodes: a node cut off from the network would hold
        # every request sent on one until the read timeout (the connect timeout, 2 s, never
        # applies to them), and a node closes an idle one after HTTP_KEEP_ALIVE_TIMEOUT
        # (5 s) while nginx may be sending on it (a POST then fails, not to be repeated).
        nodes_block = f"""    upstream table31_nodes {{
{servers}
    }}"""
    return f"""# Written by app/cluster/nginx.py: the front of a Table 31 cluster.
# Do not edit: it is written again (python -m app.cluster.nginx --help).
{head}

http {{
    log_format t31 '$remote_addr [$time_iso8601] "$request_method $uri" $status '
                   '$body_bytes_sent ${{request_time}}s node=$upstream_addr';
{paths}
    server_tokens off;
    client_max_body_size 64k;

    map $http_upgrade $t31_connection {{
        default upgrade;
        ''      close;
    }}

{nodes_block}

    server {{
        listen {listen};

        proxy_http_version 1.1;
        proxy_connect_timeout 2s;

        # a table's socket: to the node that owns the table
        location ~ "^/ws/tables/(?<t31_table>{TABLE_ID})$" {{
            auth_request /_table31_route;
            auth_request_set $t31_node $upstream_http_x_table31_node;
            proxy_pass http://$t31_node;
{FORWARDED}
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $t31_connection;
            proxy_read_timeout {socket_timeout};
            proxy_send_timeout {socket_timeout};
            proxy_buffering off;
        }}

        # asked by auth_request above: who owns the table (any node knows)
        location = /_table31_route {{
            internal;
            proxy_pass http://{pool}/api/cluster/route?table=$t31_table;
            proxy_pass_request_body off;
{FORWARDED}
            proxy_set_header Content-Length "";
            proxy_set_header Upgrade "";
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_502 http_503;
            proxy_read_timeout 5s;
        }}

        # pages, REST, /healthz, /metrics: any node. A 503 is not tried elsewhere: it says
        # the table is moving, and every node would say so (and be counted as failing).
        location / {{
            proxy_pass http://{pool};
{FORWARDED}
            proxy_next_upstream error timeout http_502;
            proxy_next_upstream_tries 3;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""


def _process(directory: Path | None, workers: int | str, access_log: bool) -> tuple[str, str]:
    """The top of nginx.conf (the process: user, pid, error log, limits) and the http block's
    paths (temporary files, access log)."""
    if directory is None:
        head = f"""worker_processes {workers};
error_log /dev/stderr warn;

events {{
    worker_connections 8192;
}}"""
        log = "access_log /dev/stdout t31;" if access_log else "access_log off;"
        return head, f"    {log}"
    d = directory.resolve()
    # as root the master would hand its workers to 'nobody', who may not enter a test's
    # temporary folder; the workers run as whoever started us instead
    user = "user root;\n" if os.geteuid() == 0 else ""
    files = open_file_limit()
    head = f"""{user}worker_processes {workers};
pid {d}/nginx.pid;
error_log {d}/error.log warn;
worker_rlimit_nofile {files};

events {{
    worker_connections {files // 2};
}}"""
    log = f"access_log {d}/access.log t31 buffer=32k flush=1s;" if access_log else "access_log off;"
    paths = "\n".join(
        f"    {kind}_temp_path {d}/temp/{folder};"
        for kind, folder in (
            ("client_body", "body"),
            ("proxy", "proxy"),
            ("fastcgi", "fastcgi"),
            ("uwsgi", "uwsgi"),
            ("scgi", "scgi"),
        )
    )
    return head, f"{paths}\n    {log}"


def open_file_limit(most: int = 65536) -> int:
    """Descriptors a worker may open: ``most``, or less if the hard limit is lower (a
    container's; nginx cannot raise it and says so in its log). Each socket through the front
    holds two: the client's and the node's."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return most if hard == resource.RLIM_INFINITY else min(most, hard)


def nginx_binary() -> str | None:
    """The nginx to run: ``NGINX`` if set, else the first on PATH or in /usr/sbin."""
    found = os.environ.get("NGINX") or shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None


def _term_with_parent() -> None:
    """SIGTERM (nginx: stop at once) when the parent's thread ends (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Front:
    """One nginx master process of our own, configured in ``directory``."""

    directory: Path
    listen: str
    nodes: list[str]
    workers: int | str = "auto"
    access_log: bool = True
    socket_timeout: str = SOCKET_READ_TIMEOUT
    binary: str = field(default_factory=lambda: nginx_binary() or "nginx")
    with_parent: bool = False
    """Stopped when the thread that started it ends (app/cluster/launcher.py)."""
    process: subprocess.Popen[bytes] | None = None

    @property
    def config(self) -> Path:
        return self.directory / "nginx.conf"

    @property
    def error_log(self) -> Path:
        return self.directory / "error.log"

    def write(self) -> Path:
        """Write nginx.conf (and the folders it names)."""
        for sub in ("temp/body", "temp/proxy", "temp/fastcgi", "temp/uwsgi", "temp/scgi"):
            (self.directory / sub).mkdir(parents=True, exist_ok=True)
        self.config.write_text(
            render(
                self.nodes,
                self.listen,
                self.directory,
                workers=self.workers,
                access_log=self.access_log,
                socket_timeout=self.socket_timeout,
            )
        )
        return self.config

    def _command(self, *extra: str) -> list[str]:
        d = str(self.directory.resolve())
        return [self.binary, "-p", d + "/", "-c", str(self.config.resolve()), *extra]

    def test(self) -> str:
        """``nginx -t`` on the written config: its output; raises RuntimeError if refused."""
        done = subprocess.run(
            self._command("-t", "-g", "daemon off;"),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"nginx refused {self.config}: {done.stderr.strip()}")
        return done.stderr

    def start(self, timeout: float = 10.0) -> None:
        """Write the config, check it, run nginx in the foreground of its own process group,
        and wait until it listens."""
        self.write()
        self.test()
        self.process = subprocess.Popen(
            self._command("-g", "daemon off;"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=open(self.directory / "stderr.log", "ab"),  # noqa: SIM115 - nginx keeps it
            start_new_session=True,
            preexec_fn=_term_with_parent if self.with_parent else None,
        )
        pid_file = self.directory / "nginx.pid"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped at start: see {self.error_log}")
            if pid_file.exists() and pid_file.read_text().strip() == str(self.process.pid):
                return
            time.sleep(0.05)
        raise RuntimeError(f"nginx did not start within {timeout} s: see {self.error_log}")

    def reload(self, nodes: Sequence[str] | None = None) -> None:
        """Write the config again (for ``nodes`` if given) and have the master load it
        (SIGHUP: new workers; the old ones finish the connections they hold)."""
        if nodes is not None:
            self.nodes = list(nodes)
        self.write()
        self.test()
        if self.running:
            assert self.process is not None
            self.process.send_signal(signal.SIGHUP)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """Stop nginx and its workers (SIGTERM: at once), waiting for the master to end."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout)
        # a worker orphaned by a master killed hard would keep the port
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


COMPOSE_CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.cluster.conf"
"""The front of docker-compose.yml's ``cluster`` profile, written by :func:`compose_config`."""


def compose_config() -> str:
    """deploy/nginx.cluster.conf: the replicas of the ``node`` service on port 8000, found by
    Docker's resolver, the front on 8000."""
    return render(["node:8000"], "8000", None, resolver="127.0.0.11")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m app.cluster.nginx",
        description="write deploy/nginx.cluster.conf (the compose front) again",
    )
    parser.parse_args()
    COMPOSE_CONFIG.parent.mkdir(exist_ok=True)
    COMPOSE_CONFIG.write_text(compose_config())
    print(f"wrote {COMPOSE_CONFIG}")
