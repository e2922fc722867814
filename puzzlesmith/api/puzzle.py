"""Puzzles and what can be asked of them: the path from puzzle text to a checked answer.

1. read the text with the type's parameters (given as Python values or as the command line's strings);
2. build the model and look for a contradiction among the givens (a puzzle that reads well but cannot
   be solved is answered "no solution" with the reason, never reported as bad input);
3. choose an engine (``auto`` decides per model and says why);
4. search under ONE time limit, which also bounds building and compiling the model;
5. check every answer independently (``Model.check``, the givens, the type's own ``verify``; a move
   puzzle's path move by move) before anyone sees it: a wrong answer raises ``WrongAnswer``.

Heavy libraries (numpy, python-sat, OR-Tools, the drawing extra) load only when an answer needs them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzlesmith import solvers
from puzzlesmith.api.checks import checked
from puzzlesmith.chance import GAMES
from puzzlesmith.core import clock
from puzzlesmith.core.errors import (
    EngineError,
    ModelError,
    NoAnswer,
    OutOfTime,
    PuzzleError,
    PuzzlesmithError,
    WrongAnswer,
)
from puzzlesmith.csp.constraints import AllDifferent
from puzzlesmith.csp.givens import first_lost
from puzzlesmith.csp.model import Model, Violation
from puzzlesmith.moves.space import Space
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import Instance, MovePuzzle, PuzzleType
from puzzlesmith.puzzles.play import Hint
from puzzlesmith.solvers.base import Status

if TYPE_CHECKING:
    from puzzlesmith.generators.grading import Grade
    from puzzlesmith.moves.paths import PathResult
    from puzzlesmith.puzzles.play import Step

#: The formats ``Puzzle.to_url`` writes and ``api.formats.read_url`` reads: puzz.link's URLs, Tatham's game IDs.
URL_FORMATS = ("puzzlink", "tatham", "penpa")


# -- finding types and reading puzzles ----------------------------------------------------------------------
def types() -> list[str]:
    """The names of every puzzle type: the built-in ones and those other packages register."""
    return sorted(registry.available())


def games() -> list[str]:
    """The names of the games of chance (2048, Threes, and those other packages register): played by
    ``puzzlesmith play`` and ``games.play.play_game``, not solved."""
    return sorted(GAMES)


def game(name: str) -> Any:
    """The rules class of the game called ``name`` (``games.rules.GameRules``); ``PuzzleError`` if none."""
    if name not in GAMES:
        raise PuzzleError(f"unknown game (known: {', '.join(sorted(GAMES))})", where=f"game {name!r}")
    return GAMES.load(name)


def type_of(name: str) -> PuzzleType:
    """The puzzle type called ``name``; ``PuzzleError`` naming the known ones when there is none."""
    return registry.get(name)


def params_of(ptype: PuzzleType, params: Mapping[str, Any]) -> dict[str, Any]:
    """The type's parameters resolved from ``params`` (Python values or the command line's strings);
    ``PuzzleError`` naming the parameter for an unknown name or a bad value."""
    known = {p.name: p for p in ptype.params}
    raw: dict[str, str] = {}
    for name, value in params.items():
        if isinstance(value, str) or name not in known:  # an unknown name is resolve_params' to refuse
            raw[name] = value if isinstance(value, str) else repr(value)
            continue
        try:
            raw[name] = str(value) if isinstance(value, Path) else known[name].encode(value)
        except ValueError as e:
            raise PuzzleError(str(e), where=f"parameter {name!r}") from None
    return ptype.resolve_params(raw)


@checked
def read(type_name: str, text: str, **params: Any) -> Puzzle:
    """One puzzle from its text, e.g. ``read("sudoku", "4.....8.5.3...", size=9)``.

    Parameters are the type's ``-p`` parameters (``puzzlesmith types`` lists them), as Python values or
    as strings. Bad text or parameters raise one ``PuzzleError`` naming the line, cell or parameter.
    """
    ptype = type_of(type_name)
    return read_text(ptype, params_of(ptype, params), text, "puzzle", whole=True)[0]


@checked
def read_file(type_name: str, path: str | Path, **params: Any) -> list[Puzzle]:
    """Every puzzle of a file: one per line, or grids separated by blank lines; ``#`` starts a comment.

    A bad puzzle raises ``PuzzleError`` naming the file and its line; an unreadable file raises
    ``PuzzleError`` naming the file.
    """
    ptype = type_of(type_name)
    resolved = params_of(ptype, params)
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as e:
        raise PuzzleError(f"cannot read it: {e.strerror or e}", where=str(path)) from None
    except UnicodeDecodeError:
        raise PuzzleError("cannot read it: not UTF-8 text", where=str(path)) from None
    return read_text(ptype, resolved, text, str(path), whole=False)


def read_text(ptype: PuzzleType, params: dict[str, Any], text: str, name: str, *, whole: bool) -> list[Puzzle]:
    """The puzzles of ``text``: the whole of it as one puzzle (``whole``), or its records as a file holds
    them. ``name`` says where the text came from in messages and in each ``Puzzle.source``."""
    text = text.removeprefix("\ufeff")
    records = [(1, text)] if whole else ptype.split_records(text)
    if not records:
        raise PuzzleError("no puzzles found (the input is empty or only comments)", where=name)
    puzzles = []
    for line, record in records:
        try:
            instance = ptype.parse(record, params)
        except PuzzleError as e:
            one_line = whole and "\n" not in record.strip()  # a one-line puzzle has no line worth naming
            located = PuzzleError(e.message, where=e.where) if one_line else e.at_line(line)
            raise PuzzleError(str(located), where=name) from None
        puzzles.append(Puzzle(ptype, instance, source=name if whole else f"{name}:{line}"))
    return puzzles


@checked
def empty(type_name: str, **params: Any) -> Puzzle:
    """The type's puzzle with no clues (n-queens, an empty sudoku grid); ``PuzzleError`` if it has none."""
    ptype = type_of(type_name)
    instance = ptype.empty(params_of(ptype, params))
    if instance is None:
        raise PuzzleError(f"{ptype.name} has no empty puzzle: give one", where=f"type {ptype.name!r}")
    return Puzzle(ptype, instance, source="empty")


