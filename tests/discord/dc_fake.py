"""A fake Discord on 127.0.0.1: the REST API and the gateway, just enough for our bot.

discord.py runs its real code paths against it (request building, JSON parsing, error
mapping, the gateway handshake). The fake records every REST call, answers like Discord does
(exactly ``Content-Type: application/json``; Discord's error bodies), can be told to fail a
route with 403/404/5xx or to refuse gateway connections (``gateway_refusals``), and pushes
gateway events (``MESSAGE_CREATE``, ``INTERACTION_CREATE``) to the connected bot.

Sharding as the gateway documentation describes it: each connection's IDENTIFY may carry
``shard: [shard_id, num_shards]``; its READY echoes it and lists only the servers of that
shard, ``(guild_id >> 22) % num_shards``; an event is sent on its server's shard, a direct
message's on shard 0. Every IDENTIFY is kept in ``identifies``.

    fake = FakeDiscord()
    await fake.start()                     # then point discord.py at fake.api_base / fake.gateway
    ...
    await fake.dispatch("MESSAGE_CREATE", payload)
    call = await fake.wait_for("POST", r"/channels/\\d+/messages")
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

BOT_USER_ID = 900000000000000001
APP_ID = 900000000000000002
OWNER_ID = 900000000000000003

ERRORS = {
    401: {"message": "401: Unauthorized", "code": 0},
    403: {"message": "Missing Permissions", "code": 50013},
    404: {"message": "Unknown Channel", "code": 10003},
    500: {"message": "Internal Server Error", "code": 0},
    502: {"message": "Bad Gateway", "code": 0},
    503: {"message": "Service Unavailable", "code": 0},
}


def bot_user() -> dict[str, Any]:
    return {
        "id": str(BOT_USER_ID),
        "username": "marin-watch",
        "discriminator": "0",
        "global_name": "marin-watch",
        "avatar": None,
        "bot": True,
        "flags": 0,
        "verified": True,
        "mfa_enabled": False,
    }


@dataclass
class Call:
    """One REST call the bot made."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    body: Any
    answer: Any = None
    files: dict[str, bytes] = field(default_factory=dict)  # attachments, by file name

    @property
    def embeds(self) -> list[dict[str, Any]]:
        data = self.message
        return list(data.get("embeds") or [])

    @property
    def message(self) -> dict[str, Any]:
        """The message payload, wherever the route puts it (callbacks nest it under ``data``)."""
        if not isinstance(self.body, dict):
            return {}
        if self.path.endswith("/callback"):
            return dict(self.body.get("data") or {})
        return self.body


@dataclass
class Failure:
    method: str
    pattern: re.Pattern[str]
    status: int
    times: int
    after: int = 0  # matching calls that still succeed before the failures start


