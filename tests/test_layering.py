"""The architecture, held by reading the imports (the AST, not a diagram that can drift).

bot/adapters/ (console, telegram, discord)   translate + send; start and stop
bot/chat/                                    what a person can say, on any platform
bot/ (core, digest, store, watchers, …)      answering, digests, persistence, sources
answers/                                     matching, templates, render + caveat
knowledge/                                   data, schema, confidence, errors, clock
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("knowledge", "answers", "bot")
MAX_LINES = 300
SDKS = ("discord", "telegram")
# Names that say nothing of what a module holds (four runner.py once did).
VAGUE = {"runner", "service", "base", "utils", "util", "helpers", "common", "misc", "stuff"}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = modules()


def imports(path: Path, *, runtime_only: bool = False) -> Iterator[str]:
    """Every module ``path`` imports (``runtime_only``: not those under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped.update(id(n) for n in ast.walk(node))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            yield base
            for alias in node.names:  # "from bot.chat import args" imports bot.chat.args
                if f"{base}.{alias.name}" in MODULES:
                    yield f"{base}.{alias.name}"


def ours(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def layer_of(module: str) -> str:
    return module.split(".")[0]


@pytest.mark.parametrize("module", [m for m in MODULES if layer_of(m) == "knowledge"])
def test_knowledge_imports_nothing_of_ours_but_itself(module: str) -> None:
    found = {i for i in imports(MODULES[module]) if ours(i) and layer_of(i) != "knowledge"}
    assert found == set(), f"{module} imports {found}"


@pytest.mark.parametrize("module", [m for m in MODULES if layer_of(m) == "answers"])
def test_answers_stand_on_knowledge_only(module: str) -> None:
    found = {i for i in imports(MODULES[module]) if ours(i) and layer_of(i) == "bot"}
    assert found == set(), f"{module} imports {found}"


def _adapter(module: str) -> str | None:
    """The platform of an adapter module (``bot.adapters.telegram.app`` → telegram)."""
    parts = module.split(".")
    if parts[:2] != ["bot", "adapters"] or len(parts) < 3:
        return None
    return parts[2]


@pytest.mark.parametrize("module", list(MODULES))
def test_no_chat_sdk_outside_its_adapter(module: str) -> None:
    platform = _adapter(module)
    for sdk in SDKS:
        if platform == sdk:
            continue
        used = [i for i in imports(MODULES[module]) if i.split(".")[0] == sdk]
        assert used == [], f"{module} imports {used}"


@pytest.mark.parametrize("module", [m for m in MODULES if _adapter(m)])
def test_adapters_never_import_each_other_the_store_sql_or_serve(module: str) -> None:
    platform = _adapter(module)
    for imported in imports(MODULES[module]):
        other = _adapter(imported)
        assert other in (None, platform), f"{module} imports the {other} adapter"
        assert imported not in ("bot.serve", "bot.context", "sqlite3"), f"{module}: {imported}"
        assert not imported.startswith("bot.store.sqlite"), f"{module}: {imported}"
        assert imported != "bot.store.signals", f"{module}: {imported}"


def test_no_import_cycles() -> None:
    graph = {
        m: {i for i in imports(p, runtime_only=True) if i in MODULES and i != m}
        for m, p in MODULES.items()
    }
    # a package's __init__ importing its own modules is how packages work, not a cycle
    for m, deps in graph.items():
        graph[m] = {d for d in deps if not d.startswith(m + ".")}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                cycle = path[path.index(d) :] + [d]
                raise AssertionError("import cycle: " + " → ".join(cycle))
            if d not in state:
                visit(d)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


@pytest.mark.parametrize("module", list(MODULES))
def test_no_module_is_over_300_lines(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[module].relative_to(ROOT)}: {lines} lines"


def test_modules_are_named_by_role() -> None:
    """No vague names, and no two modules share one, except the same role on each platform
    (``telegram/sender.py``, ``discord/sender.py``) and the CLI commands named after theirs."""
    vague = [m for m in MODULES if m.split(".")[-1] in VAGUE]
    assert vague == []
    names = Counter(
        m.split(".")[-1]
        for m, p in MODULES.items()
        if p.name != "__init__.py" and not _adapter(m) and not m.startswith("bot.commands.")
    )
    assert [n for n, c in names.items() if c > 1] == []
