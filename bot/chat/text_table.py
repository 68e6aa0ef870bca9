"""The texts of ``texts.py``: ``**bold**``, ```code```, ``{placeholders}``; en and zh."""

from __future__ import annotations

Text = str | dict[str, str]  # one text, or a variant per platform ("default" elsewhere)

_TG_COMMANDS_EN = (
    "Commands:\n"
    "/ask QUESTION: ask a question (in a private chat, just write it)\n"
    "/status: the overview, where the run stands and how sure that is\n"
    "/sources: the records I rely on\n"
    "/watch: what to watch next\n"
    "/digest [days | since YYYY-MM-DD]: what changed in the evidence, e.g. /digest 7\n"
    "/subscribe [HH:MM] [time zone]: a daily digest here, e.g. /subscribe 09:00 Asia/Shanghai\n"
    "/unsubscribe: stop the daily digest\n"
    "/settings: the digest's language, time, time zone and quiet days\n"
    "/check: reply with it to a message (or forward one to me): what the evidence says\n"
    "/why TOPIC: how a confidence level was derived, e.g. /why started\n"
    "/chart: recorded progress against the plan, as a picture\n\n"
    "In a group, ask by mentioning me ({bot}), by replying to one of my messages, or with /ask."
)
_TG_COMMANDS_ZH = (
    "命令：\n"
    "/ask 问题：提问（私聊时直接发送问题即可）\n"
    "/status：概况，训练进行到哪里、有多确定\n"
    "/sources：我所依据的记录\n"
    "/watch：接下来值得关注什么\n"
    "/digest [天数 | since YYYY-MM-DD]：证据有哪些变化，例如 /digest 7\n"
    "/subscribe [HH:MM] [时区]：在这里订阅每日摘要，例如 /subscribe 09:00 Asia/Shanghai\n"
    "/unsubscribe：取消每日摘要\n"
    "/settings：摘要的语言、时间、时区和无变化日\n"
    "/check：用它回复一条消息（或把消息转发给我）：证据怎么说\n"
    "/why 主题：可信度是怎么得出的，例如 /why started\n"
    "/chart：有记录的进度与计划对比图\n\n"
    "在群组中提问：@我（{bot}）、回复我的消息，或使用 /ask。"
)

