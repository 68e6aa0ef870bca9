"""The app on PostgreSQL: MARIN_WATCH_DATABASE_URL selects it, and its password never shows."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from bot.config import Settings
from bot.context import AppContext
from bot.store.contract import Destination, Subscription
from bot.store.postgres import PostgresStore
from tests.pg_server import GUARDED, GUARDED_PASSWORD, PgServer

ROOT = Path(__file__).resolve().parents[2]


def test_the_url_selects_postgres_and_a_subscription_lists_without_the_password(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.create_database()
    try:
        ctx = AppContext(
            Settings(database_url=url, db_path=tmp_path / "unused.sqlite3")  # type: ignore[arg-type]
        )
        store = ctx.store
        assert isinstance(store, PostgresStore)
        store.subscribe(Subscription(Destination("telegram", "1001"), "en", dt.time(9), "UTC"))
        ctx.close()
        env = {**os.environ, "MARIN_WATCH_DATABASE_URL": url}
        listed = subprocess.run(
            [sys.executable, "-m", "bot.cli", "subscriptions", "list"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
            env=env,
        )
        assert listed.returncode == 0, listed.stderr
        assert "telegram" in listed.stdout and "1001" in listed.stdout
        assert not (tmp_path / "unused.sqlite3").exists()  # no SQLite file made beside it
    finally:
        pg_server.drop_database(url)


def test_a_wrong_password_is_one_line_that_never_shows_it(pg_server: PgServer) -> None:
    wrong = pg_server.url(user=GUARDED, password=GUARDED_PASSWORD + "-wrong")
    env = {**os.environ, "MARIN_WATCH_DATABASE_URL": wrong}
    listed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "subscriptions", "list"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert listed.returncode != 0
    assert GUARDED_PASSWORD not in listed.stderr + listed.stdout
    assert "Traceback" not in listed.stderr
    assert len(listed.stderr.strip().splitlines()) == 1, listed.stderr
