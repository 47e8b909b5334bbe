"""The persistence queue: every write runs here, in order, off the server's event loop.

Table actors never wait on the database to apply an action (a slow database delays
settlement records, not play). They hand a job (an async function of a session) to the
writer; the writer runs the jobs in submission order, so a hand's record always lands
after the seat it was played from and before the leave that follows it. Jobs queued
together are written in one transaction, so a busy server settles many hands per commit;
should one fail, the batch is written again with each job in a savepoint of its own, so
one failing job never takes the others with it (:mod:`app.db.writer.batch`).
Callers that need the answer (a buy-in checks the bankroll) await the job's future; the
others let it run.

One interface (:class:`app.db.writer.base.DatabaseWriter`), two forms, chosen by
``DATABASE_WRITER`` (:func:`app.db.writer.factory.make_writer`): a process of its own, the
server's default (:mod:`app.db.writer.process`, whose child is :mod:`app.db.writer.child`),
or a thread of the server's (:mod:`app.db.writer.thread`). Either way the main loop only
queues a job; the statements, the driver's round trips and the commits happen elsewhere
(docs/performance.md, item 1).
"""
