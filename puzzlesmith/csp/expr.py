"""Variables and expressions, and their lowering to the compiled constraint kinds.

Users write ``x + 2 * y <= z``, ``abs(a - b) == 1``, ``(x == 3).implies(y != 4)``; engines see only
Linear, Table and AllDifferent (the kinds they compile with their fast paths). Lowering is the
only place that knows both:

* A linear expression (sums, constants, multiples) becomes the terms of one Linear constraint.
* Anything else used as a number (``abs``, ``min``/``max``, ``element``, a constraint used as 0/1)
  gets a helper variable defined by a decomposition. Helpers are never part of the model's
  default answer, so they never change a count.
* A constraint that is more than a sum (``abs(x - y) == 1``, ``(x < 2) | b``) over few value combinations
  becomes the Table of the combinations it allows: exact, no helpers, fully propagated by every engine.
  ``x - y != k`` becomes a two-variable AllDifferent with offsets, the engines' fastest form.
* Reification (a constraint as a boolean) is exact: a Table when the constraint has few value
  combinations, otherwise two Linear constraints with big-M coefficients computed from the
  variables' bounds, so ``b == 1`` exactly when the constraint holds.

* A global constraint (``Global``: circuit, regular, no_overlap, ...) is posted as its own decomposition into
  the above, and recorded in ``model.natives`` for an engine with a native form (CP-SAT) to add beside it.
* Each expression object is lowered once per model (``model.lowered``), so one used twice shares its helpers.

Expressions are plain data: building one changes no model; ``post`` (what ``Model.add`` calls)
lowers it into a model, checking that every variable belongs to that model.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import product, repeat
from typing import TYPE_CHECKING, Any, Union

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import constraints as kinds
from puzzlesmith.csp.constraints import MAX_DOMAIN, whole

if TYPE_CHECKING:
    from puzzlesmith.csp.model import Model

Operand = Union["Expr", int]
Lin = tuple[dict[int, int], int]  # {variable: coefficient}, constant

_TABLE_ROWS = 256  # reify by a Table up to this many value combinations (exact and strongly propagating)
_POST_TABLE_ROWS = 4096  # a constraint that is not a plain sum becomes a Table up to this many combinations
_FLIP = {"==": "!=", "!=": "==", "<=": ">", ">": "<=", ">=": "<", "<": ">="}


class Expr:
    """An integer-valued expression. Arithmetic and comparisons build new expressions."""

    __hash__ = object.__hash__  # by identity: == builds a constraint, so it cannot define equality

    def __add__(self, other: Operand) -> Expr:
        if _array(other):
            return NotImplemented
        return Sum.of([(self, 1), (_operand(other), 1)])

    __radd__ = __add__

    def __sub__(self, other: Operand) -> Expr:
        if _array(other):
            return NotImplemented
        return Sum.of([(self, 1), (_operand(other), -1)])

    def __rsub__(self, other: Operand) -> Expr:
        return Sum.of([(_operand(other), 1), (self, -1)])

    def __neg__(self) -> Expr:
        return Sum.of([(self, -1)])

    def __pos__(self) -> Expr:
        return self

    def __mul__(self, other: object) -> Expr:
        if _array(other):
            return NotImplemented
        if isinstance(other, Expr):
            return Product(self, other)
        return Sum.of([(self, whole(other, f"the factor of {self}"))])

    __rmul__ = __mul__

    def __floordiv__(self, other: object) -> Expr:
        if _array(other):
            return NotImplemented
        return Division(self, _operand(other), modulo=False)

    def __rfloordiv__(self, other: object) -> Expr:
        return Division(_operand(other), self, modulo=False)

    def __mod__(self, other: object) -> Expr:
        if _array(other):
            return NotImplemented
        return Division(self, _operand(other), modulo=True)

    def __rmod__(self, other: object) -> Expr:
        return Division(_operand(other), self, modulo=True)

    def __xor__(self, other: object) -> BoolExpr:
        if _array(other):
            return NotImplemented
        return _xor(_boolean(self), _boolean(other))

    def __rxor__(self, other: object) -> BoolExpr:
        return _xor(_boolean(other), _boolean(self))

    def __abs__(self) -> Expr:
        return Abs(self)

    def __eq__(self, other: object) -> Compare:  # type: ignore[override]
        if _array(other):
            return NotImplemented
        return Compare(self, "==", _operand(other))

    def __ne__(self, other: object) -> Compare:  # type: ignore[override]
        if _array(other):
            return NotImplemented
        return Compare(self, "!=", _operand(other))

    def __lt__(self, other: Operand) -> Compare:
        if _array(other):
            return NotImplemented
        return Compare(self, "<", _operand(other))

    def __le__(self, other: Operand) -> Compare:
        if _array(other):
            return NotImplemented
        return Compare(self, "<=", _operand(other))

    def __gt__(self, other: Operand) -> Compare:
        if _array(other):
            return NotImplemented
        return Compare(self, ">", _operand(other))

    def __ge__(self, other: Operand) -> Compare:
        if _array(other):
            return NotImplemented
        return Compare(self, ">=", _operand(other))

    def __bool__(self) -> bool:
        raise ModelError(f"{self} has no truth value in Python: add it to a model with m.add(...)")

    def variables(self) -> Iterable[Var]:
        """Every variable the expression mentions (for the model check)."""
        return ()


def _array(value: object) -> bool:
    """True for a numpy array: ``x + q`` is then numpy's, item by item (numpy is loaded only if in use)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


def _operand(value: object) -> Expr:
    if isinstance(value, Expr):
        return value
    return Const(whole(value, "a constant in an expression"))


class Const(Expr):
    def __init__(self, value: int) -> None:
        self.value = value

    def __repr__(self) -> str:
        return str(self.value)


class Var(Expr):
    """A variable of a model (``index``: its position among the model's variables).

    It is no Python index: ``q[i]`` on a list, tuple or numpy array with a variable ``i`` would take the
    position of ``i`` in the model, a constant, and silently build another constraint (``q[i] == 2`` became
    ``q0 == 2``). ``__index__`` therefore refuses, naming ``m.element(array, i)``, the expression meant; numpy,
    which swallows that refusal and tries the variable as an array, gets the same from ``__array__``."""

    def __init__(self, model: Model, index: int) -> None:
        self.model, self.index = model, index

    def __index__(self) -> int:
        _refused.at = (id(self), _site())
        raise ModelError(_no_index(self))

    def __array__(self, dtype: Any = None, copy: object = None) -> Any:
        """A variable inside a numpy array is an object like any other (``np.array(q)`` holds them); only just
        after numpy asked for it as an index, in the same step of the same code, is the refusal raised."""
        import numpy as np

        asked, _refused.at = getattr(_refused, "at", None), None
        if asked == (id(self), _site()):
            raise ModelError(_no_index(self))
        out = np.empty((), dtype=object)
        out[()] = self
        return out if dtype is None else out.astype(dtype)

    def __repr__(self) -> str:
        return self.model.names[self.index]

    def variables(self) -> Iterable[Var]:
        return (self,)


