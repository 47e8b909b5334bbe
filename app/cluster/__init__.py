"""Cluster mode: several nodes serve the tables, each table's actor in exactly one of them.

A node is this same server started with ``NODE_ID`` and ``REDIS_URL`` on PostgreSQL
(app/core/config.py). A table belongs to one node through a lease in PostgreSQL whose epoch
fences every write for that table (app/db/store/leases.py, fence.py); nginx in front routes a
table's socket to its owner (nginx.py); Redis carries what the nodes share (bus.py, board.py,
forward.py); the house of Trente et Quarante is reserved in PostgreSQL (house.py; its queries:
app/db/store/house_bank.py); node.py runs a node's side of it all. docs/scaling.md tells how it
fits together and what it costs.
"""
