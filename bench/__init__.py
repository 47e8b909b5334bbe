"""Benchmarks of speed and scale on one machine (docs/performance.md).

* ``python -m bench.load``: the server and a bare FastAPI WebSocket endpoint side by side,
  driven over real sockets by the same lightweight clients.
* ``python -m bench.engines``: the pure engines' hands per second, and the database's
  settled hands per second on SQLite and PostgreSQL.
"""
