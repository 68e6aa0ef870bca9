"""A curator breaks the knowledge files; `kb check` names the file and the field, every time."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from knowledge.errors import KnowledgeInvalid
from knowledge.loader import DEFAULT_DIR, load, load_with_problems

TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def kb_dir(tmp_path: Path) -> Path:
    target = tmp_path / "kb"
    shutil.copytree(DEFAULT_DIR, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text not found in {path.name}: {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems(kb_dir: Path) -> list[str]:
    return [str(p) for p in load_with_problems(kb_dir, today=TODAY)[1]]


def test_the_bundled_knowledge_base_is_valid() -> None:
    kb = load(today=TODAY)
    assert len(kb.claims) >= 30 and len(kb.watch_points) == 5


def test_an_unknown_source_id_names_the_link(kb_dir: Path) -> None:
    edit(kb_dir / "evidence.toml", 'source = "gh-8506-start"', 'source = "gh-8506-strat"')
    [problem] = problems(kb_dir)
    assert problem.startswith("evidence.toml: link[")
    assert "→ source: unknown source id 'gh-8506-strat'" in problem


def test_a_duplicate_claim_id(kb_dir: Path) -> None:
    edit(kb_dir / "claims.toml", 'id = "start-date"', 'id = "training-started"')
    found = problems(kb_dir)
    assert any("claims.toml: claim 'training-started' → id: duplicate id" in p for p in found)


def test_a_missing_language_names_the_field(kb_dir: Path) -> None:
    edit(
        kb_dir / "claims.toml",
        'statement.zh = "Marin 535B-A23B 主训练（hero run）已经开始训练。"\n',
        "",
    )
    found = problems(kb_dir)
    assert "claims.toml: claim 'training-started' → statement.zh: Field required" in found


def test_a_date_in_the_future(kb_dir: Path) -> None:
    edit(kb_dir / "sources.toml", "published = 2026-10-06", "published = 2027-01-06")
    found = problems(kb_dir)
    assert any(
        p.startswith(
            "sources.toml: source 'x-percy-halfway' → published: 2027-01-06 is in the future"
        )
        for p in found
    )


def test_a_relay_cycle(kb_dir: Path) -> None:
    edit(
        kb_dir / "sources.toml",
        'publisher = "Percy Liang (Marin lead)"\npublished = 2026-08-21',
        'publisher = "Percy Liang (Marin lead)"\npublished = 2026-08-21\n'
        'relays = "cn-community-relays"',
    )
    found = problems(kb_dir)
    assert any("relay cycle:" in p and "x-percy-launch" in p for p in found)


def test_a_wrong_kind_is_named_with_its_allowed_values(kb_dir: Path) -> None:
    edit(kb_dir / "claims.toml", 'kind = "plan"', 'kind = "rumour"')
    [problem] = problems(kb_dir)
    assert problem.startswith("claims.toml: claim 'tokens-plan-18-75t' → kind:")
    assert "'plan'" in problem


def test_a_toml_syntax_error_names_the_line(kb_dir: Path) -> None:
    edit(kb_dir / "watch.toml", "order = 3", "order = = 3")
    [problem] = problems(kb_dir)
    assert problem.startswith("watch.toml: (syntax)") and "line" in problem


def test_an_absence_must_be_worded_as_an_absence(kb_dir: Path) -> None:
    edit(
        kb_dir / "claims.toml",
        'statement.en = "No record in the knowledge base shows the model released',
        'statement.en = "The model is not released',
    )
    [problem] = problems(kb_dir)
    assert "claims.toml: claim 'model-not-released' → statement.en" in problem


def test_a_missing_file(kb_dir: Path) -> None:
    (kb_dir / "watch.toml").unlink()
    assert any(p.startswith("watch.toml: (file): missing") for p in problems(kb_dir))


def test_binary_garbage_in_a_knowledge_file(kb_dir: Path) -> None:
    (kb_dir / "sources.toml").write_bytes(b"\xff\xfe\x00garbage")
    assert any(p.startswith("sources.toml: byte 0: not valid UTF-8") for p in problems(kb_dir))


def test_load_refuses_an_invalid_knowledge_base_listing_every_problem(kb_dir: Path) -> None:
    edit(kb_dir / "evidence.toml", 'source = "gh-8506-start"', 'source = "nope"')
    edit(kb_dir / "claims.toml", 'kind = "plan"', 'kind = "rumour"')
    with pytest.raises(KnowledgeInvalid) as caught:
        load(kb_dir, today=TODAY)
    assert len(caught.value.problems) == 2
    assert "2 problem(s)" in str(caught.value)


def test_kb_check_and_ask_report_the_same_problem(
    kb_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(kb_dir / "evidence.toml", 'source = "gh-8506-start"', 'source = "nope"')
    monkeypatch.setenv("MARIN_WATCH_KB_DIR", str(kb_dir))
    assert main(["kb", "check"]) == 1
    checked = capsys.readouterr().out
    assert main(["ask", "has it started?"]) == 1
    refused = capsys.readouterr().err
    line = next(line for line in checked.splitlines() if "unknown source id 'nope'" in line)
    assert line.strip() in refused
    assert "Traceback" not in refused


def test_kb_check_passes_on_the_bundled_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kb", "check"]) == 0
    assert "knowledge base OK" in capsys.readouterr().out


def test_a_statement_cannot_mention_a_date_after_its_claim_was_added(kb_dir: Path) -> None:
    edit(
        kb_dir / "claims.toml",
        'statement.en = "The hero run\'s hardware is 11 GB200 NVL72 racks."',
        'statement.en = "The run uses 11 × GB200 NVL72 racks (running on 2026-09-09)."',
    )
    [problem] = problems(kb_dir)
    assert problem.startswith(
        "claims.toml: claim 'hardware-gb200' → statement.en: mentions 2026-09-09"
    )


def test_a_watch_point_only_looks_at_urls(kb_dir: Path) -> None:
    edit(kb_dir / "watch.toml", '"https://marin.community/",', '"not a url at all",')
    [problem] = problems(kb_dir)
    assert problem.startswith("watch.toml: watch 'non-x-announcement' → looks_at.1:")


def test_a_broken_claim_is_reported_once_not_again_by_every_reference(kb_dir: Path) -> None:
    edit(
        kb_dir / "claims.toml",
        'statement.zh = "Marin 535B-A23B 主训练（hero run）已经开始训练。"\n',
        "",
    )
    assert problems(kb_dir) == [
        "claims.toml: claim 'training-started' → statement.zh: Field required"
    ]


def test_a_topic_nobody_can_ask_about_stops_the_bot(
    kb_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(kb_dir / "claims.toml", 'topic = "hardware"', 'topic = "hw-gpus"')
    monkeypatch.setenv("MARIN_WATCH_KB_DIR", str(kb_dir))
    assert main(["kb", "check"]) == 1
    assert (
        "claim 'hardware-gb200' → topic: no vocabulary for topic 'hw-gpus'"
        in capsys.readouterr().out
    )
    assert main(["ask", "what hardware?"]) == 1
    assert "no vocabulary for topic 'hw-gpus'" in capsys.readouterr().err


def test_a_link_cannot_be_recorded_before_its_claim_existed(kb_dir: Path) -> None:
    edit(
        kb_dir / "evidence.toml",
        'claim = "architecture"\nsource = "x-percy-launch"\nstance = "supports"\n'
        'strength = "indirect"\nrecorded = 2026-10-08',
        'claim = "architecture"\nsource = "x-percy-launch"\nstance = "supports"\n'
        'strength = "indirect"\nrecorded = 2026-08-22',
    )
    [problem] = problems(kb_dir)
    assert problem.endswith("→ recorded: 2026-08-22 is before the claim was added (2026-10-08)")


def test_a_fifo_in_place_of_a_knowledge_file_is_refused_not_waited_on(kb_dir: Path) -> None:
    import os

    (kb_dir / "watch.toml").unlink()
    os.mkfifo(kb_dir / "watch.toml")
    found = problems(kb_dir)
    assert "watch.toml: (file): not a regular file; expected a TOML file" in found


def test_an_empty_watch_file_is_a_named_problem(kb_dir: Path) -> None:
    (kb_dir / "watch.toml").write_text("# nothing to watch\n")
    assert any(p.startswith("watch.toml: watch: no [[watch]] points") for p in problems(kb_dir))


def test_a_watch_pattern_that_can_backtrack_for_hours_is_refused(kb_dir: Path) -> None:
    edit(
        kb_dir / "watch.toml",
        'patterns = ["\\\\bstep[ -]?\\\\d"',
        'patterns = ["(a+)+b", "\\\\bstep[ -]?\\\\d"',
    )
    found = problems(kb_dir)
    assert any("patterns[0]" in p and "backtrack" in p for p in found), found
