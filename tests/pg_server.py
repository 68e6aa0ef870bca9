"""A throwaway PostgreSQL server for the tests and the store benchmark, from the machine's binaries.

    with PgServer.start() as server:        # initdb + pg_ctl start in a temp directory
        url = server.create_database()      # a fresh, empty database: postgresql://…
        ...
    # stopped (pg_ctl stop) and its directory deleted

It listens on a unix socket in its own directory and nowhere else (``listen_addresses = ''``),
so it never clashes with a real server or another run. ``initdb`` refuses to run as root:
under root (CI, containers) every server command runs as ``nobody``, which owns the directory
(``subprocess``'s ``user=``/``group=``, the same ``setresuid`` that ``setpriv`` does).

Durability is off (``fsync``, ``synchronous_commit``): the data lives for one test session.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

INSTALL = "apt-get install postgresql (.ci/run installs it)"
SUPERUSER = "postgres"
# A role that must give its password (the rest of the socket is trust): the tests of
# password redaction log in as it, right and wrong.
GUARDED = "guarded"
GUARDED_PASSWORD = "s3cret-Pa55word"
STARTUP_TIMEOUT = 60


def binaries() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: on PATH, or Debian's /usr/lib/postgresql/N/bin."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(versions[-1]).parent if versions else None


def binaries_or_skip() -> Path:
    """The binaries; skips the caller where there are none, but fails under CI=true."""
    found = binaries()
    if found is None:
        reason = f"the PostgreSQL server binaries (initdb, pg_ctl) are not installed: {INSTALL}"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{reason}; CI must run the PostgreSQL tests, not skip them")
        pytest.skip(reason)
    return found


def database_of(url: str) -> str:
    return str(conninfo_to_dict(url)["dbname"])


@dataclass
class PgServer:
    directory: Path  # holds the data folder, the socket and the log
    bin: Path
    as_user: tuple[int, int] | None  # (uid, gid) to run the server as, when we are root
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    @contextmanager
    def start(cls, bin: Path | None = None) -> Iterator[PgServer]:
        found = bin or binaries()
        if found is None:
            raise RuntimeError(f"no PostgreSQL server binaries: {INSTALL}")
        as_user = None
        if os.geteuid() == 0:
            try:
                nobody = pwd.getpwnam("nobody")
            except KeyError:
                raise RuntimeError(
                    "running as root, and no user 'nobody' to run initdb as"
                ) from None
            as_user = (nobody.pw_uid, nobody.pw_gid)
        # Under /tmp: a short path (a socket's is limited to ~100 bytes), and one that
        # 'nobody' can reach, unlike a TMPDIR inside root's home.
        directory = Path(tempfile.mkdtemp(prefix="marin-pg-", dir="/tmp" if as_user else None))
        if as_user:
            os.chown(directory, *as_user)
        server = cls(directory, found, as_user)
        try:
            server._init()
            server._run(
                "pg_ctl",
                "start",
                "--wait",
                f"--timeout={STARTUP_TIMEOUT}",
                "-D",
                str(server.data),
                "-l",
                str(server.log),
            )
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        try:
            server._create_guarded_role()
            yield server
        finally:
            server.stop()

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def log(self) -> Path:
        return self.directory / "server.log"

    def url(self, database: str = "postgres", *, user: str = SUPERUSER, password: str = "") -> str:
        """A libpq URL to ``database`` over this server's socket."""
        login = f"{user}:{password}" if password else user
        return f"postgresql://{login}@/{database}?host={self.directory}"

    def create_database(self) -> str:
        """A fresh, empty database (from template0); its URL."""
        name = f"test_{next(self._names)}"
        with self.admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = database_of(url)
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    @contextmanager
    def admin(self, database: str = "postgres") -> Iterator[psycopg.Connection[tuple[object, ...]]]:
        with psycopg.connect(self.url(database), autocommit=True) as conn:
            yield conn

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "--wait", "-m", "fast", "-D", str(self.data))
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)

    def _init(self) -> None:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        )
        settings = {
            "listen_addresses": "''",  # no TCP: the socket below only
            "unix_socket_directories": f"'{self.directory}'",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "log_min_messages": "warning",
        }
        with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())
        (self.data / "pg_hba.conf").write_text(
            f"local all {GUARDED} scram-sha-256\nlocal all all trust\n", encoding="utf-8"
        )

    def _create_guarded_role(self) -> None:
        with self.admin() as conn:
            conn.execute(f"CREATE ROLE {GUARDED} LOGIN CREATEDB PASSWORD '{GUARDED_PASSWORD}'")

    def _run(self, program: str, *args: str) -> None:
        user, group = self.as_user if self.as_user else (None, None)
        done = subprocess.run(
            [str(self.bin / program), *args],
            capture_output=True,
            text=True,
            timeout=STARTUP_TIMEOUT + 30,
            cwd=self.directory,  # readable by the server's user, unlike root's home
            user=user,
            group=group,
            extra_groups=[] if self.as_user else None,
            env={**os.environ, "LC_ALL": "C"},
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{log}"
            )
