"""Ctrl-C, as a user at a terminal sends it: every command answers `puzzlesmith: interrupted`, exit 130,
within a second, whatever the engine or the worker count (issue 10, item 15).

Before: CaDiCaL aborted with "invalid API usage" (exit 134), a worker pool printed a 70-line remote
traceback, and CP-SAT reported a "time limit reached" that nobody set or ignored the interrupt for
minutes. Each case starts a search that runs far longer than the test waits, so the interrupt always
lands mid-search.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

LONG = {  # each runs for minutes uninterrupted
    "backtracking": ("-p", "n=16"),
    "sat": ("-p", "n=16"),
    "cpsat": ("-p", "n=16"),
}


def interrupt(*args: str, wait: float = 2.0) -> subprocess.CompletedProcess:
    """Start the command, send SIGINT after ``wait`` seconds; the result (a command still running 30 s
    later fails the test; how fast it ends is measured, not asserted: see the closing note of issue 10)."""
    # A session of its own, so that a worker left behind (it would hold the pipes open) is killed with the rest
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(wait)
    assert proc.poll() is None, "the command ended before the interrupt: the case is too short"
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        left = subprocess.run(["ps", "-o", "pid,ppid,stat,etime,wchan:24,args", "-g", str(proc.pid)],
                              capture_output=True, text=True).stdout
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"no exit within 30 s of Ctrl-C, or a process left holding its output: {args}\n{left}")
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def assert_interrupted(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 130, (done.returncode, done.stderr[-500:])
    assert done.stderr == "puzzlesmith: interrupted\n"


@pytest.mark.parametrize("engine", sorted(LONG))
def test_ctrl_c_stops_count(engine):
    assert_interrupted(interrupt("count", "queens", *LONG[engine], "--engine", engine))


@pytest.mark.parametrize("engine", sorted(LONG))
def test_ctrl_c_stops_solve_all_and_keeps_what_was_printed(engine):
    done = interrupt("solve", "queens", *LONG[engine], "--engine", engine, "--all")
    assert_interrupted(done)
    assert all(line.count("Q") == 16 for line in done.stdout.split())  # whole solutions only


def test_ctrl_c_stops_the_linear_engine():
    # 300x300 over GF(3) with the 3x3 neighbourhood: elimination takes minutes.
    assert_interrupted(interrupt("count", "lightsout", "-p", "size=300", "-p", "states=3", "-p",
                                  "neighbourhood=box"))


@pytest.mark.parametrize("oracle", ["sat", "cpsat", "backtracking"])
def test_ctrl_c_stops_generate_with_a_pool_of_workers(oracle):
    done = interrupt("generate", "sudoku", "-n", "100000", "--workers", "2", "--seed", "1",
                              "--oracle", oracle, "-p", "size=16", "-q")
    assert_interrupted(done)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers die with their parent on Linux")
def test_workers_end_with_their_parent_even_when_it_is_killed_outright():
    # Under load an interrupt once left both workers of a pool waiting for work, holding the caller's pipes open,
    # so that a test reading the output hung; a parent killed with SIGKILL can stop nobody. Either way the workers
    # must not outlive it.
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "generate", "sudoku", "-n", "100000", "--workers",
                             "2", "--seed", "1", "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(workers := children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) >= 2, "the pool never started"
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 30
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(w) for w in workers)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the group may be gone already
            os.killpg(proc.pid, signal.SIGKILL)


def test_ctrl_c_stops_generate_in_one_process():
    done = interrupt("generate", "sudoku", "-n", "100000", "--seed", "1", "-q")
    assert_interrupted(done)
    assert all(len(line) == 81 for line in done.stdout.split())  # puzzles printed so far stay whole


#: Ctrl-C where no exception can leave: a KeyboardInterrupt raised in a __del__ or in a ctypes callback is printed
#: as "Exception ignored ..." and dropped. CI met both in `generate sudoku` as numba compiled on a first run
#: (llvmlite's ObjectRef.__del__, then its object-cache callback), and the command went on past 30 s. Here nearly
#: all the time is spent in such a place, so the signal lands in one.
SWALLOWED = """
import ctypes, os, signal, sys, threading, time
from puzzlesmith import cli

