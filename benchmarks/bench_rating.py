"""How well the technique ladder's rating agrees with Sudoku Explainer's, how fast it grades, and whether
any of its steps is ever wrong.

    python benchmarks/bench_rating.py            # ~700 SE-rated puzzles + the bank's 444, speed, soundness on ~2,000
    python benchmarks/bench_rating.py --quick    # a quarter of the rated puzzles, 40 random, soundness on top95 only
    SUKAKU_EXPLAINER_JAR=/path/SukakuExplainer.jar python benchmarks/bench_rating.py   # also re-rate a sample with SE

* Calibration across the scale: benchmarks/data/se_ratings.txt holds Sudoku Explainer's rating (SE, rated here by
  Sukaku Explainer's serate; the file's header gives the program, commit and command) of Norvig's easy50 and
  top95, 400 random minimal puzzles of `generate`, a cross-check sample of the Sudoku Exchange bank and a sample
  of the forum's hardest list: SE 1.2 to 11.x. Printed: Spearman's rank correlation overall and per source, the
  share within 0.5 and 1.0 of SE, a table of SE's level against ours, the share placed one level off or worse,
  and the five largest disagreements with the technique each side used and why they differ.
  SE's level of a puzzle is LEVEL_TOPS applied to SE's rating: easy up to 2.3, medium 2.4-3.4, hard 3.5-4.4,
  expert 4.5-6.9, extreme 7.0-9.9, and "needs guessing" from 10.0 (SE's nested forcing chains, where the
  ladder guesses). Ours is the grade's level.
* Published ratings: the Sudoku Exchange puzzle bank (public domain; github.com/grantm/sudoku-exchange-puzzle-bank),
  rated by Sukaku Explainer. Its published snapshot's diabolical file (5.0 to 9.3; the easy, medium and hard
  files are not in it) is sampled in benchmarks/data/se_exchange_diabolical.txt, up to 14 puzzles per rating.
* Optional peer: with SUKAKU_EXPLAINER_JAR set to a built SukakuExplainer.jar (and java on PATH), a sample of the
  saved puzzles is rated again by SE in this run and compared with the saved ratings; otherwise a note says so.
* Speed: mean milliseconds to grade a top95 puzzle and a random minimal puzzle, the ladder (compiled:
  generators/ladderkernel.py, with numba, the ``fast`` extra) beside the three-tier grader it replaced (singles,
  pairs and intersections, then guessing: THREE_TIERS, the same ladder limited to those rungs), in one run.
* Soundness: every placement and removal of the ladder checked against the unique solution, on magictour's
  top1465, Norvig's top95 and hardest, and the rated sample.
* The rating distribution of random minimal puzzles (generate's own, seeds 1..N), as a histogram.
* Nonograms: the share of random pictures line logic solves as drawn, the cells the repair flips, and the
  time to make a line-solvable random nonogram, per size.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from puzzlesmith import solvers  # noqa: E402
from puzzlesmith.generators import generate  # noqa: E402
from puzzlesmith.generators.grading import LEVEL_TOPS, LEVELS, THREE_TIERS, level_of, logic  # noqa: E402
from puzzlesmith.generators.ladderkernel import MAX_CHAIN  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402

SUDOKU = registry.get("sudoku")
HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "data" / "sudoku"
SE_RATINGS = HERE / "data" / "se_ratings.txt"
BANK = HERE / "data" / "se_exchange_diabolical.txt"
SE_JAR = "SUKAKU_EXPLAINER_JAR"  # env var: a built SukakuExplainer.jar, to re-rate a sample in this run


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
    spread = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / spread if spread else math.nan  # nan: one side rates every puzzle alike


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


def se_rated(every: int = 1) -> list[tuple[str, float, str, str]]:
    """(puzzle, SE rating, source, SE's hardest technique) from se_ratings.txt, every ``every``-th line."""
    rows = [line.split("\t") for line in read(SE_RATINGS)]
    return [(p, float(r), source, technique) for p, r, source, technique in rows[::every]]


def level_gap(ours: str, se: float) -> int:
    """How many levels apart our level and SE's rating's level are (signed: positive when ours is harder)."""
    return LEVELS.index(ours) - LEVELS.index(level_of(se) if se <= LEVEL_TOPS[-1] + 1e-9 else LEVELS[-1])


def why(se: float, technique: str, ours: float, hardest: str) -> str:
    """One sentence on why SE and the ladder disagree, from the technique each used."""
    t = technique
    needed = ("an " if hardest[:1] in "aeiouAEIOUX" else "a ") + hardest
    if "Unique" in t or "BUG" in t:
        return f"SE used a uniqueness technique ({t}), which the ladder refuses by design; it needed {needed}"
    if t.startswith("Grouped") and t.split()[1] in ("2", "Skyscraper", "2-String"):
        return (f"SE linked groups of cells in two strong links ({t}) in a way the ladder's grouped turbot fish "
                f"does not, so it needed {needed}")
    if t.startswith("Grouped") or "Grouped X-Loop" in t:
        return (f"SE linked a group of cells (a box-line segment) in a chain of three or more strong links ({t}); "
                f"the ladder groups cells only in chains of two (grouped turbot fish), so it needed {needed}")
    if any(w in t for w in ("VWXYZ", "UVWXYZ", "TUVWXYZ")):
        return f"Sukaku's {t}, a wing of five or more cells the ladder lacks; it needed {needed}"
    if t.startswith("WXYZ"):
        return f"SE's {t} takes pincer patterns the ladder's WXYZ-wing does not; it needed {needed}"
    if "Aligned" in t:
        return f"SE's {t}, which the ladder lacks; it needed {needed}"
    if hardest == "guess":
        return f"SE's {t} (chains within chains) is beyond the ladder's one-level dynamic forcing chains, so it guessed"
    if "Cycle" in t or "Forcing Chain" in t:
        if ours > se:
            return (f"SE's {t} is one the ladder's breadth-first chains (cells only, no cycles, at most "
                    f"{MAX_CHAIN} nodes) miss, so it needed {needed}")
        return f"the ladder found a shorter chain ({hardest}) than SE's {t}, whose length bonus is larger"
    return f"the ladder's path reached {needed} where SE's order of techniques needed only {t}"


def calibration(every: int) -> None:
    """Our rating beside SE's over the saved ratings (se_ratings.txt) spanning the scale."""
    if not SE_RATINGS.exists():
        print(f"Calibration across the scale: skipped ({SE_RATINGS.name} is missing)")
        return
    rows = se_rated(every)
    graded = []
    for puzzle, se, source, technique in progress(rows, "calibration"):
        inst, model, solution = solved(puzzle)
        g = logic(model).grade(inst.givens, solution)
        graded.append((puzzle, se, source, technique, g.rating, g.hardest, g.level))
    cross = [r for r in graded if r[2] == "exchange_diabolical"]
    bank = {line.split()[0]: float(line.split()[1]) for line in read(BANK)} if BANK.exists() else {}
    if cross and bank:
        same = sum(bank.get(r[0]) == r[1] for r in cross)
        print(f"This SE build against the bank's published ratings: {same} of {len(cross)} re-rated bank puzzles "
              f"get the same rating")
    sources = list(dict.fromkeys(r[2] for r in graded))
    print(f"\nCalibration across the scale ({len(graded)} puzzles rated by Sukaku Explainer, SE "
          f"{min(r[1] for r in graded):.1f}-{max(r[1] for r in graded):.1f}; {SE_RATINGS.name})")
    print(f"  {'source':<22}{'puzzles':>8}{'SE range':>12}{'Spearman':>10}{'= SE':>7}{'<= 0.5':>8}"
          f"{'level off':>11}")
    for source in sources + ["all"]:
        sub = graded if source == "all" else [r for r in graded if r[2] == source]
        ours, theirs = [r[4] for r in sub], [r[1] for r in sub]
        rho = spearman(ours, theirs)
        off = sum(level_gap(r[6], r[1]) != 0 for r in sub) / len(sub)
        print(f"  {source:<22}{len(sub):>8}{f'{min(theirs):.1f}-{max(theirs):.1f}':>12}"
              f"{'n/a' if math.isnan(rho) else f'{rho:.3f}':>10}"
              f"{sum(abs(a - b) < 1e-9 for a, b in zip(ours, theirs)) / len(sub):>7.0%}"
              f"{sum(abs(a - b) <= 0.5 + 1e-9 for a, b in zip(ours, theirs)) / len(sub):>8.0%}{off:>11.1%}")
    print("  (n/a: the ladder rates every puzzle of the source alike, 10.0 for a guess)")
    gaps = [level_gap(r[6], r[1]) for r in graded]
    print(f"\n  SE's level (rows) against ours (columns); one level off or worse "
          f"{sum(g != 0 for g in gaps) / len(gaps):.1%}, "
          f"two or more {sum(abs(g) >= 2 for g in gaps) / len(gaps):.1%}")
    short = {"needs guessing": "guess"}
    print("  " + " " * 16 + "".join(f"{short.get(name, name):>9}" for name in LEVELS))
    for se_level in LEVELS:
        counts = Counter(r[6] for r, g in zip(graded, gaps) if LEVELS.index(r[6]) - g == LEVELS.index(se_level))
        if counts:
            print(f"  {se_level:<16}" + "".join(f"{counts[name] or '.':>9}" for name in LEVELS))
    print("\n  the five largest disagreements (SE, ours, SE's technique -> ours; why):")
    worst = sorted(graded, key=lambda r: (-abs(r[4] - r[1]), r[0]))[:5]
    for puzzle, se, source, technique, mine, hardest, _ in worst:
        print(f"    SE {se:.1f}  ours {mine:.1f}  {source}  {puzzle}\n      {technique} -> {hardest}: "
              f"{why(se, technique, mine, hardest)}")


def agreement(n: int | None) -> None:
    """The bank's published ratings (diabolical sample, 5.0-9.3) beside ours."""
    if not BANK.exists():
        print(f"\nPublished ratings: skipped ({BANK.name} is missing)")
        return
    rows = [line.split() for line in read(BANK, n)]
    ours, theirs, levels = [], [], []
    for puzzle, se, _ in progress(rows, "rated"):
        inst, model, solution = solved(puzzle)
        graded = logic(model).grade(inst.givens, solution)
        ours.append(graded.rating)
        theirs.append(float(se))
        levels.append(graded.level)
    gaps = [level_gap(mine, se) for mine, se in zip(levels, theirs)]
    print(f"\nPublished ratings: Sudoku Exchange bank, diabolical sample ({len(ours)} puzzles, "
          f"SE {min(theirs):.1f}-{max(theirs):.1f})")
    print(f"  Spearman {spearman(ours, theirs):.3f}; within 0.5 of SE "
          f"{sum(abs(a - b) <= 0.5 + 1e-9 for a, b in zip(ours, theirs)) / len(ours):.1%}, within 1.0 "
          f"{sum(abs(a - b) <= 1.0 + 1e-9 for a, b in zip(ours, theirs)) / len(ours):.1%}; level one off or worse "
          f"{sum(g != 0 for g in gaps) / len(ours):.1%} "
          f"(two or more: {sum(abs(g) >= 2 for g in gaps) / len(ours):.1%})")
    by_se: dict[float, list[float]] = {}
    for a, b in zip(theirs, ours):
        by_se.setdefault(round(a * 2) / 2, []).append(b)
    print("  SE band -> our mean rating: " + ", ".join(f"{k:.1f}: {statistics.fmean(v):.2f} ({len(v)})"
                                                      for k, v in sorted(by_se.items())))


def rerate(per_source: int) -> None:
    """The optional peer: Sukaku Explainer itself, run now on a few saved puzzles of each quick source."""
    jar, java = os.environ.get(SE_JAR), shutil.which("java")
    if not jar or not java or not Path(jar).is_file():
        print(f"\nSudoku Explainer in this run: skipped (set {SE_JAR} to a built SukakuExplainer.jar and put java on "
              f"PATH; the saved ratings above need neither)")
        return
    sample = [r for source in ("norvig_easy50", "norvig_top95", "generate")
              for r in [r for r in se_rated() if r[2] == source][:per_source]]
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "puzzles.txt"
        listing.write_text("".join(p + "\n" for p, *_ in sample))
        try:
            done = subprocess.run([java, "-Xrs", "-Xmx500m", "-cp", jar, "diuf.sudoku.test.serate", "--threads=1",
                                   "--format=%r", f"--input={listing}"], capture_output=True, text=True,
                                  timeout=60 * len(sample))
            now = [float(x) for x in done.stdout.split()]
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            print(f"\nSudoku Explainer in this run: skipped ({jar} did not rate: {exc})")
            return
    if len(now) != len(sample):
        print(f"\nSudoku Explainer in this run: skipped (it rated {len(now)} of {len(sample)} puzzles: "
              f"{done.stderr.strip()[:200]})")
        return
    same = sum(abs(a - r[1]) < 1e-9 for a, r in zip(now, sample))
    print(f"\nSudoku Explainer in this run ({jar}): {same} of {len(sample)} saved ratings reproduced")


def hardest(n: int | None) -> None:
    """The forum's hardest puzzles beside their published ER (forum_hardest_er.txt): SE rates them all 10.4
    to 11.9, past what the ladder's techniques reach, so the question is whether it calls every one of them
    "needs guessing" (rating 10.0, the ladder's floor for that level) and none easier."""
    rows = [line.split("\t") for line in read(HERE / "data" / "forum_hardest_er.txt", n)]
    levels: Counter[str] = Counter()
    ours: list[float] = []
    for puzzle, _ in progress(rows, "hardest"):
        inst, model, solution = solved(puzzle)
        grade = logic(model).grade(inst.givens, solution)
        levels[grade.level] += 1
        ours.append(grade.rating)
    er = [float(published.split("/")[0]) for _, published in rows]
    rho = spearman(ours, er) if len(set(ours)) > 1 else None
    print(f"\nForum hardest, published ER {min(er):.1f} to {max(er):.1f} "
          f"({len(rows)} puzzles, every 10th of the sheet): "
          + ", ".join(f"{name} {levels[name]}" for name in LEVELS if levels[name])
          + f"; our ratings {min(ours):.1f} to {max(ours):.1f}; Spearman "
          + (f"{rho:.3f}" if rho is not None else "undefined (one rating for all: the ladder does not rank "
                                                  "puzzles that need guessing)"))


def speed(n_random: int) -> list[str]:
    """Mean ms per puzzle on top95 and on random minimal puzzles: the three tiers and the whole ladder; returns
    the randoms."""
    top = read(SHARED / "norvig_top95.txt")
    made = [SUDOKU.format_puzzle(replace(m.instance, layout="line"))
            for m in generate(SUDOKU, {"size": 9, "box": None}, n_random, seed=1, grade=False)]
    print("\nGrading speed (mean CPU ms per puzzle; the machine is shared, so compare within a row)")
    print(f"  {'set':<28}{'three tiers':>12}{'ladder':>10}")
    for label, puzzles in ((f"top95 ({len(top)})", top), (f"random minimal ({len(made)})", made)):
        prepared = [solved(p) for p in puzzles]
        logic(prepared[0][1]).grade(prepared[0][0].givens, prepared[0][2])  # compile or load the kernel first
        times: dict[str, float] = {}
        for name, techniques in (("three tiers", THREE_TIERS), ("ladder", None)):
            start = time.process_time()
            for inst, model, solution in prepared:
                logic(model).grade(inst.givens, solution, techniques)
            times[name] = (time.process_time() - start) * 1000 / len(prepared)
        print(f"  {label:<28}{times['three tiers']:>12.1f}{times['ladder']:>10.1f}")
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
        puzzles += [line.split()[0] for line in read(BANK)]
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

    from puzzlesmith.generators.nonograms import DENSITY, random_nonogram, repair
    from puzzlesmith.solvers.linelogic import clues_of, line_solve

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
    calibration(4 if args.quick else 1)
    agreement(120 if args.quick else None)
    rerate(3 if args.quick else 10)
    hardest(20 if args.quick else None)
    made = speed(40 if args.quick else 200)
    histogram(made)
    nonograms(5 if args.quick else 20)
    soundness(args.quick)


if __name__ == "__main__":
    main()
