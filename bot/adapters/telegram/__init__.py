"""The Telegram adapter: python-telegram-bot wiring around the platform-free core.

    app.py       build the ``Application`` (base URL, defaults, rate limiter, handlers)
    handlers.py  thin handlers: an ``Update`` in, a core call, a reply out
    incoming.py  pure: is a message a question for the bot, and in which language
    format.py    pure: a ``Reply`` → HTML messages under 4,096 characters, keyboards
    args.py      pure: parse ``/digest``, ``/subscribe`` and ``/settings`` arguments
    sender.py    the digest ``Sender``: Bot API errors → ``knowledge.errors`` delivery errors
    commands.py  the command menu, registered in English and Chinese
    channel.py   the configured channel: is the bot an admin there?
    texts.py     the adapter's own short messages in both languages
    runner.py    the digest job, the channel, and ``run(ctx, stop)`` for ``serve``

Telegram types never leave this package.
"""
