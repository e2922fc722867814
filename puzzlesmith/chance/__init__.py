"""Games of chance on a small square board (2048, Threes): their rules on one declared interface
(``rules.GameRules``), the players that choose moves (expectimax, corner, random) and the worst-tile adversary,
and seeded games played, recorded and replayed (``play``).

``GAMES`` names each game's rules class; another package adds one under the ``puzzlesmith.games`` entry points.
Games are played, not solved: their one capability is ``play``.
"""

from puzzlesmith.core.registry import Plugins

GAMES = Plugins("puzzlesmith.games", {
    "2048": "puzzlesmith.chance.game2048:Rules",
    "threes": "puzzlesmith.chance.threes:Rules",
})

__all__ = ["GAMES"]
