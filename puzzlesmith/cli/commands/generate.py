"""`puzzlesmith generate TYPE`: unique, minimal puzzles of a clue-based type, one per line as they are made."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from puzzlesmith.api import (
    CLUSTER_WAIT,
    LEVELS,
    MAX_SEED,
    SYMMETRIES,
    GenerationError,
    LostScheduler,
    Made,
    PuzzleError,
    PuzzleType,
    Resumable,
    Unsolvable,
    UsageError,
    engines,
    generate_chunks,
    makes_boards,
    new_seed,
    one_writer,
    oracle_refusal,
    parse_rating_range,
    type_of,
)
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_type_options,
    add_url_format_option,
    check_url_format,
    positive_int,
    positive_seconds,
    resolved_params,
    whole_numbers,
)
from puzzlesmith.cli.outputs import check_output


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help=COMMANDS["generate"])
    add_type_options(p)
    p.add_argument("-n", "--number", type=whole_numbers(0, 10**100, "0 to 10^100"), default=1, metavar="N",
                   help="how many puzzles (default 1)")
    p.add_argument("--seed", type=whole_numbers(-MAX_SEED, MAX_SEED, "-(2^63 - 1) to 2^63 - 1"),
                   help="puzzle k is made from seed S+k alone: same seed, same puzzles; every integer below 2^63 in "
                        "size is its own seed (default: a random seed, shown on stderr and in --json)")
    p.add_argument("--symmetry", choices=SYMMETRIES, default="none",
                   help="symmetry of the clue pattern; minimality is then taken orbit by orbit")
    p.add_argument("--difficulty", metavar="LEVEL", type=difficulty,
                   help="make puzzles at this level: easy, medium or hard by the tiers of deduction they need (or the "
                        "type's names for them; made as Tatham makes his levels), needs guessing, or for sudoku-like "
                        f"types the technique ladder's ({', '.join(LEVELS)}); for nonograms easy, medium or hard by "
                        "the tier of line logic; or rated within a range like 3.0-4.5 (Sudoku Explainer's scale)")
    p.add_argument("--rating", metavar="A-B", type=rating_range,
                   help="make puzzles until one rates from A to B on Sudoku Explainer's scale, e.g. 3.0-4.5")
    p.add_argument("--max-tries", type=positive_int, default=1000, metavar="N",
                   help="with --difficulty or --rating, give up (exit 3) after N puzzles of other grades "
                        "(default 1000)")
    p.add_argument("--workers", type=whole_numbers(1, MAX_WORKERS, f"1 to {MAX_WORKERS}"), default=1, metavar="K",
                   help=f"processes making puzzles (default 1, at most {MAX_WORKERS})")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="make the puzzles on the dask cluster whose scheduler is at ADDRESS (tcp://host:8786): the "
                        "same puzzles as here, in the same order")
    p.add_argument("--wait", type=positive_seconds, default=CLUSTER_WAIT, metavar="SECONDS",
                   help=f"with --scheduler, how long to wait for a first worker to join, and for a worker once all "
                        f"have died; default {CLUSTER_WAIT:g}")
    p.add_argument("--oracle", metavar="ENGINE",
                   help="engine that answers the uniqueness questions (default: the fastest registered); "
                        "the puzzles do not depend on it")
    p.add_argument("--grid", action="store_true", help="print grids (blank line between) instead of one line each")
    add_url_format_option(p, "print each puzzle")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: puzzle, solution, clues, grade, seed, ... one object per puzzle")
    p.add_argument("--out", metavar="FILE",
                   help="write the puzzles to FILE, each chunk as it is made; the same command run again continues "
                        "where it stopped (FILE.run beside it says how far it got)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no seed note on stderr")
    p.add_argument("--presses", type=whole_numbers(0, 10**7, "0 to 10^7"), metavar="N",
                   help="lights-out boards: the fewest presses that clear the board is exactly N")
    p.add_argument("--unique", action="store_true",
                   help="lights-out boards: only one way to clear the board with that fewest number of presses")
    p.set_defaults(run=run)


def rating_range(text: str) -> tuple[float, float]:
    """--rating's value: 'A-B' (or one rating) as a (low, high) pair; argparse reports a ValueError."""
    try:
        return parse_rating_range(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def difficulty(text: str) -> str | tuple[float, float]:
    """--difficulty's value: a level name, or a rating range (as --rating)."""
    name = text.strip().lower()
    if name and (name[0].isdigit() or name[0] == "."):
        return rating_range(text)
    return name  # the type's levels are checked once the type is known (one line naming them, exit 2)


def run(args: argparse.Namespace) -> int:
    ptype = type_of(args.type)
    check_url_format(ptype, args.url_format)
    if isinstance(args.difficulty, tuple):
        if args.rating is not None:
            raise UsageError("give a rating range with --difficulty or with --rating, not both")
        args.difficulty, args.rating = None, args.difficulty
    params = resolved_params(ptype, args.param)
    if makes_boards(ptype):
        return run_boards(args, ptype, params)
    if args.presses is not None or args.unique:
        raise UsageError("--presses and --unique are for lights-out boards")
    if args.scheduler and args.workers != 1:
        raise UsageError("--workers runs a local pool and --scheduler names a cluster: give one of them")
    if args.oracle is not None:
        if args.oracle not in engines():
            oracle_refusal(ptype, params, args.symmetry, args.difficulty)  # bad options are told first
            raise UsageError(f"unknown engine {args.oracle!r} for --oracle (known: {', '.join(engines())})")
        reason = oracle_refusal(ptype, params, args.symmetry, args.difficulty, args.oracle)
        if reason:
            raise UsageError(f"--oracle {args.oracle}: {reason}")
    return kept(args, ptype, lambda seed, start: generate_chunks(
        ptype, params, args.number, seed=seed, start=start, workers=args.workers, scheduler=args.scheduler,
        wait=args.wait, say=say, symmetry=args.symmetry, difficulty=args.difficulty, oracle=args.oracle,
        grade=args.json, max_tries=args.max_tries, rating=args.rating))


def kept(args: argparse.Namespace, ptype: PuzzleType, making: Callable[[int, int], Iterator[list[Made]]]) -> int:
    """The run, its puzzles printed or, with ``--out``, kept in the file chunk by chunk (``Resumable``): held by
    this process alone (``one_writer``), a rerun of the same command making only what the file lacks."""
    if not args.out:
        seed = new_seed() if args.seed is None else args.seed
        made = making(seed, 0)
        announce(args, seed)
        return emitted(args, ptype, made, None)
    check_output(args.out, "--out")
    making(0 if args.seed is None else args.seed, args.number)  # bad options told before the file is touched
    with one_writer(args.out):
        sink = Resumable(args.out, command_of(args, ptype), {} if args.seed is not None else {"seed": new_seed()})
        seed = sink.start()["seed"]
        if sink.done >= args.number:
            if not args.quiet:
                print(f"generate: nothing left to make: {args.out} holds all {args.number:,} puzzles",
                      file=sys.stderr, flush=True)
            return EXIT_OK
        made = making(seed, sink.done)
        if sink.done and not args.quiet:
            print(f"generate: {args.out} holds {sink.done:,} of the {args.number:,} puzzles: making the rest",
                  file=sys.stderr, flush=True)
        elif args.seed is None and not args.quiet:
            print(f"puzzlesmith: seed {seed} (a rerun of this command continues with it)", file=sys.stderr)
        return emitted(args, ptype, made, sink)


def command_of(args: argparse.Namespace, ptype: PuzzleType) -> dict[str, Any]:
    """What makes a run's output, as a rerun on the same ``--out`` must give it again (not where it runs: --workers,
    --scheduler, --oracle and -q change nothing in the file); the seed when it was given."""
    command = {"type": ptype.name, "param": list(args.param or []), "number": args.number,
               "symmetry": args.symmetry, "difficulty": args.difficulty,
               "rating": list(args.rating) if args.rating else None, "max_tries": args.max_tries, "grid": args.grid,
               "format": args.url_format, "json": args.json, "presses": args.presses, "unique": args.unique}
    return command if args.seed is None else {**command, "seed": args.seed}


def emitted(args: argparse.Namespace, ptype: PuzzleType, made: Iterator[list[Made]], sink: Resumable | None) -> int:
    """Print each chunk (or append it to ``sink``, whole) as it comes; the exit status."""
    done = sink.done if sink is not None else 0
    bar = None
    if not args.quiet and sys.stderr.isatty() and args.number > 1:
        from tqdm import tqdm  # only when a bar is shown: keeps the command's start-up light

        bar = tqdm(total=args.number, initial=done, unit="puzzle", file=sys.stderr)
    out = Output(args, ptype, done)
    try:
        for chunk in made:
            if sink is not None:
                sink.add("".join(out.text(one) for one in chunk), len(chunk))
            else:
                # Line by line through the buffer, which keeps what a flush cut short by Ctrl-C did not write
                # (the exit flushes it): one write of a whole chunk lost its tail, a puzzle cut in two.
                for one in chunk:
                    sys.stdout.write(out.text(one))
                sys.stdout.flush()
            if bar is not None:
                bar.update(len(chunk))
    except Unsolvable as e:
        print(f"puzzlesmith: {e}", file=sys.stderr)
        return EXIT_NO_SOLUTION
    except GenerationError as e:
        print(f"puzzlesmith: gave up: {e}", file=sys.stderr)
        return EXIT_UNKNOWN
    except LostScheduler as e:
        where = f"{sink.done:,} puzzle(s) kept in {args.out}" if sink is not None else f"{out.count - done:,} printed"
        print(f"generate: {e}; {where}; {e.remedy}, then run the same command again", file=sys.stderr, flush=True)
        return EXIT_UNKNOWN
    finally:
        if bar is not None:
            bar.close()
    return EXIT_OK


MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))  # a local process pool: more only thrashes


