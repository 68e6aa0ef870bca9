"""A fake Telegram Bot API that the tests own (the updates users send are in ``tg_updates``).

It answers the methods the bot uses the way Telegram does (``{"ok": true, "result": ...}``,
errors with ``error_code``, ``description`` and ``parameters``), so python-telegram-bot's real
request building, parsing and error mapping run unchanged. It is reached either in process,
through ``httpx.MockTransport`` (``FakeBotAPI.request()``), or over loopback HTTP with
aiohttp (``FakeBotAPI.serve()``), which is what ``marin-watch serve`` is pointed at.
"""

from __future__ import annotations

import asyncio
import email.policy
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from email.parser import BytesParser
from html import unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl

import httpx
from aiohttp import web
from telegram.request import HTTPXRequest

TOKEN = "123456:TEST-token-never-logged"
BASE_URL = "http://fake-telegram/bot"
BOT: dict[str, Any] = {
    "id": 7000001,
    "is_bot": True,
    "first_name": "marin-watch",
    "username": "marin_watch_bot",
}
ALICE: dict[str, Any] = {"id": 1001, "is_bot": False, "first_name": "Alice", "language_code": "en"}
LI: dict[str, Any] = {"id": 1002, "is_bot": False, "first_name": "Li", "language_code": "zh-hans"}
BOB: dict[str, Any] = {"id": 1003, "is_bot": False, "first_name": "Bob", "language_code": "en"}
GROUP: dict[str, Any] = {"id": -4001, "type": "group", "title": "Marin readers"}
SUPERGROUP: dict[str, Any] = {
    "id": -1004002,
    "type": "supergroup",
    "title": "Marin readers (super)",
}
CHANNEL: dict[str, Any] = {
    "id": -1009001,
    "type": "channel",
    "title": "Marin digest",
    "username": "marin_digest",
}

_JSON_PARAMS = {
    "reply_markup",
    "link_preview_options",
    "commands",
    "scope",
    "entities",
    "reply_parameters",
    "allowed_updates",
}
_ADMIN_RIGHTS = dict.fromkeys(
    (
        "can_be_edited",
        "is_anonymous",
        "can_manage_chat",
        "can_delete_messages",
        "can_manage_video_chats",
        "can_restrict_members",
        "can_promote_members",
        "can_change_info",
        "can_invite_users",
        "can_post_stories",
        "can_edit_stories",
        "can_delete_stories",
    ),
    True,
)


@dataclass
class Call:
    method: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        return str(self.params.get("text", self.params.get("caption", "")))

    @property
    def chat_id(self) -> str:
        return str(self.params.get("chat_id", ""))

    @property
    def buttons(self) -> list[tuple[str, str]]:
        """(label, callback data) of every inline button, row by row."""
        markup = self.params.get("reply_markup") or {}
        return [
            (b["text"], b.get("callback_data", ""))
            for row in markup.get("inline_keyboard", [])
            for b in row
        ]


@dataclass
class _Failure:
    method: str
    chat_id: str | None
    status: int
    body: dict[str, Any]