@checked
def generate(type_name: str, seed: int | None = None, difficulty: str | None = None, *, symmetry: str = "none",
             rating: tuple[float, float] | None = None, max_tries: int = 1000, oracle: str | None = None,
             **params: Any) -> Puzzle:
    """A generated puzzle: for clue puzzles unique and minimal (no clue can go), within ``symmetry``, at
    ``difficulty`` (one of ``levels(type_name)``: the tiers of deduction it needs, made as Tatham makes
    his levels, or the technique ladder's levels for sudoku-like types) or rated within ``rating`` on
    Sudoku Explainer's scale; for boards (lights-out, nonograms) the type's own board generator.

    The same ``seed`` makes the same puzzle (``Puzzle.seed`` says which made it; None draws one).
    ``GenerationError`` when no puzzle of that difficulty came in ``max_tries`` tries.
    """
    from puzzlesmith.generators import board_generator, generate_one, new_seed

    ptype = type_of(type_name)
    resolved = params_of(ptype, params)
    seed = new_seed() if seed is None else seed
    if not ptype.clue_based and not ptype.clue_kinds:  # clue kinds: made by generate_one, as clue puzzles
        boards = board_generator(ptype)
        if boards is None:
            raise PuzzleError(f"{ptype.name} puzzles cannot be generated (types that can: "
                              f"{', '.join(n for n in types() if 'generate' in type_of(n).capabilities())})",
                              where=f"type {ptype.name!r}")
        if difficulty is not None and not ptype.board_levels or rating is not None or symmetry != "none":
            raise PuzzleError(f"difficulty, rating and symmetry are for clue puzzles, not {ptype.name} boards",
                              where=f"type {ptype.name!r}")
        board = next(iter(boards(ptype, resolved, 1, seed=seed, **board_level(ptype, difficulty, max_tries))))
        return Puzzle(ptype, replace(board.instance, layout="line"), source=f"seed {seed}", seed=seed)
    made = generate_one(ptype, resolved, seed, symmetry=symmetry, difficulty=difficulty, oracle=oracle,
                        grade=difficulty is not None or rating is not None, max_tries=max_tries, rating=rating)
    return Puzzle(ptype, replace(made.instance, layout="line"), source=f"seed {seed}", seed=seed, known=made.solution,
                  grade=made.grade)



def board_level(ptype: PuzzleType, difficulty: str | None, max_tries: int) -> dict[str, Any]:
    """The options that ask a board generator for a level (none when no level is asked); PuzzleError, naming the
    known levels, for one the type does not make."""
    if difficulty is None:
        return {}
    if difficulty not in ptype.board_levels:
        raise PuzzleError(f"unknown level {difficulty!r} for {ptype.name} (known: {', '.join(ptype.board_levels)})",
                          where="difficulty")
    return {"difficulty": difficulty, "max_tries": max_tries}


@checked
def levels(type_name: str, **params: Any) -> tuple[str, ...]:
    """The difficulty levels ``generate`` takes for the type with these parameters, easiest first: the type's
    names of the generic tiers of deduction and "needs guessing", or the technique ladder's levels for
    sudoku-like models, or a board type's own (``PuzzleType.board_levels``: a nonogram's tiers of line logic);
    ``PuzzleError`` for a type without levels."""
    from puzzlesmith.generators import prepare
    from puzzlesmith.generators.levels import level_names

    ptype = type_of(type_name)
    if ptype.board_levels and not (ptype.clue_based or ptype.clue_kinds):
        return ptype.board_levels
    if not (ptype.clue_based or ptype.clue_kinds):
        raise PuzzleError(f"{ptype.name} puzzles are not made of clues, so they have no difficulty levels",
                          where=f"type {ptype.name!r}")
    _, model, _ = prepare(ptype, params_of(ptype, params), "none", None)
    return level_names(ptype, model)


# -- answers -------------------------------------------------------------------------------------------------
@dataclass
class Plan:
    """What is decided before a search, so bad input fails before anything is printed: the model and the
    engine that will run (and why), or why there is nothing to search (the givens contradict each other,
    or building the model took the whole time limit)."""

    model: Model | None
    engine: str = ""
    engine_reason: str = ""
    conflict: str | None = None
    stopped: str | None = None
    seconds: float = 0.0  # spent building the model and choosing, counted against the time limit
    #: Said before the search when an engine chosen by name is far outside its comfort (it still runs).
    warning: str | None = None

    def time_left(self, limit: float | None) -> float | None:
        """What remains of ``limit`` for the search itself (at least a moment)."""
        return None if limit is None else max(limit - self.seconds, 1e-3)


@dataclass
class Solution:
    """The answer to ``solve`` (one solution) or ``solutions`` (up to a limit) of a constraint puzzle.

    ``status`` is solved, unsat (proved to have none; ``reason`` says why when known) or unknown (a time
    or node limit stopped the search; ``stopped`` names it). ``texts`` are the solutions in the layout
    the puzzle came in, ``values`` the variables' values; ``complete`` is True when no solution was left
    out (the search ended by itself).
    """

    status: Status
    texts: list[str] = field(default_factory=list)
    values: list[list[int]] = field(default_factory=list)
    complete: bool = False
    reason: str | None = None
    engine: str | None = None
    engine_reason: str | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None

    @property
    def solution(self) -> str | None:
        """The first solution's text, or None."""
        return self.texts[0] if self.texts else None

    @property
    def count(self) -> int:
        return len(self.texts)

    def __bool__(self) -> bool:
        return self.status == Status.SOLVED


@dataclass
class MoveSolution:
    """The answer to ``solve`` for a puzzle solved by moves: a shortest solution in the puzzle's metric.

    ``moves`` names each move, ``positions`` holds the board before the first move and after each one,
    ``length`` is the number of moves (None without a solution). ``reached`` says how far a search got
    that a limit stopped.
    """

    status: Status
    metric: str
    moves: list[str] = field(default_factory=list)
    positions: list[str] = field(default_factory=list)
    length: int | None = None
    reason: str | None = None
    engine: str | None = None
    engine_reason: str | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None
    reached: str | None = None

    @property
    def solution(self) -> str | None:
        """The moves, one per line ('' when the start is already a goal), or None without a solution."""
        return "\n".join(self.moves) if self.status == Status.SOLVED else None

    def __bool__(self) -> bool:
        return self.status == Status.SOLVED