@dataclass
class FakeDiscord:
    guilds: list[dict[str, Any]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    identifies: list[dict[str, Any]] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    _failures: list[Failure] = field(default_factory=list)
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _sockets: dict[int, web.WebSocketResponse] = field(default_factory=dict)  # by shard id
    _shard_count: int = 1
    _seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _runner: web.AppRunner | None = None
    port: int = 0
    gateway_refusals: int = 0  # the next N gateway connections are refused with a 503
    # closes each connection at its IDENTIFY with this close code (4010: invalid shard,
    # 4011: sharding required, as Discord does for a bot in too many servers for one)
    identify_close: int | None = None

    # ---- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        for ws in list(self._sockets.values()):
            if not ws.closed:
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def snowflake(self) -> int:
        return 1_100_000_000_000_000_000 + next(self._ids)

    # ---- test controls ---------------------------------------------------------------------

    def fail(self, method: str, path: str, status: int, *, times: int = 1, after: int = 0) -> None:
        """Answer the next ``times`` calls of ``method`` on a ``path`` (regex) with ``status``,
        once ``after`` more of them have gone through."""
        self._failures.append(Failure(method, re.compile(path), status, times, after))

    def recover(self) -> None:
        """Forget every failure still programmed: Discord answers normally again."""
        self._failures.clear()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway DISPATCH to the connected bot, on the shard of the event's server."""
        shard = self.shard_of(data.get("guild_id"))
        ws = self._sockets.get(shard)
        assert ws is not None, f"no bot connected to the fake gateway on shard {shard}"
        await self._send(ws, event, data)

    def shard_of(self, guild_id: str | int | None) -> int:
        """The shard Discord sends a server's events on; direct messages go to shard 0."""
        return 0 if guild_id is None else (int(guild_id) >> 22) % self._shard_count

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def wait_for(
        self,
        method: str,
        path: str,
        *,
        after: int = 0,
        where: Callable[[Call], bool] = lambda call: True,
        timeout: float = 5.0,
    ) -> Call:
        """The first call (from index ``after``) matching method, path regex and ``where``."""
        pattern = re.compile(path)

        def found() -> Call | None:
            for call in self.calls[after:]:
                if call.method == method and pattern.fullmatch(call.path) and where(call):
                    return call
            return None

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(found), timeout)
        result = found()
        assert result is not None
        return result

    def made(self, method: str, path: str, *, after: int = 0) -> list[Call]:
        pattern = re.compile(path)
        return [c for c in self.calls[after:] if c.method == method and pattern.fullmatch(c.path)]

    # ---- REST ------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        files: dict[str, bytes] = {}
        if request.content_type == "multipart/form-data":  # a message with attachments
            body = None
            async for part in await request.multipart():
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                elif part.filename is not None:
                    files[part.filename] = bytes(await part.read())
        else:
            body = await request.json() if request.can_read_body else None
        call = Call(request.method, path, dict(request.query), body, files=files)
        status, answer = self._answer(call)
        call.answer = answer
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()
        text = "" if answer is None else json.dumps(answer)
        # exactly "application/json": discord.py compares the header string
        return web.Response(
            status=status, body=text.encode(), headers={"Content-Type": "application/json"}
        )

    def _answer(self, call: Call) -> tuple[int, Any]:
        for failure in self._failures:
            if (
                failure.times
                and failure.method == call.method
                and failure.pattern.fullmatch(call.path)
            ):
                if failure.after:
                    failure.after -= 1
                    continue
                failure.times -= 1
                return failure.status, ERRORS.get(failure.status, {"message": "error", "code": 0})
        route = (call.method, call.path)
        if route == ("GET", "/users/@me"):
            return 200, bot_user()
        if route == ("GET", "/oauth2/applications/@me"):
            return 200, self._application()
        if call.method == "PUT" and re.fullmatch(r"/applications/\d+/commands", call.path):
            # Discord answers each command whole: a message or user command (type 2, 3) has
            # an empty description, as the API reference documents.
            self.commands = [
                {
                    "description": "",
                    **c,
                    "id": str(self.snowflake()),
                    "application_id": str(APP_ID),
                    "version": "1",
                }
                for c in call.body
            ]
            return 200, self.commands
        if call.method == "POST" and (m := re.fullmatch(r"/channels/(\d+)/messages", call.path)):
            return 200, self._message(m[1], call.body)
        if call.method == "POST" and (
            m := re.fullmatch(r"/interactions/(\d+)/[^/]+/callback", call.path)
        ):
            return 200, self._callback(m[1], call.body)
        if call.method == "POST" and re.fullmatch(r"/webhooks/\d+/[^/]+", call.path):
            return 200, self._message("0", call.body)
        if call.method == "PATCH" and re.fullmatch(r"/webhooks/\d+/[^/]+/messages/.+", call.path):
            return 200, self._message("0", call.body)
        if call.method == "GET" and re.fullmatch(r"/webhooks/\d+/[^/]+/messages/.+", call.path):
            return 200, self._message("0", {})
        return 404, {"message": "404: Not Found", "code": 0}

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "marin-watch",
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {
                "id": str(OWNER_ID),
                "username": "owner",
                "discriminator": "0",
                "avatar": None,
            },
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "team": None,
        }

    def _message(self, channel_id: str, body: dict[str, Any] | None) -> dict[str, Any]:
        body = body or {}
        return {
            "id": str(self.snowflake()),
            "channel_id": channel_id,
            "author": bot_user(),
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "timestamp": dt.datetime.now(dt.UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags") or 0,
        }

    def _callback(self, interaction_id: str, body: dict[str, Any]) -> dict[str, Any]:
        kind = body.get("type")
        data = body.get("data") or {}
        answer: dict[str, Any] = {
            "interaction": {
                "id": interaction_id,
                "type": 2,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
            }
        }
        if kind in (4, 7):  # a message, or an edit of the component's message
            message = self._message("0", data)
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": message}
        elif kind is not None:
            answer["resource"] = {"type": kind}
        return answer

    # ---- gateway ---------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_refusals:
            self.gateway_refusals -= 1
            return web.Response(status=503)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                break
            payload = json.loads(msg.data)
            if payload["op"] == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2 and self.identify_close is not None:
                await ws.close(code=self.identify_close)
            elif payload["op"] == 2:  # identify
                await self._ready(ws, payload["d"])
        return ws

    async def _ready(self, ws: web.WebSocketResponse, identify: dict[str, Any]) -> None:
        self.identify = identify  # the latest
        self.identifies.append(identify)
        shard, self._shard_count = identify.get("shard") or [0, 1]
        self._sockets[shard] = ws
        guilds = [g for g in self.guilds if self.shard_of(g["id"]) == shard]
        ready = {
            "v": 10,
            "user": bot_user(),
            "guilds": [{"id": g["id"], "unavailable": True} for g in guilds],
            "session_id": f"fake-session-{shard}",
            "resume_gateway_url": self.gateway,
            "application": {"id": str(APP_ID), "flags": 0},
        }
        if "shard" in identify:
            ready["shard"] = identify["shard"]
        await self._send(ws, "READY", ready)
        for guild in guilds:
            await self._send(ws, "GUILD_CREATE", guild)
        self.identified.set()
