"""`puzzlesmith evolve -p size=4x5 [-p goal=...] [--population N] [--generations G] [--seed S] [--workers K]`:
breed hard sliding-block puzzles (``sbp.evolve``), or with ``--random`` draw random boards with the
same number of fitness evaluations (the baseline the evolver must beat).

Before it starts it says what the run will cost (from measured per-size figures, ``sbp.evolve.cost``);
boards are streamed, so the population does not grow the memory."""

from __future__ import annotations

import argparse
import sys

from puzzlesmith.api import UsageError, research
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import EXIT_NO_SOLUTION, EXIT_OK, emit_json, positive_int, whole_numbers
from puzzlesmith.cli.moves import counted
from puzzlesmith.cli.sbp import add_param_option, add_yes_option, check_duration, read_params

NAMES = ("size", "goal", "metric")
MAX_RUN = 10**15  # evaluations: far past any run that ends (a year is about 10^9 of the fastest)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evolve", help=COMMANDS["evolve"])
    add_param_option(p, NAMES)
    p.add_argument("--population", type=whole_numbers(2, 10**12, "2 to 10^12 (the evolver breeds the best two)"),
                   default=50, metavar="N", help="boards per generation, at least 2 (default 50)")
    p.add_argument("--generations", type=positive_int, default=100, metavar="G", help="generations (default 100)")
    p.add_argument("--seed", type=whole_numbers(-research.MAX_SEED, research.MAX_SEED, "-(2^63 - 1) to 2^63 - 1"),
                   help="random seed: a seed gives the same run (default: a random seed, shown on stderr)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="K", help="processes evaluating fitness")
    p.add_argument("--random", action="store_true", help="random boards instead, with the same number of evaluations")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: {generation, evaluations, best_moves, best_puzzle} per generation")
    p.add_argument("-q", "--quiet", action="store_true", help="no seed and cost note on stderr")
    add_yes_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from puzzlesmith.cli.tables import announce_cost

    params = read_params(args.param, NAMES, {"goal": "corner", "metric": "moves"})
    rows, cols = params["size"]
    evaluations = args.population * args.generations
    if evaluations > MAX_RUN:
        raise UsageError(f"--population {args.population:,} x --generations {args.generations:,} is "
                         f"{evaluations:,} evaluations, more than any run could finish (at most {MAX_RUN:,})")
    what = f"evolve: {evaluations:,} evaluations on {rows}x{cols}"
    seconds, memory = research.evolve_cost(rows, cols, evaluations)
    check_duration(what, seconds, args.yes)
    seed = research.new_seed() if args.seed is None else args.seed
    if not args.quiet:
        if args.seed is None:
            print(f"puzzlesmith: seed {seed} (give --seed {seed} to make this run again)", file=sys.stderr)
        announce_cost(what, seconds, memory)
    executor = None
    if args.workers > 1:
        executor = research.worker_pool(args.workers)
    best, done = 0, 0
    try:
        evaluate = research.evaluator(rows, cols, params["goal"], params["metric"], executor, args.workers)
        for gen in research.evolve(evaluate, args.population, args.generations, seed, random_boards=args.random):
            if args.json:
                emit_json(gen.as_dict())
            elif gen.best_moves > best:
                print(f"generation {gen.generation}, {gen.evaluations:,} evaluations: "
                      f"{counted(gen.best_moves, 'move')}\n{gen.best_puzzle}", flush=True)
            best, done = max(best, gen.best_moves), gen.evaluations
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    if not best and not args.json:
        print(f"no solvable board in {counted(done, 'evaluation')} (goal={params['goal']})", flush=True)
    return EXIT_OK if best else EXIT_NO_SOLUTION
