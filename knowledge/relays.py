"""Relay chains between sources: a relay names the record it repeats, never in a circle."""

from __future__ import annotations

from knowledge.errors import Problem
from knowledge.schema import Source


def relay_cycles(by_id: dict[str, Source]) -> list[Problem]:
    """Sources that relay each other in a circle: no chain of relays may come back to itself
    (a relay is traced back to its origin when levels are derived)."""
    problems: list[Problem] = []
    reported: set[str] = set()
    for start in by_id:
        chain = [start]
        current = by_id[start].relays
        while current is not None and current in by_id:
            if current in chain:
                cycle = chain[chain.index(current) :]
                if not reported & set(cycle):
                    reported |= set(cycle)
                    path = " → ".join([*cycle, current])
                    problems.append(
                        Problem(
                            "sources.toml", f"source '{current}' → relays", f"relay cycle: {path}"
                        )
                    )
                break
            chain.append(current)
            current = by_id[current].relays
    return problems
