"""The curator's acts on a signal: promote it into the knowledge files, or dismiss it.

Promotion is the only way a watcher's finding becomes evidence, and it goes through the same
files a curator edits by hand: a ``[[source]]`` is appended to ``sources.toml`` (unless the
record is already there) and a ``[[link]]`` to ``evidence.toml``, as plain TOML text with a
comment naming the signal, so the change reads well in a pull request. The knowledge base is
then reloaded and checked exactly as ``kb check`` does; if anything is wrong, both files are
restored as they were (``knowledge_files``) and nothing is recorded. Files that cannot be written
(a root-owned site-packages in Docker) are refused before a byte is written.

A claim with an ``as_of`` is a status snapshot: its statement says what the run looked like
on that date. Linking a newer record to it moves the evidence on but not the words, so the
promotion carries a warning (``snapshot_warning``) telling the curator to add a new claim or
update the statement in the same pull request.
"""

from __future__ import annotations

import datetime as dt
import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path

from pydantic import ValidationError

from bot.knowledge_files import link_toml, replace_atomically, restore, source_toml
from bot.store.signals import SignalStore
from bot.watchers.signal import Signal, SignalState
from knowledge.audit import quote_found
from knowledge.clock import Clock
from knowledge.errors import CuratorError
from knowledge.knowledge_base import KnowledgeBase
from knowledge.loader import DEFAULT_DIR, load_with_problems
from knowledge.schema import Claim, EvidenceLink, Level, Source, SourceKind, Stance, Strength

QUOTE_CHARS = 300


@dataclass(frozen=True)
class Promotion:
    signal: Signal
    source_id: str
    new_source: bool
    link: EvidenceLink
    before: Level
    after: Level
    warnings: tuple[str, ...] = ()  # done, but the curator has more to do in the same PR


