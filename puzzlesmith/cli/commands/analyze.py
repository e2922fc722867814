"""`puzzlesmith analyze TYPE PUZZLE`: the start's whole component in the chosen metric.

How many positions it holds and how many are goals, how many lie at each distance from the
start, the farthest of them, and the hardest start: the (eligible) position farthest from
every goal, with an optimal solution from it (``moves.explore``).
"""

from __future__ import annotations

import argparse
from typing import Any

from puzzlesmith.api import MovePuzzle, Status, UsageError, stopped_text
from puzzlesmith.api.moves import FARTHEST, Exploration, Space, bb_report, explore, local_maxima
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_input_options,
    add_type_options,
    emit_json,
    positive_int,
    positive_seconds,
    whole_numbers,
)
from puzzlesmith.cli.moves import Progress, add_position_limit, add_table_option, counted, limits_for, move_puzzles
from puzzlesmith.cli.tables import answers_of, describe as describe_table, load


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help=COMMANDS["analyze"])
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS", help="give up on a puzzle after this long")
    p.add_argument("--node-limit", type=positive_int, metavar="N", help="give up on a puzzle after N expansions")
    add_position_limit(p)
    add_table_option(p, "print the answers kept in this distance table (built by `puzzlesmith table`): positions, "
                        "histogram, maximal, local_maxima")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: positions, goal_positions, histogram, farthest, hardest (one object per puzzle); "
                        "perm and tiles also maximal and local_maxima")
    p.add_argument("--bb", action="store_true", help="also the BB difficulty metric (exact, or sampled with a 95%% "
                                                     "interval; see moves/bb.py)")
    p.add_argument("--bb-samples", type=whole_numbers(2, 10**7, "2 to 10,000,000 (an interval needs two)"),
                   metavar="N", help="with --bb: loop-erased walks when BB is sampled (default 200)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the BB sampling (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.bb_samples is not None and not args.bb:
        raise UsageError("--bb-samples is for the BB metric: give --bb too")
    args.bb_samples = args.bb_samples or 200
    ptype, spaces = move_puzzles(args)
    if args.table:
        return from_table(args, ptype, spaces)
    worst = EXIT_OK
    for n, (puzzle, space) in enumerate(spaces):
        progress = Progress(puzzle.source)
        try:
            found = explore(space, limits_for(args, progress))
        finally:
            progress.close()
        if found.status == Status.UNKNOWN:
            text = stopped_text(found.stats, space)
            if args.json:
                emit_json({"status": Status.UNKNOWN, "reached": text, "stats": found.stats.as_dict()})
            else:
                print(f"{puzzle.source}: {text}", flush=True)
            worst = EXIT_UNKNOWN
            continue
        report = summary(space, found)
        if space.hoey:
            maxima = local_maxima(space, limits_for(args, None))
            if maxima.status == Status.UNKNOWN:
                text = stopped_text(maxima.stats, space)
                if args.json:
                    emit_json({"status": Status.UNKNOWN, "reached": text})
                else:
                    print(f"{puzzle.source}: {text}")
                worst = EXIT_UNKNOWN
                continue
            report["maximal"] = report["farthest"]
            report["local_maxima"] = maxima.local_maxima
        if args.bb:
            report["bb"] = bb_report(space, args.bb_samples, args.seed)
        if args.json:
            emit_json(report)
        else:
            if n:
                print(flush=True)
            print(describe(report, "\n" in report["farthest"]["positions"][0]), flush=True)
        if report["hardest"] is None and worst == EXIT_OK:
            worst = EXIT_NO_SOLUTION
    return worst


def from_table(args: argparse.Namespace, ptype: MovePuzzle, spaces: list[tuple[Any, Space]]) -> int:
    """``analyze --table``: Hoey's four answers, as the table's header keeps them."""
    for n, (_, space) in enumerate(spaces):
        table, _ = load(args.table, space, ptype)
        table.check_all()  # the header's answers stand only for an intact body
        if args.json:
            emit_json(answers_of(table.header))
        else:
            print(("\n" if n else "") + describe_table(table.header), flush=True)
    return EXIT_OK


def summary(space: Space, found: Exploration) -> dict[str, Any]:
    """The figures, as ``--json`` gives them."""
    hardest = None
    if found.hardest is not None:
        hardest = {"distance": len(found.hardest) - 1, "position": space.format(found.hardest[0]),
                   "moves": [name for name, _ in space.replay(found.hardest)]}
    return {"positions": found.positions, "goal_positions": found.goals, "histogram": found.histogram,
            "farthest": {"distance": len(found.histogram) - 1,
                         "positions": [space.format(p) for p in found.farthest]},
            "hardest": hardest}


def describe(report: dict[str, Any], grid: bool) -> str:
    """The text report."""
    gap = "\n\n" if grid else "\n"
    far = report["farthest"]
    shown = len(far["positions"])
    lines = [f"positions: {report['positions']:,} in the start's component, {report['goal_positions']:,} of them goals",
             f"positions by distance from the start: {' '.join(map(str, report['histogram']))}",
             f"farthest from the start: {counted(far['distance'], 'move')}, "
             f"{counted(report['histogram'][-1], 'position')}" + (f" (the first {FARTHEST} below)"
                                                               if report['histogram'][-1] > shown else ""),
             gap.join(far["positions"])]
    if "local_maxima" in report:
        for k, kind in enumerate(("strict", "nonstrict")):
            lines.append(f"{kind} local maxima by distance from the start: "
                         f"{' '.join(str(pair[k]) for pair in report['local_maxima'])}")
    hardest = report["hardest"]
    if hardest is None:
        lines.append("hardest start: none (no goal position is reachable)")
    else:
        lines += [f"hardest start: {counted(hardest['distance'], 'move')} from the nearest goal position",
                  hardest["position"],
                  "solution:"] + hardest["moves"]
    if "bb" in report:
        bb = report["bb"]
        lines.append("BB metric: none (no goal position is reachable)" if bb is None else
                     f"BB metric: {bb['value']:g} (exact: {blocks_text(bb['blocks'])})" if bb["exact"] else
                     f"BB metric: {bb['value']:g} (95% interval {bb['ci'][0]:g} to {bb['ci'][1]:g}, "
                     f"{bb['samples']:,} samples; {blocks_text(bb['blocks'])})")
    return "\n".join(lines)


def blocks_text(blocks: dict[str, int]) -> str:
    """How the blocks on the start-goal path were measured: 'bridges 2, 1 cycle, 1 block enumerated'."""
    names = {"bridge": ("bridge", "bridges"), "cycle": ("cycle", "cycles"),
             "enumerated": ("block enumerated", "blocks enumerated"), "sampled": ("block sampled", "blocks sampled")}
    parts = [f"{n} {names[kind][n != 1]}" for kind, n in blocks.items() if n]
    return ", ".join(parts) or "the start is a goal"
