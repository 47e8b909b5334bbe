"""A table's actor (:class:`app.runtime.table.actor.TableActor`), one per open table, in
rooms of one job each: the actor, seating, the hand record, voiding, broadcast, house sync,
clocks and bots, and the wording of errors (docs/architecture.md).
"""
