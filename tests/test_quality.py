"""One command runs every check: the linters run as tests, so `pytest` is the whole gate."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_ruff_is_clean() -> None:
    done = subprocess.run(
        [_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_data_file_is_shipped_in_the_package() -> None:
    """A non-editable install (the Docker image) has only what package-data lists: a data file
    it misses (as examples.tsv once was) breaks every answer there, never in a checkout."""
    import fnmatch
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = config["tool"]["setuptools"]["package-data"]
    for package in ("answers", "knowledge"):
        base = ROOT / package
        for path in base.rglob("*"):
            if path.is_file() and "data" in path.relative_to(base).parts[:1]:
                rel = path.relative_to(base).as_posix()
                globs = shipped.get(package, [])
                assert any(fnmatch.fnmatch(rel, g) for g in globs), f"{package}/{rel} not shipped"