_refused = threading.local()  # the variable whose __index__ refused last, and where (see Var.__array__)


def _site() -> tuple[int, int]:
    """Where the code that called the caller of this function stands: its frame and instruction. numpy asks a
    variable for ``__index__`` and then for ``__array__`` within one subscript of the user's code, which is
    how ``__array__`` tells that case from a variable put in an array later."""
    frame = sys._getframe(2)
    return id(frame), frame.f_lasti


def _no_index(v: Var) -> str:
    return (f"variable {v!r} cannot index a list, tuple or array (Python would take its position in the model, "
            f"a constant): write m.element(array, {v!r})")


class Sum(Expr):
    """sum(coeff * expr) over terms (a constant is a Const term)."""

    def __init__(self, terms: list[tuple[Expr, int]]) -> None:
        self.terms = terms

    @staticmethod
    def of(terms: list[tuple[Expr, int]]) -> Sum:
        flat: list[tuple[Expr, int]] = []
        for e, a in terms:
            if isinstance(e, Sum):  # keep sums flat: sum() of 1,000 terms is one level, not 1,000
                flat.extend((f, a * b) for f, b in e.terms)
            else:
                flat.append((e, a))
        return Sum(flat)

    def __repr__(self) -> str:
        parts = [f"{'-' if a < 0 else '+'} {'' if abs(a) == 1 else f'{abs(a)}*'}{e}" for e, a in self.terms]
        return "(" + " ".join(parts).lstrip("+ ") + ")"

    def variables(self) -> Iterable[Var]:
        return (v for e, _ in self.terms for v in e.variables())


class Abs(Expr):
    def __init__(self, arg: Expr) -> None:
        self.arg = arg

    def __repr__(self) -> str:
        return f"abs({self.arg})"

    def variables(self) -> Iterable[Var]:
        return self.arg.variables()


class MinMax(Expr):
    def __init__(self, args: Sequence[Operand], largest: bool) -> None:
        if not args:
            raise ModelError(f"{'max' if largest else 'min'}() needs at least one argument")
        self.args, self.largest = [_operand(a) for a in args], largest

    def __repr__(self) -> str:
        return f"{'max' if self.largest else 'min'}({', '.join(map(str, self.args))})"

    def variables(self) -> Iterable[Var]:
        return (v for a in self.args for v in a.variables())


class Element(Expr):
    """array[index] with a variable index. The index is constrained to the array's positions wherever the
    expression appears (also inside a reified or negated constraint): one rule, the same on every engine."""

    def __init__(self, array: Sequence[Operand], index: Operand, axes: Sequence[tuple[Expr, int]] = ()) -> None:
        if not len(array):
            raise ModelError("element() needs a non-empty array")
        self.array, self.index = [_operand(a) for a in array], _operand(index)
        self.axes = list(axes)  # (index, size) of each axis of a shaped array: each index within its axis too

    def __repr__(self) -> str:
        return f"[{', '.join(map(str, self.array))}][{self.index}]"

    def variables(self) -> Iterable[Var]:
        yield from self.index.variables()
        for k, _ in self.axes:
            yield from k.variables()
        for a in self.array:
            yield from a.variables()


class Product(Expr):
    """x * y, both expressions: a Table of the products when the two have few value combinations, otherwise
    the element of [lo * y, ..., hi * y] at x - lo (x the one with fewer values), which is linear in each
    position, so every engine takes it."""

    def __init__(self, x: Expr, y: Expr) -> None:
        self.x, self.y = x, y

    def __repr__(self) -> str:
        return f"({self.x} * {self.y})"

    def variables(self) -> Iterable[Var]:
        yield from self.x.variables()
        yield from self.y.variables()


class Division(Expr):
    """x // y or x % y as Python means them (rounding down; a remainder with the sign of y). The divisor is
    kept from 0 wherever the expression appears (as an element's index is kept within its array), the same
    rule on every engine."""

    def __init__(self, x: Expr, y: Expr, modulo: bool) -> None:
        self.x, self.y, self.modulo = x, y, modulo

    def __repr__(self) -> str:
        return f"({self.x} {'%' if self.modulo else '//'} {self.y})"

    def variables(self) -> Iterable[Var]:
        yield from self.x.variables()
        yield from self.y.variables()


class IfThenElse(Expr):
    """``then`` when ``cond`` holds, else ``other``: the element of [other, then] at cond (as 0/1)."""

    def __init__(self, cond: BoolExpr, then: Expr, other: Expr) -> None:
        self.cond, self.then, self.other = cond, then, other

    def __repr__(self) -> str:
        return f"({self.then} if {self.cond} else {self.other})"

    def variables(self) -> Iterable[Var]:
        yield from self.cond.variables()
        yield from self.then.variables()
        yield from self.other.variables()


def if_then_else(cond: object, then: object, other: object) -> Expr:
    """``then`` if ``cond`` else ``other``; with two constraints as the branches, a constraint itself."""
    c = _boolean(cond)
    if isinstance(then, BoolExpr) and isinstance(other, BoolExpr):
        return Junction([Junction([c, then], any_=False), Junction([Not(c), other], any_=False)], any_=True)
    return IfThenElse(c, _operand(then), _operand(other))


def _xor(a: BoolExpr, b: BoolExpr) -> BoolExpr:
    """a ^ b: exactly one of the two holds (a sum of the two as 0/1, equal to 1)."""
    return Compare(Sum.of([(a, 1), (b, 1)]), "==", Const(1))


class BoolExpr(Expr):
    """A constraint, usable as a 0/1 number (reification) and combined with &, |, ~ and implies."""

    def __and__(self, other: BoolExpr) -> BoolExpr:
        return Junction([self, _boolean(other)], any_=False)

    __rand__ = __and__

    def __or__(self, other: BoolExpr) -> BoolExpr:
        return Junction([self, _boolean(other)], any_=True)

    __ror__ = __or__

    def __invert__(self) -> BoolExpr:
        return Not(self)

    def __xor__(self, other: object) -> BoolExpr:
        return _xor(self, _boolean(other))

    def __rxor__(self, other: object) -> BoolExpr:
        return _xor(_boolean(other), self)

    def implies(self, other: BoolExpr) -> BoolExpr:
        return Junction([Not(self), _boolean(other)], any_=True)


def _boolean(value: object) -> BoolExpr:
    if isinstance(value, BoolExpr):
        return value
    if isinstance(value, bool):
        return Truth(value)
    raise ModelError(f"{value!r} is not a constraint or boolean variable")


class BoolVar(Var, BoolExpr):
    """A 0/1 variable: a number and a constraint ("is true") at once."""


class Truth(BoolExpr):
    def __init__(self, value: bool) -> None:
        self.value = value

    def __repr__(self) -> str:
        return str(self.value)


