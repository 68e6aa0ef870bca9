"""The Discord adapter: discord.py around the conversation layer (``bot.chat``).

    client.py        the ``discord.Client``: command tree, mentions, choices, replies
    commands.py      the slash commands: /ask /status /sources /watch /digest /digest-channel
    descriptions.py  the command menu's Chinese descriptions
    embeds.py        pure: a ``Reply`` → embeds within Discord's limits, the caveat in the body
    views.py         choices as buttons or a select menu, with "none of these"
    sender.py        the digest ``Sender``: REST errors → ``knowledge.errors`` delivery errors
    lifecycle.py     ``DiscordBot``: start, serve (the digest schedule), close
    shards.py        the shards this process connects: one client, or AutoShardedClient

Discord types never leave this package.
"""
