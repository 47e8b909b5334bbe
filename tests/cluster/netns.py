"""A node in a network namespace of its own, so that a test can cut it off from everything.

A namespace per node port: ``t31-<port>``, joined to the host by a veth pair (``t31h<port>``
on the host, ``t31n<port>`` inside) on a /30 of 10.231.0.0/16 chosen by the port (a node's port
is unique on the machine while it runs, so concurrent test runs on different ports never share
a name or an address). PostgreSQL and Redis listen on 127.0.0.1 only: a socat in the host's
namespace forwards ``<host side ip>:<port>`` to ``127.0.0.1:<port>`` for each. The front
(nginx, in the host's namespace) reaches the node at its namespace address.

:meth:`Namespace.cut_off` sets the node's side of the link down: the node loses PostgreSQL,
Redis and the front at once. The host keeps its route (marked ``linkdown``), so what is sent to
the node is lost and times out, as when a machine's network goes (with the host's side down
instead, the route would go and the host would send the node's traffic to its default
gateway); inside, the node's own route is gone. :meth:`Namespace.reconnect` sets it up again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass, field


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20, check=check)


def netns_problem() -> str | None:
    """Why a node cannot be put in a namespace here, or None."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if not shutil.which("ip"):
        return "iproute2 (ip) is not installed"
    if not shutil.which("socat"):
        return "socat is not installed (apt-get install socat)"
    probe = _ip("netns", "list", check=False)
    if probe.returncode != 0:
        return f"ip netns does not work here: {probe.stderr.strip()}"
    return None


def addresses(port: int) -> tuple[str, str]:
    """(host side, node side) addresses of the /30 for the node on ``port``."""
    base = (port % 16384) * 4
    prefix = f"10.231.{base >> 8}."
    low = base & 255
    return prefix + str(low + 1), prefix + str(low + 2)


@dataclass
class Namespace:
    """The namespace, link and forwarders of the node on ``port``; ``forward`` are the ports
    on 127.0.0.1 to reach from inside (PostgreSQL's, Redis's)."""

    port: int
    forward: tuple[int, ...]
    forwarders: list[subprocess.Popen[bytes]] = field(default_factory=list)
    up: bool = False

    @property
    def name(self) -> str:
        return f"t31-{self.port}"

    @property
    def host_link(self) -> str:
        return f"t31h{self.port}"

    @property
    def node_link(self) -> str:
        return f"t31n{self.port}"

    @property
    def host_ip(self) -> str:
        return addresses(self.port)[0]

    @property
    def node_ip(self) -> str:
        return addresses(self.port)[1]

    @property
    def prefix(self) -> list[str]:
        """The command prefix that runs a program inside."""
        return ["ip", "netns", "exec", self.name]

    def create(self) -> None:
        """The namespace, its link up, and the forwarders (what an earlier run on this port
        left behind is removed first)."""
        self.remove()
        _ip("netns", "add", self.name)
        _ip("link", "add", self.host_link, "type", "veth", "peer", "name", self.node_link)
        _ip("link", "set", self.node_link, "netns", self.name)
        _ip("addr", "add", f"{self.host_ip}/30", "dev", self.host_link)
        _ip("link", "set", self.host_link, "up")
        inside = ["netns", "exec", self.name, "ip"]
        _ip(*inside, "addr", "add", f"{self.node_ip}/30", "dev", self.node_link)
        _ip(*inside, "link", "set", self.node_link, "up")
        _ip(*inside, "link", "set", "lo", "up")
        for port in self.forward:
            self.forwarders.append(
                subprocess.Popen(
                    [
                        "socat",
                        f"TCP-LISTEN:{port},bind={self.host_ip},reuseaddr,fork",
                        f"TCP:127.0.0.1:{port}",
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
        self.up = True

    def cut_off(self) -> None:
        """The link down at the node's end: nothing goes in or out any more."""
        _ip("netns", "exec", self.name, "ip", "link", "set", self.node_link, "down")

    def reconnect(self) -> None:
        _ip("netns", "exec", self.name, "ip", "link", "set", self.node_link, "up")

    def remove(self) -> None:
        """Forwarders stopped, link and namespace deleted (quietly, if already gone)."""
        for forwarder in self.forwarders:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(forwarder.pid, signal.SIGKILL)
            forwarder.wait(5)
        self.forwarders.clear()
        _ip("link", "del", self.host_link, check=False)
        _ip("netns", "del", self.name, check=False)
        self.up = False