class Compare(BoolExpr):
    def __init__(self, lhs: Expr, op: str, rhs: Expr) -> None:
        self.lhs, self.op, self.rhs = lhs, op, rhs

    def __repr__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"

    def __bool__(self) -> bool:
        # x == y between variables is asked by Python itself (list.index, `in`): identity then
        if self.op in ("==", "!=") and isinstance(self.lhs, Var) and isinstance(self.rhs, Var):
            return (self.lhs is self.rhs) == (self.op == "==")
        return super().__bool__()

    def variables(self) -> Iterable[Var]:
        yield from self.lhs.variables()
        yield from self.rhs.variables()


class Not(BoolExpr):
    def __init__(self, arg: BoolExpr) -> None:
        self.arg = _boolean(arg)

    def __repr__(self) -> str:
        return f"~({self.arg})"

    def variables(self) -> Iterable[Var]:
        return self.arg.variables()


class Junction(BoolExpr):
    """All of the arguments (``any_`` False) or at least one of them."""

    def __init__(self, args: Sequence[BoolExpr], any_: bool) -> None:
        self.args, self.any = [_boolean(a) for a in args], any_

    def __repr__(self) -> str:
        return "(" + (" | " if self.any else " & ").join(map(str, self.args)) + ")"

    def variables(self) -> Iterable[Var]:
        return (v for a in self.args for v in a.variables())


def occurrences(vars: Iterable[Operand], value: int) -> Expr:
    """How many of ``vars`` equal ``value`` (a sum of reified equalities)."""
    return Sum.of([(Compare(_operand(x), "==", _operand(value)), 1) for x in vars])


# -- evaluation (the definition, used to check and to show solutions) -------------------------
def value(e: Operand, values: Sequence[int] | Mapping[int, int]) -> int:
    """The value of ``e`` under a full assignment (booleans as 0/1)."""
    if not isinstance(e, Expr):
        return whole(e, "a constant")
    if isinstance(e, Var):
        return values[e.index]
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Sum):
        return sum(a * value(t, values) for t, a in e.terms)
    if isinstance(e, Abs):
        return abs(value(e.arg, values))
    if isinstance(e, MinMax):
        return (max if e.largest else min)(value(a, values) for a in e.args)
    if isinstance(e, Element):
        i = value(e.index, values)
        # lowering keeps the index within the array (and each axis), wherever element appears
        if not 0 <= i < len(e.array) or any(not 0 <= value(k, values) < size for k, size in e.axes):
            raise ModelError(f"{e}: index {i} is not a position of the array")
        return value(e.array[i], values)
    if isinstance(e, Product):
        return value(e.x, values) * value(e.y, values)
    if isinstance(e, Division):
        divisor = value(e.y, values)
        if divisor == 0:  # lowering keeps the divisor from 0, wherever the division appears
            raise ModelError(f"{e}: the divisor is 0")
        return value(e.x, values) % divisor if e.modulo else value(e.x, values) // divisor
    if isinstance(e, IfThenElse):
        return value(e.then, values) if value(e.cond, values) else value(e.other, values)
    if isinstance(e, Global):
        return int(e.holds([value(a, values) for a in e.args]))
    if isinstance(e, Apply):
        return e.f([value(a, values) for a in e.args])
    if isinstance(e, NValue):
        return len({value(a, values) for a in e.args})
    if isinstance(e, Truth):
        return int(e.value)
    if isinstance(e, Compare):
        a, b = value(e.lhs, values), value(e.rhs, values)
        return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op])
    if isinstance(e, Not):
        return 1 - value(e.arg, values)
    if isinstance(e, Junction):
        got = [value(a, values) for a in e.args]
        return int(any(got) if e.any else all(got))
    raise ModelError(f"cannot evaluate {e!r}")


# -- lowering ----------------------------------------------------------------------------------
def _check(model: Model, e: Expr) -> None:
    for v in e.variables():
        if v.model.family is not model.family:
            raise ModelError(f"variable {v!r} belongs to another model")


def post(model: Model, c: object) -> None:
    """Add constraint ``c`` (a BoolExpr or a Python bool) to ``model``, lowered to compiled kinds."""
    c = _boolean(c)
    _check(model, c)
    _unpost_inside(model, c, top=True)
    _post(model, c)


def _parts(e: Expr) -> Iterable[Expr]:
    """The expressions ``e`` is made of, one level down."""
    if isinstance(e, Sum):
        return (t for t, _ in e.terms)
    if isinstance(e, (Abs, Not)):
        return (e.arg,)
    if isinstance(e, (MinMax, Junction, Global, Apply, NValue)):
        return e.args
    if isinstance(e, Element):
        return [e.index, *e.array, *(k for k, _ in e.axes)]
    if isinstance(e, (Product, Division)):
        return (e.x, e.y)
    if isinstance(e, IfThenElse):
        return (e.cond, e.then, e.other)
    if isinstance(e, Compare):
        return (e.lhs, e.rhs)
    return ()


def _unpost_inside(model: Model, e: Expr, top: bool) -> None:
    """Globals posted at once (m.all_different) that ``e`` uses as booleans, not as constraints of their own
    (``top``: what ``e`` requires outright, through conjunctions), are taken out of the model again."""
    if isinstance(e, Global) and not top:
        _unpost(model, e)
    keep = top and (isinstance(e, Junction) and not e.any)
    for part in _parts(e):
        _unpost_inside(model, part, keep)

def _post(model: Model, c: BoolExpr) -> None:
    if isinstance(c, Global):
        _post_global(model, c)
    elif isinstance(c, Compare) and _is_linear(c):
        lin = _difference(model, c)
        pair = _different_pair(lin) if c.op == "!=" else None
        if pair is not None:  # x - y != k as x != y + k: the engines' fastest form (a not-equal edge)
            _all_different(model, pair[0], pair[1], name=repr(c)[:200])
        else:
            _post_linear(model, lin, c.op, repr(c))
    elif _small_table(model, c, _POST_TABLE_ROWS) is not None:
        pass  # posted as the table of the combinations it allows
    elif isinstance(c, Junction) and not c.any:
        for a in c.args:
            _post(model, a)
    elif isinstance(c, Not) and isinstance(c.arg, Compare):
        _post(model, Compare(c.arg.lhs, _FLIP[c.arg.op], c.arg.rhs))
    elif isinstance(c, Not) and isinstance(c.arg, Not):
        _post(model, c.arg.arg)
    elif isinstance(c, Junction):
        literals = [reify(model, a) for a in c.args]
        _post_linear(model, _add(literals), ">=", repr(c), rhs=1)
    else:
        _post_linear(model, reify(model, c), "==", repr(c), rhs=1)


def _post_global(model: Model, g: Global) -> None:
    """A global posted as it is: its decomposition, and its native form for the engines that have one."""
    if g.posted is not None and g.posted[0] is model:
        return  # m.all_different and m.table post at once: m.add of what they return adds nothing
    native = g.native(model)
    g.post(model)
    if native is not None:
        model.natives.append(native)


def _unpost(model: Model, g: Global) -> None:
    """A global that was posted at once (m.all_different) and is now used as a boolean: no longer posted."""
    if g.posted is not None and g.posted[0] is model:
        model.remove(g.posted[1])
        g.posted = None


