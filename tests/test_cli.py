"""The console: the commands a new user runs first, with no tokens and no network."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def test_ask_prints_the_answer_with_its_caveat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "has", "marin", "535b", "started", "training?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Has training started?")
    assert "[confirmed]" in out and "Evidence as of" in out


def test_ask_json_has_every_field_a_script_needs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--json", "--lang", "zh", "is the model out?"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["language"] == "zh" and row["outcome"] == "answer"
    assert row["claims"][0] == "model-not-released"
    assert row["confidence"]["model-not-released"] == "no-record"
    assert row["text"].endswith(row["caveat"]) and row["as_of"]


def test_ask_as_of_a_past_date(capsys: pytest.CaptureFixture[str]) -> None:
    # On 2026-08-21 the public record held the status log's "Hero run started" alone: the X
    # post counts from the day a relay made it public to us (2026-08-22).
    assert main(["ask", "--json", "--as-of", "2026-08-21", "has it started?"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["confidence"]["training-started"] == "single-source"
    assert "Single source" in row["caveat"] and "#8506" in row["caveat"]
    assert "as the public record stood on 2026-08-21" in row["caveat"]


def test_claims_table_shows_derived_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["id", "kind", "level"]
    started = next(line for line in lines if line.startswith("training-started "))
    assert "confirmed" in started and "gh-8506-start" in started


def test_claims_as_of_the_seed_day_has_only_what_was_known(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["claims", "--as-of", "2026-08-22"]) == 0
    out = capsys.readouterr().out
    assert "progress-latest" not in out
    assert "training-started" in out and "single source" in out


def test_sources_table_says_how_each_record_was_seen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sources"]) == 0
    out = capsys.readouterr().out
    launch = next(line for line in out.splitlines() if line.startswith("x-percy-launch "))
    assert "seen via relay" in launch
    relay = next(line for line in out.splitlines() if line.startswith("cn-community-relays "))
    assert "relay of x-percy-launch" in relay


def test_a_bad_date_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims", "--as-of", "last tuesday"]) == 1
    assert capsys.readouterr().err.strip() == (
        "marin-watch: not a date: 'last tuesday' (expected YYYY-MM-DD)"
    )


@pytest.mark.parametrize("argv", [["chart", "--output", "\ud800"], ["site", "build", "\udfff"]])
def test_a_file_name_no_file_system_can_hold_is_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "not a file name" in capsys.readouterr().err
