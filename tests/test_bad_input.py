"""People send the bot anything. Each gets a clear one-line answer, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Conversation


def test_an_empty_message(bot: Conversation) -> None:
    reply = bot.ask("   ")
    assert reply.outcome == "rejected"
    assert "I didn't get a question" in reply.body


def test_a_megabyte_of_text(bot: Conversation) -> None:
    reply = bot.ask("has it started? " * 70_000)
    assert reply.outcome == "rejected"
    assert "too long" in reply.body and "1,000" in reply.body


def test_binary_data(bot: Conversation) -> None:
    reply = bot.ask(bytes(range(256)).decode("latin-1").replace("\x00", "\x01") + "\x00" * 50)
    assert reply.outcome == "rejected"
    assert "binary" in reply.body


def test_control_characters_around_a_real_question(bot: Conversation) -> None:
    reply = bot.ask("\x1b[31mhas it started?\x07\r\n")
    assert reply.outcome == "answer" and reply.claims[0].id == "training-started"


def test_markup_is_read_as_text_and_never_echoed(bot: Conversation) -> None:
    reply = bot.ask("<script>alert(1)</script> <b>is the model out</b>?")
    assert reply.claims[0].id == "model-not-released"
    assert "<script>" not in reply.text


def test_a_chinese_rejection_for_a_chinese_user(bot: Conversation) -> None:
    reply = bot.ask("", lang="zh")
    assert reply.language == "zh" and "没有收到问题" in reply.body


@pytest.mark.parametrize(
    "argv",
    [
        ["ask", ""],
        ["ask", "\x01\x02\x03\x04\x05"],
        ["ask", "x" * 100_000],
        ["ask", "--as-of", "yesterday", "has it started"],
    ],
)
def test_the_cli_answers_bad_input_in_one_line(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *argv], capture_output=True, text=True, timeout=60
    )
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert output.strip()


def test_batch_mode_answers_one_json_object_per_line() -> None:
    questions = "has it started?\n\n训练完了吧？\n" + "\x00\x01" * 20 + "\nhow many tokens\n"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "ask", "--json"],
        input=questions,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["outcome"] for r in rows] == ["answer", "rejected", "answer", "rejected", "answer"]
    assert rows[2]["language"] == "zh" and "pretraining-not-finished" in rows[2]["claims"]
    for row in rows:
        assert {
            "question",
            "language",
            "outcome",
            "text",
            "claims",
            "confidence",
            "caveat",
            "as_of",
        } <= set(row)
        assert row["text"].endswith(row["caveat"])


def test_counts_are_ascii_digits_with_a_length_cap() -> None:
    from answers.inputs import count

    assert count("14") == 14 and count(" 7 ") == 7
    assert count("²") is None and count("٣") is None and count("1e3") is None
    assert count("9" * 5000) is None and count("-3") is None and count("") is None


def test_a_malformed_setting_is_one_line_naming_the_variable() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "ask", "has it started?"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MARIN_WATCH_TELEGRAM_ADMIN_IDS": "[not json"},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0
    assert "MARIN_WATCH_TELEGRAM_ADMIN_IDS" in done.stderr


def test_a_hopelessly_nested_knowledge_file_is_a_named_problem(tmp_path: Path) -> None:
    from knowledge.loader import DEFAULT_DIR, load_with_problems

    kb_dir = tmp_path / "kb"
    shutil.copytree(DEFAULT_DIR, kb_dir)
    with (kb_dir / "watch.toml").open("a") as f:
        f.write("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    problems = [str(p) for p in load_with_problems(kb_dir)[1]]
    assert problems == ["watch.toml: (syntax): nested too deeply (arrays or tables)"]


def test_control_characters_in_watched_content_never_reach_the_signal() -> None:
    import datetime as dt

    from bot.watchers.rules import Rules
    from bot.watchers.signal import Finding, SignalState
    from knowledge.loader import load

    finding = Finding(
        id="x-1",
        watched="https://example.org/",
        kind=load().sources["gh-8435"].kind,
        url="https://example.org/\x1b[2J",
        date=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
        title="\x1b[31mHero run\x1b[0m \x07done\u202e",
        text="\x1b]0;pwned\x07step 262,000",
        publisher="evil\x1b[8m",
    )
    signal = Rules(load().watch_points).signal(
        finding, state=SignalState.NEW, found_at=finding.date
    )
    for value in (signal.title, signal.excerpt, signal.publisher, signal.url):
        assert "\x1b" not in value and "\x07" not in value and "\u202e" not in value
