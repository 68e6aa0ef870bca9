"""Persistence behind a small interface (``bot.store.contract.Store``); SQLite ships."""
