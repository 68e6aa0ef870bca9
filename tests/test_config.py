"""The settings' rules across variables (Discord's shards), and how the CLI tells of a
broken one: ``marin-watch: configuration error:`` and one sentence naming the variables."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.config import Settings

SHARD = "MARIN_WATCH_DISCORD_SHARD_"


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name, value in env.items():
        monkeypatch.setenv(SHARD + name, value)
    return Settings()


@pytest.mark.parametrize(
    ("env", "runs"),
    [
        ({}, []),  # unsharded
        ({"COUNT": "4"}, [0, 1, 2, 3]),  # the count alone: every shard, in this process
        ({"COUNT": "4", "ID": "2"}, [2]),
        ({"COUNT": "4", "IDS": "2"}, [2]),
        ({"COUNT": "4", "IDS": "0,1, 3"}, [0, 1, 3]),
        ({"COUNT": "4", "IDS": "[3, 1]"}, [3, 1]),
    ],
)
def test_the_shards_this_process_runs(
    env: dict[str, str], runs: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert settings(monkeypatch, **env).discord_shards == runs


@pytest.mark.parametrize(
    ("env", "said"),
    [
        (
            {"COUNT": "4", "ID": "1", "IDS": "2,3"},
            f"set {SHARD}ID or {SHARD}IDS, not both",
        ),
        (
            {"ID": "1"},
            f"set {SHARD}COUNT, the number of shards in all, with {SHARD}ID",
        ),
        (
            {"IDS": "0,1"},
            f"set {SHARD}COUNT, the number of shards in all, with {SHARD}IDS",
        ),
        (
            {"COUNT": "2", "ID": "2"},
            f"{SHARD}ID 2 is not a shard of {SHARD}COUNT 2 (they are numbered 0 to 1)",
        ),
        (
            {"COUNT": "2", "IDS": "0,2"},
            f"{SHARD}IDS 2 is not a shard of {SHARD}COUNT 2 (they are numbered 0 to 1)",
        ),
        (
            {"COUNT": "2", "IDS": "-1"},
            f"{SHARD}IDS -1 is not a shard of {SHARD}COUNT 2 (they are numbered 0 to 1)",
        ),
        ({"COUNT": "2", "IDS": "1,1"}, f"{SHARD}IDS lists a shard twice"),
        ({"COUNT": "2", "IDS": "[]"}, f"{SHARD}IDS lists no shard"),
        (
            {"COUNT": "2", "IDS": "zero,one"},
            f"{SHARD}IDS: 'zero,one' is not a list of shard ids; write 0,1,2 or [0,1,2]",
        ),
        (
            {"COUNT": "2", "IDS": "[0, true]"},
            f"{SHARD}IDS: '[0, true]' is not a list of shard ids; write 0,1,2 or [0,1,2]",
        ),
    ],
)
def test_a_shard_setting_that_cannot_work_is_one_plain_sentence(
    env: dict[str, str],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(SHARD + name, value)

    assert main(["claims"]) == 2
    assert capsys.readouterr().err == f"marin-watch: configuration error: {said}\n"
