"""How we say it: question matching, templates per language, rendering with the caveat."""