def _is_linear(e: Expr) -> bool:
    """True when ``e`` is made of variables, constants, sums and one comparison (no helper needed)."""
    if isinstance(e, Compare):
        return _is_linear(e.lhs) and _is_linear(e.rhs)
    if isinstance(e, Sum):
        return all(_is_linear(t) for t, _ in e.terms)
    return isinstance(e, (Var, Const))


def _different_pair(lin: Lin) -> tuple[list[int], list[int]] | None:
    """x - y + c (!= 0) as ([x, y], [c, 0]) for AllDifferent, or None when it is not of that shape."""
    terms, const = lin
    if len(terms) != 2 or sorted(terms.values()) != [-1, 1]:
        return None
    x = next(v for v, a in terms.items() if a == 1)
    y = next(v for v, a in terms.items() if a == -1)
    return [x, y], [const, 0]


def _small_table(model: Model, c: BoolExpr, most: int, flag: bool = False) -> int | None:
    """When ``c`` mentions few variables with few value combinations (at most ``most``), the Table of the
    combinations that satisfy it (with ``flag``: of every combination plus a 0/1 helper saying whether it
    does, returned). Exact, no helpers inside, and every engine propagates a Table fully. None otherwise."""
    vs = sorted({v.index for v in c.variables()})
    combos = 1
    for v in vs:
        combos *= len(model.domains[v])
        if combos > most:
            return None
    if not vs:
        return None
    rows = []
    full = dict.fromkeys(vs, 0)
    for xs in product(*(model.domains[v] for v in vs)):
        full.update(zip(vs, xs))
        try:
            holds = value(c, full)
        except ModelError:  # an element index outside its array, a divisor 0: never a solution, reified too
            continue
        if flag:
            rows.append((*xs, holds))
        elif holds:
            rows.append(xs)
    if not flag:
        _table(model, vs, rows, name=repr(c)[:200])
        return -1
    b = model.add_helper([0, 1], f"[{c}]"[:200])
    _table(model, vs + [b], rows, name=f"[{c}]"[:200])
    return b


def _table(model: Model, vars: Sequence[int], rows: Iterable[Sequence[int]], name: str) -> None:
    """A Table of the compiled kind (not ps.Model.table, which makes an expression of it too)."""
    model.add(kinds.Table(tuple(vars), tuples=frozenset(tuple(r) for r in rows), name=name))


def _all_different(model: Model, vars: Sequence[int], offsets: Sequence[int], name: str) -> None:
    model.add(kinds.AllDifferent(tuple(vars), offsets=tuple(offsets), name=name))


def _post_linear(model: Model, lin: Lin, op: str, name: str, rhs: int = 0) -> None:
    """sum + constant <op> rhs as one Linear (< and > become <= and >= on whole numbers)."""
    terms, const = lin
    bound = rhs - const
    if op in ("<", ">"):
        bound, op = (bound - 1, "<=") if op == "<" else (bound + 1, ">=")
    terms = {v: a for v, a in terms.items() if a}
    if not terms:  # a constant constraint: true adds nothing, false makes the model unsat
        if not _holds(0, op, bound):
            never = model.add_helper([0], "false")
            model.linear([never], [1], "==", 1, name=name)
        return
    model.linear(list(terms), list(terms.values()), op, bound, name=name[:200])


def _holds(total: int, op: str, rhs: int) -> bool:
    return {"==": total == rhs, "!=": total != rhs, "<": total < rhs, "<=": total <= rhs,
            ">": total > rhs, ">=": total >= rhs}[op]


def _add(parts: Iterable[Lin], coeffs: Iterable[int] | None = None) -> Lin:
    terms: dict[int, int] = {}
    const = 0
    for (t, c), k in zip(parts, coeffs if coeffs is not None else repeat(1)):
        const += k * c
        for v, a in t.items():
            terms[v] = terms.get(v, 0) + k * a
    return {v: a for v, a in terms.items() if a}, const


def _difference(model: Model, c: Compare) -> Lin:
    return _add([linear(model, c.lhs), linear(model, c.rhs)], [1, -1])


def bounds(model: Model, lin: Lin) -> tuple[int, int]:
    terms, const = lin
    lo = hi = const
    for v, a in terms.items():
        d = model.domains[v]
        lo += min(a * d[0], a * d[-1])
        hi += max(a * d[0], a * d[-1])
    return lo, hi


def linear(model: Model, e: Expr) -> Lin:
    """``e`` as a linear combination of variables, with helpers for what is not linear."""
    if isinstance(e, Var):
        return {e.index: 1}, 0
    if isinstance(e, Const):
        return {}, e.value
    if isinstance(e, Sum):
        return _add([linear(model, t) for t, _ in e.terms], [a for _, a in e.terms])
    if isinstance(e, BoolExpr):
        return reify(model, e)
    return _memo(model, e, _helped)


def _memo(model: Model, e: Any, lower: Callable[[Model, Any], Lin]) -> Lin:
    """``lower(model, e)``, once per expression object and model: an expression used twice (the nodes a
    circuit visits, each the index of the next and an item of an all-different) shares its helpers, which
    are functions of their arguments, instead of a new set for each use."""
    seen = model.lowered.get(id(e))
    if seen is None or seen[0] is not e:  # the id of an expression gone may be reused: the object is kept
        seen = model.lowered[id(e)] = (e, lower(model, e))
    terms, const = seen[1]
    return dict(terms), const


def _helped(model: Model, e: Expr) -> Lin:
    """A helper for an expression that is not a sum."""
    if isinstance(e, Abs):
        return {_abs(model, e): 1}, 0
    if isinstance(e, MinMax):
        return {_minmax(model, e): 1}, 0
    if isinstance(e, Element):
        return {_element(model, e): 1}, 0
    if isinstance(e, Product):
        return _product(model, e)
    if isinstance(e, Division):
        return {_division(model, e): 1}, 0
    if isinstance(e, IfThenElse):
        return {_element(model, Element([e.other, e.then], e.cond)): 1}, 0
    if isinstance(e, Apply):
        return {_table_helper(model, [as_var(model, a) for a in e.args], e.f, repr(e)): 1}, 0
    if isinstance(e, NValue):
        return _nvalue(model, e)
    raise ModelError(f"cannot model {e!r}")


def as_var(model: Model, e: Operand) -> tuple[int, int]:
    """``e`` as (variable, offset): a helper equal to ``e`` unless it already is one variable plus a constant."""
    lin = linear(model, _operand(e))
    terms, const = lin
    if len(terms) == 1 and next(iter(terms.values())) == 1:
        return next(iter(terms)), const
    return _var_of(model, lin, f"({e})"), 0


def _var_of(model: Model, lin: Lin, name: str) -> int:
    """A helper variable equal to ``lin``."""
    lo, hi = bounds(model, lin)
    h = model.add_helper(range(lo, hi + 1), name[:200])
    _post_linear(model, _add([lin, ({h: 1}, 0)], [1, -1]), "==", f"{name} defines {model.names[h]}")
    return h