class Slow:
    def __del__(self):
        time.sleep(0.2)

@ctypes.CFUNCTYPE(None)
def slow():
    time.sleep(0.2)

cli._watch_interrupts()
threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
end = time.monotonic() + 10
try:
    while time.monotonic() < end:
        Slow() if sys.argv[1] == "finaliser" else slow()
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - end + 10, 1))
else:
    print("not interrupted")
"""


@pytest.mark.parametrize("where", ["finaliser", "ctypes callback"])
def test_ctrl_c_where_no_exception_can_leave_is_raised_once_it_returns(where):
    done = subprocess.run([sys.executable, "-c", SWALLOWED, where], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("interrupted after"), (done.stdout, done.stderr[-500:])
    assert "Exception ignored" not in done.stderr, done.stderr


def test_other_exceptions_where_none_can_leave_go_to_the_hook_in_place_before():
    # Python's own hook prints them; a caller's own (pytest has one) gets them, and has its hook back after main
    code = """
import signal, sys
from puzzlesmith import cli

class Broken:
    def __del__(self):
        raise ValueError("broken finaliser")

def watch():
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a fresh process
    assert cli._watch_interrupts()

watch()
Broken()
print("went on")
seen = []
mine = lambda unraisable: seen.append(unraisable.exc_type.__name__)
sys.unraisablehook = mine
watch()
Broken()
print(seen)
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.unraisablehook = mine
cli.main(["count", "queens", "-p", "n=4"])
print(sys.unraisablehook is mine)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "went on\n['ValueError']\n2 solutions\nTrue\n", (done.stdout, done.stderr)
    assert done.stderr.count("Exception ignored") == 1 and "ValueError: broken finaliser" in done.stderr, done.stderr


def test_ctrl_c_while_a_library_imports_is_still_an_interrupt():
    # Under load, Ctrl-C once landed while numpy was being imported: numpy's C code turned it into
    # ImportError('PyCapsule_Import could not import module "datetime"'), with the interrupt lost from the
    # chain, and the command printed a traceback and exit 1. Here a command's run does the same on purpose.
    code = """
import os, signal
from puzzlesmith import cli
from puzzlesmith.cli.commands import count

def run(args):
    try:
        os.kill(os.getpid(), signal.SIGINT)
        signal.pause()
    except KeyboardInterrupt:
        raise ImportError('PyCapsule_Import could not import module "datetime"') from None
    return 0

count.run = run
cli.main(["count", "queens", "-p", "n=4"])
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert_interrupted(done)


@pytest.mark.parametrize("where", ["puzzlesmith.cli.commands", "puzzlesmith.cli.commands.solve"])
def test_ctrl_c_while_the_command_starts_is_still_an_interrupt(where):
    # Under load, starting (imports, the parser) takes long enough for a Ctrl-C to land there, before the
    # command's own handling: it printed a traceback. Here the interrupt comes as that module is imported,
    # first while the package loads, then while the parser imports its commands.
    code = f"""
import sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {where!r}:
            raise KeyboardInterrupt

sys.meta_path.insert(0, Interrupt())
from puzzlesmith._command import run
run()
"""
    done = subprocess.run([sys.executable, "-c", code, "solve", "queens", "-p", "n=4"], capture_output=True,
                          text=True, timeout=60)
    assert_interrupted(done)


def test_an_import_error_without_an_interrupt_is_not_one():
    code = """
from puzzlesmith import cli
from puzzlesmith.cli.commands import count

def run(args):
    raise ImportError("no module named nothing")

count.run = run
cli.main(["count", "queens", "-p", "n=4"])
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "ImportError: no module named nothing" in done.stderr