class Curator:
    def __init__(self, store: SignalStore, kb_dir: Path | None, *, clock: Clock) -> None:
        self.store = store
        self.kb_dir = kb_dir or DEFAULT_DIR
        self.clock = clock

    def find(self, wanted: str) -> Signal:
        """A signal by id, or by an unambiguous prefix of its id."""
        found = self.store.signal(wanted)
        if found is not None:
            return found
        ids = self.store.signal_ids(wanted)
        if len(ids) == 1:
            match = self.store.signal(ids[0])
            assert match is not None  # listed just above
            return match
        if ids:
            raise CuratorError(f"{wanted!r} matches several signals: {', '.join(ids)}")
        raise CuratorError(f"no signal {wanted!r} (see marin-watch signals list --all)")

    def dismiss(self, wanted: str, *, reason: str | None = None) -> Signal:
        signal = self.find(wanted)
        if signal.state is SignalState.PROMOTED:
            raise CuratorError(
                f"signal {signal.id} was promoted ({signal.review}); to undo, remove its "
                "link from evidence.toml in a pull request"
            )
        if signal.state is SignalState.DISMISSED:
            raise CuratorError(f"signal {signal.id} is already dismissed ({signal.review})")
        return self.store.review(
            signal.id, SignalState.DISMISSED, note=reason or "dismissed", now=self.clock()
        )

    def promote(
        self,
        wanted: str,
        *,
        claim: str,
        stance: Stance,
        strength: Strength,
        quote: str | None = None,
        kind: SourceKind | None = None,
    ) -> Promotion:
        with self.exclusive():
            return self._promote(wanted, claim, stance, strength, quote, kind)

    def _promote(
        self,
        wanted: str,
        claim: str,
        stance: Stance,
        strength: Strength,
        quote: str | None,
        kind: SourceKind | None,
    ) -> Promotion:
        signal = self.find(wanted)
        today = self.clock().date()
        kb = self.load_checked(today)
        if claim not in kb.claims:
            close = get_close_matches(claim, list(kb.claims), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise CuratorError(f"no claim {claim!r} in claims.toml{hint}")
        source_id, source = source_for(signal, kb, kind)
        if any(link.source == source_id for link in kb.links_by_claim.get(claim, ())):
            raise CuratorError(f"claim {claim!r} is already linked to source {source_id!r}")
        try:
            link = EvidenceLink(
                claim=claim,
                source=source_id,
                stance=stance,
                strength=strength,
                quote=quote or _quote(signal, kb.sources.get(source_id) or source),
                recorded=today,
            )
        except ValidationError as exc:
            raise CuratorError(f"the evidence link would be invalid: {exc}") from exc
        before = kb.assessment(claim).level
        stamp = f"# promoted from signal {signal.id} on {today} (marin-watch signals promote)\n"
        appends = {"evidence.toml": stamp + link_toml(link)}
        if source is not None:
            appends["sources.toml"] = stamp + source_toml(source)
        after_kb = self.commit(appends, today)
        published = kb.sources[source_id].published if source is None else source.published
        stale = snapshot_warning(kb.claims[claim], published)
        note = f"{claim} {stance} {strength} via source {source_id}"
        reviewed = self.store.review(signal.id, SignalState.PROMOTED, note=note, now=self.clock())
        return Promotion(
            signal=reviewed,
            source_id=source_id,
            new_source=source is not None,
            link=link,
            before=before,
            after=after_kb.assessment(claim).level,
            warnings=() if stale is None else (stale,),
        )

    def load_checked(self, today: dt.date) -> KnowledgeBase:
        kb, problems = load_with_problems(self.kb_dir, today=today)
        if problems:
            raise CuratorError(
                f"the knowledge base already has {len(problems)} problem(s) (marin-watch kb "
                f"check); fix them before promoting. First: {problems[0]}"
            )
        return kb

    def commit(self, appends: dict[str, str], today: dt.date) -> KnowledgeBase:
        """Append to the files and run kb check; on any problem put every file back."""
        with self.appended(appends):
            after, problems = load_with_problems(self.kb_dir, today=today)
            if problems:
                listed = "\n".join(f"  - {p}" for p in problems)
                raise CuratorError(f"promotion rolled back; kb check failed:\n{listed}")
        return after

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """One promotion at a time on these files, across processes: six curators promoting
        at once used to interleave their read-modify-write and leave a broken sources.toml."""
        # The directory itself is locked: no lock file to create in a read-only checkout.
        try:
            fd = os.open(self.kb_dir, os.O_RDONLY)
        except OSError as exc:
            raise CuratorError(f"cannot open {self.kb_dir}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    @contextmanager
    def appended(self, appends: dict[str, str]) -> Iterator[None]:
        """Append text to the files, each replaced whole and atomically (a temp file, fsync,
        rename); if the block raises, every file gets its exact former bytes back.

        Every file is read before any is written, so one that cannot be read leaves all of
        them as they were.
        """
        originals: dict[Path, bytes] = {}
        try:
            for name in appends:
                path = self.kb_dir / name
                originals[path] = path.read_bytes()
                # a rename would replace a read-only file: its mode is honoured here (even
                # for root, who may write anything: a file marked read-only stays as it is)
                if not os.access(path, os.W_OK) or not path.stat().st_mode & stat.S_IWUSR:
                    raise PermissionError(errno.EACCES, "Permission denied", str(path))
            for name, text in appends.items():
                path = self.kb_dir / name
                data = originals[path]
                joint = b"\n" if data.endswith(b"\n") else b"\n\n"
                replace_atomically(path, data + joint + text.encode("utf-8"))
        except OSError as exc:
            restore(originals)
            raise CuratorError(
                f"cannot update {exc.filename or self.kb_dir}: {exc.strerror or exc}; nothing "
                "was changed. Promotion edits the knowledge files: point MARIN_WATCH_KB_DIR at a "
                "writable checkout of knowledge/data and run it again"
            ) from exc
        try:
            yield
        except BaseException:
            restore(originals)
            raise


def snapshot_warning(claim: Claim, published: dt.date) -> str | None:
    """The warning for linking a record published after a status snapshot's date, or None."""
    if claim.as_of is None or published <= claim.as_of:
        return None
    return (
        f"claim {claim.id} is a status snapshot: its statement describes {claim.as_of}, and "
        f"this record is from {published}. Linking it does not change what the answer says; "
        "add a new claim (or update the statement and as_of) in the same pull request"
    )


def source_for(
    signal: Signal, kb: KnowledgeBase, kind: SourceKind | None
) -> tuple[str, Source | None]:
    """The record's source id, and the Source to append when it is not in the KB yet."""
    if signal.id in kb.sources:  # promoted before, to another claim
        return signal.id, None
    # A changed page (url == watched) is a new version of a record; anything else with the
    # URL of a curated record *is* that record.
    if signal.url != signal.watched:
        for s in kb.sources.values():
            if s.url is not None and _same_url(str(s.url), signal.url):
                return s.id, None
    try:
        source = Source(
            id=signal.id,
            title=signal.title,
            url=signal.url,
            kind=kind or signal.kind,
            publisher=signal.publisher,
            published=signal.date.astimezone(dt.UTC).date(),
            # The fetched words are the record's own: link quotes are checked against them.
            excerpts=[signal.excerpt or signal.title],
        )
    except ValidationError as exc:
        raise CuratorError(f"signal {signal.id} does not make a valid source: {exc}") from exc
    return source.id, source


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


def _quote(signal: Signal, source: Source | None) -> str:
    """The signal's words, cut to a quote; for a curated record that does not hold them, the
    record's first excerpt (a quote must be the record's words as the KB holds them)."""
    text = signal.excerpt or signal.title
    if source is not None and source.excerpts and not quote_found(text, source):
        text = source.excerpts[0]
    if len(text) <= QUOTE_CHARS:
        return text
    return text[:QUOTE_CHARS].rsplit(" ", 1)[0] + "…"
