"""The subcommands, one module each; every module has ``register(subparsers)``."""

COMMANDS: tuple[str, ...] = ("types", "solve", "analyze", "table", "count", "generate", "verify", "grade", "hint",
                             "play", "nonogram_from", "render", "book", "boards", "hardest", "evolve", "serve")
