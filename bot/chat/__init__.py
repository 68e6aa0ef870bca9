"""The conversation layer: everything a person can say to the bot, on any platform.

    where.py          ``Chat``: the platform-free facts of who speaks where (and may do what)
    language.py       the reply language: a subscription's, the client's locale, the text's
    texts.py          the conversation's own words (en/zh) and ``Notice``, rendered per dialect
    args.py           the one argument grammar: times, zones, day counts, dates
    conversation.py   ``Conversation``: ask, choose, help, and every /command by name
    subscriptions.py  daily digests: subscribe, settings, unsubscribe, a server's digest channel
    digest_requests.py  /digest: a window, delivered here and recorded, or a summary in groups

Adapters (``bot/adapters/``) only translate: a platform event becomes a ``Chat`` and a call
here; what comes back (a ``Reply`` or a ``Notice``) is rendered the platform's way.
"""