def _table_helper(model: Model, args: list[tuple[int, int]], f: Callable[[list[int]], int | None],
                  name: str) -> int:
    """A helper h = f(values of args) defined by a Table over (args..., h); where f answers None, those values
    of the args are no solution."""
    combos = _combinations(model, args)
    if combos > MAX_DOMAIN:  # an interval domain among them (csp.model.Domain): far too many rows to list
        raise ModelError(f"{name[:80]} would be a table of {combos:,} rows (its arguments take that many "
                         f"combinations of values), more than the {MAX_DOMAIN:,} a table lists")
    rows = [(*xs, y) for xs in product(*(model.domains[v] for v, _ in args))
            if (y := f([x + o for x, (_, o) in zip(xs, args)])) is not None]
    h = model.add_helper(sorted({r[-1] for r in rows}) or [0], name)  # no rows: no solution, an answer
    _table(model, [v for v, _ in args] + [h], rows, name=f"{name} defines {model.names[h]}")
    return h


def _abs(model: Model, e: Abs) -> int:
    v, o = as_var(model, e.arg)
    return _table_helper(model, [(v, o)], lambda xs: abs(xs[0]), repr(e))


def _combinations(model: Model, args: Sequence[tuple[int, int]]) -> int:
    total = 1
    for v, _ in args:
        total *= len(model.domains[v])
    return total


def _product(model: Model, e: Product) -> Lin:
    x, y = as_var(model, e.x), as_var(model, e.y)
    for a, b in ((x, y), (y, x)):
        if len(model.domains[a[0]]) == 1:  # a constant factor: a multiple, linear
            return _add([({b[0]: 1}, b[1])], [model.domains[a[0]][0] + a[1]])
    if _combinations(model, [x, y]) <= _POST_TABLE_ROWS:
        return {_table_helper(model, [x, y], lambda xs: xs[0] * xs[1], repr(e)): 1}, 0
    (s, so), (t, to) = sorted([x, y], key=lambda a: len(model.domains[a[0]]))
    lo, hi = model.domains[s][0], model.domains[s][-1]
    if hi - lo >= MAX_DOMAIN:  # the element below would list every value of s
        raise ModelError(f"{e}: both factors take more than {MAX_DOMAIN:,} values (a product is the element of "
                         f"one factor's multiples at the other's value, listed one by one)")
    other = Var(model, t) + to
    picked = Element([other * (k + so) for k in range(lo, hi + 1)], Var(model, s) - lo)
    return {_element(model, picked): 1}, 0