@dataclass
class Count:
    """How many solutions: ``count`` is exact when ``complete``; otherwise at least that many (the
    caller's ``limit`` or a time or node limit stopped the count: ``stopped`` names the latter)."""

    count: int
    complete: bool
    status: Status
    reason: str | None = None
    engine: str | None = None
    engine_reason: str | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None


@dataclass
class Explanation:
    """Why a puzzle has no solution: a minimal set of its givens (clues, or the player's entries) that no solution
    holds together, each ``(variable, value)``, with ``texts`` naming them (``r1c1 = 5``); removing any one of them
    leaves a puzzle with a solution. ``status`` solved (it has one: nothing to explain), unsat (``givens`` found;
    empty when the model has no solution even without any given) or unknown (a limit stopped it)."""

    status: Status
    givens: list[tuple[int, int]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    reason: str = ""


@dataclass
class Graded:
    """How hard a puzzle is. ``solved`` is False when it has no solution (``reason`` says why when
    known) or the time limit stopped the grading (``status`` unknown); ``unique`` says whether it has
    exactly one solution (a grade means little otherwise). ``grade`` is the technique ladder's grade for
    clue puzzles; ``details`` holds a board grader's findings (nonograms: line logic and probes)."""

    status: Status
    solved: bool
    unique: bool
    grade: Grade | None = None
    details: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None

    @property
    def level(self) -> str | None:
        """The level of the grade, or of a board grader's findings where it names one (a nonogram's)."""
        return self.grade.level if self.grade is not None else self.details.get("level")

    @property
    def rating(self) -> float | None:
        return self.grade.rating if self.grade is not None else None


class Puzzle:
    """One puzzle of a type, read from text, a file or a generator, with everything that can be asked of it.

    ``text`` is the puzzle as the type writes it; ``seed`` the seed that generated it (None otherwise);
    ``source`` where it came from (for messages: "puzzle", "FILE:LINE", "seed S").
    """

    def __init__(self, ptype: PuzzleType, instance: Instance, *, source: str = "puzzle", seed: int | None = None,
                 known: Sequence[int] | None = None, grade: Grade | None = None) -> None:
        self.type = ptype
        self.instance = instance
        self.source = source
        self.seed = seed
        self._known = list(known) if known is not None else None  # a generator's solution
        self._grade = grade
        self._plans: dict[str, Plan] = {}

    def __repr__(self) -> str:
        return f"Puzzle({self.type.name!r}, {self.text!r})"

    @property
    def type_name(self) -> str:
        return self.type.name

    @property
    def text(self) -> str:
        """The puzzle as text, in the layout it came in."""
        return self.type.format_puzzle(self.instance)

    @property
    def line(self) -> str:
        """The puzzle as one line where the type has a one-line form (a generator prints it so)."""
        return self.type.format_puzzle(replace(self.instance, layout="line"))

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.instance.params)

    def to_url(self, format: str = "puzzlink") -> str:
        """The puzzle as a puzz.link URL (``puzzlink``), a Tatham game ID (``tatham``) or a Penpa+ solve link
        (``penpa``), as its type writes them; PuzzleError, in one line, when the format has no name for its genre
        or cannot say this puzzle. ``read_url`` reads it back to an equal ``text`` (a Penpa+ link with its genre
        given: ``read_url(url, genre=puzzle.type.name)``)."""
        if format == "puzzlink":
            return "https://puzz.link/p?" + self.type.to_puzzlink(self.instance)
        if format == "tatham":
            return self.type.to_tatham(self.instance)
        if format == "penpa":
            from puzzlesmith.puzzles.formats import penpa

            return penpa.write(self.type.to_penpa(self.instance))
        raise PuzzleError(f"unknown URL format (known: {', '.join(URL_FORMATS)})", where=f"format {format!r}")

    @property
    def made_grade(self) -> Grade | None:
        """The grade its generator found, when it was made at a difficulty or rating (else None)."""
        return self._grade

    def capabilities(self) -> frozenset[str]:
        """What can be asked of this puzzle's type (see ``PuzzleType.capabilities``)."""
        return self.type.capabilities()

    def _require(self, capability: str) -> None:
        if capability not in self.type.capabilities():
            raise PuzzleError(self.type.refusal(capability), where=f"type {self.type.name!r}")

    # -- constraint puzzles ----------------------------------------------------------------------------------
    @checked
    def plan(self, engine: str = "auto", time_limit: float | None = None) -> Plan:
        """The model and engine for this puzzle, decided once per engine choice (the front ends call it for
        every puzzle before printing anything, so bad input fails first). ``EngineError`` for an unknown
        engine or one that cannot take this model; ``PuzzleError`` for a model the type cannot build."""
        self._require("count")
        if engine in self._plans:
            return self._plans[engine]
        start = time.perf_counter()
        instance = self.instance
        plan: Plan
        if instance.conflict:
            plan = Plan(None, conflict=instance.conflict)
        else:
            try:
                with clock.time_limit(time_limit):
                    plan = self._choose(engine, start)
            except ModelError as e:
                raise PuzzleError(str(e), where=self.source) from None
            except OutOfTime:
                return Plan(None, stopped="time limit", seconds=time.perf_counter() - start)
        self._plans[engine] = plan
        return plan

    def _choose(self, engine: str, start: float) -> Plan:
        """The model, a contradiction among the givens, or the engine and why (within the caller's deadline)."""
        instance = self.instance
        model = self.type.model(instance)
        conflict = self.type.contradiction(instance, model)
        if conflict is not None:
            return Plan(None, conflict=conflict)
        name, reason = engine_choice(model, engine)
        why = solvers.get_engine(name).declines(model, instance.givens)
        if why:
            raise EngineError(f"{self.source}: the {name} engine cannot answer this puzzle: {why}")
        warning = solvers.get_engine(name).comfort(model) if engine != "auto" else None
        return Plan(model, name, reason, seconds=time.perf_counter() - start, warning=warning)

    @checked
    def solutions(self, limit: int | None = None, engine: str = "auto", time_limit: float | None = None,
                  node_limit: int | None = None) -> Solution:
        """Up to ``limit`` solutions (None: all), each checked independently, and whether that is all."""
        if limit is not None and limit < 1:
            raise PuzzleError(f"a solution limit must be 1 or more, got {limit}", where="limit")
        plan = self.plan(engine, time_limit)
        if plan.model is None:
            return self._unsearched(plan)
        model, instance = plan.model, self.instance
        start = time.perf_counter()
        answers: list[list[int]] = []
        found: solvers.Search | None = None
        try:
            with clock.time_limit(plan.time_left(time_limit)):
                found = solvers.get_engine(plan.engine).search(
                    model, instance.givens, (), solvers.Limits(clock.remaining(), node_limit))
                for values in found:
                    answers.append(self._checked(model, values, plan.engine, model.check(values)))
                    if limit is not None and len(answers) >= limit:
                        break
            stats = found.stats
        except OutOfTime:  # compiling the model took the whole time limit
            stats = solvers.Stats(stopped="time limit")
        seconds = time.perf_counter() - start + plan.seconds
        complete = found is not None and found.exhausted
        # A limit that ended the search before it found what was asked leaves the answer unknown.
        stopped = stats.stopped if not complete and (limit is None or len(answers) < limit) else None
        status = Status.UNKNOWN if stopped else (Status.SOLVED if answers else Status.UNSAT)
        why = stats.extra.get("why") if status == Status.UNSAT else None
        return Solution(status, [self.type.format(instance, v) for v in answers], answers, complete, why,
                        plan.engine, plan.engine_reason, seconds, stats.as_dict(), stopped)

    @checked
    def solve(self, engine: str = "auto", time_limit: float | None = None, node_limit: int | None = None, *,
              metric: str | None = None, position_limit: int | None = None) -> Solution | MoveSolution:
        """One solution, checked independently; for a puzzle solved by moves a shortest one in ``metric``
        (default: the puzzle's own, ``moves`` unless it was read with another)."""
        if self.type.solved_by_moves:
            return self._solve_moves(engine, time_limit, node_limit, metric, position_limit)
        if metric is not None or position_limit is not None:
            raise PuzzleError("metric and position_limit are for puzzles solved by moves", where=self.source)
        return self.solutions(1, engine, time_limit, node_limit)

    @checked
    def count(self, limit: int | None = None, engine: str = "auto", time_limit: float | None = None,
              node_limit: int | None = None) -> Count:
        """The number of solutions, exact (``complete``) or at least ``limit`` (2 tells unique from not)."""
        if limit is not None and limit < 1:
            raise PuzzleError(f"a count limit must be 1 or more, got {limit}", where="limit")
        plan = self.plan(engine, time_limit)
        if plan.model is None:
            status = Status.UNSAT if plan.conflict else Status.UNKNOWN
            stats = {"stopped": plan.stopped} if plan.stopped else {}
            return Count(0, bool(plan.conflict), status, plan.conflict, None, None, plan.seconds, stats, plan.stopped)
        try:
            with clock.time_limit(plan.time_left(time_limit)):
                result = solvers.get_engine(plan.engine).count(plan.model, limit, self.instance.givens, (),
                                                               solvers.Limits(clock.remaining(), node_limit))
        except OutOfTime:  # compiling the model took the whole time limit
            result = solvers.EngineCount(0, False, solvers.Stats(stopped="time limit"), plan.engine)
        why = result.stats.extra.get("why") if result.count == 0 else None
        return Count(result.count, result.complete, Status(result.status), why, plan.engine, plan.engine_reason,
                     result.stats.seconds + plan.seconds, result.stats.as_dict(), result.stats.stopped)

    @checked
    def is_unique(self, engine: str = "auto", time_limit: float | None = None) -> bool | None:
        """True with exactly one solution, False with none or several, None when the time limit ran out."""
        counted = self.count(2, engine, time_limit)
        return None if counted.status == Status.UNKNOWN else counted.count == 1

    @checked
    def grade(self, time_limit: float | None = None) -> Graded:
        """How hard the puzzle is: the technique ladder for clue puzzles (the hardest technique needed,
        rated on Sudoku Explainer's scale, a level, the step count), the type's own grader for boards."""
        from puzzlesmith.generators import board_grader, grade

        grader = None if self.type.clue_based else board_grader(self.type)
        if grader is not None:
            return self._grade_board(grader, time_limit)
        self._require("grade")
        plan = self.plan("auto", time_limit)
        if plan.model is None:
            return Graded(Status.UNKNOWN if plan.stopped else Status.UNSAT, False, False, reason=plan.conflict)
        try:
            with clock.time_limit(plan.time_left(time_limit)):
                graded = self._grade if self._grade is not None else grade(plan.model, self.instance.givens,
                                                                             self._known, names=self.type.levels())
                if not graded.solved:
                    return Graded(Status.UNSAT, False, False, reason=None)
                counted = solvers.count(plan.model, 2, fix=self.instance.givens, time_limit=clock.remaining())
                if counted.status == Status.UNKNOWN:  # the deadline stopped the count: not "unique" nor "not"
                    raise OutOfTime
                unique = counted.count == 1
        except OutOfTime:
            return Graded(Status.UNKNOWN, False, False, reason="time limit")
        return Graded(Status.SOLVED, True, unique, graded)

    def _grade_board(self, grader: Any, time_limit: float | None) -> Graded:
        instance = self.instance
        try:
            with clock.time_limit(time_limit):
                found = None if instance.conflict else grader(instance)
                if found is None or not found["solved"] and found["undecided"] is None:
                    return Graded(Status.UNSAT, False, False, reason=instance.conflict or "the clues contradict",
                                  details={"solved": False, "line_solvable": False})
                details = {k: v for k, v in found.items() if k != "grid"}
                count = 1
                if not found["solved"]:
                    counted = solvers.count(self.type.model(instance), 2, time_limit=clock.remaining())
                    if counted.status == Status.UNKNOWN:
                        raise OutOfTime
                    count = counted.count
        except OutOfTime:
            return Graded(Status.UNKNOWN, False, False, reason="time limit")
        if not found["solved"]:
            details["solutions"] = count
        status = Status.SOLVED if count else Status.UNSAT
        return Graded(status, bool(count), count == 1, details=details)

    @checked
    def hint(self, engine: str = "auto", time_limit: float | None = None) -> Hint:
        """The next deductions from what is on the grid (the givens may include the player's entries), up
        to the first placement, each with its cell, technique and reason: the type's own logic where it has one
        (``PuzzleType.step_hint``), else the technique ladder or the generic tiers of deduction."""
        from puzzlesmith.generators import hint

        self._require("hint")
        own = self.type.step_hint(self.instance)  # a type's own logic (a nonogram's lines) comes first
        if own is not None:
            return own
        plan = self.plan(engine, time_limit)
        if plan.model is None:
            if plan.stopped:
                return Hint(Status.UNKNOWN, [], False, f"unknown ({plan.stopped} reached)")
            return Hint(Status.UNSAT, [], False, f"no solution: {plan.conflict}")
        start = time.perf_counter()
        found = self.solutions(2, engine, time_limit)  # the deadline's own channel: unknown when it runs out
        if found.status == Status.UNKNOWN:  # no solution yet, or one and no word on a second
            return Hint(Status.UNKNOWN, [], False, f"unknown ({found.stopped} reached)")
        if found.status == Status.UNSAT:
            why = self.explain(engine, time_limit)
            return Hint(Status.UNSAT, [], False, f"no solution: {why.reason}" if why.status == Status.UNSAT else
                        "no solution: a clue or an entry is wrong")
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        try:
            with clock.time_limit(left if left is None else max(left, 1e-3)):
                steps = hint(plan.model, self.instance.givens, found.values[0])
        except OutOfTime:
            return Hint(Status.UNKNOWN, [], False, "unknown (time limit reached)")
        unique = found.count == 1
        texts = [s.describe(self.cell_name, self.show_value) for s in steps]
        return Hint(Status.SOLVED, steps, unique, "" if steps else "already solved", texts)

    def explain(self, engine: str = "auto", time_limit: float | None = None) -> Explanation:
        """A minimal set of givens that contradict each other ("these three clues cannot all hold"), by deletion:
        each given in turn is left out, and stays out while the rest still have no solution (one solver call a
        given). The clues a type builds into its model rather than as givens (a Rectangles number's area) are
        kept throughout."""
        plan = self.plan(engine, time_limit)
        if plan.model is None and plan.stopped:
            return Explanation(Status.UNKNOWN, reason=f"unknown ({plan.stopped} reached)")
        try:
            model = plan.model if plan.model is not None else self.type.model(self.instance)
        except PuzzlesmithError:
            return Explanation(Status.UNSAT, reason=plan.conflict or "no solution")
        name = plan.engine if plan.model is not None else engine

        def holds(givens: dict[int, int]) -> bool | None:
            found = solvers.solve(model, fix=givens, engine=name, time_limit=clock.remaining())
            return None if found.status == Status.UNKNOWN else found.status == Status.SOLVED

        try:
            with clock.time_limit(time_limit):
                kept = dict(self.instance.givens)
                first = holds(kept)
                if first is None:
                    return Explanation(Status.UNKNOWN, reason="unknown (time limit reached)")
                if first:
                    return Explanation(Status.SOLVED, reason="it has a solution")
                for var in list(kept):
                    fewer = {v: x for v, x in kept.items() if v != var}
                    verdict = holds(fewer)
                    if verdict is None:
                        return Explanation(Status.UNKNOWN, reason="unknown (time limit reached)")
                    if not verdict:
                        kept = fewer
        except OutOfTime:
            return Explanation(Status.UNKNOWN, reason="unknown (time limit reached)")
        texts = [f"{self.cell_name(v)} = {self.show_value(x)}" for v, x in kept.items()]
        reason = (f"{', '.join(texts)} cannot {'both' if len(texts) == 2 else 'all'} hold" if len(texts) > 1 else
                  f"{texts[0]} cannot hold" if texts else "no solution even without the givens")
        return Explanation(Status.UNSAT, list(kept.items()), texts, reason)

    def cell_name(self, var: int) -> str:
        """How a person names variable ``var`` (r1c1 in a sudoku)."""
        return self.type.cell_name(self.instance, var)

    def show_value(self, value: int) -> str:
        """How a value is written (a sudoku's 10 as A)."""
        return self.type.show_value(value, self.instance)

    # -- pictures --------------------------------------------------------------------------------------------
    @checked
    def picture(self, solution: bool = False, engine: str = "auto", time_limit: float | None = None,
                aspect: float | None = None) -> Any:
        """The puzzle as a ``Picture`` (with ``solution``, solved as ``solve`` solves it: its values drawn
        in, or for a move puzzle the strip of positions along a shortest solution, shaped to ``aspect``).
        ``NoAnswer`` when there is no solution to draw."""
        from puzzlesmith import drawing

        if not solution:
            return drawing.picture(self.type, self.instance)
        answer = self.solve(engine, time_limit)
        if answer.status != Status.SOLVED:
            raise unanswered(self.source, answer)
        if isinstance(answer, MoveSolution):
            assert isinstance(self.type, MovePuzzle)
            steps = [("start", answer.positions[0])] + list(zip(answer.moves, answer.positions[1:]))
            return drawing.strip(self.type, self.instance, steps, aspect)
        return drawing.picture(self.type, self.instance, answer.values[0])

    @checked
    def render(self, format: str = "svg", solution: bool = False, engine: str = "auto",
               time_limit: float | None = None) -> bytes:
        """The puzzle drawn as an SVG, PNG or PDF file's bytes (PNG and PDF need the ``draw`` extra)."""
        from puzzlesmith import drawing

        if format not in drawing.FORMATS:
            raise PuzzleError(f"unknown picture format (known: {', '.join(drawing.FORMATS)})",
                              where=f"format {format!r}")
        if format != "svg":
            drawing.require_extra()
        title = f"{self.type.name} {'solution' if solution else 'puzzle'}"
        return drawing.encode(self.picture(solution, engine, time_limit), format, title)

    # -- move puzzles ----------------------------------------------------------------------------------------
    def space(self) -> Space:
        """A move puzzle's position graph, as the path engines see it."""
        self._require("moves")
        assert isinstance(self.type, MovePuzzle)
        return self.type.space(self.instance)

    def _solve_moves(self, engine: str, time_limit: float | None, node_limit: int | None, metric: str | None,
                     position_limit: int | None) -> MoveSolution:
        from puzzlesmith.moves.paths import PathLimits, find_path

        puzzle = self if metric is None or metric == self.instance.params.get("metric") else self.with_params(
            metric=metric)
        space = puzzle.space()
        name, reason = path_engine_choice(space, engine, position_limit)
        result = find_path(space, name, PathLimits(time_limit, node_limit, position_limit, None))
        return move_answer(space, result, reason, self.source, str(puzzle.instance.params.get("metric", "")))

    @checked
    def analyze(self, time_limit: float | None = None, node_limit: int | None = None,
                position_limit: int | None = None) -> Any:
        """A move puzzle's whole component: positions, goals, the histogram of distances from the start,
        the farthest positions and the hardest start (``moves.explore.Exploration``)."""
        from puzzlesmith.moves.explore import explore
        from puzzlesmith.moves.paths import PathLimits

        return explore(self.space(), PathLimits(time_limit, node_limit, position_limit, None))

    @checked
    def with_position(self, position: str) -> Puzzle:
        """The same move puzzle (goal, metric and all) started from another board, given as text."""
        self._require("moves")
        return read_text(self.type, dict(self.instance.params), position, self.source, whole=True)[0]

    def with_params(self, **params: Any) -> Puzzle:
        """The same puzzle read again with some parameters changed (a move puzzle in another metric): the others
        written back as each parameter declares (``Param.encode``)."""
        given = self.instance.params
        kept: dict[str, Any] = {}
        for p in self.type.params:
            if p.name in params or given.get(p.name) is None:
                continue
            try:
                kept[p.name] = p.encode(given[p.name])
            except ValueError as e:
                raise PuzzleError(str(e), where=f"parameter {p.name!r}") from None
        return read_text(self.type, params_of(self.type, {**kept, **params}), self.text, self.source, whole=True)[0]

    # -- shared checks ---------------------------------------------------------------------------------------
    def _checked(self, model: Model, values: list[int], engine: str, problem: Violation | None) -> list[int]:
        """``values`` after the independent checks: the model's constraints (``problem``, what ``model.check``
        or ``check_many`` said of them), the givens, the type's rules."""
        reason: str | None = str(problem) if problem else None
        if reason is None:
            givens = self.instance.givens
            lost = first_lost(givens, values)
            reason = (f"{model.names[lost]} should be {givens[lost]}" if lost is not None
                      else self.type.verify(self.instance, values))
        if reason:
            raise WrongAnswer(f"the {engine} engine answered {self.source} wrongly: {reason}")
        return values

    def _unsearched(self, plan: Plan) -> Solution:
        """The answer for a puzzle with nothing to search: no solution (its givens contradict) or unknown."""
        if plan.conflict:
            return Solution(Status.UNSAT, complete=True, reason=plan.conflict, seconds=plan.seconds)
        return Solution(Status.UNKNOWN, seconds=plan.seconds, stats={"stopped": plan.stopped}, stopped=plan.stopped)


