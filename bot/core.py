"""The platform-free core: a question in, a ``Reply`` out.

Adapters (console, Telegram, Discord) hold a ``Core`` by composition and translate their
platform's payloads to and from these calls; no platform type ever enters here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace

from answers import progress_view as progress
from answers.inputs import Rejection, clean, reject_reason
from answers.lexicon import DECLINING, INTENTS, load_lexicon
from answers.matcher import Match
from answers.periods import period_days
from answers.reading import reader_for
from answers.render import Renderer
from answers.reply import Choice, Outcome, Reply
from answers.script import is_traditional, traditional_reply
from answers.text import detect_language
from knowledge.clock import Clock
from knowledge.knowledge_base import KnowledgeBase

# The claims the overall status is made of, in the order they are told.
OVERVIEW = (
    "training-started",
    "training-ongoing-1010",
    "pretraining-not-finished",
    "model-not-released",
    "expected-end",
)
FINISHED = "finished"
# The declining readings that have a reply of their own (templates/{en,zh}/KIND.j2).
DECLINE_TEMPLATES = {"other-models": "other_model", "general-ml": "general_ml"}
# At most this many "do not infer" notes under an answer: answers stay short.
MAX_NOTES = 2

# Builds the "what changed" reply (the digest) for (language, as-of date, days or None for
# the newest batch); injected so the core needs no store.
ChangesProvider = Callable[[str, dt.date | None, int | None], Reply]


class Core:
    """Answers questions from the knowledge base. Cheap to call; holds no per-user state."""

    def __init__(
        self,
        kb: KnowledgeBase,
        *,
        clock: Clock,
        default_language: str = "en",
        changes: ChangesProvider | None = None,
    ) -> None:
        self.kb = kb
        self.clock = clock
        self.default_language = default_language
        self.renderer = Renderer(kb, clock)
        self.lexicon = load_lexicon()
        self.reader = reader_for(kb)
        self.matcher = self.reader.matcher
        self.changes = changes

    # --- questions -----------------------------------------------------------------------

    def ask(
        self,
        text: str,
        *,
        lang: str | None = None,
        as_of: dt.date | None = None,
        previous: str | None = None,
    ) -> Reply:
        """Answer a free-text question (any language; ``lang`` forces the reply language).

        ``previous`` is the same person's last answered question in this conversation: a
        follow-up too short to be read alone ("are any of them public?") is read as being
        about it. A Chinese reply to a question written in traditional characters is in
        traditional characters too.
        """
        reply = self._ask(text, lang, as_of, previous)
        if reply.language == "zh" and is_traditional(text):
            return traditional_reply(reply)
        return reply

    def _ask(
        self, text: str, lang: str | None, as_of: dt.date | None, previous: str | None = None
    ) -> Reply:
        bad_date = self._as_of_rejection(as_of)
        rejection = reject_reason(text) or bad_date
        lang = lang or (self.detect_language(text) if rejection is None else self.default_language)
        if rejection is not None:
            return self._rejected(rejection, lang, None if bad_date else as_of)
        context = clean(previous) if previous and reject_reason(previous) is None else None
        reading = self.reader.read(clean(text), previous=context)
        reply = self._read(reading.match, text, lang, as_of)
        return (
            replace(reply, extra={**reply.extra, "followed": True}) if reading.followed else reply
        )

    def _read(self, match: Match, text: str, lang: str, as_of: dt.date | None) -> Reply:
        """The reply to a question read as ``match``."""
        if match.outcome == "choices":
            choices = [Choice(key=t, label=self.label(t, lang)) for t in match.topics]
            return self.renderer.reply(
                kind="choices", lang=lang, outcome=Outcome.CHOICES, choices=choices, as_of=as_of
            )
        if match.outcome == "unknown":
            return self._unknown(lang, as_of)
        if len(match.topics) > 1:  # "tokens and hardware?": both parts, one reply
            return self._topics(match.topics, lang, as_of)
        days = period_days(text) if match.topics[0] == "changes" else None
        return self.answer_key(match.topics[0], lang=lang, as_of=as_of, days=days)

    def answer_key(
        self, key: str, *, lang: str, as_of: dt.date | None = None, days: int | None = None
    ) -> Reply:
        """Answer a ``Choice.key`` an adapter sent back, or a command: status, sources, watch, help.

        The reply's ``extra["topic"]`` names the reading that was answered. ``days`` is the
        window of a "changes" answer (None: the newest batch of changes).
        """
        rejection = self._as_of_rejection(as_of)
        if rejection is not None:
            reply = self._rejected(rejection, lang, None)
        else:
            reply = self._answer_key(key, lang, as_of, days)
        return replace(reply, extra={**reply.extra, "topic": key})

    def _rejected(self, rejection: Rejection, lang: str, as_of: dt.date | None) -> Reply:
        """A one-line refusal in the asker's language (with the caveat, like every reply)."""
        return self.renderer.reply(
            kind="rejected",
            lang=lang,
            outcome=Outcome.REJECTED,
            context={"reason_en": rejection.en, "reason_zh": rejection.zh},
            as_of=as_of,
        )

    def _as_of_rejection(self, as_of: dt.date | None) -> Rejection | None:
        """A past date the knowledge base can answer for: not in the future, not before it began."""
        if as_of is None:
            return None
        today = self.clock().date()
        if as_of > today:
            return Rejection(
                en=f"{as_of} is in the future; I can answer as the knowledge base stood on any "
                f"day up to today ({today}), never ahead of it.",
                zh=f"{as_of} 是未来的日期；我只能按知识库在今天（{today}）或之前某天的状态回答。",
            )
        first = self.kb.first_public
        if first is not None and as_of < first:
            return Rejection(
                en=f"The public record held nothing about the run yet on {as_of}: its first "
                f"record is from {first}.",
                zh=f"{as_of} 时公开记录中还没有关于这次训练的任何内容：最早的记录是 {first}。",
            )
        return None

    def _answer_key(
        self, key: str, lang: str, as_of: dt.date | None, days: int | None = None
    ) -> Reply:
        if key == "status":
            claims = [c for c in self._overview() if self.kb.visible(c, as_of)]
            return self.renderer.reply(kind="overview", lang=lang, claims=claims, as_of=as_of)
        if key == "sources":
            return self.renderer.reply(
                kind="sources",
                lang=lang,
                context={"records": self.kb.sources_as_of(as_of, public=True)},
                as_of=as_of,
            )
        if key == "watch":
            return self.renderer.reply(
                kind="watch", lang=lang, context={"watch_points": self.kb.watch_points}, as_of=as_of
            )
        if key == "changes" and self.changes is not None:
            return self.changes(lang, as_of, days)
        if key in DECLINE_TEMPLATES:
            return self.renderer.reply(
                kind=DECLINE_TEMPLATES[key], lang=lang, outcome=Outcome.UNKNOWN, as_of=as_of
            )
        if key == "outside":
            return self._unknown(lang, as_of)
        if key in ("help", "changes"):
            return self.renderer.reply(
                kind="help",
                lang=lang,
                context={"topics": self._topic_labels(lang, as_of)},
                as_of=as_of,
            )
        if key in progress.READINGS:
            return self._progress(key, lang, as_of)
        return self._topic(key, lang, as_of)

    def _progress(self, focus: str, lang: str, as_of: dt.date | None) -> Reply:
        view = progress.progress_view(self.kb, focus, as_of, self.clock().date())
        if view is None:
            return self._unknown(lang, as_of)
        claims, context = view
        reply = self.renderer.reply(
            kind="progress",
            lang=lang,
            claims=claims,
            as_of=as_of,
            context={**context, "topic_label": self.label(focus, lang)},
        )
        return replace(reply, extra={**reply.extra, "topic": focus})

    def _overview(self) -> list[str]:
        """The overall status: the standing claims, with the newest progress record."""
        newest = [o.claim_id for o in self.kb.observations[-1:]]
        return [*OVERVIEW[:1], *newest, *OVERVIEW[1:]]

    def _claims_of(self, topic: str, as_of: dt.date | None) -> list[str]:
        if topic in progress.READINGS:
            view = progress.progress_view(self.kb, topic, as_of, self.clock().date())
            return [] if view is None else view[0][:1]
        found = [c.id for c in self.kb.topics.get(topic, ()) if self.kb.visible(c.id, as_of)]
        if topic == FINISHED and found:  # "is it done?": with where the newest record has it
            found = [*self._claims_of("progress", as_of), *found]
        return found

    def _topic(self, topic: str, lang: str, as_of: dt.date | None) -> Reply:
        return self._topics((topic,), lang, as_of)

    def _topics(self, topics: tuple[str, ...], lang: str, as_of: dt.date | None) -> Reply:
        claims = [cid for topic in topics for cid in self._claims_of(topic, as_of)]
        if not claims:
            # The topic exists but nothing about it was recorded yet on that date.
            return self._unknown(lang, as_of)
        notes: list[str] = []
        for cid in claims:
            for note in self.kb.claims[cid].do_not_infer:
                text = note.get(lang)
                if text not in notes:
                    notes.append(text)
        label = " · ".join(self.label(t, lang) for t in topics)
        reply = self.renderer.reply(
            kind="fact",
            lang=lang,
            claims=claims,
            as_of=as_of,
            context={"topic_label": label, "notes": notes[:MAX_NOTES]},
        )
        return replace(reply, extra={**reply.extra, "topic": "+".join(topics)})

    def _unknown(self, lang: str, as_of: dt.date | None) -> Reply:
        """ "I don't know", with what the bot can answer instead: never a guess."""
        return self.renderer.reply(
            kind="unknown",
            lang=lang,
            outcome=Outcome.UNKNOWN,
            context={"topics": self._topic_labels(lang, as_of)},
            as_of=as_of,
        )

    # --- vocabulary for adapters -----------------------------------------------------------

    def topic_choices(self, lang: str) -> list[Choice]:
        """Every topic the bot can answer, labelled in ``lang`` (for autocomplete and menus)."""
        keys = [
            t
            for t in self.lexicon.topics
            if (t in self.kb.topics or t in INTENTS or t in progress.READINGS)
            and t not in DECLINING
        ]
        return [Choice(key=k, label=self.label(k, lang)) for k in keys]

    def label(self, key: str, lang: str) -> str:
        topic = self.lexicon.topics.get(key)
        return topic.label[lang] if topic else key

    def detect_language(self, text: str) -> str:
        return detect_language(text, self.default_language)

    def _topic_labels(self, lang: str, as_of: dt.date | None) -> list[str]:
        return [
            self.label(t, lang)
            for t in self.lexicon.topics
            if t in self.kb.topics and any(self.kb.visible(c.id, as_of) for c in self.kb.topics[t])
        ]
