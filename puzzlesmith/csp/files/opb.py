"""OPB, the pseudo-Boolean competitions' format: linear constraints over 0/1 variables.

A 0/1 variable of the model is one OPB variable; any other variable x is its values' literals ``[x = v]``
(exactly one true, x = sum v [x = v]), so a sum over integers is a sum over literals. AllDifferent is "at most
one literal per shifted value" and a Table one selector per row that fits the domains (exactly one, each
implying its row's literals), both linear. Each literal is a function of the model's values and back, so the
file has as many solutions as the model has. ``!=`` on a sum and Parity have no linear form without new
variables that would change the count, and the topology kinds none at all: they are refused, by name.
``* var NAME v=xK ...`` comments map values to literals; a maximisation is written as the minimisation of its
negation (OPB minimises), said in a comment.

Read back, each OPB variable is a 0/1 variable named as in the file; ``~x`` (not x) is read as ``1 - x``.
Non-linear terms (products of variables) are refused in one line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp.constraints import AllDifferent, Linear, Table
from puzzlesmith.csp.files import Reader
from puzzlesmith.csp.model import Model

Terms = dict[int, int]  # OPB variable (1-based) -> coefficient


class _Encoding:
    """The OPB variables of a model's values: ``term(var, value)`` is the literal as (terms, constant)."""

    def __init__(self, model: Model) -> None:
        self.model, self.top = model, 0
        self.own: dict[int, int] = {}  # a 0/1 variable -> its OPB variable
        self.lits: dict[int, dict[int, int]] = {}  # any other variable -> value -> OPB variable
        for i, domain in enumerate(model.domains):
            if domain == (0, 1):
                self.own[i] = self.new()
            else:
                self.lits[i] = {v: self.new() for v in domain}

    def new(self) -> int:
        self.top += 1
        return self.top

    def literal(self, var: int, value: int) -> tuple[Terms, int] | None:
        """[var = value] as a linear form; None when value is outside var's domain."""
        if var in self.own:
            if value not in (0, 1):
                return None
            return ({self.own[var]: 1}, 0) if value else ({self.own[var]: -1}, 1)
        lit = self.lits[var].get(value)
        return None if lit is None else ({lit: 1}, 0)

    def variable(self, var: int) -> tuple[Terms, int]:
        """The variable's value as a linear form over OPB variables."""
        if var in self.own:
            return {self.own[var]: 1}, 0
        return {lit: v for v, lit in self.lits[var].items() if v}, 0


def _add(into: Terms, terms: Terms, factor: int) -> None:
    for k, a in terms.items():
        into[k] = into.get(k, 0) + factor * a


def _constraint(terms: Terms, op: str, rhs: int) -> str:
    """One OPB line (``>=`` or ``=``; ``<=`` is written negated)."""
    if op == "<=":
        terms, rhs, op = {k: -a for k, a in terms.items()}, -rhs, ">="
    op = "=" if op == "==" else op
    body = " ".join(f"{a:+d} x{k}" for k, a in sorted(terms.items()) if a)
    return f"{body or '0 x1'} {op} {rhs} ;"


def text(model: Model) -> str:
    """The model as OPB (see the module's docstring); a ModelError naming a constraint OPB cannot hold."""
    enc = _Encoding(model)
    rows: list[str] = []
    for values in enc.lits.values():
        rows.append(_constraint({lit: 1 for lit in values.values()}, "==", 1))
    for c in model.constraints:
        if isinstance(c, Linear):
            if c.op == "!=":
                raise ModelError(f"OPB cannot hold {c.describe()} (a sum != a number): it is no linear "
                                 "inequality over 0/1 variables")
            total: Terms = {}
            const = 0
            for var, a in zip(c.vars, c.coeffs):
                terms, k = enc.variable(var)
                _add(total, terms, a)
                const += a * k
            rows.append(_constraint(total, c.op, c.rhs - const))
        elif isinstance(c, AllDifferent):
            by_value: dict[int, list[tuple[Terms, int]]] = {}
            for var, offset in zip(c.vars, c.offsets):
                for value in model.domains[var]:
                    form = enc.literal(var, value)
                    assert form is not None
                    by_value.setdefault(value + offset, []).append(form)
            for forms in by_value.values():
                if len(forms) > 1:
                    total, const = {}, 0
                    for terms, k in forms:
                        _add(total, terms, 1)
                        const += k
                    rows.append(_constraint(total, "<=", 1 - const))
        elif isinstance(c, Table):
            fitting: list[list[tuple[Terms, int]]] = []
            for row in c.tuples:
                if any(row[i] != row[j] for i in range(len(row)) for j in range(i) if c.vars[i] == c.vars[j]):
                    continue  # one variable twice, with two values
                found = [enc.literal(v, x) for v, x in zip(c.vars, row)]
                kept = [f for f in found if f is not None]
                if len(kept) == len(found):  # every value within its domain
                    fitting.append(kept)
            if not fitting:
                rows.append(_constraint({}, ">=", 1))  # 0 >= 1: no row fits
                continue
            selectors = [enc.new() for _ in fitting]
            rows.append(_constraint({s: 1 for s in selectors}, "==", 1))
            for s, forms in zip(selectors, fitting):
                for terms, k in forms:  # s implies the literal: literal - s >= 0
                    implied = dict(terms)
                    _add(implied, {s: 1}, -1)
                    rows.append(_constraint(implied, ">=", -k))
        else:
            raise ModelError(f"OPB cannot hold {c.describe()}: only linear constraints, AllDifferent and Table are "
                             "written as pseudo-Boolean constraints")
    head = [f"* #variable= {enc.top} #constraint= {len(rows)}",
            "* puzzlesmith model: one OPB variable per 0/1 variable, one per value of any other",
            "* var NAME v=xK ...: the OPB variable of each value"]
    for i in range(model.num_vars):
        if i in enc.own:
            head.append(f"* var {model.names[i]} 0=~x{enc.own[i]} 1=x{enc.own[i]}")
        else:
            head.append(f"* var {model.names[i]} " + " ".join(f"{v}=x{lit}" for v, lit in enc.lits[i].items()))
    if model.objective is not None:
        variables, coeffs, constant, sense = model.objective
        total, const = {}, constant
        for var, a in zip(variables, coeffs):
            terms, k = enc.variable(var)
            _add(total, terms, a)
            const += a * k
        sign = 1 if sense == "min" else -1
        if sense == "max":
            head.append("* the model maximizes: this objective is its negation")
        if const:
            head.append(f"* the objective's constant {sign * const:+d} is left out (OPB has none)")
        body = " ".join(f"{sign * a:+d} x{k}" for k, a in sorted(total.items()) if a)
        head.append(f"min: {body} ;")
    return "\n".join(head + rows) + "\n"


