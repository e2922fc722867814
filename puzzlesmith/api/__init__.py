"""The mid-end: everything the command line, the web app and Python users share, and the only door they use.

Simon Tatham's puzzle collection calls the layer between its games and its front ends the mid-end: it owns
game IDs, solving and printing for every puzzle, and each front end is thin over it. Here it owns the path from
puzzle text to a checked answer (``api.puzzle``):

1. read the text with the type's parameters (given as Python values or as the command line's strings);
2. build the model and look for a contradiction among the givens (a puzzle that reads well but cannot
   be solved is answered "no solution" with the reason, never reported as bad input);
3. choose an engine (``auto`` decides per model and says why);
4. search under ONE time limit, which also bounds building and compiling the model;
5. check every answer independently (``Model.check``, the givens, the type's own ``verify``; a move
   puzzle's path move by move) before anyone sees it: a wrong answer raises ``WrongAnswer``;

and what a player's page asks of a puzzle or a game (``api.pages``), from the play contract every type declares
(``puzzlesmith.puzzles.play``).

    >>> import puzzlesmith as ps
    >>> puzzle = ps.read("sudoku", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    >>> puzzle.solve().status
    <Status.SOLVED: 'solved'>

Front ends (``puzzlesmith.cli``, ``puzzlesmith.web``) import this package and nothing below it
(``tests/test_layers.py`` keeps them so).
"""

from puzzlesmith.api import pages
from puzzlesmith.api.library import HardestClass, hardest_classes  # the web app's library (see its block below)
from puzzlesmith.api.puzzle import (
    Count,
    Graded,
    MoveSolution,
    Plan,
    Puzzle,
    Solution,
    checked_path,
    clashes,
    empty,
    engine_choice,
    game,
    games,
    generate,
    minimum_moves,
    move_answer,
    move_values,
    next_positions,
    params_of,
    path_engine_choice,
    read,
    read_file,
    read_text,
    solutions_of,
    step_cells,
    stopped_text,
    type_of,
    types,
    unanswered,
    with_entries,
)
from puzzlesmith.core.errors import (
    BadRequest,
    DamagedFile,
    EngineError,
    GenerationError,
    MissingExtra,
    ModelError,
    NoAnswer,
    OutOfTime,
    PuzzleError,
    PuzzlesmithError,
    Unknown,
    Unsolvable,
    UsageError,
    WrongAnswer,
    excerpt,
)
from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, PuzzleType
from puzzlesmith.puzzles.play import Hint, PlayKind, Step
from puzzlesmith.solvers.base import Status

# isort: split
# -- what the command line asks besides single puzzles (issue 42, item 2): many puzzles and books, move puzzles and
# their tables, the games' seeded play, pictures; each module thin over its domain, and named here as modules too.
from puzzlesmith.api import batch, chance, moves, pictures
from puzzlesmith.api.batch import (
    LEVELS,
    MAX_SEED,
    SYMMETRIES,
    Made,
    Verified,
    engines,
    generatable,
    generate_many,
    level_of,
    makes_boards,
    new_seed,
    nonogram_from_image,
    oracle_refusal,
    parse_rating_range,
    verify,
)
from puzzlesmith.api.linear import linear_matrix, matrix_refusal
from puzzlesmith.api.moves import move_types
from puzzlesmith.api.pictures import FORMATS, BookEntry, Picture, answer_picture, puzzle_picture
from puzzlesmith.puzzles.base import whole_number

__all__ = [
    "BadRequest", "Count", "DamagedFile", "EngineError", "GenerationError", "Graded", "Hint", "Instance",
    "MissingExtra", "ModelError", "MovePuzzle", "MoveSolution", "NoAnswer", "OutOfTime", "Param", "Plan", "PlayKind",
    "Puzzle", "PuzzleError", "PuzzleType", "PuzzlesmithError", "Solution", "Status", "Step", "Unknown", "Unsolvable",
    "UsageError", "WrongAnswer", "checked_path", "clashes", "empty", "engine_choice", "excerpt", "game", "games",
    "generate", "minimum_moves", "move_answer", "move_values", "next_positions", "pages", "params_of",
    "path_engine_choice", "read", "read_file", "read_text", "solutions_of", "step_cells", "stopped_text", "type_of",
    "types", "unanswered", "with_entries",
    # the command line's (issue 42, item 2)
    "FORMATS", "LEVELS", "MAX_SEED", "SYMMETRIES", "BookEntry", "Made", "Picture", "Verified", "answer_picture",
    "batch", "chance", "engines", "generatable", "generate_many", "level_of", "linear_matrix", "makes_boards",
    "matrix_refusal", "move_types", "moves", "new_seed", "nonogram_from_image", "oracle_refusal",
    "parse_rating_range", "pictures", "puzzle_picture", "verify", "whole_number",
]

# -- the web app's library: what it imports, read and checked by the API (api/library.py) --
__all__ += ["HardestClass", "hardest_classes"]