def unanswered(source: str, answer: Solution | MoveSolution) -> NoAnswer:
    """The error for a picture of a solution asked of a puzzle without one: no solution, or unknown."""
    if answer.status == Status.UNSAT:
        text = f"{source}: no solution" + (f": {answer.reason}" if answer.reason else "")
    elif isinstance(answer, MoveSolution):
        text = f"{source}: {answer.reached}"
    else:
        text = f"{source}: unknown ({answer.stopped} reached)"
    return NoAnswer(text, answer)


def engine_choice(model: Model, engine: str) -> tuple[str, str]:
    """The engine that will run on ``model`` and why (``auto`` decides per model); ``EngineError`` for an
    unknown engine or one that cannot take the model."""
    if engine == "auto":  # decided once a model: a file of one shape asks it for every puzzle
        return model.cached("auto engine", solvers.choose)
    if engine not in solvers.ENGINES:
        raise EngineError(f"unknown engine {engine!r} (known: auto, {', '.join(solvers.ENGINES)})")
    why = solvers.get_engine(engine).unsupported(model)
    if why:
        raise EngineError(f"the {engine} engine cannot solve this model: {why}")
    return engine, "chosen by name"


def path_engine_choice(space: Space, engine: str, positions: int | None) -> tuple[str, str]:
    """The path engine that will search ``space`` and why."""
    from puzzlesmith.moves.paths import PATH_ENGINES, choose, get_path_engine

    if engine == "auto":
        return choose(space, positions)
    if engine not in PATH_ENGINES:
        raise EngineError(f"unknown engine {engine!r} for move puzzles (known: auto, {', '.join(PATH_ENGINES)})")
    why = get_path_engine(engine).unsupported(space)
    if why:
        raise EngineError(f"the {engine} engine cannot search this puzzle: {why}")
    return engine, "chosen by name"


