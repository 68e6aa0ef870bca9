"""New models published by an organization on the Hugging Face Hub (a release would show here).

Polls the configured ``GET https://huggingface.co/api/models?author=ORG`` sorted by creation,
newest first. Each model id is one finding; the organization's existing models are the
baseline. A model card is what would upgrade "not released" — or contradict it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from bot.watchers.fetch import Fetched
from bot.watchers.signal import Finding, signal_id
from bot.watchers.watcher import Poll, parse_time
from knowledge.errors import WatcherError
from knowledge.schema import SourceKind

URL_SHAPE = re.compile(r"^https://huggingface\.co/api/models\?.*\bauthor=")
PAGE_SIZE = 100


@dataclass(frozen=True)
class HFModelsWatcher:
    url: str
    author: str
    accept: str = "application/json"
    broad: bool = False

    @classmethod
    def from_url(cls, url: str) -> HFModelsWatcher | None:
        if not URL_SHAPE.match(url):
            return None
        return cls(url, httpx.URL(url).params.get("author", ""))

    @property
    def label(self) -> str:
        return f"Hugging Face models by {self.author}"

    def params(self, cursor: str | None, now: dt.datetime) -> Mapping[str, str]:
        return {"sort": "createdAt", "direction": "-1", "limit": str(PAGE_SIZE)}

    def parse(self, fetched: Fetched, cursor: str | None, now: dt.datetime) -> Poll:
        payload = fetched.json()
        if not isinstance(payload, list):
            raise WatcherError(f"{fetched.url}: expected a list of models")
        return Poll([self._finding(item, now) for item in payload])

    def _finding(self, item: Mapping[str, Any], now: dt.datetime) -> Finding:
        model = str(item.get("id") or item["modelId"])
        when = item.get("createdAt") or item.get("lastModified")
        tags = [str(t) for t in item.get("tags") or []]
        pipeline = item.get("pipeline_tag")
        text = "\n".join([model, *([str(pipeline)] if pipeline else []), " ".join(tags)])
        return Finding(
            id=signal_id("hf", model),
            watched=self.url,
            kind=SourceKind.MODEL_CARD,
            url=f"https://huggingface.co/{model}",
            date=parse_time(when) if when else now,
            title=f"Hugging Face model {model}",
            text=text,
            publisher=f"{model.split('/')[0]} on Hugging Face",
        )
