"""Small rendering helpers: shortened statements and readable watch-point links."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from answers.render import page_url, shorten
from bot.core import Core
from knowledge.clock import fixed_clock
from knowledge.loader import DEFAULT_DIR, load
from tests.conftest import TODAY


def test_api_endpoints_are_shown_as_pages_people_can_open() -> None:
    api = "https://api.github.com/repos/marin-community/marin"
    assert page_url(f"{api}/issues/8506/comments") == (
        "https://github.com/marin-community/marin/issues/8506"
    )
    assert page_url(f"{api}/commits?path=docs/reports") == (
        "https://github.com/marin-community/marin/commits/main/docs/reports"
    )
    assert page_url("https://huggingface.co/api/models?author=marin-community") == (
        "https://huggingface.co/marin-community"
    )
    assert page_url("https://openathena.ai/blog/") == "https://openathena.ai/blog/"


def test_statements_are_shortened_at_a_word_or_a_character() -> None:
    assert shorten("short") == "short"
    assert shorten("one two three four", 9) == "one two…"
    assert shorten("状态日志记载第 147,000 步的训练期评估", 8) == "状态日志记载第…"


def test_a_contradicted_absence_is_shown_as_conflicting_records(tmp_path: Path) -> None:
    kb_dir = tmp_path / "kb"
    shutil.copytree(DEFAULT_DIR, kb_dir)
    with (kb_dir / "sources.toml").open("a", encoding="utf-8") as f:
        f.write(
            '\n[[source]]\nid = "hf-535b-card"\ntitle = "Hugging Face model card: marin-535b"\n'
            'kind = "model-card"\npublisher = "marin-community"\npublished = 2026-11-28\n'
            'excerpts = ["The marin-535b weights are available under Apache-2.0."]\n'
        )
    with (kb_dir / "evidence.toml").open("a", encoding="utf-8") as f:
        f.write(
            '\n[[link]]\nclaim = "model-not-released"\nsource = "hf-535b-card"\n'
            'stance = "contradicts"\nstrength = "direct"\nrecorded = 2026-11-28\n'
            'quote = "marin-535b weights"\n'
        )
    core = Core(load(kb_dir, today=TODAY.date()), clock=fixed_clock(TODAY))
    reply = core.ask("is the model out?")
    assert reply.claims[0].level == "disputed"
    assert reply.body.startswith("• Conflicting records:")
    assert "No record in the knowledge base (its newest" not in reply.body
    assert "⚠ Disputed: Hugging Face model card: marin-535b (model card" in reply.caveat
    assert core.ask("模型发布了吗").caveat.startswith("⚠ 存在矛盾：")
    assert dt.date(2026, 11, 28).isoformat() in reply.caveat
