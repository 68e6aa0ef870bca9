"""The Discord adapter: discord.py wiring around the platform-free core.

    client.py         the ``discord.Client``: command tree, mentions, choices, replies
    commands.py       the slash commands: /ask /status /sources /watch /digest /digest-channel
    digest_channel.py pure rules on the store: one digest channel per server, broken settings
    embeds.py         pure: a ``Reply`` → embeds within Discord's limits, the caveat in the body
    views.py          choices as buttons or a select menu, with "none of these"
    sender.py         the digest ``Sender``: REST errors → ``knowledge.errors`` delivery errors
    texts.py          the adapter's own short messages, in both languages
    runner.py         ``run(ctx, stop)``: what ``marin-watch serve`` starts

Discord types never leave this package.
"""
