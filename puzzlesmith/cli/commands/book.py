"""`puzzlesmith book TYPE -n N -o FILE.pdf`: a printable PDF of generated puzzles, K to a page, then the answers.

Puzzles are made as `generate` makes them (puzzle k from seed S + k, so a book is remade by its
seed), or read with -f FILE and solved as `solve` solves them. The PDF is written whole at the
end, or not at all.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from functools import partial
from typing import Any

from puzzlesmith.cli.common import EXIT_OK, EXIT_UNKNOWN, add_type_options, parse_params, read_puzzles, whole_numbers
from puzzlesmith.cli.outputs import check_output
from puzzlesmith.cli.pictures import NoAnswer, add_solve_options, no_answer, output_format, write_output
from puzzlesmith.core.errors import GenerationError, UsageError
from puzzlesmith.puzzles import registry

MAX_BOOK = 10_000  # puzzles in one book: a 2,500-page PDF already takes minutes to make


def register(sub: argparse._SubParsersAction) -> None:
    from puzzlesmith.generators import LEVELS
    from puzzlesmith.generators.batch import MAX_SEED

    p = sub.add_parser("book", help="a printable PDF book of puzzles with answer pages (needs the 'draw' extra)")
    add_type_options(p)
    p.add_argument("-n", "--number", type=whole_numbers(1, MAX_BOOK, f"1 to {MAX_BOOK:,}"), metavar="N",
                   help="generate N puzzles (as `generate` makes them)")
    p.add_argument("-f", "--file", action="append", metavar="FILE",
                   help="the puzzles of FILE instead (solved as `solve` solves them; - for standard input)")
    p.add_argument("--seed", type=whole_numbers(-MAX_SEED, MAX_SEED, "-(2^63 - 1) to 2^63 - 1"),
                   help="puzzle k is made from seed S+k (default: a random seed, shown on stderr)")
    p.add_argument("--difficulty", choices=LEVELS, help="make puzzles until one grades at this level")
    p.add_argument("--workers", type=whole_numbers(1, 64, "1 to 64"), default=1, metavar="K",
                   help="processes making puzzles (default 1)")
    p.add_argument("--per-page", type=whole_numbers(1, 30, "1 to 30"), default=4, metavar="K",
                   help="puzzles on a page (default 4); answers go more to a page")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size (default a4)")
    p.add_argument("--title", help="the book's title (default: the type's name)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="the PDF to write")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no seed note on stderr")
    add_solve_options(p)
    p.set_defaults(run=run, puzzles=[])


def run(args: argparse.Namespace) -> int:
    from puzzlesmith.drawing.book import Entry, book_pdf

    check_output(args.output, "-o")
    output_format(args.output, ("pdf",))
    if (args.number is None) == (not args.file):
        raise UsageError("give -n N to generate puzzles, or -f FILE to print puzzles you have (not both)")
    ptype = registry.get(args.type)
    title = args.title or f"{ptype.name.capitalize()} puzzles"
    from puzzlesmith.drawing.pdf import check_text

    check_text(title, "--title")  # before any puzzle is made: a title no font shows would fail at the end
    try:
        entries = list(from_file(args) if args.file else generated(args))
    except NoAnswer as e:
        return no_answer(e)
    except GenerationError as e:
        print(f"puzzlesmith: gave up: {e}", file=sys.stderr)
        return EXIT_UNKNOWN
    write_output(book_pdf([Entry(k, *entry) for k, entry in enumerate(entries, start=1)], args.per_page,
                          args.paper, title), args.output)
    return EXIT_OK


def _bar(args: argparse.Namespace, total: int) -> Any:
    if args.quiet or not sys.stderr.isatty() or total < 2:
        return None
    from tqdm import tqdm  # only when a bar is shown

    return tqdm(total=total, unit="puzzle", file=sys.stderr)


def generated(args: argparse.Namespace) -> Iterator[tuple[Any, Any, str]]:
    """(drawing of the puzzle, drawing of its answer, caption) of each generated puzzle: "No. k · grade ·
    seed S"; the drawings are made when their page is."""
    from puzzlesmith import drawing
    from puzzlesmith.generators import board_generator, generate, new_seed

    ptype = registry.get(args.type)
    params = parse_params(ptype, args.param)
    boards = None if ptype.clue_based else board_generator(ptype)
    if not ptype.clue_based and boards is None:
        raise UsageError(f"{ptype.name} puzzles cannot be generated: give them with -f FILE")
    seed = new_seed() if args.seed is None else args.seed
    if args.seed is None and not args.quiet:
        print(f"puzzlesmith: seed {seed} (give --seed {seed} to make this book again)", file=sys.stderr)
    bar = _bar(args, args.number)
    try:
        if boards is not None:
            if args.difficulty or args.workers != 1:
                raise UsageError(f"--difficulty and --workers are for clue-based puzzles, not {ptype.name} boards")
            for k, board in enumerate(boards(ptype, params, args.number, seed=seed)):
                yield (partial(drawing.picture, ptype, board.instance),
                       partial(drawing.picture, ptype, board.instance, board.solution),
                       f"No. {k + 1} · {board.presses} presses · seed {seed + k}")
                if bar is not None:
                    bar.update()
            return
        for k, made in enumerate(generate(ptype, params, args.number, seed=seed, workers=args.workers,
                                          difficulty=args.difficulty, grade=True)):
            grade = f" · {made.grade.level}" if made.grade is not None else ""
            yield (partial(drawing.picture, ptype, made.instance),
                   partial(drawing.picture, ptype, made.instance, made.solution),
                   f"No. {k + 1}{grade} · seed {made.seed}")
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()


def from_file(args: argparse.Namespace) -> Iterator[tuple[Any, Any, str]]:
    """(drawing of the puzzle, drawing of its answer, caption) of each puzzle of the file, solved first (all
    of them, so a puzzle without a solution stops the book before anything is written)."""
    from puzzlesmith import drawing
    from puzzlesmith.cli.pictures import answer_picture, solve_all
    from puzzlesmith.drawing.book import answer_aspect
    from puzzlesmith.generators import grade

    ptype, _, puzzles = read_puzzles(args)
    answers = solve_all(ptype, puzzles, args.engine, args.time_limit)
    aspect = answer_aspect(args.per_page, args.paper)
    for k, (puzzle, answer) in enumerate(zip(puzzles, answers), start=1):
        caption = f"No. {k}"
        if ptype.clue_based and answer.values is not None:
            caption += f" · {grade(ptype.model(puzzle.instance), puzzle.instance.givens, answer.values).level}"
        yield (partial(drawing.picture, ptype, puzzle.instance), partial(answer_picture, ptype, puzzle, answer, aspect),
               caption)

