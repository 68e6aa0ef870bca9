"""One module per CLI command; each exposes ``add_parser(subparsers)`` and a ``run`` handler."""
