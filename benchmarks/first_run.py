"""The first run after a fresh install against a warm run, CPU time (user+sys) per command of README's tour.

This builds its own fresh virtual environment under a temporary folder (it says where, and removes it at the
end unless --keep): ``pip install SOURCE[fast]``, SOURCE a copy of the repository's tracked files as they are
(or as commit --rev has them, for the figures before a change), numba included as ``pip install -e
'.[test]'`` has it; the install's own time is printed too. The user cache ($XDG_CACHE_HOME) is a fresh, empty
one of its own, the install's too (it unpacks the shipped networks there). The state
right after the install is the fresh state: before each command's first run, every file written since the
install into the installed package or the cache is removed again (kernels built by an earlier command,
numba's caches), so each first run meets the install as a user does, whatever the earlier commands built.
Then the command runs --warm more times and the least of them is the warm figure. CPU time is the child's
user+sys (``os.wait4``), so the load of other processes on the machine matters less than for wall time;
wall time is shown too.

Target (issue 44, item 5): every ratio first/warm at most 2.

    python benchmarks/first_run.py                    # a few minutes: one install, 13 commands, 1 + 2 runs
    python benchmarks/first_run.py --warm 3 --keep
    python benchmarks/first_run.py --rev main         # the same, installing main as it is committed
    python benchmarks/first_run.py --installs         # also time `pip install .` and `pip install -e '.[test]'`

--installs times the two installs CI and developers run, each into a fresh venv of its own, without pip's
cache (the packages come from the configured index each time), wall and CPU (user+sys of pip and its
children): the build step that makes the kernels at install time shows there.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# README.md, "A tour of the command line", in its order (pipes dropped: the command alone is timed), then the
# two commands issue 44 quotes.
TOUR: list[list[str]] = [
    ["solve", "sudoku", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"],
    ["count", "queens", "-p", "n=8"],
    ["solve", "sudoku", "11.............."],
    ["generate", "futoshiki", "-p", "size=5", "--seed", "3"],
    ["generate", "lightup", "-p", "size=7", "--difficulty", "medium", "--seed", "3"],
    ["grade", "sudoku", "000000000030020090407803206000050000095040320800307009070209030000000000002485900"],
    ["hint", "sudoku", "6....38.91.8.457363.....2.55....2.9.9.75...8.4....957.2...1.9688...56427746..8153"],
    ["solve", "slide", "BAAC/BAAC/DEEF/DGHF/I..J", "-p", "goal=..../..../..../.AA./.AA."],
    ["solve", "tiles", "1 2 3/4 5 6/0 7 8"],
    ["analyze", "tiles", "1 2 3/4 5 6/7 8 0", "-p", "metric=supermoves"],
    ["hardest", "-p", "size=4x4", "-p", "goal=edges", "-p", "sizes=1,1,1,1,1,2,2,2,3"],
    ["play", "2048", "best-move", "2 2 4 8/. . . 16/. . . ./. . . ."],
    ["generate", "sudoku", "--json"],
    ["solve", "lightsout", "-p", "size=1000"],
]


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """CPU seconds (user+sys of the process and its waited-for children), wall seconds, exit code."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start, process.returncode


def copy_source(target: Path, rev: str | None) -> None:
    """The repository's tracked files into ``target``: as committed at ``rev``, or as they are now."""
    target.mkdir(parents=True)
    if rev is not None:
        archive = subprocess.run(["git", "archive", rev], cwd=REPO, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        return
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (REPO / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, target / name)


def snapshot(folders: list[Path]) -> set[Path]:
    return {p for folder in folders if folder.exists() for p in folder.rglob("*")}


def restore(folders: list[Path], fresh: set[Path]) -> int:
    """Remove what was written into ``folders`` since ``fresh`` was taken; how many files."""
    removed = 0
    for path in sorted(snapshot(folders) - fresh, key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        removed += 1
    return removed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the fresh venv")
    parser.add_argument("--warm", type=int, default=2, help="warm runs per command (the least is shown)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--only", help="run only the commands whose words contain this")
    parser.add_argument("--rev", help="install the repository as this commit has it (default: as it is now)")
    parser.add_argument("--installs", action="store_true", help="also time `pip install .` and `pip install -e`")
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="puzzlesmith-first-run-"))
    print(f"# fresh venv and cache under {root} ({'kept' if args.keep else 'removed at the end'})", flush=True)
    try:
        venv, cache, source = root / "venv", root / "cache", root / "source"
        # the tracked files as they are now, without any kernel already built in this checkout's __pycache__
        copy_source(source, args.rev)
        if args.installs:
            for label, target in (("pip install .", str(source)), ("pip install -e '.[test]'", f"{source}[test]")):
                where = root / f"venv-{len(label)}"
                subprocess.run([args.python, "-m", "venv", str(where)], check=True)
                editable = ["-e"] if "-e" in label else []
                cpu, wall, code = timed([str(where / "bin" / "python"), "-m", "pip", "install", "-q", "--no-cache-dir",
                                         *editable, target], dict(os.environ), root)
                print(f"# {label}: {wall:.1f} s wall, {cpu:.1f} s CPU{'' if code == 0 else f', FAILED ({code})'}",
                      flush=True)
                shutil.rmtree(where, ignore_errors=True)
        subprocess.run([args.python, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-cache-dir"]
        # the install fills the user cache (the unpacked networks), so it gets the fresh one the runs use
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PUZZLESMITH_"))}
        env.update(XDG_CACHE_HOME=str(cache), PATH=f"{venv / 'bin'}:{env.get('PATH', '')}")
        env.pop("PYTHONPATH", None)
        cache.mkdir()
        start = time.perf_counter()
        install = subprocess.run([*pip, f"{source}[fast]"], capture_output=True, text=True, env=env)
        install_seconds = time.perf_counter() - start
        if install.returncode:
            print(install.stdout + install.stderr, file=sys.stderr)
            return 1
        print(f"# pip install '.[fast]' (not editable, no pip cache): {install_seconds:.1f} s wall", flush=True)
        site = subprocess.run([str(venv / "bin" / "python"), "-c",
                               "import puzzlesmith, pathlib; print(pathlib.Path(puzzlesmith.__file__).parent)"],
                              capture_output=True, text=True, check=True, cwd=root).stdout.strip()
        folders = [Path(site), cache]
        fresh = snapshot(folders)
        exe = str(venv / "bin" / "puzzlesmith")
        print(f"\n{'command':<58} {'first cpu':>9} {'warm cpu':>9} {'ratio':>6} {'first wall':>10} "
              f"{'warm wall':>9}  exit")
        worst = 0.0
        for words in TOUR:
            line = " ".join(words)
            if args.only and args.only not in line:
                continue
            restore(folders, fresh)
            first = timed([exe, *words], env, root)
            warm = min((timed([exe, *words], env, root) for _ in range(args.warm)), key=lambda t: t[0])
            ratio = first[0] / warm[0]
            worst = max(worst, ratio)
            shown = line if len(line) <= 58 else line[:55] + "..."
            print(f"{shown:<58} {first[0]:>8.2f}s {warm[0]:>8.2f}s {ratio:>5.2f}x {first[1]:>9.2f}s "
                  f"{warm[1]:>8.2f}s  {first[2]}/{warm[2]}", flush=True)
        print(f"\nworst first/warm ratio: {worst:.2f}x (target: at most 2x)")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
