"""`puzzlesmith evolve -p size=4x5 [-p goal=...] [--population N] [--generations G] [--seed S] [--workers K]`:
breed hard sliding-block puzzles (``generators.evolve``), or with ``--random`` draw random boards with the
same number of fitness evaluations (the baseline the evolver must beat)."""

from __future__ import annotations

import argparse

from ..common import EXIT_NO_SOLUTION, EXIT_OK, emit_json, positive_int
from ..sbp import add_param_option, read_params

NAMES = ("size", "goal", "metric")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("evolve", help="breed hard sliding-block puzzles with a genetic algorithm (Bickford's evolver, 2011)")
    add_param_option(p, NAMES)
    p.add_argument("--population", type=positive_int, default=50, metavar="N", help="boards per generation (default 50)")
    p.add_argument("--generations", type=positive_int, default=100, metavar="G", help="generations (default 100)")
    p.add_argument("--seed", type=int, default=0, help="random seed: a seed gives the same run (default 0)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="K", help="processes evaluating fitness")
    p.add_argument("--random", action="store_true", help="random boards instead, with the same number of evaluations")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: {generation, evaluations, best_moves, best_puzzle} per generation")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from puzzlesmith.generators.evolve import Evaluator, evolve, random_search

    params = read_params(args.param, NAMES, {"goal": "corner", "metric": "moves"})
    rows, cols = params["size"]
    if args.population < 2:
        args.population = 2
    executor = None
    if args.workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        from puzzlesmith.generators.batch import _ignore_interrupts

        executor = ProcessPoolExecutor(args.workers, initializer=_ignore_interrupts)
    best = 0
    try:
        evaluate = Evaluator(rows, cols, params["goal"], params["metric"], executor, args.workers)
        run_ = random_search if args.random else evolve
        for gen in run_(evaluate, args.population, args.generations, args.seed):
            if args.json:
                emit_json(gen.as_dict())
            elif gen.best_moves > best:
                print(f"generation {gen.generation}, {gen.evaluations:,} evaluations: {gen.best_moves} moves\n"
                      f"{gen.best_puzzle}", flush=True)
            best = max(best, gen.best_moves)
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return EXIT_OK if best else EXIT_NO_SOLUTION
