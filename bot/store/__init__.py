"""Persistence behind a small interface (``bot.store.base.Store``); SQLite is the one we ship."""
