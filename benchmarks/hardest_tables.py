"""The summary tables of the committed hardest-puzzle tables (`data/hardest/RxC-GOAL-METRIC.jsonl`), as markdown.

The research page ("Boards up to 20 cells") and README show these tables; tests/test_hardest_boards.py checks
that each row they show is the row this script makes from the files, so the pages cannot drift from the data.

    python benchmarks/hardest_tables.py [--boards]        # per board and goal: classes, most moves, positions
    python benchmarks/hardest_tables.py --costs           # per board and goal: CPU seconds and peaks per metric
    python benchmarks/hardest_tables.py --pieces [METRIC]  # the most moves per number of pieces
    python benchmarks/hardest_tables.py --metrics          # the most moves of each board in each metric
    python benchmarks/hardest_tables.py --partial 4x5-corner-moves   # a table still being searched
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "hardest"
METRICS = ("moves", "straight", "steps")


@dataclass
class Table:
    """One committed table: its classes and what their search cost."""

    board: str
    goal: str
    metric: str
    classes: list[dict]
    costs: list[dict]

    @property
    def hardest(self) -> dict:
        """The first class at the most moves (the order of the file, as the search wrote it)."""
        return max(self.classes, key=lambda r: r["moves"] or 0)

    def most_by_pieces(self) -> dict[int, int]:
        """The most moves of the classes of each number of pieces."""
        most: dict[int, int] = {}
        for record in self.classes:
            pieces = record["pieces"]
            most[pieces] = max(most.get(pieces, 0), record["moves"] or 0)
        return dict(sorted(most.items()))


def cells(board: str) -> int:
    rows, cols = map(int, board.split("x"))
    return rows * cols


def table_names() -> list[str]:
    """The tables of simple simple simple puzzles under data/hardest, whole or not: ``RxC-GOAL-METRIC``."""
    names = (path.name.removesuffix(".jsonl") for path in DATA.glob("*-*-*.jsonl"))
    return sorted(name for name in names if not name.endswith(".costs") and name.count("-") == 2)


def tables(metric: str | None = None) -> list[Table]:
    """Every complete table (all of its board's classes), smallest board first, `corner` before `edges`."""
    from puzzlesmith.sbp.classes import size_classes

    found = []
    for name in table_names():
        path = DATA / f"{name}.jsonl"
        board, goal, kind = name.split("-")
        if metric is not None and kind != metric:
            continue
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        classes = [line for line in lines if "class" in line]
        if len(classes) < len(size_classes(cells(board))):
            continue
        costs_path = path.with_name(name + ".costs.jsonl")
        costs = [json.loads(line) for line in costs_path.read_text().splitlines()] if costs_path.exists() else []
        found.append(Table(board, goal, kind, classes, costs))
    order = {board: k for k, board in enumerate(["3x3", "2x4", "2x5", "2x6", "3x4", "2x7", "4x4", "2x8", "3x5",
                                                  "2x9", "3x6", "2x10", "4x5"])}
    return sorted(found, key=lambda t: (order.get(t.board, 99), cells(t.board), t.board, t.goal,
                                        METRICS.index(t.metric)))


def board_rows() -> list[str]:
    """Per board and goal rule in `moves`: classes, classes with a puzzle (at least one move: the others are solved
    at the start or have no justsolved position), most moves, the hardest puzzle and the positions searched."""
    rows = ["| board | goal | classes | with a puzzle | most moves | hardest puzzle | positions |",
            "|---|---|---:|---:|---:|---|---:|"]
    for t in tables("moves"):
        rows.append(f"| {t.board} | {t.goal} | {len(t.classes):,} | {sum(1 for r in t.classes if r['moves']):,} | "
                    f"{t.hardest['moves']} | `{t.hardest['puzzle']}` | {sum(r['positions'] for r in t.classes):,} |")
    return rows


def cost_rows() -> list[str]:
    """Per board and goal rule, what each metric's table cost as its costs file has it: the CPU seconds of its
    classes, summed, and the largest peak of a worker process while one class ran (the process included: numba's
    kernels alone take about 140 MB); "searching" where the table is not complete."""
    found = {(t.board, t.goal, t.metric): t for t in tables()}
    pairs = list(dict.fromkeys((t.board, t.goal) for t in found.values()))
    rows = ["| board | goal | " + " | ".join(f"{m} CPU s" for m in METRICS) + " | "
            + " | ".join(f"{m} peak MB" for m in METRICS) + " |", "|---|---|" + "---:|" * 2 * len(METRICS)]
    for board, goal in pairs:
        cpu, peak = [], []
        for metric in METRICS:
            t = found.get((board, goal, metric))
            if t is None:
                cpu.append("searching")
                peak.append("searching")
                continue
            peaks = [c["peak_mb"] for c in t.costs if "peak_mb" in c]
            seconds = sum(c.get("cpu_seconds", 0.0) for c in t.costs)
            cpu.append(f"{seconds:.1f}" if seconds < 10 else f"{seconds:,.0f}")
            peak.append(f"{max(peaks):,.0f}" if peaks else "n/a")
        rows.append(f"| {board} | {goal} | " + " | ".join(cpu + peak) + " |")
    return rows


def piece_rows(metric: str = "moves") -> list[str]:
    """The most moves per number of pieces of every complete table of ``metric``."""
    found = tables(metric)
    width = max((max(t.most_by_pieces()) for t in found), default=0)
    rows = ["| board | goal | " + " | ".join(str(k) for k in range(1, width + 1)) + " |",
            "|---|---|" + "---:|" * width]
    for t in found:
        most = t.most_by_pieces()
        rows.append(f"| {t.board} | {t.goal} | " + " | ".join(str(most.get(k, "")) for k in range(1, width + 1)) + " |")
    return rows


def metric_rows() -> list[str]:
    """The most moves of each board (goal=corner) in each metric it has a complete table of."""
    by_board: dict[str, dict[str, int]] = {}
    for t in tables():
        if t.goal == "corner":
            by_board.setdefault(t.board, {})[t.metric] = t.hardest["moves"]
    boards = list(by_board)
    rows = ["| metric | " + " | ".join(boards) + " |", "|---|" + "---:|" * len(boards)]
    for metric in METRICS:
        rows.append(f"| {metric} | " + " | ".join(str(by_board[b].get(metric, "not run")) for b in boards) + " |")
    return rows


def partial_rows(name: str) -> list[str]:
    """A table still being searched (``RxC-GOAL-METRIC``): per number of pieces, the classes done of all and the
    most moves among them."""
    from puzzlesmith.sbp.classes import size_classes

    board = name.split("-")[0]
    lines = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]
    every: dict[int, int] = {}
    for sizes in size_classes(cells(board)):
        every[len(sizes)] = every.get(len(sizes), 0) + 1
    done: dict[int, int] = {}
    most: dict[int, int] = {}
    for record in (line for line in lines if "class" in line):
        pieces = record["pieces"]
        done[pieces] = done.get(pieces, 0) + 1
        most[pieces] = max(most.get(pieces, 0), record["moves"] or 0)
    counts = sorted(every)
    return ["| pieces | " + " | ".join(str(k) for k in counts) + " |",
            "|---|" + "---:|" * len(counts),
            "| classes done | " + " | ".join(f"{done.get(k, 0)} of {every[k]}" for k in counts) + " |",
            "| most moves | " + " | ".join(str(most[k]) if k in most else "" for k in counts) + " |"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--boards", action="store_true", help="per board and goal (the default)")
    group.add_argument("--pieces", nargs="?", const="moves", choices=METRICS, help="most moves per piece count")
    group.add_argument("--metrics", action="store_true", help="most moves per board and metric")
    group.add_argument("--costs", action="store_true", help="CPU seconds and peak memory per board and metric")
    group.add_argument("--partial", metavar="RxC-GOAL-METRIC", help="a table still being searched, per piece count")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    rows = (partial_rows(args.partial) if args.partial else piece_rows(args.pieces) if args.pieces
            else metric_rows() if args.metrics else cost_rows() if args.costs else board_rows())
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