def stopped_text(stats: Any, space: Space) -> str:
    """'unknown (time limit reached: ...)', with what more memory would take when positions ran out."""
    from puzzlesmith.moves.paths import memory_text

    text = f"unknown ({stats.stopped} reached: {stats.progress_text()})"
    size = space.size_hint()
    if stats.stopped == "position limit" and size is not None:
        text += (f"; by the type's count the space holds at most {size:,} positions "
                 f"(about {memory_text(size)} to store)")
    return text


def checked_path(space: Space, result: PathResult, source: str) -> PathResult:
    """``result`` after checking its path move by move against the type's own successors."""
    path = result.path or []
    problem = None
    if not path or path[0] != space.start():
        problem = "the path does not begin at the start"
    elif not space.is_goal(path[-1]):
        problem = "the path does not end at a goal"
    else:
        bad = next((k for k in range(1, len(path)) if path[k] not in set(space.successors(path[k - 1]))), None)
        if bad is not None:
            problem = f"step {bad} is not a move"
    if problem:
        raise WrongAnswer(f"the {result.engine} engine answered {source} wrongly: {problem}")
    return result


def move_answer(space: Space, result: PathResult, engine_reason: str, source: str, metric: str) -> MoveSolution:
    """A path engine's result as a ``MoveSolution``, its path checked move by move first."""
    if result.status == Status.SOLVED:
        checked_path(space, result, source)
    steps = space.replay(result.path) if result.path else []
    positions = [space.format(result.path[0])] + [board for _, board in steps] if result.path else []
    stopped = result.stats.stopped if result.status == Status.UNKNOWN else None
    return MoveSolution(Status(result.status), metric, [name for name, _ in steps], positions, result.length,
                        result.why, result.engine, engine_reason, result.stats.seconds, result.stats.as_dict(),
                        stopped, stopped_text(result.stats, space) if stopped else None)


