"""Entry point of the ``puzzlesmith`` command: parse arguments, run one subcommand, map errors to exit codes."""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

from puzzlesmith.api import PuzzlesmithError, WrongAnswer, excerpt
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_WRONG_ANSWER

if TYPE_CHECKING:
    from sys import UnraisableHookArgs


class _Parser(argparse.ArgumentParser):
    """Reports a usage mistake as one line on stderr (exit 2) instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command's parser. Given the arguments, only the command they name is loaded (its module imports the
    parts of the API it uses); the others are listed by their line of help alone, which is all ``--help`` and a
    mistyped command show. Without arguments every command is loaded, as documentation tools want."""
    parser = _Parser(prog="puzzlesmith", description="Solve, count and generate puzzles with pluggable engines.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    named = next((a for a in argv if not a.startswith("-")), None) if argv is not None else None
    for name, help_line in COMMANDS.items():
        if argv is None or name == named:
            importlib.import_module(f".commands.{name.replace('-', '_')}", __package__).register(sub)
        else:
            sub.add_parser(name, help=help_line, add_help=False)
    return parser


def _looks_like_a_puzzle(arg: str) -> bool:
    """An argument that argparse took for an option but reads as puzzle text (a grid opening with
    its ``---+---`` rule, a lights-out board with a minus...)."""
    return arg.startswith("-") and (len(arg) > 2 and not arg.startswith("--") or any(ch in arg for ch in "\n|+./ "))


def _names_its_genre(arg: object) -> bool:
    """A TYPE argument that is a puzz.link URL or a Tatham page's link: it says its own genre (the API is asked
    which only then); a Penpa+ link, which does not, is sent there too, to be refused in words."""
    return isinstance(arg, str) and any(mark in arg for mark in ("/p?", "/p.html?", ".html#", "m=solve&p=",
                                                                 "m=edit&p="))


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:  # started with standard output closed (`>&-`): nothing could be printed
        print("puzzlesmith: error: standard output is closed", file=sys.stderr)
        return EXIT_BAD_INPUT
    parser = build_parser(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(argv)
    if "--" in extra and hasattr(args, "puzzles"):
        # argparse leaves `--` and what follows when options came before it: those are puzzles.
        cut = extra.index("--")
        extra, args.puzzles = extra[:cut], args.puzzles + extra[cut + 1:]
    puzzle_like = [a for a in extra if _looks_like_a_puzzle(a)]
    if puzzle_like and hasattr(args, "puzzles"):
        parser.error(f"the argument {excerpt(puzzle_like[0].splitlines()[0])} starts with '-' and was taken for an "
                     f"option: put -- before a puzzle that starts with '-', or read it with -f FILE")
    # argparse stops filling PUZZLE after an option (`solve sudoku --engine sat PUZZLE`): take those back.
    if extra and hasattr(args, "puzzles") and not any(a.startswith("-") and a != "-" for a in extra):
        args.puzzles += extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(excerpt(a) for a in extra)}")
    watching = _watch_interrupts()
    try:
        from puzzlesmith.cli.moves import refuse_moves

        if hasattr(args, "puzzles") and _names_its_genre(getattr(args, "type", None)):
            from puzzlesmith.api import url_type  # `solve URL`: the URL is the puzzle, and names its type

            args.puzzles, args.type = [args.type, *args.puzzles], url_type(args.type)
        refuse_moves(args)
        return args.run(args)
    except WrongAnswer as e:
        print(f"puzzlesmith: internal error: {e}", file=sys.stderr)
        return EXIT_WRONG_ANSWER
    except PuzzlesmithError as e:  # bad input, a bad engine choice, a usage mistake: one line, exit 2
        print(f"puzzlesmith: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        interrupted()
    except OSError as e:
        if _interrupts:
            interrupted()
        return _output_failed(e)
    except Exception:
        if _interrupts:  # the interrupt came out as another error: a library's ImportError, say
            interrupted()
        raise
    finally:
        if watching:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.unraisablehook = _outer_hook[0]


_interrupts: list[int] = []
#: The ``sys.unraisablehook`` in place before the command took it (a caller's own, pytest's): handed every other
#: exception, and put back when the command ends.
_outer_hook: list[Callable[[UnraisableHookArgs], Any]] = [sys.__unraisablehook__]


def _remember_interrupt(signum: int, frame: FrameType | None) -> None:
    _interrupts.append(signum)
    raise KeyboardInterrupt


def _swallowed_interrupt(unraisable: UnraisableHookArgs) -> None:
    """``sys.unraisablehook`` while the command runs. An interrupt raised where no exception can leave (a
    ``__del__``; a ctypes callback, as numba's compiler has llvmlite call back into Python) is printed as
    "Exception ignored ..." and dropped, and the command would go on: it is raised again in the frame that was
    running then, at its next line (a line event reaches a frame's f_trace only while some trace function is
    set). Any other such exception goes to the hook that was in place before."""
    if not issubclass(unraisable.exc_type, KeyboardInterrupt):
        _outer_hook[0](unraisable)
        return
    outside = _outside_finalisers(sys._getframe(1))
    if outside is not None:
        outside.f_trace_lines = True
        outside.f_trace = _raise_interrupt
        sys.settrace(_no_trace)


def _outside_finalisers(frame: FrameType | None) -> FrameType | None:
    """The innermost frame from ``frame`` outwards that runs inside no ``__del__`` (an exception cannot leave
    one): ``frame`` itself when it is not in one."""
    outside = frame
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            outside = frame.f_back
        frame = frame.f_back
    return outside


def _raise_interrupt(frame: FrameType, event: str, arg: object) -> None:
    """The trace function of a frame an interrupt is waiting for: raised there, tracing off again."""
    sys.settrace(None)
    frame.f_trace = None
    raise KeyboardInterrupt


def _no_trace(frame: FrameType, event: str, arg: object) -> None:
    """A trace function that traces nothing (no frame's calls, lines or returns)."""
    return None


def _watch_interrupts() -> bool:
    """Ctrl-C raises ``KeyboardInterrupt`` as Python's own handler does, and is remembered: one that lands
    while a library is being imported comes out as that library's error (numpy's ImportError "could not
    import module"), which must still end as an interrupt, not a traceback. False when Python's own handler
    is not the one in place (Ctrl-C ignored, or not the main thread): then nothing is changed."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    _interrupts.clear()
    signal.signal(signal.SIGINT, _remember_interrupt)
    _outer_hook[0] = sys.unraisablehook
    sys.unraisablehook = _swallowed_interrupt
    return True


def entry() -> NoReturn:
    """The ``puzzlesmith`` console command: ``main``, then leave at once with its exit code.

    Output is flushed first; what is skipped is tearing the heap down object by object, which takes
    seconds after a big model (a Life predecessor search holds millions of objects) and would push
    a run past its time limit when the answer is already out.
    """
    try:
        code = main()
    except KeyboardInterrupt:  # before main took charge of Ctrl-C (building the parser)
        interrupted()
    _stop_workers()  # a pool left running by an error or a closed pipe would outlive the command
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


def interrupted() -> NoReturn:
    """Ctrl-C: one line, exit 130, at once, whatever was running.

    Worker processes are stopped, and the process leaves with ``os._exit``: the normal exit would
    run clean-up handlers that call into a SAT solver the interrupt left in the middle of a call
    (CaDiCaL then aborts with "invalid API usage"). Output printed so far is flushed; nothing else
    is written (files are written whole or not at all, see ``core.files.atomic_write``).
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    _stop_workers()  # a pool's workers ignore Ctrl-C (see generators.batch)
    print("puzzlesmith: interrupted", file=sys.stderr, flush=True)
    os._exit(EXIT_INTERRUPTED)


def _stop_workers() -> None:
    """Kill the worker processes still alive: ``os._exit`` runs no pool shutdown, and a worker
    waiting for work would never end (it holds the task pipe open itself)."""
    if "multiprocessing" in sys.modules:
        for child in sys.modules["multiprocessing"].active_children():
            child.kill()


def _output_failed(e: OSError) -> int:
    """The output could not be written: a closed pipe (`| head`) ends quietly, anything else (a full
    disk) is one line on stderr. Standard output is pointed at /dev/null so that Python's own flush
    at exit does not fail again with a traceback."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if isinstance(e, BrokenPipeError) or e.errno == errno.EPIPE:
        return 0
    print(f"puzzlesmith: error: cannot write {e.filename if e.filename else 'the output'}: {e.strerror or e}",
          file=sys.stderr)
    return EXIT_BAD_INPUT