def _division(model: Model, e: Division) -> int:
    x, y = as_var(model, e.x), as_var(model, e.y)
    def divided(xs: list[int]) -> int | None:
        return None if xs[1] == 0 else (xs[0] % xs[1] if e.modulo else xs[0] // xs[1])

    if _combinations(model, [x, y]) <= _POST_TABLE_ROWS:
        return _table_helper(model, [x, y], divided, repr(e))
    # x = q * y + r with r between 0 and y (y excluded), on the side of y: Python's floor division
    top = max(abs(b) for b in bounds(model, ({x[0]: 1}, x[1])))
    q = Var(model, model.add_helper(range(-top, top + 1), f"{e} quotient"))
    X, Y = Var(model, x[0]) + x[1], Var(model, y[0]) + y[1]
    r = Var(model, _var_of(model, linear(model, X - Product(q, Y)), f"{e} remainder"))
    zero = Const(0)
    _post(model, Compare(Y, "!=", zero))
    _post(model, Junction([Compare(Y, "<", zero), Junction([Compare(r, ">=", zero), Compare(r, "<", Y)], False)],
                          any_=True))
    _post(model, Junction([Compare(Y, ">", zero), Junction([Compare(r, "<=", zero), Compare(r, ">", Y)], False)],
                          any_=True))
    return r.index if e.modulo else q.index


def _minmax(model: Model, e: MinMax) -> int:
    args = [linear(model, a) for a in e.args]
    spans = [bounds(model, a) for a in args]
    pick = max if e.largest else min
    h = model.add_helper(range(pick(lo for lo, _ in spans), pick(hi for _, hi in spans) + 1), repr(e))
    me: Lin = ({h: 1}, 0)
    # h >= every argument (max) and equal to one of them: h <= argument, reified, for at least one
    chosen = []
    for a in args:
        diff = _add([me, a], [1, -1])
        _post_linear(model, diff, ">=" if e.largest else "<=", f"{e} bounds {model.names[h]}")
        chosen.append(_reify_linear(model, diff, "<=" if e.largest else ">=", f"{e} picks"))
    _post_linear(model, _add(chosen), ">=", f"{e} is one of its arguments", rhs=1)
    return h


def _element(model: Model, e: Element) -> int:
    for k, size in e.axes:
        _post(model, Junction([Compare(k, ">=", Const(0)), Compare(k, "<", Const(size))], any_=False))
    iv, off = as_var(model, e.index)
    d = model.domains[iv]  # an interval (csp.model.Domain) cut to the array's positions first, not listed
    within = range(max(d[0], -off), min(d[-1], len(e.array) - 1 - off) + 1) if isinstance(d, range) else d
    positions = [x for x in within if 0 <= x + off < len(e.array)]
    if not positions:
        raise ModelError(f"{e}: the index can never be a position of the array (0..{len(e.array) - 1})")
    if len(positions) < len(model.domains[iv]):
        _table(model, [iv], [(x,) for x in positions], name=f"{e}: index within the array")
    if all(isinstance(a, Const) for a in e.array):
        constants = [a.value for a in e.array if isinstance(a, Const)]  # all of them are
        # over the positions only: the index's other values are ruled out above (and an interval is not listed)
        rows = [(x, constants[x + off]) for x in positions]
        h = model.add_helper(sorted({y for _, y in rows}), repr(e))
        _table(model, [iv, h], rows, name=f"{e} defines {model.names[h]}")
        return h
    items = [linear(model, e.array[x + off]) for x in positions]
    spans = [bounds(model, a) for a in items]
    h = model.add_helper(range(min(lo for lo, _ in spans), max(hi for _, hi in spans) + 1), repr(e))
    chosen = []
    for x, item in zip(positions, items):
        at = _reify_linear(model, ({iv: 1}, 0), "==", f"{e}: index is {x}", rhs=x)
        chosen.append(at)
        # at == 1 implies h == item: h - item within [-M (1 - at), M (1 - at)]
        diff = _add([({h: 1}, 0), item], [1, -1])
        lo, hi = bounds(model, diff)
        _post_linear(model, _add([diff, at], [1, hi]), "<=", f"{e} at {x}", rhs=hi)
        _post_linear(model, _add([diff, at], [1, lo]), ">=", f"{e} at {x}", rhs=lo)
    return h


def reify(model: Model, c: BoolExpr) -> Lin:
    """A 0/1 linear expression equal to 1 exactly when ``c`` holds."""
    if isinstance(c, Var):
        d = model.domains[c.index]
        if len(d) > 2 or not set(d) <= {0, 1}:
            raise ModelError(f"{c!r} (values {d[0]}..{d[-1]}) is used as a boolean; only 0/1 variables are")
        return {c.index: 1}, 0
    if isinstance(c, Truth):
        return {}, int(c.value)
    if isinstance(c, Not):
        return _add([({}, 1), reify(model, c.arg)], [1, -1])
    return _memo(model, c, _reified)


def _reified(model: Model, c: BoolExpr) -> Lin:
    small = _small_table(model, c, _TABLE_ROWS, flag=True)
    if small is not None:
        return {small: 1}, 0
    if isinstance(c, Global):
        return reify(model, c.decompose(model))
    if isinstance(c, Compare):
        return _reify_linear(model, _difference(model, c), c.op, repr(c))
    if isinstance(c, Junction):
        literals = [reify(model, a) for a in c.args]
        b = model.add_helper([0, 1], repr(c)[:200])
        me: Lin = ({b: 1}, 0)
        n = len(literals)
        for lit in literals:  # or: b >= each; and: b <= each
            _post_linear(model, _add([me, lit], [1, -1]), ">=" if c.any else "<=", f"{c} (part)")
        total = _add(literals + [me], [1] * n + [-1])  # or: sum >= b; and: sum <= b + n - 1
        _post_linear(model, total, ">=" if c.any else "<=", f"{c}", rhs=0 if c.any else n - 1)
        return me
    raise ModelError(f"cannot use {c!r} as a constraint")


def _reify_linear(model: Model, lin: Lin, op: str, name: str, rhs: int = 0) -> Lin:
    """b <-> (lin <op> rhs), b a 0/1 expression."""
    terms, const = lin
    k = rhs - const
    if op in ("<", ">"):
        k, op = (k - 1, "<=") if op == "<" else (k + 1, ">=")
    if op == "!=":
        return _add([({}, 1), _reify_linear(model, (terms, 0), "==", name, k)], [1, -1])
    lo, hi = bounds(model, (terms, 0))
    if _holds(lo, op, k) and _holds(hi, op, k) and (op != "==" or lo == hi):
        return {}, 1  # holds whatever the values
    if (op in ("<=", "==") and lo > k) or (op in (">=", "==") and hi < k):
        return {}, 0  # never holds
    combos = 1
    for v in terms:
        combos *= len(model.domains[v])
    if combos <= _TABLE_ROWS:
        vs = list(terms)
        rows = [(*xs, int(_holds(sum(terms[v] * x for v, x in zip(vs, xs)), op, k)))
                for xs in product(*(model.domains[v] for v in vs))]
        b = model.add_helper([0, 1], f"[{name}]"[:200])
        _table(model, vs + [b], rows, name=f"[{name}]"[:200])
        return {b: 1}, 0
    if op == "==":
        both = [_reify_linear(model, (terms, 0), "<=", name, k), _reify_linear(model, (terms, 0), ">=", name, k)]
        b = model.add_helper([0, 1], f"[{name}]"[:200])
        me: Lin = ({b: 1}, 0)
        for part in both:
            _post_linear(model, _add([me, part], [1, -1]), "<=", name)
        _post_linear(model, _add(both + [me], [1, 1, -1]), "<=", name, rhs=1)
        return me
    if op == ">=":  # s >= k  is  -s <= -k
        return _reify_linear(model, ({v: -a for v, a in terms.items()}, 0), "<=", name, -k)
    # s <= k: b = 1 forces s <= k (s + (hi - k) b <= hi); b = 0 forces s >= k + 1 (s + (k + 1 - lo) b >= k + 1)
    b = model.add_helper([0, 1], f"[{name}]"[:200])
    _post_linear(model, _add([(terms, 0), ({b: hi - k}, 0)]), "<=", name, rhs=hi)
    _post_linear(model, _add([(terms, 0), ({b: k + 1 - lo}, 0)]), ">=", name, rhs=k + 1)
    return {b: 1}, 0


# -- global constraints -------------------------------------------------------------------------
class Global(BoolExpr):
    """A global constraint over expressions: its definition (``holds``, on the arguments' values), its
    decomposition into the expressions above (``decompose``: what every engine compiles, and what a reified
    or negated use stands for), and, for the engines that have it, a native form (``native``), posted beside
    the decomposition when the constraint is posted as it is (not reified). Every helper a decomposition makes
    is a function of the arguments, so reification is exact: ``b == g`` with ``b`` 0 means the constraint
    is broken, not that some helper happened to break it."""

    label = "global"

    def __init__(self, args: Sequence[object]) -> None:
        self.args = [_operand(a) for a in args]
        self.posted: tuple[Model, Any] | None = None  # (model, constraint) when posted at once (all_different)

    def __repr__(self) -> str:
        return f"{self.label}({', '.join(map(str, self.args))})"

    def variables(self) -> Iterable[Var]:
        return (v for a in self.args for v in a.variables())

    def holds(self, values: list[int]) -> bool:
        """The definition, on the values of ``args`` in order."""
        raise NotImplementedError

    def decompose(self, model: Model) -> BoolExpr:
        raise NotImplementedError

    def native(self, model: Model) -> tuple[str, Any] | None:
        """(kind, data over variable indices) for an engine's own constraint, None when none has it."""
        return None

    def post(self, model: Model) -> None:
        """Posted as it is: its decomposition."""
        _post(model, self.decompose(model))

    def _vars(self, model: Model, args: Sequence[Expr]) -> list[int] | None:
        """The arguments as plain variables (what the native forms take), None when one is more."""
        out = []
        for a in args:
            v, o = as_var(model, a)
            if o:
                return None
            out.append(v)
        return out


def _all(parts: Iterable[BoolExpr]) -> BoolExpr:
    got = list(parts)
    return Junction(got, any_=False) if got else Truth(True)


def _any(parts: Iterable[BoolExpr]) -> BoolExpr:
    got = list(parts)
    return Junction(got, any_=True) if got else Truth(False)


class AllDifferent(Global):
    label = "all_different"

    def holds(self, values: list[int]) -> bool:
        return len(set(values)) == len(values)

    def decompose(self, model: Model) -> BoolExpr:
        a = self.args
        return _all(Compare(a[i], "!=", a[j]) for i in range(len(a)) for j in range(i + 1, len(a)))

    def post(self, model: Model) -> None:
        items = [as_var(model, a) for a in self.args]
        _all_different(model, [v for v, _ in items], [o for _, o in items], name=repr(self)[:200])


class AllDifferentExcept0(AllDifferent):
    label = "all_different_except_0"
    post = Global.post

    def holds(self, values: list[int]) -> bool:
        nonzero = [v for v in values if v]
        return len(set(nonzero)) == len(nonzero)

    def decompose(self, model: Model) -> BoolExpr:
        a, zero = self.args, Const(0)
        return _all(_any([Compare(a[i], "==", zero), Compare(a[j], "==", zero), Compare(a[i], "!=", a[j])])
                    for i in range(len(a)) for j in range(i + 1, len(a)))


class Table(Global):
    """The arguments together take one of the rows."""

    label = "table"

    def __init__(self, args: Sequence[object], rows: Iterable[Sequence[int]]) -> None:
        super().__init__(args)
        # a frozenset comes from a Table constraint, checked already (and maybe of thousands of rows)
        if isinstance(rows, frozenset):
            self.rows = rows
            return
        self.rows = frozenset(tuple(whole(x, "a value of a table's row") for x in r) for r in rows)
        wrong = next((r for r in self.rows if len(r) != len(self.args)), None)
        if wrong is not None:
            raise ModelError(f"table: the row {wrong} has {len(wrong)} values for {len(self.args)} variables")

    def holds(self, values: list[int]) -> bool:
        return tuple(values) in self.rows

    def post(self, model: Model) -> None:
        items = [as_var(model, a) for a in self.args]  # a row of x + 1 is a row of x, one less
        _table(model, [v for v, _ in items], [tuple(x - o for x, (_, o) in zip(r, items)) for r in sorted(self.rows)],
                    name=repr(self)[:200])

    def decompose(self, model: Model) -> BoolExpr:
        return _any(_all(Compare(a, "==", Const(x)) for a, x in zip(self.args, r)) for r in sorted(self.rows))


class AllEqual(Global):
    label = "all_equal"

    def holds(self, values: list[int]) -> bool:
        return len(set(values)) <= 1

    def decompose(self, model: Model) -> BoolExpr:
        return _all(Compare(a, "==", b) for a, b in zip(self.args, self.args[1:]))


class Ordered(Global):
    """Increasing (each at most the next) or decreasing, strictly or not."""

    def __init__(self, args: Sequence[object], decreasing: bool, strict: bool) -> None:
        super().__init__(args)
        self.decreasing, self.strict = decreasing, strict
        self.label = ("strictly_" if strict else "") + ("decreasing" if decreasing else "increasing")

    def _op(self) -> str:
        return {(False, False): "<=", (False, True): "<", (True, False): ">=", (True, True): ">"}[
            self.decreasing, self.strict]

    def holds(self, values: list[int]) -> bool:
        return all(_holds(a - b, self._op(), 0) for a, b in zip(values, values[1:]))

    def decompose(self, model: Model) -> BoolExpr:
        return _all(Compare(a, self._op(), b) for a, b in zip(self.args, self.args[1:]))


class Lex(Global):
    """xs before ys in lexicographic order (``strict``: and not equal to it); the two of the same length."""

    def __init__(self, xs: Sequence[object], ys: Sequence[object], strict: bool) -> None:
        if len(xs) != len(ys):
            raise ModelError(f"lexicographic order: the two lists have {len(xs)} and {len(ys)} items")
        super().__init__([*xs, *ys])
        self.n, self.strict = len(xs), strict
        self.label = "lex_less" if strict else "lex_lesseq"

    def __repr__(self) -> str:
        n = self.n
        return f"{self.label}([{', '.join(map(str, self.args[:n]))}], [{', '.join(map(str, self.args[n:]))}])"

    def holds(self, values: list[int]) -> bool:
        xs, ys = values[:self.n], values[self.n:]
        return xs < ys if self.strict else xs <= ys

    def decompose(self, model: Model) -> BoolExpr:
        xs, ys = self.args[:self.n], self.args[self.n:]
        rest: BoolExpr = Truth(not self.strict)  # two equal lists: before (lex_lesseq) or not (lex_less)
        for x, y in reversed(list(zip(xs, ys))):
            rest = _any([Compare(x, "<", y), Junction([Compare(x, "==", y), rest], any_=False)])
        return rest


class Inverse(Global):
    """f and g are inverse permutations of 0..n-1: f[i] == j exactly when g[j] == i."""

    label = "inverse"

    def __init__(self, f: Sequence[object], g: Sequence[object]) -> None:
        if len(f) != len(g):
            raise ModelError(f"inverse: the two lists have {len(f)} and {len(g)} items")
        super().__init__([*f, *g])
        self.n = len(f)

    def holds(self, values: list[int]) -> bool:
        f, g = values[:self.n], values[self.n:]
        return all(0 <= x < self.n for x in values) and all(g[f[i]] == i for i in range(self.n))

    def decompose(self, model: Model) -> BoolExpr:
        n, f, g = self.n, self.args[:self.n], self.args[self.n:]
        inside = [Junction([Compare(x, ">=", Const(0)), Compare(x, "<", Const(n))], any_=False) for x in f + g]
        both = [Compare(Compare(f[i], "==", Const(j)), "==", Compare(g[j], "==", Const(i)))
                for i in range(n) for j in range(n)]
        return _all([*inside, *both])

    def native(self, model: Model) -> tuple[str, Any] | None:
        vs = self._vars(model, self.args)
        return None if vs is None else ("inverse", (vs[:self.n], vs[self.n:]))


class Circuit(Global):
    """Successor form: node i is followed by node ``args[i]``, and following them from node 0 visits every
    node once and comes back (one cycle through all n nodes)."""

    label = "circuit"

    def holds(self, values: list[int]) -> bool:
        n, node, seen = len(values), 0, set()
        for _ in range(n):
            if not 0 <= values[node] < n or node in seen:
                return False
            seen.add(node)
            node = values[node]
        return node == 0 and len(seen) == n

    def decompose(self, model: Model) -> BoolExpr:
        # the nodes visited from 0, each an element of the successors, clamped into 0..n-1 so the element's
        # index is always a position (a helper that is a function of the successors: exact when reified)
        n, zero, last = len(self.args), Const(0), Const(len(self.args) - 1)
        inside = [Junction([Compare(s, ">=", zero), Compare(s, "<=", last)], any_=False) for s in self.args]
        clamped: list[Expr] = [MinMax([MinMax([s, last], largest=False), zero], largest=True) for s in self.args]
        visit: list[Expr] = [clamped[0]]
        for _ in range(n - 1):
            visit.append(Element(clamped, visit[-1]))
        return _all(inside + [Compare(visit[-1], "==", zero), AllDifferent(visit)])

    def native(self, model: Model) -> tuple[str, Any] | None:
        vs = self._vars(model, self.args)
        return None if vs is None or len(vs) < 2 else ("circuit", vs)


class Regular(Global):
    """The word of the arguments' values is accepted by a deterministic finite automaton: ``transitions``
    (state, value, next state), from ``start``, ending in one of ``accepting``."""

    label = "regular"

    def __init__(self, args: Sequence[object], transitions: Iterable[object], start: Any,
                 accepting: Iterable[Any]) -> None:
        super().__init__(args)
        self.delta: dict[tuple[Any, int], Any] = {}
        for t in transitions:
            if not isinstance(t, tuple) or len(t) != 3:
                raise ModelError(f"regular: a transition is (state, value, next state), got {t!r}")
            key = (t[0], whole(t[1], "regular: a transition's value"))
            if self.delta.get(key, t[2]) != t[2]:
                raise ModelError(f"regular: state {t[0]!r} has two next states on value {key[1]} (the automaton "
                                 f"must be deterministic)")
            self.delta[key] = t[2]
        self.start, self.accepting = start, set(accepting)
        states = {start, *self.accepting, *(s for s, _ in self.delta), *self.delta.values()}
        self.names = sorted(states, key=repr)
        self.number = {s: k for k, s in enumerate(self.names)}  # states as 0..k-1; k: none (no transition)

    def holds(self, values: list[int]) -> bool:
        state = self.start
        for v in values:
            if (state, v) not in self.delta:
                return False
            state = self.delta[state, v]
        return state in self.accepting

    def _step(self, state: int, value: int) -> int:
        key = (self.names[state], value)
        return self.number[self.delta[key]] if key in self.delta else len(self.number)

    def decompose(self, model: Model) -> BoolExpr:
        state: Expr = Const(self.number[self.start])
        dead = len(self.number)
        for a in self.args:  # each state a function of the one before and the value read (dead: no transition)
            state = Apply([state, a], lambda xs: dead if xs[0] == dead else self._step(xs[0], xs[1]),
                          f"{self.label} state")
        return _any(Compare(state, "==", Const(self.number[s])) for s in self.accepting)

    def native(self, model: Model) -> tuple[str, Any] | None:
        vs = self._vars(model, self.args)
        if vs is None or not vs:
            return None
        triples = sorted((self.number[s], v, self.number[t]) for (s, v), t in self.delta.items())
        return "automaton", (vs, self.number[self.start], sorted(self.number[s] for s in self.accepting), triples)


def _tasks(what: str, starts: Sequence[object], durations: Sequence[object],
           demands: Sequence[object] | None = None) -> tuple[list[int], list[int]]:
    durs = [whole(d, f"{what}: a duration") for d in durations]
    needs = [whole(d, f"{what}: a demand") for d in demands] if demands is not None else [1] * len(durs)
    if len(durs) != len(starts) or len(needs) != len(starts):
        raise ModelError(f"{what}: {len(starts)} starts but {len(durs)} durations and {len(needs)} demands")
    if any(d < 0 for d in durs + needs):
        raise ModelError(f"{what}: durations and demands are 0 or more")
    return durs, needs


class NoOverlap(Global):
    """Tasks (start, duration) on one machine: no two overlap (task i ends at start + duration, and a task of
    duration 0 may not stand strictly inside another)."""

    label = "no_overlap"

    def __init__(self, starts: Sequence[object], durations: Sequence[object]) -> None:
        super().__init__(starts)
        self.durations, _ = _tasks("no_overlap", starts, durations)

    def holds(self, values: list[int]) -> bool:
        d = self.durations
        return all(values[i] + d[i] <= values[j] or values[j] + d[j] <= values[i]
                   for i in range(len(values)) for j in range(i + 1, len(values)))

    def decompose(self, model: Model) -> BoolExpr:
        s, d = self.args, self.durations
        return _all(_any([Compare(s[i] + d[i], "<=", s[j]), Compare(s[j] + d[j], "<=", s[i])])
                    for i in range(len(s)) for j in range(i + 1, len(s)))

    def native(self, model: Model) -> tuple[str, Any] | None:
        busy = [(as_var(model, s), d) for s, d in zip(self.args, self.durations) if d > 0]
        return ("no_overlap", busy) if len(busy) > 1 else None


class Cumulative(Global):
    """Tasks (start, duration, demand) sharing a resource of ``capacity``: at every time the demands of the
    tasks running (start <= t < start + duration) add up to at most the capacity."""

    label = "cumulative"

    def __init__(self, starts: Sequence[object], durations: Sequence[object], demands: Sequence[object],
                 capacity: object) -> None:
        super().__init__(starts)
        self.durations, self.demands = _tasks("cumulative", starts, durations, demands)
        self.capacity = whole(capacity, "cumulative: the capacity")

    def holds(self, values: list[int]) -> bool:
        times = {t for s, d in zip(values, self.durations) for t in range(s, s + d)}
        return all(sum(q for s, d, q in zip(values, self.durations, self.demands) if s <= t < s + d)
                   <= self.capacity for t in times)

    def decompose(self, model: Model) -> BoolExpr:
        # time-indexed: at each time a task can be running, the sum of the demands of those running
        spans = [bounds(model, linear(model, s)) for s in self.args]
        times = sorted({t for (lo, hi), d in zip(spans, self.durations) for t in range(lo, hi + d)})
        parts = []
        for t in times:
            running = [(Junction([Compare(s, "<=", Const(t)), Compare(s, ">", Const(t - d))], any_=False), q)
                       for s, d, q, (lo, hi) in zip(self.args, self.durations, self.demands, spans)
                       if d > 0 and q > 0 and lo <= t < hi + d]
            if sum(q for _, q in running) > self.capacity:
                parts.append(Compare(Sum.of([(r, q) for r, q in running]), "<=", Const(self.capacity)))
        return _all(parts)

    def native(self, model: Model) -> tuple[str, Any] | None:
        busy = [(as_var(model, s), d, q) for s, d, q in zip(self.args, self.durations, self.demands) if d > 0]
        return ("cumulative", (busy, self.capacity)) if busy else None


class Apply(Expr):
    """f(args) for a function ``f`` of whole numbers: a helper defined by the Table of its values (what the
    decompositions above use for a step they can tabulate, such as an automaton's next state)."""

    def __init__(self, args: Sequence[Expr], f: Callable[[list[int]], int], label: str) -> None:
        self.args, self.f, self.label = list(args), f, label

    def __repr__(self) -> str:
        return f"{self.label}({', '.join(map(str, self.args))})"

    def variables(self) -> Iterable[Var]:
        return (v for a in self.args for v in a.variables())


class NValue(Expr):
    """How many different values the arguments take."""

    def __init__(self, args: Sequence[object]) -> None:
        self.args = [_operand(a) for a in args]

    def __repr__(self) -> str:
        return f"nvalue({', '.join(map(str, self.args))})"

    def variables(self) -> Iterable[Var]:
        return (v for a in self.args for v in a.variables())


def _nvalue(model: Model, e: NValue) -> Lin:
    """The sum over each value any argument can take of "some argument takes it"."""
    spans = [bounds(model, linear(model, a)) for a in e.args]
    values = sorted({v for lo, hi in spans for v in range(lo, hi + 1)})
    return _add([reify(model, _any(Compare(a, "==", Const(v)) for a, (lo, hi) in zip(e.args, spans)
                                   if lo <= v <= hi)) for v in values])


def among(args: Iterable[object], values: Iterable[object]) -> Expr:
    """How many of ``args`` take one of ``values``."""
    wanted = sorted({whole(v, "among: a value") for v in values})
    return Sum.of([(_any(Compare(_operand(a), "==", Const(v)) for v in wanted), 1) for a in args])