#: Puzzles of one shape from which a file is searched through the compiled unit search: loading its machine
#: code costs about 0.05 s once, the pure-Python engine about 1.5 ms a hard sudoku (benchmarks/bench_sudoku_batch.py).
BATCH_FROM = 20
#: Puzzles handed to the compiled search in one call (their domains and answers in one buffer); a call cannot be
#: interrupted, so Ctrl-C waits for one chunk at most.
BATCH_CHUNK = 512
#: The largest solution limit of a batched solve (its solutions are kept, a chunk's in one buffer) and count (a
#: count without one, or with a larger one, runs one puzzle at a time in the engine, which Ctrl-C stops).
BATCH_SOLUTIONS, BATCH_COUNT = 16, 1000


def solutions_of(puzzles: Sequence[Puzzle], limit: int | None = 1, engine: str = "auto",
                 time_limit: float | None = None, node_limit: int | None = None,
                 **moves: Any) -> Iterator[Solution | MoveSolution]:
    """``solutions(limit)`` for several puzzles in order (``solve`` for puzzles solved by moves, ``moves`` its
    options), each planned before the first is searched (bad input fails first). Puzzles that share a model of
    plain units are searched together by the compiled unit search, in the backtracking engine's order: the same
    solutions, counts of nodes and answers as one by one."""
    if puzzles and puzzles[0].type.solved_by_moves:
        for p in puzzles:
            yield p.solve(engine, time_limit, node_limit, **moves)
        return
    if limit is not None and limit < 1:
        raise PuzzleError(f"a solution limit must be 1 or more, got {limit}", where="limit")
    plans = [p.plan(engine, time_limit) for p in puzzles]
    batched = _batched(plans, limit is not None and limit <= BATCH_SOLUTIONS and time_limit is None)
    for at in range(0, len(puzzles), BATCH_CHUNK):
        chunk = range(at, min(at + BATCH_CHUNK, len(puzzles)))
        found = _search_chunk(puzzles, plans, batched, chunk, limit, limit or 0, True, node_limit)
        problems = _model_checks(plans, found)
        for k in chunk:
            yield (_solution(puzzles[k], plans[k], found[k], limit, problems[k]) if k in found
                   else puzzles[k].solutions(limit, engine, time_limit, node_limit))