class Output:
    """Prints puzzles so that a file of them reads back as the same puzzles: one per line (a blank line
    between puzzles of several lines, and between one-line puzzles that would together read as one
    grid, such as sixteen 4x4 sudokus), and a note on stderr when a -p the text does not carry is
    needed to read them back (a sudoku's 3x2 boxes)."""

    def __init__(self, args: argparse.Namespace, ptype: PuzzleType, count: int = 0) -> None:
        self.args, self.ptype = args, ptype
        self.count = count  # puzzles before this run's first: a file resumed
        self.first = True
        self.separate = False

    def text(self, made: Made) -> str:
        """The puzzle as it is printed: its line (or grid, URL, JSON record), the blank line before it included."""
        puzzle = made.puzzle
        if self.args.json:
            return json.dumps(with_params(self.args, made), separators=(",", ":")) + "\n"
        if self.args.url_format:
            return puzzle.to_url(self.args.url_format) + "\n"
        text = puzzle.text if self.args.grid else puzzle.line
        if self.first:
            n = self.args.number
            self.separate = "\n" in text or (1 < n <= 10_000 and self.ptype.is_one_line(text)
                                             and self.ptype.is_one_grid([text] * n))
            self._note(text, puzzle.params)
            self.first = False
        self.count += 1
        return ("\n" if self.count > 1 and self.separate else "") + text + "\n"

    def _note(self, text: str, params: dict[str, Any]) -> None:
        if self.args.quiet or not self.args.param:
            return
        try:
            again = self.ptype.parse(text, self.ptype.resolve_params({})).params
        except PuzzleError:
            again = None
        if again != params:
            print(f"puzzlesmith: note: read these puzzles back with {' '.join('-p ' + p for p in self.args.param)} "
                  f"(the text alone does not say it)", file=sys.stderr, flush=True)


