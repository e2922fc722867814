"""The subcommands, one module each; every module has ``register(subparsers)``."""

COMMANDS: tuple[str, ...] = ("types", "solve", "analyze", "count", "generate", "verify", "grade", "hint", "play",
                            "boards", "hardest", "evolve")