def counts_of(puzzles: Sequence[Puzzle], limit: int | None = None, engine: str = "auto",
              time_limit: float | None = None, node_limit: int | None = None) -> Iterator[Count]:
    """``count(limit)`` for several puzzles in order, each planned first. Puzzles that share a model of plain
    units are counted together by the compiled unit search, with locked candidates where no node limit asks
    for the backtracking engine's own nodes: the same counts as one by one."""
    if limit is not None and limit < 1:
        raise PuzzleError(f"a count limit must be 1 or more, got {limit}", where="limit")
    plans = [p.plan(engine, time_limit) for p in puzzles]
    batched = _batched(plans, limit is not None and limit <= BATCH_COUNT and time_limit is None)
    for at in range(0, len(puzzles), BATCH_CHUNK):
        chunk = range(at, min(at + BATCH_CHUNK, len(puzzles)))
        found = _search_chunk(puzzles, plans, batched, chunk, limit, 0, node_limit is not None, node_limit)
        for k in chunk:
            yield (_count(plans[k], found[k], limit) if k in found
                   else puzzles[k].count(limit, engine, time_limit, node_limit))


def _batched(plans: Sequence[Plan], allowed: bool) -> dict[int, Any]:
    """The compiled unit search of each model (by id) that ``BATCH_FROM`` or more of the puzzles share and the
    backtracking engine was chosen for; none when ``allowed`` is False (a time limit: the kernel has no clock; a
    limit too large or none)."""
    from puzzlesmith.solvers.backtracking import compiled
    from puzzlesmith.solvers.unitkernel import search_for

    if not allowed:
        return {}
    shared: dict[int, list[Model]] = {}
    for plan in plans:
        if plan.model is not None and plan.engine == "backtracking":
            shared.setdefault(id(plan.model), []).append(plan.model)
    searches = {key: search_for(models[0], compiled(models[0])) for key, models in shared.items()
                if len(models) >= BATCH_FROM}
    return {key: search for key, search in searches.items() if search is not None}


def _search_chunk(puzzles: Sequence[Puzzle], plans: Sequence[Plan], batched: Mapping[int, Any], chunk: range,
                  limit: int | None, keep: int, ordered: bool,
                  node_limit: int | None) -> dict[int, tuple[Any, float]]:
    """The compiled searches of the chunk's batched puzzles, one call a model: each one's ``Found`` and its share
    of the call's time."""
    groups: dict[int, list[int]] = {}
    for k in chunk:
        model = plans[k].model
        if model is not None and id(model) in batched:
            groups.setdefault(id(model), []).append(k)
    answers: dict[int, tuple[Any, float]] = {}
    for key, members in groups.items():
        start = time.perf_counter()
        found = batched[key].search_many([puzzles[k].instance.givens for k in members], limit, keep, ordered,
                                         node_limit)
        share = (time.perf_counter() - start) / len(members)
        answers.update((k, (f, share)) for k, f in zip(members, found))
    return answers


def _stats(found: Any, seconds: float) -> solvers.Stats:
    return solvers.Stats(found.nodes, found.backtracks, seconds, stopped="node limit" if found.stopped else None)


