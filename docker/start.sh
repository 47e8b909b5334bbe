#!/bin/sh
# The container's start: wait for the database, run the migrations, then serve.
# Run directly (no Docker) the same way: DATABASE_URL=... sh docker/start.sh
set -eu

python - <<'PY'
import asyncio, os, sys, time
from sqlalchemy import text
from app.db.session import make_engine

url = os.environ.get("DATABASE_URL", "")
deadline = time.monotonic() + float(os.environ.get("DB_WAIT_SECONDS", "60"))

async def ping() -> None:
    engine = make_engine(url) if url else None
    if engine is None:
        return
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    finally:
        await engine.dispose()

while True:
    try:
        asyncio.run(ping())
        break
    except Exception as exc:
        if time.monotonic() > deadline:
            print(f"start: the database is not reachable: {exc}", file=sys.stderr)
            sys.exit(1)
        print("start: waiting for the database...", file=sys.stderr)
        time.sleep(1)
PY

alembic upgrade head
exec python -m app serve
