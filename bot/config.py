"""Settings, read once at the entry point from the environment (prefix ``MARIN_WATCH_``).

Nothing else in the project reads the environment: the CLI builds a ``Settings`` and passes
it (or the parts a component needs) down. Tokens are ``SecretStr`` so they never reach a log.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="MARIN_WATCH_", env_file=None, extra="ignore", frozen=True
    )

    # knowledge and storage
    kb_dir: Path | None = Field(
        default=None, description="curated knowledge files (default: bundled)"
    )
    db_path: Path = Field(default=Path("marin-watch.sqlite3"), description="the SQLite store")
    # PostgreSQL for several replicas (postgresql://user:password@host/db); unset: the SQLite
    # file above. Secret: the password must never reach a log.
    database_url: SecretStr | None = Field(default=None, description="the PostgreSQL store")
    # where serve keeps the static status page (marin-watch site build), rebuilt when the
    # knowledge files change (a promotion); unset: no page
    site_dir: Path | None = Field(default=None, description="the status page's folder")
    default_language: str = Field(default="en", pattern="^(en|zh)$")

    # Telegram
    telegram_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("MARIN_WATCH_TELEGRAM_TOKEN", "TELEGRAM_BOT_TOKEN"),
    )
    telegram_base_url: str = "https://api.telegram.org/bot"
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    # Telegram echoes it in every webhook call, so forged updates are refused.
    telegram_webhook_secret: SecretStr | None = None
    telegram_channel_id: str | None = None
    telegram_channel_time: str = "09:00"
    telegram_channel_timezone: str = "UTC"
    telegram_channel_language: str = Field(default="en", pattern="^(en|zh)$")
    telegram_admin_ids: list[int] = Field(default_factory=list)

    # Discord
    discord_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("MARIN_WATCH_DISCORD_TOKEN", "DISCORD_BOT_TOKEN"),
    )
    # Sharding (Discord requires it from 2,500 servers on; one shard per ~1,000 is usual).
    # Neither count nor ids: one unsharded connection, as a small bot has always run (see
    # ``discord_shards`` for why not discord.py's recommended count). The count alone: this
    # process runs every shard of it. With an id, or ids, it runs those shards only, and the
    # other replicas run the rest; direct messages arrive on shard 0.
    discord_shard_count: int | None = Field(
        default=None, ge=1, le=4096, description="how many Discord shards there are in all"
    )
    discord_shard_id: int | None = Field(
        default=None, ge=0, lt=4096, description="the one Discord shard this process runs"
    )
    # NoDecode: the ids come as "0,1,2" as well as JSON "[0,1,2]", read by _shard_list.
    discord_shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None, description="the Discord shards this process runs: 0,1,2 or [0,1,2]"
    )

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if not isinstance(value, str):
            return value  # given in code, or unset: pydantic checks it as a list of ints
        text = value.strip()
        try:
            ids = json.loads(text) if text.startswith("[") else [int(v) for v in text.split(",")]
        except ValueError:
            ids = None
        if not isinstance(ids, list) or not all(type(i) is int for i in ids):
            raise ValueError(f"{value!r} is not a list of shard ids; write 0,1,2 or [0,1,2]")
        return ids

    @model_validator(mode="after")
    def _shards_of_the_count(self) -> Settings:
        count, one, ids = self.discord_shard_count, self.discord_shard_id, self.discord_shard_ids
        named = "MARIN_WATCH_DISCORD_SHARD_ID" if ids is None else "MARIN_WATCH_DISCORD_SHARD_IDS"
        listed = [one] if one is not None else ids
        if one is not None and ids is not None:
            raise ValueError(
                "set MARIN_WATCH_DISCORD_SHARD_ID or MARIN_WATCH_DISCORD_SHARD_IDS, not both"
            )
        if listed is None:
            return self
        if count is None:
            raise ValueError(
                f"set MARIN_WATCH_DISCORD_SHARD_COUNT, the number of shards in all, with {named}"
            )
        if not listed:
            raise ValueError(f"{named} lists no shard")
        for shard in listed:
            if not 0 <= shard < count:
                raise ValueError(
                    f"{named} {shard} is not a shard of MARIN_WATCH_DISCORD_SHARD_COUNT {count} "
                    f"(they are numbered 0 to {count - 1})"
                )
        if len(set(listed)) != len(listed):
            raise ValueError(f"{named} lists a shard twice")
        return self

    @property
    def discord_shards(self) -> list[int]:
        """The shard ids this process connects, of ``discord_shard_count``; none: unsharded.

        No count means one unsharded connection rather than discord.py's AutoShardedClient
        with the count Discord recommends: that is how the bot has always run and what a
        small bot needs; the recommendation changes as servers join, so replicas started at
        different times could disagree on the count; and a bot past Discord's limit is told
        at start-up to set the count."""
        if self.discord_shard_count is None:
            return []
        if self.discord_shard_id is not None:
            return [self.discord_shard_id]
        return list(self.discord_shard_ids or range(self.discord_shard_count))

    # watchers
    github_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("MARIN_WATCH_GITHUB_TOKEN", "GITHUB_TOKEN")
    )
    watch_interval_minutes: int = Field(default=15, ge=5)

    # schedule
    digest_check_seconds: int = Field(default=60, ge=5)
    # How long a dead scheduler's digests in flight wait before another takes them over:
    # several heartbeats (a third of it), so a busy store does not hand live sends away.
    delivery_lease_seconds: int = Field(default=45, ge=3, le=3600)
    log_level: str = "INFO"
