"""The command menu in Chinese: descriptions sent as zh-CN and zh-TW localizations."""

from __future__ import annotations

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
    "Check with marin-watch": "用 marin-watch 核查",
    "Progress against the plan, as a picture": "进度与计划对比图",
    "Why a confidence level: the records and rule": "可信度从何而来：依据的记录和规则",
    "A topic from the list, or a claim id": "从列表中选择主题，或输入说法编号",
}
