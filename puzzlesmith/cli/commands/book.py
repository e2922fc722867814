"""`puzzlesmith book TYPE -n N -o FILE.pdf`: a printable PDF of generated puzzles, K to a page, then the answers.

Puzzles are made as `generate` makes them (puzzle k from seed S + k, so a book is remade by its
seed), or read with -f FILE and solved as `solve` solves them. The PDF is written whole at the
end, or not at all. Whether a type can be generated is the API's to say (``api.generatable``), as for
`generate`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from functools import partial
from typing import Any

from puzzlesmith.api import (
    LEVELS,
    MAX_SEED,
    BookEntry,
    GenerationError,
    Puzzle,
    Solution,
    Status,
    UsageError,
    generatable,
    generate_many,
    makes_boards,
    new_seed,
    pictures,
    type_of,
)
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_OK,
    EXIT_UNKNOWN,
    add_type_options,
    read_puzzles,
    resolved_params,
    whole_numbers,
)
from puzzlesmith.cli.outputs import check_output
from puzzlesmith.cli.pictures import NoAnswer, add_solve_options, no_answer, output_format, solve_all, write_output

MAX_BOOK = 10_000  # puzzles in one book: a 2,500-page PDF already takes minutes to make


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("book", help=COMMANDS["book"])
    add_type_options(p)
    p.add_argument("-n", "--number", type=whole_numbers(1, MAX_BOOK, f"1 to {MAX_BOOK:,}"), metavar="N",
                   help="generate N puzzles (as `generate` makes them)")
    p.add_argument("-f", "--file", action="append", metavar="FILE",
                   help="the puzzles of FILE instead (solved as `solve` solves them; - for standard input)")
    p.add_argument("--seed", type=whole_numbers(-MAX_SEED, MAX_SEED, "-(2^63 - 1) to 2^63 - 1"),
                   help="puzzle k is made from seed S+k (default: a random seed, shown on stderr)")
    p.add_argument("--difficulty", metavar="LEVEL", type=str.lower,
                   help="make the puzzles at this level: easy, medium or hard by the tiers of deduction they need (or "
                        "the type's names for them), needs guessing, or the technique ladder's levels for "
                        f"sudoku-like types ({', '.join(LEVELS)})")
    p.add_argument("--workers", type=whole_numbers(1, 64, "1 to 64"), default=1, metavar="K",
                   help="processes making puzzles (default 1)")
    p.add_argument("--per-page", type=whole_numbers(1, 30, "1 to 30"), default=4, metavar="K",
                   help="puzzles on a page (default 4); answers go more to a page")
    p.add_argument("--paper", choices=pictures.PAPERS, default="a4", help="page size (default a4)")
    p.add_argument("--title", help="the book's title (default: the type's name)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="the PDF to write")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no seed note on stderr")
    add_solve_options(p)
    p.set_defaults(run=run, puzzles=[])


def run(args: argparse.Namespace) -> int:
    check_output(args.output, "-o")
    output_format(args.output, ("pdf",))
    if (args.number is None) == (not args.file):
        raise UsageError("give -n N to generate puzzles, or -f FILE to print puzzles you have (not both)")
    ptype = type_of(args.type)
    title = args.title or f"{ptype.name.capitalize()} puzzles"
    pictures.check_book_text(title, "--title")  # before any puzzle is made: a title no font shows would fail at the end
    try:
        entries = list(from_file(args) if args.file else generated(args))
    except NoAnswer as e:
        return no_answer(e)
    except GenerationError as e:
        print(f"puzzlesmith: gave up: {e}", file=sys.stderr)
        return EXIT_UNKNOWN
    write_output(pictures.book(entries, args.per_page, args.paper, title), args.output)
    return EXIT_OK


def _bar(args: argparse.Namespace, total: int) -> Any:
    if args.quiet or not sys.stderr.isatty() or total < 2:
        return None
    from tqdm import tqdm  # only when a bar is shown

    return tqdm(total=total, unit="puzzle", file=sys.stderr)


def generated(args: argparse.Namespace) -> Iterator[BookEntry]:
    """Each generated puzzle's drawings and caption, "No. k · what the generator says of it · seed S": its grade,
    or a lights-out board's presses. A puzzle whose generator does not give its solution (a nonogram, a tile
    puzzle's start) is solved as `solve` solves it, as it is made; the drawings are made when their page is."""
    ptype = type_of(args.type)
    if not generatable(ptype):
        raise UsageError(f"{ptype.name} puzzles cannot be generated: give them with -f FILE")
    boards = makes_boards(ptype)
    if boards and (args.difficulty or args.workers != 1):
        raise UsageError(f"--difficulty and --workers are for clue-based puzzles, not {ptype.name} boards")
    seed = new_seed() if args.seed is None else args.seed
    made = generate_many(ptype, resolved_params(ptype, args.param), args.number, seed=seed, workers=args.workers,
                         difficulty=args.difficulty, grade=not boards)
    if args.seed is None and not args.quiet:
        print(f"puzzlesmith: seed {seed} (give --seed {seed} to make this book again)", file=sys.stderr)
    aspect = pictures.answer_aspect(args.per_page, args.paper)
    bar = _bar(args, args.number)
    try:
        for k, one in enumerate(made):
            puzzle = one.puzzle
            answer = (Solution(Status.SOLVED, values=[one.values]) if one.values is not None else
                      solve_all(ptype, [puzzle], args.engine, args.time_limit)[0])
            note = f" · {one.note}" if one.note else ""
            yield BookEntry(partial(pictures.puzzle_picture, puzzle), partial(pictures.answer_picture, puzzle, answer,
                                                                              aspect),
                            f"No. {k + 1}{note} · seed {puzzle.seed}")
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()


def from_file(args: argparse.Namespace) -> Iterator[BookEntry]:
    """Each puzzle of the file's drawings and caption, solved first (all of them, so a puzzle without a solution
    stops the book before anything is written); a clue puzzle's caption gives its grade."""
    ptype, _, puzzles = read_puzzles(args)
    answers = solve_all(ptype, puzzles, args.engine, args.time_limit)
    aspect = pictures.answer_aspect(args.per_page, args.paper)
    for k, (puzzle, answer) in enumerate(zip(puzzles, answers), start=1):
        caption = f"No. {k}"
        if ptype.clue_based and isinstance(answer, Solution):
            level = Puzzle(ptype, puzzle.instance, source=puzzle.source, known=answer.values[0]).grade().level
            caption += f" · {level}" if level else ""
        yield BookEntry(partial(pictures.puzzle_picture, puzzle),
                        partial(pictures.answer_picture, puzzle, answer, aspect), caption)