_TERM = re.compile(r"([+-]?\d+)\s+(~?[A-Za-z_][\w\[\].]*)\b")
_LINE = re.compile(r"^(.*?)(>=|<=|=)\s*([+-]?\d+)\s*;?\s*$")


def parse(source_text: str, into: Model, source: str = "<text>") -> Model:
    """Fill the empty model ``into`` with the OPB of ``source_text`` (see the module's docstring)."""
    if into.num_vars:
        raise ModelError("a model file is read into an empty model")
    reader = Reader(source)
    index: dict[str, int] = {}
    found: list[tuple[int, list[tuple[int, str, bool]], str, int]] = []
    objective: tuple[int, list[tuple[int, str, bool]]] | None = None
    # a statement may run over several lines and several may share one: split at ';', remembering lines
    statement, start = "", 0
    for number, line in enumerate(source_text.splitlines(), start=1):
        if line.lstrip().startswith("*"):
            continue
        for piece in re.split(r"(;)", line):
            if piece == ";":
                reader.line = start or number
                stated = statement.strip()
                statement, start = "", 0
                if not stated:
                    continue
                if stated.startswith(("min:", "max:")):
                    if objective is not None:
                        raise reader.fail("a second objective")
                    sense = 1 if stated.startswith("min:") else -1
                    objective = (sense, _terms(reader, stated[4:], index))
                    continue
                m = _LINE.match(stated)
                if not m:
                    raise reader.fail(f"a constraint reads TERMS >= NUMBER ; (or = or <=), got {stated[:60]!r}")
                found.append((number, _terms(reader, m.group(1), index), m.group(2), int(m.group(3))))
            elif piece.strip():
                if not statement.strip():
                    start = number
                statement += " " + piece
    if statement.strip():
        reader.line = start
        raise reader.fail(f"a statement without its closing ';': {statement.strip()[:60]!r}")
    names = list(index) or ["x0"]  # one variable at least: a constraint with no terms needs one
    into.add_vars(len(names), (0, 1), names.__getitem__)
    for number, terms, op, rhs in found:
        reader.line = number
        if not terms:
            if not {">=": 0 >= rhs, "<=": 0 <= rhs, "=": rhs == 0}[op]:
                into.add(Linear((0,), coeffs=(0,), op=">=", rhs=1, name=f"{source} line {number}"))
            continue
        vars_, coeffs, const = _linear(terms, index)
        into.add(Linear(vars_, coeffs=coeffs, op="==" if op == "=" else op, rhs=rhs - const))
    if objective is not None:
        sense, terms = objective
        vars_, coeffs, const = _linear(terms, index)
        into.objective = (vars_, coeffs, const, "min" if sense == 1 else "max")
    return into


def _terms(reader: Reader, body: str, index: dict[str, int]) -> list[tuple[int, str, bool]]:
    """(coefficient, variable, negated) of each term of ``body``; non-linear terms refused."""
    out = []
    rest = _TERM.sub(" ", body)
    if rest.strip():
        if re.search(r"\d+\s+~?\w+\s+~?[A-Za-z_]", body):
            raise reader.fail("a product of variables (non-linear pseudo-Boolean) is not supported")
        raise reader.fail(f"cannot read {rest.strip()[:40]!r} as terms 'COEFFICIENT VARIABLE'")
    for m in _TERM.finditer(body):
        name = m.group(2).lstrip("~")
        index.setdefault(name, len(index))
        out.append((int(m.group(1)), name, m.group(2).startswith("~")))
    return out


def _linear(terms: Sequence[tuple[int, str, bool]],
            index: dict[str, int]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Terms as (variables, coefficients, constant), ``a ~x`` read as ``a - a x``, repeated variables merged."""
    merged: dict[int, int] = {}
    const = 0
    for a, name, negated in terms:
        v = index[name]
        if negated:
            const += a
            a = -a
        merged[v] = merged.get(v, 0) + a
    vars_ = tuple(sorted(merged))
    return vars_, tuple(merged[v] for v in vars_), const