def _model_checks(plans: Sequence[Plan], found: Mapping[int, tuple[Any, float]]) -> dict[int, list[Violation | None]]:
    """``Model.check`` of every solution the compiled searches found, by puzzle, asked of each model at once
    (``Model.check_many``)."""
    asked: dict[int, list[tuple[int, int]]] = {}
    for k, (result, _) in found.items():
        asked.setdefault(id(plans[k].model), []).extend((k, i) for i in range(len(result.solutions)))
    verdicts: dict[int, list[Violation | None]] = {k: [None] * len(result.solutions)
                                                   for k, (result, _) in found.items()}
    for keys in asked.values():
        model = plans[keys[0][0]].model
        assert model is not None  # batched: the plan has a model
        for (k, i), verdict in zip(keys, model.check_many([found[k][0].solutions[i] for k, i in keys])):
            verdicts[k][i] = verdict
    return verdicts


def _solution(puzzle: Puzzle, plan: Plan, searched: tuple[Any, float], limit: int | None,
              problems: Sequence[Violation | None]) -> Solution:
    """A compiled search's answer as ``Puzzle.solutions`` gives it, each solution checked independently (the
    model's constraints already, ``problems``)."""
    found, seconds = searched
    assert plan.model is not None  # batched: the plan has a model
    answers = [puzzle._checked(plan.model, values, plan.engine, problem)
               for values, problem in zip(found.solutions, problems)]
    stopped = "node limit" if found.stopped and (limit is None or len(answers) < limit) else None
    status = Status.UNKNOWN if stopped else (Status.SOLVED if answers else Status.UNSAT)
    return Solution(status, [puzzle.type.format(puzzle.instance, v) for v in answers], answers, found.exhausted,
                    None, plan.engine, plan.engine_reason, seconds + plan.seconds, _stats(found, seconds).as_dict(),
                    stopped)


def _count(plan: Plan, searched: tuple[Any, float], limit: int | None) -> Count:
    """A compiled search's count as ``Puzzle.count`` gives it."""
    found, seconds = searched
    complete = found.exhausted and (limit is None or found.count < limit)
    stopped = "node limit" if found.stopped else None
    status = Status.UNKNOWN if stopped and not complete else (Status.SOLVED if found.count else Status.UNSAT)
    return Count(found.count, complete, status, None, plan.engine, plan.engine_reason, seconds + plan.seconds,
                 _stats(found, seconds).as_dict(), stopped)


# -- what front ends that play need: the player's entries, moves from any position, games' values -----------
def with_entries(puzzle: Puzzle, entries: Mapping[int, int]) -> Puzzle:
    """``puzzle`` with a player's entries (variable -> value) added to its givens, so that ``hint``, ``solve``
    and ``count`` start from what is on the grid; ``PuzzleError`` naming the cell for an entry that is no
    variable of the puzzle or outside its domain's range."""
    model = puzzle.plan().model if puzzle.instance.conflict is None else None
    size = len(model.domains) if model is not None else None
    for var, value in entries.items():
        if size is not None and model is not None and not 0 <= var < size:
            raise PuzzleError(f"no cell {var} (the puzzle has {size} variables)", where="entries")
        if model is not None and value not in model.domains[var]:
            raise PuzzleError(f"{puzzle.cell_name(var)} cannot be {value}", where="entries")
    instance = replace(puzzle.instance, givens={**puzzle.instance.givens, **entries})
    return Puzzle(puzzle.type, instance, source=puzzle.source, seed=puzzle.seed)


def clashes(puzzle: Puzzle, entries: Mapping[int, int]) -> list[int]:
    """The entered variables that break a rule together with the givens or other entries: a value twice in
    an all-different unit, or a constraint whose variables all hold values and which fails (a cage's sum, an
    inequality). What a player's "check" highlights; it does not look at the solution."""
    model = puzzle.plan().model
    if model is None:
        return []
    values: dict[int, int] = {**puzzle.instance.givens, **entries}
    bad: set[int] = set()
    for _, rules in model.constraints.blocks():
        for c in rules:
            if isinstance(c, AllDifferent):
                seen: dict[int, list[int]] = {}
                for v, offset in zip(c.vars, c.offsets):
                    if v in values:
                        seen.setdefault(values[v] + offset, []).append(v)
                bad.update(v for vs in seen.values() if len(vs) > 1 for v in vs)
            elif all(v in values for v in c.vars) and not c.holds([values[v] for v in c.vars]):
                bad.update(c.vars)
    return sorted(v for v in bad if v in entries)


def step_cells(step: Step) -> list[int]:
    """The variables a hint's step stands on, to highlight: the cell it places or the cells it clears, the
    cells of its pattern, its chain and its groups."""
    cells: list[int] = [step.place[0]] if step.place else []
    cells += [v for v, _ in step.removes] + list(step.cells) + [v for v, _ in step.chain]
    cells += [v for group in step.groups for v in group]
    return list(dict.fromkeys(cells))


@checked
def next_positions(puzzle: Puzzle, position: str | None = None) -> list[tuple[str, str]]:
    """Every move of a move puzzle from ``position`` (board text in the type's layout; None: the start),
    as (the move's name, the board after it), in the puzzle's metric."""
    here = puzzle if position is None else puzzle.with_position(position)
    space = here.space()
    return [(name, space.format(after)) for name, after in space.moves(space.start())]


@checked
def minimum_moves(puzzle: Puzzle, position: str | None = None, engine: str = "auto",
                  time_limit: float | None = None) -> MoveSolution:
    """A shortest solution from ``position`` (board text; None: the start) to the puzzle's goal, in its
    metric: what a player asks after each move ("the minimum number of moves from the current state")."""
    here = puzzle if position is None else puzzle.with_position(position)
    return here._solve_moves(engine, time_limit, None, None, None)


@checked
def move_values(game_name: str, board: str, size: int = 4, depth: int | None = None, state: int = 0
                ) -> dict[str, float]:
    """The expectimax player's expected value of each allowed move (U, D, L, R) from ``board`` of the game
    (``state``: the game's public state, Threes' next-card hint; 2048 has none), evaluated as ``chance.setup``'s
    default evaluates (by the network that ships for the board, where one does)."""
    from puzzlesmith.api.chance import setup
    from puzzlesmith.chance.play import Prepared
    from puzzlesmith.chance.rules import DIRECTIONS, Position

    prepared = Prepared.of(setup(game_name, size, depth=depth))
    position = Position(prepared.rules.parse(board), state)
    player = prepared.expectimax
    values = player.move_values(position, depth or player.depth_for(position.board))
    return {DIRECTIONS[d]: value for d, value in values.items()}