def with_params(args: argparse.Namespace, made: Made) -> dict[str, Any]:
    """A JSON record with the -p values that made it, so that it says everything needed to read it back (and
    with ``--format`` its URL or game ID)."""
    record = made.record
    if args.url_format:
        record = {**record, "url": made.puzzle.to_url(args.url_format)}
    if not args.param:
        return record
    params = dict(pair.partition("=")[::2] for pair in args.param)
    return {"type": record["type"], "params": {k.strip(): v.strip() for k, v in params.items()}, **record}


def say(text: str) -> None:
    """A word on stderr from a run on a cluster, before its puzzles are made."""
    print(f"generate: {text}", file=sys.stderr, flush=True)


def announce(args: argparse.Namespace, seed: int) -> None:
    """A seed the user did not give is shown on stderr, so the same puzzles can be made again."""
    if args.seed is None and not args.quiet:
        print(f"puzzlesmith: seed {seed} (give --seed {seed} to make these puzzles again)", file=sys.stderr)


def run_boards(args: argparse.Namespace, ptype: PuzzleType, params: dict[str, Any]) -> int:
    """Types that are not made of clues (lights-out, nonograms, tile puzzles' starts) have their own board
    generator."""
    levels = bool(ptype.board_levels)  # its generator makes levels: --difficulty and --max-tries serve it
    if (args.symmetry != "none" or args.difficulty and not levels or args.rating or args.oracle or args.workers != 1
            or args.max_tries != 1000 and not levels or args.scheduler):
        raise UsageError("--symmetry, --difficulty, --oracle, --workers, --scheduler and --max-tries are for "
                         f"clue-based puzzles, not {ptype.name} boards")
    return kept(args, ptype, lambda seed, start: generate_chunks(
        ptype, params, args.number, seed=seed, start=start, presses=args.presses, unique=args.unique,
        difficulty=args.difficulty, max_tries=args.max_tries))
