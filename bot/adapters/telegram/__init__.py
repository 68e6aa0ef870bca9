"""The Telegram adapter: python-telegram-bot around the conversation layer (``bot.chat``).

    app.py        build the ``Application`` (base URL, defaults, rate limiter, handlers)
    handlers.py   thin handlers: an ``Update`` → a ``Chat`` and a conversation call → messages
    incoming.py   pure: is a message a question for the bot
    format.py     pure: a ``Reply`` → HTML messages under 4,096 characters, keyboards
    replies.py    an answer retried through a 429 or a 5xx
    sender.py     the digest ``Sender``: Bot API errors → ``knowledge.errors`` delivery errors
    polling.py    an outage logged once as it starts and once as it ends
    commands.py   the command menu, registered in English and Chinese
    channel.py    the configured channel: is the bot an admin there?
    lifecycle.py  ``TelegramBot``: start, serve, close, the digest job and the channel

Telegram types never leave this package.
"""
