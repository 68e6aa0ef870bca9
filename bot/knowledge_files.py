"""Writing the knowledge files: records as TOML text, and whole files replaced atomically.

What the curator appends must read like what a person would write in a pull request, and a
reader (``kb check``, a running ``serve``) must see the old file or the new, never half.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from knowledge.schema import EvidenceLink, Source


def replace_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: readers see the old file or the new, never half."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def restore(originals: dict[Path, bytes]) -> None:
    for path, data in originals.items():
        if not path.exists() or path.read_bytes() != data:
            replace_atomically(path, data)


def source_toml(s: Source) -> str:
    lines = [
        "[[source]]",
        f"id = {toml_string(s.id)}",
        f"title = {toml_string(s.title)}",
        *([f"url = {toml_string(str(s.url))}"] if s.url else []),
        f"kind = {toml_string(str(s.kind))}",
        f"publisher = {toml_string(s.publisher)}",
        f"published = {s.published.isoformat()}",
        f"excerpts = [{', '.join(toml_string(e) for e in s.excerpts)}]",
    ]
    return "\n".join(lines) + "\n"


def link_toml(link: EvidenceLink) -> str:
    lines = [
        "[[link]]",
        f"claim = {toml_string(link.claim)}",
        f"source = {toml_string(link.source)}",
        f"stance = {toml_string(str(link.stance))}",
        f"strength = {toml_string(str(link.strength))}",
        f"recorded = {link.recorded.isoformat()}",
        f"quote = {toml_string(link.quote)}",
    ]
    return "\n".join(lines) + "\n"


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\b": "\\b",
    "\f": "\\f",
}


def toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
