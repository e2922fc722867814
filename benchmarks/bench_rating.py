"""How well the technique ladder's rating agrees with Sudoku Explainer's, how fast it grades, and whether
any of its steps is ever wrong.

    python benchmarks/bench_rating.py            # agreement (444 rated puzzles), speed, soundness on ~2,000
    python benchmarks/bench_rating.py --quick    # 120 rated puzzles, 40 random, soundness on top95 only

* Agreement: the Sudoku Exchange puzzle bank (public domain; github.com/grantm/sudoku-exchange-puzzle-bank),
  rated by Sukaku Explainer on SE's scale. The published snapshot's diabolical file (ratings 5.0 to 9.3; the
  easy, medium and hard files are not in the snapshot) is sampled in benchmarks/data/se_exchange_diabolical.txt,
  up to 14 puzzles per rating value. Printed: Spearman's rank correlation, the share within 0.5 and 1.0 of
  SE, the share whose level (LEVEL_TOPS applied to SE's rating) differs by one level or more, and the
  largest disagreements with the technique that set our rating.
* Speed: mean milliseconds to grade a top95 puzzle and a random minimal puzzle, the ladder beside the
  three-tier grader it replaced (singles, pairs and intersections, then guessing: THREE_TIERS), in one run.
* Soundness: every placement and removal of the ladder checked against the unique solution, on magictour's
  top1465, Norvig's top95 and hardest, and the rated sample.
* The rating distribution of random minimal puzzles (generate's own, seeds 1..N), as a histogram.
* Nonograms: the share of random pictures line logic solves as drawn, the cells the repair flips, and the
  time to make a line-solvable random nonogram, per size.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import solvers  # noqa: E402
from csp import registry  # noqa: E402
from generators import generate  # noqa: E402
from generators.grading import LEVELS, THREE_TIERS, level_of, logic  # noqa: E402

SUDOKU = registry.get("sudoku")
HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "data" / "sudoku"


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rho with average ranks for ties (no scipy needed)."""
    def ranks(xs: list[float]) -> list[float]:
        order = sorted(range(len(xs)), key=xs.__getitem__)
        out = [0.0] * len(xs)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    return cov / (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5


def parsed(text: str):
    return SUDOKU.parse(text.replace("0", "."), SUDOKU.resolve_params({}))


def read(path: Path, n: int | None = None) -> list[str]:
    lines = [s.strip() for s in path.read_text().splitlines() if s.strip() and not s.startswith("#")]
    return lines[:n]


def progress(items: list, label: str):
    if sys.stderr.isatty():
        from tqdm import tqdm

        return tqdm(items, desc=label, file=sys.stderr, leave=False)
    return items


def solved(text: str):
    inst = parsed(text)
    model = SUDOKU.model(inst)
    return inst, model, solvers.solve(model, fix=inst.givens, engine="backtracking").solution


def agreement(n: int | None) -> None:
    rows = [line.split() for line in read(HERE / "data" / "se_exchange_diabolical.txt", n)]
    ours, theirs, worst = [], [], []
    for puzzle, se, _ in progress(rows, "rated"):
        inst, model, solution = solved(puzzle)
        graded = logic(model).grade(inst.givens, solution)
        ours.append(graded.rating)
        theirs.append(float(se))
        worst.append((abs(graded.rating - float(se)), float(se), graded.rating, graded.hardest, puzzle))
    level_gap = [abs(LEVELS.index(level_of(a)) - LEVELS.index(level_of(b))) for a, b in zip(ours, theirs)]
    print(f"Agreement with Sudoku Explainer (Sudoku Exchange bank, diabolical sample, {len(ours)} puzzles, "
          f"SE {min(theirs):.1f}-{max(theirs):.1f})")
    print(f"  Spearman rank correlation  {spearman(ours, theirs):.3f}")
    print(f"  within 0.5 of SE           {sum(abs(a - b) <= 0.5 + 1e-9 for a, b in zip(ours, theirs)) / len(ours):.1%}")
    print(f"  within 1.0 of SE           {sum(abs(a - b) <= 1.0 + 1e-9 for a, b in zip(ours, theirs)) / len(ours):.1%}")
    print(f"  level one off or worse     {sum(g >= 1 for g in level_gap) / len(ours):.1%}"
          f"   (two or more off: {sum(g >= 2 for g in level_gap) / len(ours):.1%})")
    print(f"  mean rating: SE {statistics.fmean(theirs):.2f}, ours {statistics.fmean(ours):.2f}")
    by_se: dict[float, list[float]] = {}
    for a, b in zip(theirs, ours):
        by_se.setdefault(round(a * 2) / 2, []).append(b)
    print("  SE band -> our mean rating: " + ", ".join(f"{k:.1f}: {statistics.fmean(v):.2f} ({len(v)})"
                                                      for k, v in sorted(by_se.items())))
    print("  largest disagreements (|ours - SE|, SE, ours, our hardest technique, puzzle):")
    for gap, se, mine, hardest, puzzle in sorted(worst, reverse=True)[:5]:
        print(f"    {gap:.1f}  SE {se:.1f}  ours {mine:.1f}  {hardest:<22} {puzzle}")


def hardest(n: int | None) -> None:
    """The forum's hardest list (tdoku's copy carries no ER column): what the ladder makes of it."""
    puzzles = read(SHARED / "tdoku_puzzles6_forum_hardest_1106.txt", n)
    levels: Counter[str] = Counter()
    for puzzle in progress(puzzles, "hardest"):
        inst, model, solution = solved(puzzle)
        levels[logic(model).grade(inst.givens, solution).level] += 1
    print(f"\nForum hardest list ({len(puzzles)} puzzles; the stored copy has no ER column): "
          + ", ".join(f"{name} {levels[name]}" for name in LEVELS if levels[name]))


def speed(n_random: int) -> list[str]:
    """Mean ms per puzzle, ladder and three tiers, on top95 and on random minimal puzzles; returns the randoms."""
    top = read(SHARED / "norvig_top95.txt")
    made = [SUDOKU.format_puzzle(replace(m.instance, layout="line"))
            for m in generate(SUDOKU, {"size": 9, "box": None}, n_random, seed=1, grade=False)]
    print("\nGrading speed (mean CPU ms per puzzle; the machine is shared, so compare within a row)")
    print(f"  {'set':<28}{'three tiers':>12}{'ladder':>10}{'ratio':>8}")
    for label, puzzles in ((f"top95 ({len(top)})", top), (f"random minimal ({len(made)})", made)):
        prepared = [solved(p) for p in puzzles]
        times = {}
        for name, techniques in (("three tiers", THREE_TIERS), ("ladder", None)):
            start = time.process_time()
            for inst, model, solution in prepared:
                logic(model).grade(inst.givens, solution, techniques)
            times[name] = (time.process_time() - start) * 1000 / len(prepared)
        print(f"  {label:<28}{times['three tiers']:>12.1f}{times['ladder']:>10.1f}"
              f"{times['ladder'] / times['three tiers']:>7.1f}x")
    return made


def histogram(made: list[str]) -> None:
    counts: Counter[float] = Counter()
    levels: Counter[str] = Counter()
    for puzzle in made:
        inst, model, solution = solved(puzzle)
        graded = logic(model).grade(inst.givens, solution)
        counts[min(int(graded.rating * 2) / 2, 10.0)] += 1
        levels[graded.level] += 1
    print(f"\nRatings of {len(made)} random minimal 9x9 puzzles (generate, seeds 1..{len(made)})")
    for band in sorted(counts):
        share = counts[band] / len(made)
        print(f"  {band:>4.1f}-{band + 0.4:<4.1f} {counts[band]:>5}  {'#' * round(share * 60)}")
    print("  levels: " + ", ".join(f"{name} {levels[name] / len(made):.1%}" for name in LEVELS))


def soundness(quick: bool) -> None:
    sets = [("norvig_top95.txt", None), ("norvig_hardest11.txt", None)]
    if not quick:
        sets.append(("tdoku_puzzles3_magictour_top1465.txt", None))
    puzzles = [p for name, n in sets for p in read(SHARED / name, n)]
    if not quick:
        puzzles += [line.split()[0] for line in read(HERE / "data" / "se_exchange_diabolical.txt")]
    steps = wrong = 0
    used: Counter[str] = Counter()
    for puzzle in progress(puzzles, "soundness"):
        inst, model, solution = solved(puzzle[:81])
        for step in logic(model).steps(inst.givens, solution):
            steps += 1
            used[step.technique] += 1
            wrong += bool(step.place and solution[step.place[0]] != step.place[1])
            wrong += sum(solution[v] == x for v, x in step.removes)
    print(f"\nSoundness: {len(puzzles)} puzzles, {steps:,} steps, {wrong} wrong placements or removals")
    print("  steps by technique: " + ", ".join(f"{t} {n}" for t, n in used.most_common()))


def nonograms(count: int) -> None:
    """Random nonograms that line logic solves: how often a random picture already is, flips, time."""
    import random

    from generators.nonograms import DENSITY, random_nonogram, repair
    from solvers.linelogic import clues_of, line_solve

    print(f"\nNonograms (random pictures, {DENSITY:.0%} shaded; {count} per size)")
    print(f"  {'size':<8}{'line-solvable as drawn':>24}{'mean flips':>12}{'ms per nonogram':>17}")
    for h, w in ((10, 10), (15, 15), (20, 20), (30, 30)):
        rng = random.Random(h)
        as_drawn = flips = 0
        for _ in range(count):
            picture = [[int(rng.random() < DENSITY) for _ in range(w)] for _ in range(h)]
            as_drawn += line_solve(*clues_of(picture)).solved
            flips += len(repair(picture, rng, h * w) or [])
        start = time.process_time()
        for seed in range(count):
            random_nonogram(h, w, seed)
        ms = (time.process_time() - start) * 1000 / count
        print(f"  {f'{h}x{w}':<8}{as_drawn / count:>24.0%}{flips / count:>12.1f}{ms:>17.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer puzzles (a minute or so)")
    args = parser.parse_args()
    agreement(120 if args.quick else None)
    hardest(20 if args.quick else None)
    made = speed(40 if args.quick else 200)
    histogram(made)
    nonograms(5 if args.quick else 20)
    soundness(args.quick)


if __name__ == "__main__":
    main()
