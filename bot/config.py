"""Settings, read once at the entry point from the environment (prefix ``MARIN_WATCH_``).

Nothing else in the project reads the environment: the CLI builds a ``Settings`` and passes
it (or the parts a component needs) down. Tokens are ``SecretStr`` so they never reach a log.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    # Sharding across replicas: each serve process connects one shard (Discord requires
    # shards from 2,500 servers on); both set, or neither.
    discord_shard_count: int | None = Field(default=None, ge=1, le=4096)
    discord_shard_id: int | None = Field(default=None, ge=0, lt=4096)

    @model_validator(mode="after")
    def _one_shard_of_the_count(self) -> Settings:
        count, shard = self.discord_shard_count, self.discord_shard_id
        if (count is None) != (shard is None):
            raise ValueError(
                "set MARIN_WATCH_DISCORD_SHARD_COUNT and MARIN_WATCH_DISCORD_SHARD_ID together"
            )
        if count is not None and shard is not None and shard >= count:
            raise ValueError(f"MARIN_WATCH_DISCORD_SHARD_ID {shard} is not below the count {count}")
        return self

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