@dataclass
class FakeBotAPI:
    token: str = TOKEN
    calls: list[Call] = field(default_factory=list)
    # (chat id, user id) → member status; the bot is an admin everywhere unless told otherwise
    members: dict[tuple[str, int], str] = field(default_factory=dict)
    updates: list[dict[str, Any]] = field(default_factory=list)
    _failures: list[_Failure] = field(default_factory=list)
    _message_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(500))
    _update_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _new_update: asyncio.Event = field(default_factory=asyncio.Event)
    on_call: Callable[[Call], None] | None = None
    delay: float = 0.0  # seconds each sendMessage takes (a slow network)
    hanging: set[str] = field(default_factory=set)  # methods that never answer

    # -- programming the fake ------------------------------------------------------------
    def fail(
        self,
        method: str,
        status: int,
        description: str,
        *,
        chat_id: str | int | None = None,
        parameters: dict[str, Any] | None = None,
        times: int = 1,
    ) -> None:
        """The next ``times`` calls of ``method`` (to ``chat_id``) fail as Telegram would;
        ``status`` 0 drops the connection instead (in process, through ``request()``)."""
        body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
        if parameters:
            body["parameters"] = parameters
        key = None if chat_id is None else str(chat_id)
        self._failures += [_Failure(method, key, status, body) for _ in range(times)]

    def block(self, chat_id: str | int) -> None:
        self.fail("sendMessage", 403, "Forbidden: bot was blocked by the user", chat_id=chat_id)

    def push_update(self, update: dict[str, Any]) -> None:
        """Queue an update for ``getUpdates`` (long polling)."""
        self.updates.append({"update_id": next(self._update_ids), **update})
        self._new_update.set()

    # -- reading what the bot did --------------------------------------------------------
    def of(self, method: str, chat_id: str | int | None = None) -> list[Call]:
        return [
            c
            for c in self.calls
            if c.method == method and (chat_id is None or c.chat_id == str(chat_id))
        ]

    def sent(self, chat_id: str | int | None = None) -> list[str]:
        return [c.text for c in self.of("sendMessage", chat_id)]

    def take(self) -> list[Call]:
        """Every call since the last ``take``."""
        out = list(self.calls)
        self.calls.clear()
        return out

    # -- the API ---------------------------------------------------------------------------
    async def handle(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        call = Call(method, params)
        self.calls.append(call)
        if self.on_call:
            self.on_call(call)
        if method in self.hanging:
            await asyncio.Event().wait()  # a request lost in the network: no answer, ever
        for failure in self._failures:
            if failure.method == method and failure.chat_id in (None, call.chat_id):
                self._failures.remove(failure)
                return failure.status, failure.body
        handler = getattr(self, f"_{method}", None)
        if handler is None:
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        if "caption" in params:  # a photo's caption: 0-1,024 characters after entity parsing
            problem = check_text(params["caption"], params.get("parse_mode"), limit=1024)
            if problem:
                return 400, {
                    "ok": False,
                    "error_code": 400,
                    "description": f"Bad Request: {problem}",
                }
        if "text" in params:  # what Telegram itself refuses, so every test checks it
            problem = check_text(params["text"], params.get("parse_mode"))
            if problem:
                return 400, {
                    "ok": False,
                    "error_code": 400,
                    "description": f"Bad Request: {problem}",
                }
        result = await handler(params)
        return 200, {"ok": True, "result": result}

    async def _getMe(self, params: dict[str, Any]) -> Any:
        return {**BOT, "can_join_groups": True, "can_read_all_group_messages": False}

    async def _sendMessage(self, params: dict[str, Any]) -> Any:
        if self.delay:
            await asyncio.sleep(self.delay)
        return self._message(params["chat_id"], params["text"], next(self._message_ids))

    async def _sendPhoto(self, params: dict[str, Any]) -> Any:
        photo = params.get("photo")
        if not isinstance(photo, bytes) or not photo.startswith(b"\x89PNG"):
            raise AssertionError("sendPhoto without an uploaded PNG")
        if len(photo) > 10 * 1024 * 1024:  # the Bot API's limit for a photo upload
            raise AssertionError("photo over 10 MB")
        message = self._message(params["chat_id"], "", 7000 + len(self.calls))
        del message["text"]
        size = {"file_id": "p1", "file_unique_id": "u1", "width": 1000, "height": 520}
        return {**message, "photo": [size]}

    async def _editMessageText(self, params: dict[str, Any]) -> Any:
        return self._message(params["chat_id"], params["text"], int(params["message_id"]))

    async def _answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        return True

    async def _setMyCommands(self, params: dict[str, Any]) -> Any:
        return True

    async def _deleteWebhook(self, params: dict[str, Any]) -> Any:
        return True

    async def _setWebhook(self, params: dict[str, Any]) -> Any:
        return True

    async def _getChatMember(self, params: dict[str, Any]) -> Any:
        user_id = int(params["user_id"])
        status = self.members.get(
            (str(params["chat_id"]), user_id),
            "administrator" if user_id == BOT["id"] else "member",
        )
        user = BOT if user_id == BOT["id"] else {"id": user_id, "is_bot": False, "first_name": "U"}
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "administrator":
            member |= _ADMIN_RIGHTS | {"can_post_messages": True}
        if status == "creator":
            member |= {"is_anonymous": False}
        return member

    async def _getUpdates(self, params: dict[str, Any]) -> Any:
        offset = int(params.get("offset", 0) or 0)
        ready = [u for u in self.updates if u["update_id"] >= offset]
        if not ready:
            self._new_update.clear()
            try:
                await asyncio.wait_for(self._new_update.wait(), timeout=0.05)
            except TimeoutError:
                pass
            ready = [u for u in self.updates if u["update_id"] >= offset]
        self.updates = [u for u in self.updates if u["update_id"] >= offset]
        return ready

    def _message(self, chat_id: Any, text: str, message_id: int) -> dict[str, Any]:
        chat = chat_of(chat_id)
        text = plain_text(text)  # Telegram returns the text with its markup parsed away
        return {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat,
            "from": BOT,
            "text": text,
        }

    # -- transports --------------------------------------------------------------------------
    def request(self) -> HTTPXRequest:
        """An ``HTTPXRequest`` whose every call lands in ``handle``, in process."""

        async def app(request: httpx.Request) -> httpx.Response:
            prefix = f"/bot{self.token}/"
            if not request.url.path.startswith(prefix):
                return httpx.Response(
                    401, json={"ok": False, "error_code": 401, "description": "Unauthorized"}
                )
            method = request.url.path[len(prefix) :]
            params = _decode(request.content, request.headers.get("content-type", ""))
            status, body = await self.handle(method, params)
            if status == 0:  # fail(..., status=0): the connection drops
                raise httpx.ConnectError("connection reset by peer", request=request)
            return httpx.Response(status, json=body)

        return HTTPXRequest(httpx_kwargs={"transport": httpx.MockTransport(app)})

    @asynccontextmanager
    async def serve(self) -> AsyncIterator[str]:
        """Serve the API on 127.0.0.1; yields the base URL to configure (``.../bot``)."""

        async def route(request: web.Request) -> web.Response:
            if request.match_info["token"] != self.token:
                return web.json_response(
                    {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
                )
            status, body = await self.handle(
                request.match_info["method"],
                _decode(await request.read(), request.headers.get("content-type", "")),
            )
            return web.json_response(body, status=status)

        app = web.Application()
        app.router.add_post("/bot{token}/{method}", route)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            yield f"http://127.0.0.1:{port}/bot"
        finally:
            await runner.cleanup()


class _TelegramHTML(HTMLParser):
    """Telegram's HTML rules: a few tags, balanced; only four named entities; no raw < > &."""

    TAGS = {
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "a",
        "code",
        "pre",
        "span",
        "tg-spoiler",
        "tg-emoji",
        "blockquote",
    }

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.problem: str | None = None
        self.length = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.TAGS:
            self.problem = self.problem or f'can\'t parse entities: unsupported start tag "{tag}"'
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problem = self.problem or f'can\'t parse entities: unexpected end tag "{tag}"'
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if any(c in data for c in "<>&"):
            self.problem = self.problem or "can't parse entities: unescaped character"
        self.length += len(data.encode("utf-16-le")) // 2

    def handle_entityref(self, name: str) -> None:
        if name not in {"lt", "gt", "amp", "quot"}:
            self.problem = self.problem or f"can't parse entities: unsupported entity &{name};"
        self.length += 1

    def handle_charref(self, name: str) -> None:
        self.length += 1


def plain_text(html: str) -> str:
    return unescape(re.sub(r"<[^>]*>", "", html))


def check_text(text: str, parse_mode: str | None, limit: int = 4096) -> str | None:
    """What Telegram would answer for this text: None, or the reason it refuses it."""
    if parse_mode == "HTML":
        parser = _TelegramHTML()
        parser.feed(text)
        parser.close()
        if parser.problem or parser.stack:
            return parser.problem or f'can\'t parse entities: unclosed tag "{parser.stack[-1]}"'
        length = parser.length
    else:
        length = len(text.encode("utf-16-le")) // 2
    if length == 0 or not text.strip():
        return "message text is empty"
    if length > limit:
        return "message caption is too long" if limit != 4096 else "message is too long"
    return None


def _decode(content: bytes, content_type: str = "") -> dict[str, Any]:
    """The parameters of a Bot API call: urlencoded, or multipart when a file is uploaded
    (a file part's value is its bytes)."""
    if content_type.startswith("multipart/form-data"):
        return _multipart(content, content_type)
    params: dict[str, Any] = {}
    for key, value in parse_qsl(content.decode(), keep_blank_values=True):
        params[key] = json.loads(value) if key in _JSON_PARAMS else value
    return params


def _multipart(content: bytes, content_type: str) -> dict[str, Any]:
    message = BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + content
    )
    params: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if not isinstance(name, str) or not isinstance(payload, bytes):
            continue
        if part.get_filename() is not None:
            params[name] = payload
        else:
            value = payload.decode()
            params[name] = json.loads(value) if name in _JSON_PARAMS else value
    return params


def chat_of(chat_id: Any) -> dict[str, Any]:
    for chat in (GROUP, SUPERGROUP, CHANNEL):
        if str(chat_id) in {str(chat["id"]), f"@{chat.get('username')}"}:
            return chat
    return {"id": int(chat_id), "type": "private", "first_name": "Someone"}
