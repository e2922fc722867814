"""DIMACS CNF, the SAT competitions' format: written from the SAT engine's encoding, read as 0/1 variables.

The encoding (``solvers.sat``) gives each value of each variable a literal, ``[x = v]``, and its clauses have
exactly the model's solutions as their models restricted to those literals, so the file says which they are:
a ``c p show ... 0`` line (the projection line of the model counting competitions) lists the value literals of
the answer, and ``c var NAME v=LIT ...`` lines map each variable's values to their literals. The other literals
(partial sums, table rows) are each a function of the value literals, so a counter that honours the projection
counts the model's answers.

Read back, every DIMACS variable is a 0/1 variable ``v1``, ``v2``, ... and each clause a linear constraint (at
least one literal true); the shown variables, when the file has a projection, are the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp.constraints import Linear
from puzzlesmith.csp.files import Reader
from puzzlesmith.csp.model import Model


class Encoded(Protocol):
    """What ``text`` needs of a compiled CNF (``solvers.sat.Cnf``)."""

    lit: list[dict[int, int]]
    clauses: list[list[int]]
    top: int
    answer: frozenset[int] | None
    lazy: list[Any]


def text(model: Model, cnf: Encoded) -> str:
    """The model as DIMACS CNF through its SAT encoding ``cnf``; a ModelError naming a constraint CNF cannot
    hold (the topology kinds, whose clauses the engine adds only as candidates break them)."""
    if cnf.lazy:
        c = cnf.lazy[0]
        raise ModelError(f"DIMACS cannot hold {c.describe()}: the sat engine adds its clauses only as "
                         "candidate solutions break it, so no finite CNF is written for it")
    shown = model.answer_vars if cnf.answer is not None else range(model.num_vars)
    lines = [f"c puzzlesmith model: {model.num_vars} variables, {len(model.constraints)} constraints, "
             "one literal per value of each variable",
             "c var NAME v=LIT ...: the literal of each value"]
    lines += [f"c var {model.names[i]} " + " ".join(f"{v}={lit}" for v, lit in values.items())
              for i, values in enumerate(cnf.lit)]
    lines.append("c p show " + " ".join(str(lit) for i in shown for lit in cnf.lit[i].values()) + " 0")
    lines.append(f"p cnf {cnf.top} {len(cnf.clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in cnf.clauses]
    return "\n".join(lines) + "\n"


def parse(source_text: str, into: Model, source: str = "<text>") -> Model:
    """Fill the empty model ``into`` with the CNF of ``source_text`` (see the module's docstring)."""
    reader = Reader(source)
    header: tuple[int, int] | None = None
    shown: list[int] = []
    clauses: list[list[int]] = []
    current: list[int] = []
    for number, line in enumerate(source_text.splitlines(), start=1):
        reader.line = number
        words = line.split()
        if not words or words[0] == "%":
            continue
        if words[0] == "c":
            if words[1:3] == ["p", "show"]:
                shown += [v for v in _numbers(reader, words[3:], "a shown variable") if v]
            continue
        if words[0] == "p":
            if header is not None:
                raise reader.fail("a second 'p cnf' line")
            if len(words) != 4 or words[1] != "cnf":
                raise reader.fail(f"the header must read 'p cnf VARIABLES CLAUSES', got {line.strip()!r}")
            counts = _numbers(reader, words[2:], "a count in the header")
            if min(counts) < 0:
                raise reader.fail("the header's counts must be 0 or more")
            header = counts[0], counts[1]
            continue
        if header is None:
            raise reader.fail("a clause before the 'p cnf' header")
        for lit in _numbers(reader, words, "a literal"):
            if lit == 0:
                clauses.append(current)
                current = []
            elif abs(lit) > header[0]:
                raise reader.fail(f"literal {lit} names a variable beyond the header's {header[0]}")
            else:
                current.append(lit)
    reader.line = 0
    if header is None:
        raise reader.fail("no 'p cnf VARIABLES CLAUSES' header")
    if current:
        clauses.append(current)  # the last clause may end at the end of the file
    if len(clauses) != header[1]:
        raise reader.fail(f"the header promises {header[1]} clauses, the file has {len(clauses)}")
    if any(not 1 <= v <= header[0] for v in shown):
        raise reader.fail(f"the projection shows a variable outside 1..{header[0]}")
    fill(into, header[0], clauses, shown or None)
    return into


def fill(into: Model, count: int, clauses: Sequence[Sequence[int]], shown: Sequence[int] | None) -> None:
    """``count`` 0/1 variables v1..v<count> and each clause as "at least one literal true"."""
    if into.num_vars:
        raise ModelError("a model file is read into an empty model")
    into.add_vars(max(count, 1), (0, 1), lambda i: f"v{i + 1}")  # one variable at least: an empty clause needs one
    for clause in clauses:
        lits = set(clause)
        if any(-lit in lits for lit in lits):
            continue  # x or not x: always true
        if not lits:
            into.add(Linear((0,), coeffs=(0,), op=">=", rhs=1, name="the empty clause"))
            continue
        ordered = sorted(lits, key=abs)
        negative = sum(1 for lit in ordered if lit < 0)
        # sum of the true literals >= 1, with not x written 1 - x
        into.add(Linear(tuple(abs(lit) - 1 for lit in ordered), coeffs=tuple(1 if lit > 0 else -1 for lit in ordered),
                        op=">=", rhs=1 - negative))
    if shown is not None:
        into.answer(sorted({v - 1 for v in shown}))


def _numbers(reader: Reader, words: Sequence[str], what: str) -> list[int]:
    out = []
    for word in words:
        try:
            out.append(int(word))
        except ValueError:
            raise reader.fail(f"{what} must be a whole number, got {word!r}") from None
    return out
