"""The command menu Telegram shows, registered in English (the default) and Chinese."""

from __future__ import annotations

from telegram import Bot, BotCommand

# command → description; the same commands, in the same order, in both languages.
COMMANDS: dict[str, dict[str, str]] = {
    "en": {
        "start": "What this bot is",
        "help": "What I can answer",
        "ask": "Ask a question: /ask has training started?",
        "status": "The overview: where the run stands",
        "sources": "The records I rely on",
        "watch": "What to watch next",
        "digest": "What changed in the evidence [days | since DATE]",
        "subscribe": "A daily digest here [HH:MM] [time zone]",
        "unsubscribe": "Stop the daily digest",
        "settings": "Language, time, time zone, quiet days",
        "check": "Reply to a message: what the evidence says",
        "why": "Why a level: /why started",
        "chart": "Progress against the plan, as a picture",
    },
    "zh": {
        "start": "这个机器人是做什么的",
        "help": "我能回答什么",
        "ask": "提问：/ask 训练开始了吗？",
        "status": "概况：训练进行到哪里",
        "sources": "我所依据的记录",
        "watch": "接下来值得关注什么",
        "digest": "证据有哪些变化 [天数 | since 日期]",
        "subscribe": "在这里订阅每日摘要 [HH:MM] [时区]",
        "unsubscribe": "取消每日摘要",
        "settings": "语言、时间、时区、无变化日",
        "check": "回复一条消息：证据怎么说",
        "why": "可信度从何而来：/why started",
        "chart": "进度与计划对比图",
    },
}


def bot_commands(lang: str) -> list[BotCommand]:
    return [BotCommand(name, description) for name, description in COMMANDS[lang].items()]


async def register_commands(bot: Bot) -> None:
    """English for everyone by default; Chinese for users whose Telegram is set to Chinese."""
    await bot.set_my_commands(bot_commands("en"))
    await bot.set_my_commands(bot_commands("zh"), language_code="zh")
