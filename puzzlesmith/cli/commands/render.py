"""`puzzlesmith render TYPE [PUZZLE ...] [--solution] [-o FILE] [--format puzzlink|tatham]`: puzzles as pictures
(SVG, PNG or PDF)."""

from __future__ import annotations

import argparse
import sys

from puzzlesmith.api import FORMATS, pictures
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_OK,
    add_input_options,
    add_type_options,
    add_url_format_option,
    check_url_format,
    read_puzzles,
    urls,
)
from puzzlesmith.cli.outputs import check_output
from puzzlesmith.cli.pictures import NoAnswer, add_solve_options, no_answer, output_format, solve_all, write_output


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help=COMMANDS["render"])
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--solution", action="store_true",
                   help="draw the solution (solved as `solve` does; for move puzzles a strip of the positions "
                        "along a shortest solution)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write FILE: .svg, .png or .pdf (PNG and PDF need the 'draw' extra); default: SVG on "
                        "standard output")
    add_url_format_option(p, "also print each puzzle (on standard output with -o FILE, else on standard error)")
    add_solve_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        check_output(args.output, "-o")
    fmt = output_format(args.output, FORMATS)
    ptype, _, puzzles = read_puzzles(args)
    check_url_format(ptype, args.url_format)
    links = urls(puzzles, args.url_format) if args.url_format else []
    if args.solution:
        try:
            answers = solve_all(ptype, puzzles, args.engine, args.time_limit)
        except NoAnswer as e:
            return no_answer(e)
        drawn = [pictures.answer_picture(p, a) for p, a in zip(puzzles, answers)]
    else:
        drawn = [pictures.puzzle_picture(p) for p in puzzles]
    picture = drawn[0] if len(drawn) == 1 else pictures.sheet(drawn, [p.source for p in puzzles])
    title = f"{ptype.name} {'solution' if args.solution else 'puzzle'}"
    write_output(pictures.encode(picture, fmt, title), args.output)
    for link in links:
        print(link, file=sys.stdout if args.output else sys.stderr, flush=True)
    return EXIT_OK
