# Table 31: one process serving the lobby, the tables and the history; with NODE_ID and
# REDIS_URL, one node of a cluster (docker-compose.yml's "cluster" profile, app/cluster/).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    ENVIRONMENT=production \
    DATABASE_URL=sqlite+aiosqlite:////data/table31.db

WORKDIR /app

# Dependencies first, from the lock of exact versions (runtime only).
COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY alembic.ini ./
COPY app ./app
# The catalogs compiled (the .mo files are build products, docs/i18n.md).
RUN pybabel -q compile -d app/i18n/locale -D messages && pybabel -q compile -d app/i18n/locale -D js
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
# The docs, for the rule book: the "How to play" pages are rendered from docs/rules.md.
COPY docs ./docs
COPY docker/start.sh ./docker/start.sh

RUN useradd --create-home --uid 10001 table31 \
    && mkdir -p /data && chown table31:table31 /data
USER table31

VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=4)"

# Migrations, then the server (graceful shutdown on SIGTERM: hands void, stakes back).
CMD ["sh", "docker/start.sh"]
