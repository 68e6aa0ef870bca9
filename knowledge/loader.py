"""Read the curated TOML files into a validated ``KnowledgeBase``.

Every problem is reported with its file and field, all at once, so a curator can fix a pull
request in one pass; a knowledge base with any problem is refused whole.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from knowledge.check import integrity_problems
from knowledge.errors import KnowledgeInvalid, Problem
from knowledge.knowledge_base import KnowledgeBase
from knowledge.progress import Observation, as_claims
from knowledge.schema import Claim, Correction, EvidenceLink, Source, WatchPoint

DEFAULT_DIR = Path(__file__).parent / "data"

# file name → (table name in the file, model)
FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "sources.toml": ("source", Source),
    "claims.toml": ("claim", Claim),
    "evidence.toml": ("link", EvidenceLink),
    "watch.toml": ("watch", WatchPoint),
    "corrections.toml": ("correction", Correction),
    "progress.toml": ("observation", Observation),
}

M = TypeVar("M", bound=BaseModel)


def load(directory: Path | None = None, *, today: dt.date | None = None) -> KnowledgeBase:
    """Load and check the knowledge base; raise ``KnowledgeInvalid`` listing every problem."""
    kb, problems = load_with_problems(directory, today=today)
    if problems:
        raise KnowledgeInvalid(problems)
    return kb


def load_with_problems(
    directory: Path | None = None, *, today: dt.date | None = None
) -> tuple[KnowledgeBase, list[Problem]]:
    directory = directory or DEFAULT_DIR
    problems: list[Problem] = []
    declared: set[str] = set()  # ids of entries, valid or not: one broken entry, one problem
    sources = _read(directory, "sources.toml", Source, problems, declared)
    claims = _read(directory, "claims.toml", Claim, problems, declared)
    links = _read(directory, "evidence.toml", EvidenceLink, problems, declared)
    before = len(problems)
    watch = _read(directory, "watch.toml", WatchPoint, problems, declared)
    if not watch and len(problems) == before:  # read fine, and holds nothing
        problems.append(
            Problem(
                "watch.toml", "watch", "no [[watch]] points: the watchers would look at nothing"
            )
        )
    corrections = _read(directory, "corrections.toml", Correction, problems, declared)
    observations = _read(directory, "progress.toml", Observation, problems, declared)
    # Each observation is a status claim with its links: checked like every other claim.
    progress_claims, progress_links = as_claims(observations)
    claims += progress_claims
    links += progress_links
    problems += integrity_problems(
        sources,
        claims,
        links,
        watch,
        today=today or dt.date.today(),
        broken=declared,
        corrections=corrections,
    )
    kb = KnowledgeBase(
        sources={s.id: s for s in sources},
        claims={c.id: c for c in claims},
        links=[
            link
            for link in links
            if link.source in {s.id for s in sources} and link.claim in {c.id for c in claims}
        ],
        watch_points=sorted(watch, key=lambda w: w.order),
        corrections=[c for c in corrections if c.claim in {c.id for c in claims}],
        observations=sorted(observations, key=lambda o: (o.date, o.step)),
    )
    return kb, problems


def _read(
    directory: Path, name: str, model: type[M], problems: list[Problem], broken: set[str]
) -> list[M]:
    table, _ = FILES[name]
    path = directory / name
    if path.exists() and not path.is_file():
        # a FIFO or a device would block the read for ever (kb check, ask and serve with it)
        problems.append(Problem(name, "(file)", "not a regular file; expected a TOML file"))
        return []
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        problems.append(Problem(name, "(file)", f"missing; expected at {path}"))
        return []
    except OSError as exc:
        problems.append(Problem(name, "(file)", f"cannot be read: {exc.strerror}"))
        return []
    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problems.append(Problem(name, f"byte {exc.start}", "not valid UTF-8"))
        return []
    except tomllib.TOMLDecodeError as exc:
        problems.append(Problem(name, "(syntax)", str(exc)))
        return []
    except RecursionError:  # tomllib recurses per nesting level: a hostile file ends it here
        problems.append(Problem(name, "(syntax)", "nested too deeply (arrays or tables)"))
        return []
    unknown = sorted(set(data) - {table})
    if unknown:
        problems.append(
            Problem(name, ", ".join(unknown), f"unknown table; this file holds [[{table}]] only")
        )
    entries = data.get(table, [])
    if not isinstance(entries, list):
        problems.append(Problem(name, table, f"must be an array of tables: [[{table}]]"))
        return []
    out: list[M] = []
    for index, entry in enumerate(entries):
        label = _label(table, index, entry)
        try:
            out.append(model.model_validate(entry))
        except ValidationError as exc:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                broken.add(entry["id"])
            for err in exc.errors():
                field = ".".join(str(part) for part in err["loc"]) or "(entry)"
                problems.append(Problem(name, f"{label} → {field}", err["msg"]))
    return out


def _label(table: str, index: int, entry: object) -> str:
    if isinstance(entry, dict) and isinstance(entry.get("id"), str):
        return f"{table} '{entry['id']}'"
    if isinstance(entry, dict) and isinstance(entry.get("claim"), str):
        return f"{table}[{index}] (claim '{entry['claim']}', source '{entry.get('source')}')"
    return f"{table}[{index}]"