TEXTS: dict[str, dict[str, Text]] = {
    "en": {
        "start": (
            "**marin-watch** answers questions about the Marin 535B-A23B training run from a "
            "curated knowledge base where every claim carries its sources, and says how sure it "
            "is each time.\n\n"
            "Ask me in plain words here, or in a group mention me or use /ask. /status gives "
            "the overview, /digest what changed in the evidence, /subscribe a daily digest. "
            "/help lists every command and what I can answer."
        ),
        "commands": {
            "default": _TG_COMMANDS_EN,
            "discord": (
                "Commands: /ask, /status, /sources, /watch, /digest [days], /chart, /why; "
                "/digest-channel set|clear for the server's daily digest (Manage Server). "
                "Mention me or write to me directly to ask in plain words."
            ),
            "console": (
                "Commands: /status, /sources, /watch, /digest [days | since YYYY-MM-DD], "
                "/check TEXT, /why TOPIC, /chart, /help, /quit. Anything else is a question."
            ),
        },
        "ask_usage": "Put the question after the command, e.g. `/ask has training started?`",
        "check_usage": (
            "Reply `/check` to a message, forward it to me, or put its words after the "
            "command, e.g. `/check Marin 535B finished training, weights next week!`"
        ),
        "why_usage": (
            "Ask `/why` with a topic or claim, e.g. `/why started`; or, after an answer, "
            'ask "why is that confirmed?"'
        ),
        "none_of_these": "None of these",
        "post_publicly": "Post publicly",
        "why_button": "Why these levels?",
        "none_chosen": {
            "default": (
                "None of those, then. Try asking in other words, or see /help for what I can "
                "answer."
            ),
            "discord": (
                "None of those, then. Try asking in other words, or start typing after `/ask` "
                "to see the topics I can answer."
            ),
        },
        "sources": "Sources",
        "choose": "Which one do you mean?",
        "choose_by_number": "(answer with a number)",
        "subscribed": (
            "Subscribed. A digest of what changed in the evidence arrives daily at **{time}** "
            "({tz}){quiet}.\n/settings to change it, /unsubscribe to stop."
        ),
        "quiet_on": ", also on days when nothing changed",
        "quiet_off": ", only on days when something changed",
        "unsubscribed": "Unsubscribed. No more daily digests here; /subscribe to start again.",
        "not_subscribed": "This chat is not subscribed. /subscribe starts a daily digest.",
        "admins_only": {
            "default": "Only the group's administrators can change its subscription.",
            "discord": (
                "Only members with the **Manage Server** permission can change the digest channel."
            ),
        },
        "no_subscriptions_here": (
            "Daily digests are posted in Telegram chats and Discord servers; here, "
            "/digest shows what changed."
        ),
        "bad_time": "I could not read `{value}` as a time of day. Use HH:MM, e.g. `09:00`.",
        "bad_timezone": (
            "I do not know the time zone `{value}`. Use an IANA name such as `Asia/Shanghai` "
            "or `UTC`, or a whole-hour offset such as `UTC+8`."
        ),
        "bad_offset": (
            "There is no fixed time zone for `{value}`: only whole-hour offsets such as UTC+8 "
            "have one. Use your city's IANA name instead, e.g. `{example}`."
        ),
        "bad_digest": ("Use `/digest`, `/digest 7` (last 7 days) or `/digest since 2025-01-31`."),
        "bad_digest_days": (
            "I can look back 1 to 3650 days, not `{value}`. Try `/digest 7` for the last week."
        ),
        "bad_digest_future": (
            "`{value}` is in the future. Use a date up to today, e.g. `/digest since 2025-01-31`."
        ),
        "bad_digest_early": (
            "`{value}` is too far back: use a date from 2000-01-01 on, e.g. "
            "`/digest since 2025-01-31`."
        ),
        "digest_summary": (
            "That is a summary for the chat: {shown} of {total} changed claims. The whole "
            "digest since {since}: send me `{command}` in a private chat."
        ),
        "settings": (
            "**Settings for this chat**\n"
            "language: {language}\ndaily digest: {time} ({tz})\nquiet days: {quiet}\n\n"
            "Change with `/settings language zh`, `/settings time 08:30`, "
            "`/settings timezone Asia/Shanghai`, `/settings quiet on`."
        ),
        "settings_unsubscribed": (
            "This chat is not subscribed, so there is nothing to set yet; answers follow the "
            "language you write in. /subscribe first, then `/settings`."
        ),
        "bad_settings": (
            "I did not understand that. Try `/settings language en|zh`, "
            "`/settings time HH:MM`, `/settings timezone Area/City` or "
            "`/settings quiet on|off`."
        ),
        "on": "on (post even when nothing changed)",
        "off": "off (post only when something changed)",
        "error": "Something went wrong on my side. Please try again in a moment.",
        "unknown_command": (
            "I don't know that command. /help lists what I can do; or just ask a question."
        ),
        "curators_only": "/signals is for the bot's curators (MARIN_WATCH_TELEGRAM_ADMIN_IDS).",
        "server_only": "This command only works in a server.",
        "not_text_channel": (
            "{channel} is not a text channel I can post in. Give me View Channel, Send "
            "Messages and Embed Links there, or choose another channel."
        ),
        "digest_set": (
            "The daily digest will be posted in {channel} at **{time}** ({tz}), in "
            "{language}, only on days when the evidence changed.{replaced}"
        ),
        "digest_replaced": "It replaces {channel}.",
        "digest_cleared": "No more daily digests in {channel}.",
        "digest_none": "This server has no digest channel. `/digest-channel set` chooses one.",
        "broken": (
            "Heads-up: I could not post the daily digest in {channel} ({reason}). Someone "
            "with **Manage Server** can give me View Channel, Send Messages and Embed Links "
            "there, or choose another channel with `/digest-channel set`."
        ),
        "missing_access": "I am not allowed to post there",
        "english": "English",
        "chinese": "Chinese",
    },
    "zh": {
        "start": (
            "**marin-watch** 根据一个经过整理、每条说法都附有信源的知识库，回答关于 "
            "Marin 535B-A23B 训练的问题，并且每次都说明有多确定。\n\n"
            "在这里直接提问即可；在群组中请 @我 或使用 /ask。"
            "/status 查看概况，/digest 查看证据的变化，/subscribe 订阅每日摘要。"
            "/help 列出全部命令和我能回答的内容。"
        ),
        "commands": {
            "default": _TG_COMMANDS_ZH,
            "discord": (
                "命令：/ask、/status、/sources、/watch、/digest [天数]、/chart、/why；"
                "/digest-channel set|clear 设置本服务器的每日摘要（需要「管理服务器」权限）。"
                "@我 或私信我，直接用自然语言提问。"
            ),
            "console": (
                "命令：/status、/sources、/watch、/digest [天数 | since YYYY-MM-DD]、"
                "/check 文本、/why 主题、/chart、/help、/quit。其他输入都当作提问。"
            ),
        },
        "ask_usage": "请把问题写在命令后面，例如 `/ask 训练开始了吗？`",
        "check_usage": (
            "用 `/check` 回复一条消息、把消息转发给我，或把内容写在命令后面，例如 "
            "`/check Marin 535B 已经训完了，下周放权重！`"
        ),
        "why_usage": (
            "用 `/why` 加主题或说法编号，例如 `/why started`；或在回答之后问“为什么说已确认？”"
        ),
        "none_of_these": "都不是",
        "post_publicly": "公开发布",
        "why_button": "为什么是这个可信度？",
        "none_chosen": {
            "default": "好的，都不是。请换个说法再问，或用 /help 查看我能回答的内容。",
            "discord": "好的，都不是。请换个说法再问，或在 `/ask` 后输入文字，查看我能回答的主题。",
        },
        "sources": "来源",
        "choose": "你指的是哪一个？",
        "choose_by_number": "（回复编号即可）",
        "subscribed": (
            "已订阅。每天 **{time}**（{tz}）发送证据变化摘要{quiet}。\n"
            "用 /settings 修改，用 /unsubscribe 取消。"
        ),
        "quiet_on": "，没有变化的日子也发送",
        "quiet_off": "，仅在有变化的日子发送",
        "unsubscribed": "已取消订阅，这里不再发送每日摘要；用 /subscribe 可重新订阅。",
        "not_subscribed": "本聊天尚未订阅。用 /subscribe 开始接收每日摘要。",
        "admins_only": {
            "default": "只有群组管理员可以修改本群的订阅。",
            "discord": "只有拥有「**管理服务器**」权限的成员才能修改摘要频道。",
        },
        "no_subscriptions_here": (
            "每日摘要发送到 Telegram 聊天和 Discord 服务器；在这里，/digest 可查看变化。"
        ),
        "bad_time": "无法把 `{value}` 识别为时间。请使用 HH:MM，例如 `09:00`。",
        "bad_timezone": (
            "不认识时区 `{value}`。请使用 IANA 名称，例如 `Asia/Shanghai` 或 `UTC`，"
            "或 `UTC+8` 这样的整点偏移。"
        ),
        "bad_offset": (
            "`{value}` 没有对应的固定时区：只有 UTC+8 这样的整点偏移才有。"
            "请改用所在城市的 IANA 名称，例如 `{example}`。"
        ),
        "bad_digest": "用法：`/digest`、`/digest 7`（最近 7 天）或 `/digest since 2025-01-31`。",
        "bad_digest_days": (
            "只能回看 1 到 3650 天，`{value}` 不在此范围内。试试 `/digest 7`（最近一周）。"
        ),
        "bad_digest_future": (
            "`{value}` 是未来的日期。请使用今天或更早的日期，例如 `/digest since 2025-01-31`。"
        ),
        "bad_digest_early": (
            "`{value}` 太早了：请使用 2000-01-01 及之后的日期，例如 `/digest since 2025-01-31`。"
        ),
        "digest_summary": (
            "以上是群聊摘要：共 {total} 条有变化的说法，显示了 {shown} 条。"
            "自 {since} 以来的完整摘要：请私聊我发送 `{command}`。"
        ),
        "settings": (
            "**本聊天的设置**\n"
            "语言：{language}\n每日摘要：{time}（{tz}）\n无变化的日子：{quiet}\n\n"
            "修改示例：`/settings language en`、`/settings time 08:30`、"
            "`/settings timezone Asia/Shanghai`、`/settings quiet on`。"
        ),
        "settings_unsubscribed": (
            "本聊天尚未订阅，暂无可设置的内容；回答的语言跟随你提问的语言。"
            "请先 /subscribe，再使用 `/settings`。"
        ),
        "bad_settings": (
            "没有看懂。可以试试 `/settings language en|zh`、`/settings time HH:MM`、"
            "`/settings timezone 地区/城市` 或 `/settings quiet on|off`。"
        ),
        "on": "开（没有变化也发送）",
        "off": "关（仅在有变化时发送）",
        "error": "我这边出了点问题，请稍后再试。",
        "unknown_command": "我不认识这个命令。/help 列出我能做的事；也可以直接提问。",
        "curators_only": "/signals 仅供本机器人的审核者使用（MARIN_WATCH_TELEGRAM_ADMIN_IDS）。",
        "server_only": "这个命令只能在服务器中使用。",
        "not_text_channel": (
            "{channel} 不是我可以发帖的文字频道。请在该频道给我「查看频道」「发送消息」"
            "「嵌入链接」权限，或换一个频道。"
        ),
        "digest_set": (
            "每日摘要将于 **{time}**（{tz}）以{language}发布在 {channel}，"
            "仅在证据有变化的日子发布。{replaced}"
        ),
        "digest_replaced": "它取代了 {channel}。",
        "digest_cleared": "{channel} 不再接收每日摘要。",
        "digest_none": "本服务器没有设置摘要频道。用 `/digest-channel set` 选择一个。",
        "broken": (
            "提醒：我无法在 {channel} 发布每日摘要（{reason}）。拥有「**管理服务器**」权限的成员"
            "可以在该频道给我「查看频道」「发送消息」「嵌入链接」权限，或用 "
            "`/digest-channel set` 换一个频道。"
        ),
        "missing_access": "我没有在那里发帖的权限",
        "english": "英文",
        "chinese": "中文",
    },
}
