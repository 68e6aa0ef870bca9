# marin-watch: the console answers with no configuration; `serve` runs the chat adapters.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# A CJK font for the Chinese text of the progress chart (answers/chart.py).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-wqy-zenhei \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY answers ./answers
COPY knowledge ./knowledge
RUN pip install . && useradd --create-home --uid 10001 marin \
    && mkdir -p /data && chown marin /data
USER marin
ENV MARIN_WATCH_DB_PATH=/data/marin-watch.sqlite3
VOLUME ["/data"]
ENTRYPOINT ["marin-watch"]
CMD ["serve"]
