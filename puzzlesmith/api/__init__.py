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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what each name is, for type checkers; at run time a name loads its module when first used
    from puzzlesmith.api import batch, chance, moves, pages, pictures, research
    from puzzlesmith.api.batch import (
        LEVELS,
        MAX_SEED,
        SYMMETRIES,
        Made,
        Verified,
        engines,
        generatable,
        generate_chunks,
        generate_many,
        level_of,
        makes_boards,
        new_seed,
        nonogram_from_image,
        oracle_refusal,
        parse_rating_range,
        verify,
    )
    from puzzlesmith.api.formats import looks_like_url, read_url, url_type
    from puzzlesmith.api.library import HardestClass, hardest_classes  # the web app's library (see its block below)
    from puzzlesmith.api.linear import linear_matrix, matrix_refusal
    from puzzlesmith.api.models import MODEL_FILE_KINDS, ModelAnswer, solve_model_file
    from puzzlesmith.api.moves import move_types
    from puzzlesmith.api.pictures import FORMATS, BookEntry, Picture, answer_picture, puzzle_picture
    from puzzlesmith.api.puzzle import (
        URL_FORMATS,
        Count,
        Graded,
        MoveSolution,
        Plan,
        Puzzle,
        Solution,
        checked_path,
        clashes,
        counts_of,
        empty,
        engine_choice,
        game,
        games,
        generate,
        levels,
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
    from puzzlesmith.core.cluster import WAIT as CLUSTER_WAIT
    from puzzlesmith.core.errors import (
        BadRequest,
        DamagedFile,
        EngineError,
        GenerationError,
        LostScheduler,
        LostWorkers,
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
    from puzzlesmith.core.files import Resumable, one_writer
    from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, PuzzleType, whole_number
    from puzzlesmith.puzzles.play import Hint, PlayKind, Step
    from puzzlesmith.solvers.base import Status

#: Where each name lives: "module:name", or a module of the API. Importing this package loads none of them, so
#: that ``puzzlesmith --help`` and a front end's start do not pay for engines, generators and pages they do not use
#: (PEP 562: the module's ``__getattr__`` loads a name's home on first use).
_HOMES: dict[str, str] = {
    "BadRequest": "puzzlesmith.core.errors:BadRequest",
    "BookEntry": "puzzlesmith.api.pictures:BookEntry",
    "URL_FORMATS": "puzzlesmith.api.puzzle:URL_FORMATS",
    "looks_like_url": "puzzlesmith.api.formats:looks_like_url",
    "read_url": "puzzlesmith.api.formats:read_url",
    "url_type": "puzzlesmith.api.formats:url_type",
    "Count": "puzzlesmith.api.puzzle:Count",
    "DamagedFile": "puzzlesmith.core.errors:DamagedFile",
    "EngineError": "puzzlesmith.core.errors:EngineError",
    "Explanation": "puzzlesmith.api.puzzle:Explanation",
    "FORMATS": "puzzlesmith.api.pictures:FORMATS",
    "GenerationError": "puzzlesmith.core.errors:GenerationError",
    "Graded": "puzzlesmith.api.puzzle:Graded",
    "HardestClass": "puzzlesmith.api.library:HardestClass",
    "Hint": "puzzlesmith.puzzles.play:Hint",
    "Instance": "puzzlesmith.puzzles.base:Instance",
    "LEVELS": "puzzlesmith.api.batch:LEVELS",
    "MAX_SEED": "puzzlesmith.api.batch:MAX_SEED",
    "MODEL_FILE_KINDS": "puzzlesmith.api.models:MODEL_FILE_KINDS",
    "Made": "puzzlesmith.api.batch:Made",
    "CLUSTER_WAIT": "puzzlesmith.core.cluster:WAIT",
    "LostScheduler": "puzzlesmith.core.errors:LostScheduler",
    "LostWorkers": "puzzlesmith.core.errors:LostWorkers",
    "Resumable": "puzzlesmith.core.files:Resumable",
    "one_writer": "puzzlesmith.core.files:one_writer",
    "ModelAnswer": "puzzlesmith.api.models:ModelAnswer",
    "MissingExtra": "puzzlesmith.core.errors:MissingExtra",
    "ModelError": "puzzlesmith.core.errors:ModelError",
    "MovePuzzle": "puzzlesmith.puzzles.base:MovePuzzle",
    "MoveSolution": "puzzlesmith.api.puzzle:MoveSolution",
    "NoAnswer": "puzzlesmith.core.errors:NoAnswer",
    "OutOfTime": "puzzlesmith.core.errors:OutOfTime",
    "Param": "puzzlesmith.puzzles.base:Param",
    "Picture": "puzzlesmith.api.pictures:Picture",
    "Plan": "puzzlesmith.api.puzzle:Plan",
    "PlayKind": "puzzlesmith.puzzles.play:PlayKind",
    "Puzzle": "puzzlesmith.api.puzzle:Puzzle",
    "PuzzleError": "puzzlesmith.core.errors:PuzzleError",
    "PuzzleType": "puzzlesmith.puzzles.base:PuzzleType",
    "PuzzlesmithError": "puzzlesmith.core.errors:PuzzlesmithError",
    "SYMMETRIES": "puzzlesmith.api.batch:SYMMETRIES",
    "Solution": "puzzlesmith.api.puzzle:Solution",
    "Status": "puzzlesmith.solvers.base:Status",
    "Step": "puzzlesmith.puzzles.play:Step",
    "Unknown": "puzzlesmith.core.errors:Unknown",
    "Unsolvable": "puzzlesmith.core.errors:Unsolvable",
    "UsageError": "puzzlesmith.core.errors:UsageError",
    "Verified": "puzzlesmith.api.batch:Verified",
    "WrongAnswer": "puzzlesmith.core.errors:WrongAnswer",
    "answer_picture": "puzzlesmith.api.pictures:answer_picture",
    "batch": "puzzlesmith.api.batch",
    "chance": "puzzlesmith.api.chance",
    "checked_path": "puzzlesmith.api.puzzle:checked_path",
    "clashes": "puzzlesmith.api.puzzle:clashes",
    "counts_of": "puzzlesmith.api.puzzle:counts_of",
    "empty": "puzzlesmith.api.puzzle:empty",
    "engine_choice": "puzzlesmith.api.puzzle:engine_choice",
    "engines": "puzzlesmith.api.batch:engines",
    "excerpt": "puzzlesmith.core.errors:excerpt",
    "game": "puzzlesmith.api.puzzle:game",
    "games": "puzzlesmith.api.puzzle:games",
    "generatable": "puzzlesmith.api.batch:generatable",
    "generate": "puzzlesmith.api.puzzle:generate",
    "generate_chunks": "puzzlesmith.api.batch:generate_chunks",
    "generate_many": "puzzlesmith.api.batch:generate_many",
    "hardest_classes": "puzzlesmith.api.library:hardest_classes",
    "level_of": "puzzlesmith.api.batch:level_of",
    "levels": "puzzlesmith.api.puzzle:levels",
    "linear_matrix": "puzzlesmith.api.linear:linear_matrix",
    "makes_boards": "puzzlesmith.api.batch:makes_boards",
    "matrix_refusal": "puzzlesmith.api.linear:matrix_refusal",
    "minimum_moves": "puzzlesmith.api.puzzle:minimum_moves",
    "move_answer": "puzzlesmith.api.puzzle:move_answer",
    "move_types": "puzzlesmith.api.moves:move_types",
    "move_values": "puzzlesmith.api.puzzle:move_values",
    "moves": "puzzlesmith.api.moves",
    "new_seed": "puzzlesmith.api.batch:new_seed",
    "solve_model_file": "puzzlesmith.api.models:solve_model_file",
    "next_positions": "puzzlesmith.api.puzzle:next_positions",
    "nonogram_from_image": "puzzlesmith.api.batch:nonogram_from_image",
    "oracle_refusal": "puzzlesmith.api.batch:oracle_refusal",
    "pages": "puzzlesmith.api.pages",
    "params_of": "puzzlesmith.api.puzzle:params_of",
    "parse_rating_range": "puzzlesmith.api.batch:parse_rating_range",
    "path_engine_choice": "puzzlesmith.api.puzzle:path_engine_choice",
    "pictures": "puzzlesmith.api.pictures",
    "puzzle_picture": "puzzlesmith.api.pictures:puzzle_picture",
    "read": "puzzlesmith.api.puzzle:read",
    "read_file": "puzzlesmith.api.puzzle:read_file",
    "read_text": "puzzlesmith.api.puzzle:read_text",
    "research": "puzzlesmith.api.research",
    "solutions_of": "puzzlesmith.api.puzzle:solutions_of",
    "step_cells": "puzzlesmith.api.puzzle:step_cells",
    "stopped_text": "puzzlesmith.api.puzzle:stopped_text",
    "type_of": "puzzlesmith.api.puzzle:type_of",
    "types": "puzzlesmith.api.puzzle:types",
    "unanswered": "puzzlesmith.api.puzzle:unanswered",
    "verify": "puzzlesmith.api.batch:verify",
    "whole_number": "puzzlesmith.puzzles.base:whole_number",
    "with_entries": "puzzlesmith.api.puzzle:with_entries",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'puzzlesmith.api' has no attribute {name!r}")
    module, _, attribute = home.partition(":")
    value = importlib.import_module(module)
    if attribute:
        value = getattr(value, attribute)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


__all__ = [
    "BadRequest", "Count", "DamagedFile", "EngineError", "Explanation", "GenerationError", "Graded", "Hint", "Instance",
    "MissingExtra", "ModelError", "MovePuzzle", "MoveSolution", "NoAnswer", "OutOfTime", "Param", "Plan", "PlayKind",
    "Puzzle", "PuzzleError", "PuzzleType", "PuzzlesmithError", "Solution", "Status", "Step", "Unknown", "Unsolvable",
    "UsageError", "WrongAnswer", "checked_path", "clashes", "empty", "engine_choice", "excerpt", "game", "games",
    "generate", "levels", "minimum_moves", "move_answer", "move_values", "next_positions", "pages", "params_of",
    "path_engine_choice", "read", "read_file", "read_text", "solutions_of", "step_cells", "stopped_text", "type_of",
    "types", "unanswered", "with_entries", "counts_of",
    # the command line's (issue 42, item 2)
    "FORMATS", "LEVELS", "MAX_SEED", "SYMMETRIES", "BookEntry", "Made", "Picture", "Verified", "answer_picture",
    "batch", "chance", "engines", "generatable", "generate_chunks", "generate_many", "level_of", "linear_matrix",
    "makes_boards", "matrix_refusal", "move_types", "moves", "new_seed", "nonogram_from_image", "oracle_refusal",
    "parse_rating_range", "pictures", "puzzle_picture", "verify", "whole_number", "LostScheduler", "LostWorkers",
    "CLUSTER_WAIT", "Resumable", "one_writer",
]
__all__ += ["HardestClass", "hardest_classes"]

# -- the sliding-block research (issue 42, item 3): api/research.py, which the hardest, boards and evolve commands
# call --
__all__ += ["research"]

# -- puzzles as the community shares them (issue 45, item 1): puzz.link URLs and Tatham's game IDs --
__all__ += ["URL_FORMATS", "looks_like_url", "read_url", "url_type"]

# -- model files (issue 48, item 6): `puzzlesmith solve xcsp FILE` and `solve flatzinc FILE` --
__all__ += ["MODEL_FILE_KINDS", "ModelAnswer", "solve_model_file"]
