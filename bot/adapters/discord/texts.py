"""The adapter's own short messages and command descriptions, in both languages.

Answers come from the core with their caveat; these are only the Discord-specific words
around them (permission refusals, digest-channel confirmations). Placeholders are filled by
the caller with values already safe for Discord markdown.
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "none_of_these": "None of these",
        "choose": "Which one do you mean?",
        "manage_server_only": (
            "Only members with the **Manage Server** permission can change the digest channel."
        ),
        "server_only": "This command only works in a server.",
        "bad_time": "I could not read `{value}` as a time of day. Use HH:MM, e.g. `09:00`.",
        "bad_timezone": (
            "I do not know the time zone `{value}`. Use an IANA name such as "
            "`Asia/Shanghai`, `Europe/Berlin` or `UTC`."
        ),
        "not_text_channel": (
            "{channel} is not a text channel I can post in. Give me *View Channel*, "
            "*Send Messages* and *Embed Links* there, or choose another channel."
        ),
        "none_chosen": (
            "None of those, then. Try asking in other words, or start typing after `/ask` "
            "to see the topics I can answer."
        ),
        "digest_set": (
            "The daily digest will be posted in {channel} at **{time}** ({tz}), in {language}, "
            "only on days when the evidence changed."
        ),
        "digest_replaced": "It replaces {channel}.",
        "digest_cleared": "No more daily digests in {channel}.",
        "digest_none": "This server has no digest channel. `/digest-channel set` chooses one.",
        "broken": (
            "Heads-up: I could not post the daily digest in {channel} ({reason}). "
            "Someone with **Manage Server** can give me *View Channel*, *Send Messages* and "
            "*Embed Links* there, or choose another channel with `/digest-channel set`."
        ),
        "missing_access": "I am not allowed to post there",
        "error": "Something went wrong on my side. Please try again in a moment.",
        "english": "English",
        "chinese": "Chinese",
    },
    "zh": {
        "none_of_these": "都不是",
        "choose": "你指的是哪一个？",
        "manage_server_only": "只有拥有「**管理服务器**」权限的成员才能修改摘要频道。",
        "server_only": "这个命令只能在服务器中使用。",
        "bad_time": "无法把 `{value}` 识别为时间。请使用 HH:MM，例如 `09:00`。",
        "bad_timezone": (
            "不认识时区 `{value}`。请使用 IANA 名称，"
            "例如 `Asia/Shanghai`、`Europe/Berlin` 或 `UTC`。"
        ),
        "not_text_channel": (
            "{channel} 不是我可以发帖的文字频道。请在该频道给我「查看频道」「发送消息」"
            "「嵌入链接」权限，或换一个频道。"
        ),
        "none_chosen": "好的，都不是。请换个说法再问，或在 `/ask` 后输入文字，查看我能回答的主题。",
        "digest_set": (
            "每日摘要将于 **{time}**（{tz}）以{language}发布在 {channel}，"
            "仅在证据有变化的日子发布。"
        ),
        "digest_replaced": "它取代了 {channel}。",
        "digest_cleared": "{channel} 不再接收每日摘要。",
        "digest_none": "本服务器没有设置摘要频道。用 `/digest-channel set` 选择一个。",
        "broken": (
            "提醒：我无法在 {channel} 发布每日摘要（{reason}）。拥有「**管理服务器**」权限的成员"
            "可以在该频道给我「查看频道」「发送消息」「嵌入链接」权限，或用 `/digest-channel set` "
            "换一个频道。"
        ),
        "missing_access": "我没有在那里发帖的权限",
        "error": "我这边出了点问题，请稍后再试。",
        "english": "英文",
        "chinese": "中文",
    },
}

# Command and option descriptions: English is what Discord shows by default; the Chinese
# ones are sent as zh-CN and zh-TW localizations when the commands are synced.
DESCRIPTIONS: dict[str, str] = {
    "English": "英文",
    "Chinese": "中文",
    "Ask a question about the Marin 535B-A23B training run": "询问关于 Marin 535B-A23B 训练的问题",
    "Your question, or a topic from the list": "你的问题，或从列表中选择一个主题",
    "The overview: where the run stands and how sure we are": "概况：训练进展到哪里，我们有多确定",
    "The records the knowledge base rests on": "知识库所依据的记录",
    "What to watch next": "接下来值得关注什么",
    "What changed in the evidence": "证据有哪些变化",
    "Only the last N days (default: since the last digest here)": (
        "仅最近 N 天（默认：自本频道上次摘要以来）"
    ),
    "Where this server gets its daily digest": "本服务器在哪里接收每日摘要",
    "Post the daily digest in a channel": "在一个频道发布每日摘要",
    "Stop the daily digest in this server": "停止本服务器的每日摘要",
    "The channel that receives the digest": "接收摘要的频道",
    "Local time of day, HH:MM (default 09:00)": "当地时间，HH:MM（默认 09:00）",
    "IANA time zone, e.g. Asia/Shanghai (default UTC)": "IANA 时区，例如 Asia/Shanghai（默认 UTC）",
    "Language of the digest": "摘要的语言",
}


def text(lang: str, key: str, **values: str) -> str:
    """The message ``key`` in ``lang`` (English when the language is unknown)."""
    template = TEXTS.get(lang, TEXTS["en"])[key]
    return template.format(**values) if values else template
