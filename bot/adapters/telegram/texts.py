"""The adapter's own short messages, in both languages.

Answers come from the core with their caveat; these are only the Telegram-specific words
around them (command usage, subscription confirmations). Placeholders are filled with
already-escaped HTML by the caller.
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "start": (
            "<b>marin-watch</b> answers questions about the Marin 535B-A23B training run from "
            "a curated knowledge base where every claim carries its sources, and says how sure "
            "it is each time.\n\n"
            "Ask me in plain words here, or in a group mention me or use /ask. "
            "/status gives the overview, /digest what changed in the evidence, "
            "/subscribe a daily digest. /help lists every command and what I can answer."
        ),
        # Plain text (escaped when sent): the first section of /help, before the core's topics.
        "commands": (
            "Commands:\n"
            "/ask QUESTION: ask a question (in a private chat, just write it)\n"
            "/status: the overview, where the run stands and how sure that is\n"
            "/sources: the records I rely on\n"
            "/watch: what to watch next\n"
            "/digest [days | since YYYY-MM-DD]: what changed in the evidence, e.g. /digest 7\n"
            "/subscribe [HH:MM] [time zone]: a daily digest here, "
            "e.g. /subscribe 09:00 Asia/Shanghai\n"
            "/unsubscribe: stop the daily digest\n"
            "/settings: the digest's language, time, time zone and quiet days\n\n"
            "In a group, ask by mentioning me ({bot}), by replying to one of my messages, "
            "or with /ask."
        ),
        "ask_usage": (
            "Put the question after the command, e.g. <code>/ask has training started?</code>"
        ),
        "none_of_these": "None of these",
        "none_chosen": (
            "None of those, then. Try asking in other words, or see /help for what I can answer."
        ),
        "sources": "Sources",
        "choose": "Which one do you mean?",
        "subscribed": (
            "Subscribed. A digest of what changed in the evidence arrives daily at "
            "<b>{time}</b> ({tz}){quiet}.\n/settings to change it, /unsubscribe to stop."
        ),
        "quiet_on": ", also on days when nothing changed",
        "quiet_off": ", only on days when something changed",
        "unsubscribed": "Unsubscribed. No more daily digests here; /subscribe to start again.",
        "not_subscribed": "This chat is not subscribed. /subscribe starts a daily digest.",
        "admins_only": "Only the group's administrators can change its subscription.",
        "bad_time": (
            "I could not read <code>{value}</code> as a time of day. Use HH:MM, e.g. "
            "<code>/subscribe 09:00 Europe/Berlin</code>."
        ),
        "bad_timezone": (
            "I do not know the time zone <code>{value}</code>. Use an IANA name such as "
            "<code>Asia/Shanghai</code> or <code>UTC</code>."
        ),
        "bad_offset": (
            "There is no fixed time zone for <code>{value}</code>: only whole-hour offsets such "
            "as UTC+8 have one. Use your city's IANA name instead, e.g. <code>{example}</code>."
        ),
        "bad_digest": (
            "Use <code>/digest</code>, <code>/digest 7</code> (last 7 days) or "
            "<code>/digest since 2025-01-31</code>."
        ),
        "bad_digest_days": (
            "I can look back 1 to 3650 days, not <code>{value}</code>. "
            "Try <code>/digest 7</code> for the last week."
        ),
        "bad_digest_future": (
            "<code>{value}</code> is in the future. Use a date up to today, e.g. "
            "<code>/digest since 2025-01-31</code>."
        ),
        "bad_digest_early": (
            "<code>{value}</code> is too far back: use a date from 2000-01-01 on, e.g. "
            "<code>/digest since 2025-01-31</code>."
        ),
        "settings": (
            "<b>Settings for this chat</b>\n"
            "language: {language}\ndaily digest: {time} ({tz})\nquiet days: {quiet}\n\n"
            "Change with <code>/settings language zh</code>, <code>/settings time 08:30</code>, "
            "<code>/settings timezone Asia/Shanghai</code>, <code>/settings quiet on</code>."
        ),
        "settings_unsubscribed": (
            "This chat is not subscribed, so there is nothing to set yet; answers follow the "
            "language you write in. /subscribe first, then <code>/settings</code>."
        ),
        "bad_settings": (
            "I did not understand that. Try <code>/settings language en|zh</code>, "
            "<code>/settings time HH:MM</code>, <code>/settings timezone Area/City</code> or "
            "<code>/settings quiet on|off</code>."
        ),
        "settings_saved": "Saved.",
        "on": "on (post even when nothing changed)",
        "off": "off (post only when something changed)",
        "error": "Something went wrong on my side. Please try again in a moment.",
        "unknown_command": "I don't know that command. /help lists what I can do; or just ask "
        "a question.",
        "curators_only": "/signals is for the bot's curators (MARIN_WATCH_TELEGRAM_ADMIN_IDS).",
    },
    "zh": {
        "start": (
            "<b>marin-watch</b> 根据一个经过整理、每条说法都附有信源的知识库，回答关于 "
            "Marin 535B-A23B 训练的问题，并且每次都说明有多确定。\n\n"
            "在这里直接提问即可；在群组中请 @我 或使用 /ask。"
            "/status 查看概况，/digest 查看证据的变化，/subscribe 订阅每日摘要。"
            "/help 列出全部命令和我能回答的内容。"
        ),
        "commands": (
            "命令：\n"
            "/ask 问题：提问（私聊时直接发送问题即可）\n"
            "/status：概况，训练进行到哪里、有多确定\n"
            "/sources：我所依据的记录\n"
            "/watch：接下来值得关注什么\n"
            "/digest [天数 | since YYYY-MM-DD]：证据有哪些变化，例如 /digest 7\n"
            "/subscribe [HH:MM] [时区]：在这里订阅每日摘要，例如 /subscribe 09:00 Asia/Shanghai\n"
            "/unsubscribe：取消每日摘要\n"
            "/settings：摘要的语言、时间、时区和无变化日\n\n"
            "在群组中提问：@我（{bot}）、回复我的消息，或使用 /ask。"
        ),
        "ask_usage": "请把问题写在命令后面，例如 <code>/ask 训练开始了吗？</code>",
        "none_of_these": "都不是",
        "none_chosen": "好的，都不是。请换个说法再问，或用 /help 查看我能回答的内容。",
        "sources": "来源",
        "choose": "你指的是哪一个？",
        "subscribed": (
            "已订阅。每天 <b>{time}</b>（{tz}）发送证据变化摘要{quiet}。\n"
            "用 /settings 修改，用 /unsubscribe 取消。"
        ),
        "quiet_on": "，没有变化的日子也发送",
        "quiet_off": "，仅在有变化的日子发送",
        "unsubscribed": "已取消订阅，这里不再发送每日摘要；用 /subscribe 可重新订阅。",
        "not_subscribed": "本聊天尚未订阅。用 /subscribe 开始接收每日摘要。",
        "admins_only": "只有群组管理员可以修改本群的订阅。",
        "bad_time": (
            "无法把 <code>{value}</code> 识别为时间。请使用 HH:MM，例如 "
            "<code>/subscribe 09:00 Asia/Shanghai</code>。"
        ),
        "bad_timezone": (
            "不认识时区 <code>{value}</code>。请使用 IANA 名称，例如 "
            "<code>Asia/Shanghai</code> 或 <code>UTC</code>。"
        ),
        "bad_offset": (
            "<code>{value}</code> 没有对应的固定时区：只有 UTC+8 这样的整点偏移才有。"
            "请改用所在城市的 IANA 名称，例如 <code>{example}</code>。"
        ),
        "bad_digest": (
            "用法：<code>/digest</code>、<code>/digest 7</code>（最近 7 天）或 "
            "<code>/digest since 2025-01-31</code>。"
        ),
        "bad_digest_days": (
            "只能回看 1 到 3650 天，<code>{value}</code> 不在此范围内。"
            "试试 <code>/digest 7</code>（最近一周）。"
        ),
        "bad_digest_future": (
            "<code>{value}</code> 是未来的日期。请使用今天或更早的日期，例如 "
            "<code>/digest since 2025-01-31</code>。"
        ),
        "bad_digest_early": (
            "<code>{value}</code> 太早了：请使用 2000-01-01 及之后的日期，例如 "
            "<code>/digest since 2025-01-31</code>。"
        ),
        "settings": (
            "<b>本聊天的设置</b>\n"
            "语言：{language}\n每日摘要：{time}（{tz}）\n无变化的日子：{quiet}\n\n"
            "修改示例：<code>/settings language en</code>、<code>/settings time 08:30</code>、"
            "<code>/settings timezone Asia/Shanghai</code>、<code>/settings quiet on</code>。"
        ),
        "settings_unsubscribed": (
            "本聊天尚未订阅，暂无可设置的内容；回答的语言跟随你提问的语言。"
            "请先 /subscribe，再使用 <code>/settings</code>。"
        ),
        "bad_settings": (
            "没有看懂。可以试试 <code>/settings language en|zh</code>、"
            "<code>/settings time HH:MM</code>、<code>/settings timezone 地区/城市</code> 或 "
            "<code>/settings quiet on|off</code>。"
        ),
        "settings_saved": "已保存。",
        "on": "开（没有变化也发送）",
        "off": "关（仅在有变化时发送）",
        "error": "我这边出了点问题，请稍后再试。",
        "unknown_command": "我不认识这个命令。/help 列出我能做的事；也可以直接提问。",
        "curators_only": "/signals 仅供本机器人的审核者使用（MARIN_WATCH_TELEGRAM_ADMIN_IDS）。",
    },
}


def text(lang: str, key: str, **values: str) -> str:
    """The message ``key`` in ``lang`` (English when the language is unknown)."""
    template = TEXTS.get(lang, TEXTS["en"])[key]
    return template.format(**values) if values else template
