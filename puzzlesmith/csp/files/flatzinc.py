"""FlatZinc, the language MiniZinc compiles a model to for a solver (Stuckey, Marriott, Tack, "The MiniZinc
Handbook", section "FlatZinc"), in and out: the integer and Boolean builtins.

Read: parameters and variables (ranges, sets, ``bool``; arrays of them; aliases ``var ...: x = y``), and the
constraints ``int_lin_eq``/``le``/``ne``, ``int_eq``/``ne``/``le``/``lt``, ``int_times``, ``int_div``, ``int_mod``
(toward zero, as FlatZinc defines them), ``int_abs``, ``int_min``/``max``, ``int_plus``, ``int_pow``,
``array_int_element``, ``array_var_int_element`` (and their ``bool`` forms), ``all_different_int``, ``bool2int``,
``bool_eq``/``not``/``le``/``lt``/``xor``/``and``/``or``, ``bool_clause``, ``array_bool_or``/``and``/``xor``,
``bool_lin_eq``/``le``, ``set_in``, the ``_reif`` forms of the constraints and their half reifications ``_imp``
(Gecode's FlatZinc has them); ``solve satisfy``, ``minimize`` and ``maximize``. Annotations are read past, but for
one use: the variables marked ``output_var`` or in an ``output_array`` are the answer (what a FlatZinc solver
prints), the others (MiniZinc's introduced variables) helpers; a variable an ``output_array`` lists is named after
its place there (``m[2]``, not ``X_INTRODUCED_1_``). ``var int`` without bounds is refused: every
variable here has a finite domain.

Written: each variable with its domain (the answer's marked ``output_var``), Linear as ``int_lin_*``, AllDifferent
as ``all_different_int`` (over introduced variables ``x + k`` where it has offsets), a Table as one Boolean a row
(``array_bool_and`` of ``int_eq_reif``) and their ``array_bool_or``, Parity as ``int_lin_eq`` with a quotient
variable; every introduced variable is a function of the model's, so counts stay the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr as E
from puzzlesmith.csp.constraints import TOPOLOGY, AllDifferent, Linear, Parity, Table
from puzzlesmith.csp.files import Reader
from puzzlesmith.csp.model import Model

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_KEYWORDS = frozenset("annotation any array bool case constraint diff div else elseif endif enum false float function "
                      "if in include int intersect let list maximize minimize mod not of op opt output par predicate "
                      "record satisfy set solve string subset superset symdiff test then true tuple type union var "
                      "where xor".split())


# -- writing ---------------------------------------------------------------------------------------------------------
def _domain(values: Sequence[int]) -> str:
    lo, hi = values[0], values[-1]
    if hi - lo + 1 == len(values):
        return f"{lo}..{hi}"
    return "{" + ",".join(map(str, values)) + "}"


def _array(items: Sequence[object]) -> str:
    return "[" + ",".join(map(str, items)) + "]"


def text(model: Model) -> str:
    """The model as FlatZinc (see the module's docstring); a ModelError naming a constraint it cannot hold."""
    ids: list[str] = []
    taken: set[str] = set()
    for i in range(model.num_vars):
        name = model.names[i]
        plain = _ID.match(name) and name not in _KEYWORDS and not name.startswith("X_INTRODUCED")
        ident = name if plain and name not in taken else f"v{i}"
        while ident in taken:
            ident += "_"
        taken.add(ident)
        ids.append(ident)
    answer = set(model.answer_vars) if model.projected else set(range(model.num_vars))
    head = [f"% puzzlesmith model: {model.num_vars} variables, {len(model.constraints)} constraints"]
    head += [f"% {ids[i]} is {model.names[i]}" for i in range(model.num_vars) if ids[i] != model.names[i]]
    lines = [f"var {_domain(model.domains[i])}: {ids[i]}{' :: output_var' if i in answer else ''};"
             for i in range(model.num_vars)]
    body: list[str] = []
    count = 0

    def introduce(domain: str) -> str:
        nonlocal count
        count += 1
        name = f"X_INTRODUCED_{count}_"
        lines.append(f"var {domain}: {name} :: var_is_introduced :: is_defined_var;")
        return name

    def span(vars_: Sequence[int], coeffs: Sequence[int], constant: int = 0) -> tuple[int, int]:
        lo = hi = constant
        for v, a in zip(vars_, coeffs):
            ends = (a * model.domains[v][0], a * model.domains[v][-1])
            lo, hi = lo + min(ends), hi + max(ends)
        return lo, hi

    for c in model.constraints:
        names = [ids[v] for v in c.vars]
        if isinstance(c, Linear):
            coeffs, rhs, op = list(c.coeffs), c.rhs, c.op
            if op == ">=":
                coeffs, rhs, op = [-a for a in coeffs], -rhs, "<="
            kind = {"==": "eq", "<=": "le", "!=": "ne"}[op]
            body.append(f"constraint int_lin_{kind}({_array(coeffs)},{_array(names)},{rhs});")
        elif isinstance(c, AllDifferent):
            items = []
            for v, name, o in zip(c.vars, names, c.offsets):
                if o == 0:
                    items.append(name)
                    continue
                shifted = introduce(_domain([x + o for x in model.domains[v]]))
                body.append(f"constraint int_lin_eq([1,-1],[{shifted},{name}],{o});")
                items.append(shifted)
            body.append(f"constraint all_different_int({_array(items)});")
        elif isinstance(c, Table):
            rows = []
            for row in sorted(c.tuples):
                if any(x not in model.domains[v] for v, x in zip(c.vars, row)):
                    continue
                equal = []
                for name, x in zip(names, row):
                    b = introduce("bool")
                    body.append(f"constraint int_eq_reif({name},{x},{b});")
                    equal.append(b)
                r = introduce("bool")
                body.append(f"constraint array_bool_and({_array(equal)},{r});")
                rows.append(r)
            body.append(f"constraint array_bool_or({_array(rows)},true);" if rows else
                        "constraint bool_eq(false,true);")
        elif isinstance(c, Parity):
            lo, hi = span(c.vars, c.coeffs, -c.rhs)
            k = introduce(f"{-(-lo // c.modulus)}..{hi // c.modulus}")
            body.append(f"constraint int_lin_eq({_array([*c.coeffs, -c.modulus])},{_array([*names, k])},{c.rhs});")
        elif c.kind in TOPOLOGY:
            raise ModelError(f"FlatZinc cannot hold {c.describe()}: puzzlesmith's {c.kind} is no FlatZinc builtin")
        else:
            raise ModelError(f"FlatZinc cannot hold {c.describe()}")
    if model.objective is not None:
        variables, weights, constant, sense = model.objective
        lo, hi = span(variables, weights, constant)
        goal = introduce(f"{lo}..{hi}")
        body.append(f"constraint int_lin_eq({_array([*weights, -1])},{_array([ids[v] for v in variables] + [goal])},"
                    f"{-constant});")
        body.append(f"solve {'minimize' if sense == 'min' else 'maximize'} {goal};")
    else:
        body.append("solve satisfy;")
    return "\n".join(head + lines + body) + "\n"


# -- reading ---------------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r'\s+|%[^\n]*|"(?:[^"\\]|\\.)*"|::|\.\.|[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?|\S')


class _Fzn:
    def __init__(self, model: Model, reader: Reader) -> None:
        self.model, self.reader = model, reader
        self.names: dict[str, Any] = {}  # identifier -> int, bool, Var, range/set (tuple), or list of those
        self.shown: list[int] = []
        self.tokens: list[tuple[str, int]] = []
        self.pos = 0
        self.line = 0  # where the item being read starts
        self.display: dict[str, str] = {}

    def fail(self, message: str) -> ModelError:
        return self.reader.fail(message, self.line)

    # -- tokens ---------------------------------------------------------------------------------------------------
    def peek(self) -> str:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else ""

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if want is not None and tok != want:
            raise self.fail(f"expected {want!r}, got {tok or 'the end of the file'!r}")
        if not tok:
            raise self.fail("the file ends in the middle of an item")
        self.pos += 1
        return tok

    def number(self) -> int:
        tok = self.take()
        if not re.fullmatch(r"-?\d+", tok):
            raise self.fail(f"expected an integer, got {tok!r}")
        return int(tok)

    # -- items ----------------------------------------------------------------------------------------------------
    def run(self, source_text: str) -> None:
        line = 1
        for m in _TOKEN.finditer(source_text):
            tok = m.group(0)
            if not tok.isspace() and not tok.startswith("%"):
                self.tokens.append((tok, line))
            line += tok.count("\n")
        self.display = self.output_names()
        solved = False
        while self.pos < len(self.tokens):
            head, self.line = self.tokens[self.pos]
            if head == "predicate":
                while self.take() != ";":
                    pass
            elif head == "constraint":
                self.take()
                self.constraint()
            elif head == "solve":
                if solved:
                    raise self.fail("a second solve item")
                self.take()
                self.solve()
                solved = True
            else:
                self.declaration()
        if not solved:
            self.pos = len(self.tokens)
            raise self.reader.fail("no solve item (solve satisfy; solve minimize X; or solve maximize X;)")

    def output_names(self) -> dict[str, str]:
        """The variables an ``output_array`` lists, by the names a solver prints them under: MiniZinc introduces
        ``X_INTRODUCED_3_`` for ``m[4]``, and the answer reads better as ``m[4]``."""
        names: dict[str, str] = {}
        words = [t for t, _ in self.tokens]
        start = 0
        for end, word in enumerate(words):
            if word != ";":
                continue
            item, start = words[start:end], end + 1
            if not item or item[0] != "array" or "output_array" not in item or "=" not in item:
                continue
            colon = item.index(":")
            array = item[colon + 1]
            listed = item[item.index("=") + 1:]
            if listed[:1] != ["["]:
                continue
            for k, ident in enumerate(t for t in listed[1:-1] if t != ","):
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", ident) and ident not in names:
                    names[ident] = f"{array}[{k + 1}]"
        return names

    def type_(self) -> tuple[bool, bool, Any]:
        """(is an array, is a var, the domain: 'int', 'bool', a tuple of values, or 'set')."""
        array = False
        if self.peek() == "array":
            self.take()
            self.take("[")
            self.number()
            self.take("..")
            self.number()
            self.take("]")
            self.take("of")
            array = True
        var = self.peek() == "var"
        if var:
            self.take()
        tok = self.peek()
        if tok in ("int", "bool"):
            self.take()
            return array, var, tok
        if tok == "set":
            self.take()
            self.take("of")
            self.take("int")
            return array, var, "set"
        if tok == "float":
            raise self.fail("float variables and parameters are not supported (integers and Booleans only)")
        values = self.set_literal()
        return array, var, values

    def set_literal(self) -> tuple[int, ...] | range:
        """``{1,3,5}`` as a tuple, ``lo..hi`` as a range (a wide one is refused by the model's limit, not built)."""
        if self.peek() == "{":
            self.take()
            out = []
            while self.peek() != "}":
                out.append(self.number())
                if self.peek() != "}":
                    self.take(",")
            self.take("}")
            return tuple(sorted(set(out)))
        lo = self.number()
        self.take("..")
        hi = self.number()
        return range(lo, hi + 1)

    def annotations(self) -> list[tuple[str, list[Any]]]:
        out = []
        while self.peek() == "::":
            self.take()
            name = self.take()
            args: list[Any] = []
            if self.peek() == "(":
                depth = 0
                while True:
                    tok = self.take()
                    depth += (tok in "([") - (tok in ")]")
                    if depth == 0:
                        break
            out.append((name, args))
        return out

    def declaration(self) -> None:
        array, var, domain = self.type_()
        self.take(":")
        name = self.take()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise self.fail(f"expected a name, got {name!r}")
        notes = [n for n, _ in self.annotations()]
        value = None
        if self.peek() == "=":
            self.take()
            value = self.expression()
        self.take(";")
        if not var:
            if value is None:
                raise self.fail(f"the parameter {name} has no value")
            self.names[name] = value
            return
        if domain == "set":
            raise self.fail("set variables are not supported (integers and Booleans only)")
        if array:
            if not isinstance(value, list):
                raise self.fail(f"the array of variables {name} needs its items: = [x, y, ...]")
            items = [self.var_of(v, domain, f"{name}[{k + 1}]") for k, v in enumerate(value)]
            self.names[name] = items
            if "output_array" in notes:
                self.shown.extend(v.index for v in items if isinstance(v, E.Var))
            return
        if isinstance(value, E.Var):  # an alias
            self.names[name] = value
        else:
            made = self.new_var(name, domain)
            if value is not None:
                self.post(E.Compare(made, "==", self.operand(value)))
            self.names[name] = made
        if "output_var" in notes and isinstance(self.names[name], E.Var):
            self.shown.append(self.names[name].index)

    def new_var(self, name: str, domain: Any) -> E.Var:
        if domain == "int":
            raise self.fail(f"var int {name} has no bounds: every variable here has a finite domain")
        values = (0, 1) if domain == "bool" else domain
        try:
            index = self.model.add_var(values, self.display.get(name, name))
        except ModelError as e:
            raise self.fail(str(e)) from None
        return (E.BoolVar if self.model.domains[index] == (0, 1) else E.Var)(self.model, index)

    def var_of(self, value: Any, domain: Any, name: str) -> Any:
        if isinstance(value, E.Var):
            return value
        if isinstance(value, (bool, int)):
            return int(value)
        raise self.fail(f"{name}: expected a variable or a constant, got {value!r}")

    def expression(self) -> Any:
        tok = self.peek()
        if tok == "[":
            self.take()
            items = []
            while self.peek() != "]":
                items.append(self.expression())
                if self.peek() != "]":
                    self.take(",")
            self.take("]")
            return items
        if tok == "{":
            return self.set_literal()
        if tok in ("true", "false"):
            self.take()
            return tok == "true"
        if re.fullmatch(r"-?\d+", tok):
            self.take()
            if self.peek() == "..":
                self.take()
                return range(int(tok), self.number() + 1)
            return int(tok)
        if re.fullmatch(r"-?\d+\.\d+", tok):
            raise self.fail("floats are not supported (integers and Booleans only)")
        self.take()
        if tok not in self.names:
            raise self.fail(f"{tok!r} names no parameter or variable declared before")
        value = self.names[tok]
        if self.peek() == "[":
            self.take()
            k = self.number()
            self.take("]")
            if not isinstance(value, list) or not 1 <= k <= len(value):
                raise self.fail(f"{tok}[{k}] is outside the array")
            return value[k - 1]
        return value

    # -- constraints ----------------------------------------------------------------------------------------------
    def post(self, c: Any) -> None:
        try:
            self.model.add(c)  # a ps.Model keeps it as given, for explain
        except ModelError as e:
            raise self.fail(str(e)) from None

    def operand(self, v: Any) -> E.Expr:
        if isinstance(v, E.Expr):
            return v
        if isinstance(v, (bool, int)):
            return E.Const(int(v))
        raise self.fail(f"expected a variable or an integer, got {v!r}")

    def boolean(self, v: Any) -> E.BoolExpr:
        if isinstance(v, bool):
            return E.Truth(v)
        e = self.operand(v)
        return e if isinstance(e, E.BoolExpr) else E.Compare(e, "!=", E.Const(0))

    def ints(self, v: Any) -> list[int]:
        if not isinstance(v, list) or any(not isinstance(x, (int, bool)) for x in v):
            raise self.fail(f"expected an array of integers, got {v!r}")
        return [int(x) for x in v]

    def exprs(self, v: Any) -> list[E.Expr]:
        if not isinstance(v, list):
            raise self.fail(f"expected an array, got {v!r}")
        return [self.operand(x) for x in v]

    def constraint(self) -> None:
        name = self.take()
        self.take("(")
        args = []
        while self.peek() != ")":
            args.append(self.expression())
            if self.peek() != ")":
                self.take(",")
        self.take(")")
        self.annotations()
        self.take(";")
        if name.endswith(("_reif", "_imp")):  # r <-> c, and the half reification r -> c (Gecode's FlatZinc)
            base, reif = name.rsplit("_", 1)
            if not args:
                raise self.fail(f"{name} needs its arguments")
            rule = self.rule(base, args[:-1])
            if rule is None:
                raise self.fail(f"the FlatZinc builtin {name} is not supported")
            r = self.boolean(args[-1])
            self.post(E.Compare(r, "==", rule) if reif == "reif" else r.implies(rule))
            return
        rule = self.rule(name, args)
        if rule is None:
            done = self.function(name, args)
            if not done:
                raise self.fail(f"the FlatZinc builtin {name} is not supported")
            return
        self.post(rule)

    def need(self, name: str, args: Sequence[Any], n: int) -> None:
        if len(args) != n:
            raise self.fail(f"{name} takes {n} arguments, got {len(args)}")

    def rule(self, name: str, args: list[Any]) -> E.BoolExpr | None:
        """The builtins that are constraints (so also have a _reif form), as a BoolExpr; None for the others."""
        ops = {"eq": "==", "ne": "!=", "le": "<=", "lt": "<"}
        m = re.fullmatch(r"(int|bool)_(eq|ne|le|lt)", name)
        if m:
            self.need(name, args, 2)
            return E.Compare(self.operand(args[0]), ops[m.group(2)], self.operand(args[1]))
        m = re.fullmatch(r"(int|bool)_lin_(eq|ne|le)", name)
        if m:
            self.need(name, args, 3)
            coeffs, xs = self.ints(args[0]), self.exprs(args[1])
            if len(coeffs) != len(xs):
                raise self.fail(f"{name}: {len(coeffs)} coefficients for {len(xs)} variables")
            return E.Compare(E.Sum.of(list(zip(xs, coeffs))), ops[m.group(2)], self.operand(args[2]))
        if name == "set_in":
            self.need(name, args, 2)
            values = args[1]
            x = self.operand(args[0])
            if isinstance(values, range):
                return E.Junction([E.Compare(x, ">=", E.Const(values.start)), E.Compare(x, "<", E.Const(values.stop))],
                                  any_=False)
            if not isinstance(values, tuple):
                raise self.fail("set_in takes a set of integers")
            return E.Junction([E.Compare(x, "==", E.Const(v)) for v in values], any_=True)
        if name == "bool_clause":
            self.need(name, args, 2)
            literals: list[E.BoolExpr] = [self.boolean(b) for b in self.array_arg(args[0])]
            literals += [E.Not(self.boolean(b)) for b in self.array_arg(args[1])]
            return E.Junction(literals, any_=True)
        if name in ("bool_and", "bool_or", "bool_xor") and len(args) == 2:
            a, b = self.boolean(args[0]), self.boolean(args[1])
            return {"bool_and": a & b, "bool_or": a | b, "bool_xor": a ^ b}[name]
        if name == "bool_not" and len(args) == 1:
            return E.Not(self.boolean(args[0]))
        if name == "all_different_int":
            self.need(name, args, 1)
            return E.AllDifferent(self.exprs(args[0]))
        return None

    def array_arg(self, v: Any) -> list[Any]:
        if not isinstance(v, list):
            raise self.fail(f"expected an array, got {v!r}")
        return v

    def function(self, name: str, args: list[Any]) -> bool:
        """The builtins whose last argument is a result: r = f(...)."""
        if name in ("bool_and", "bool_or", "bool_xor") and len(args) == 3:  # r <-> a op b
            p, q = self.boolean(args[0]), self.boolean(args[1])
            both = {"bool_and": p & q, "bool_or": p | q, "bool_xor": p ^ q}[name]
            self.post(E.Compare(self.boolean(args[2]), "==", both))
            return True
        if name in ("bool_not", "bool2int", "bool_eq") and len(args) == 2:
            left, right = self.operand(args[0]), self.operand(args[1])
            self.post(E.Compare(left, "!=" if name == "bool_not" else "==", right))
            return True
        if name in ("array_bool_and", "array_bool_or"):
            self.need(name, args, 2)
            items = [self.boolean(b) for b in self.array_arg(args[0])]
            self.post(E.Compare(self.boolean(args[1]), "==", E.Junction(items, any_=name == "array_bool_or")))
            return True
        if name == "array_bool_xor":
            self.need(name, args, 1)
            total = E.Sum.of([(self.boolean(b), 1) for b in self.array_arg(args[0])])
            self.post(E.Compare(E.Division(total, E.Const(2), modulo=True), "==", E.Const(1)))
            return True
        binary = {"int_times", "int_div", "int_mod", "int_min", "int_max", "int_plus", "int_pow"}
        if name in binary:
            self.need(name, args, 3)
            a, b, r = (self.operand(x) for x in args)
            if name == "int_times":
                value: E.Expr = E.Product(a, b)
            elif name in ("int_div", "int_mod"):
                from puzzlesmith.csp.files.xcsp3 import truncated

                value = truncated(self.model, a, b, name == "int_mod")
            elif name == "int_plus":
                value = a + b
            elif name == "int_pow":
                value = E.Apply([a, b], lambda v: v[0] ** v[1] if v[1] >= 0 else None, "pow")  # type: ignore[arg-type,return-value]
            else:
                value = E.MinMax([a, b], largest=name == "int_max")
            self.post(E.Compare(r, "==", value))
            return True
        if name in ("int_abs", "int_negate"):
            self.need(name, args, 2)
            arg, result = self.operand(args[0]), self.operand(args[1])
            self.post(E.Compare(result, "==", E.Abs(arg) if name == "int_abs" else -arg))
            return True
        if name in ("array_int_element", "array_var_int_element", "array_bool_element", "array_var_bool_element"):
            self.need(name, args, 3)
            index, array, picked = self.operand(args[0]), self.exprs(args[1]), self.operand(args[2])
            self.post(E.Compare(E.Element(array, index - 1), "==", picked))  # FlatZinc's arrays count from 1
            return True
        return False

    def solve(self) -> None:
        self.annotations()
        kind = self.take()
        if kind == "satisfy":
            self.take(";")
            return
        if kind not in ("minimize", "maximize"):
            raise self.fail(f"solve takes satisfy, minimize or maximize, got {kind!r}")
        goal = self.operand(self.expression())
        self.take(";")
        try:
            terms, const = E.linear(self.model, goal)
        except ModelError as e:
            raise self.fail(str(e)) from None
        self.model.objective = (tuple(terms), tuple(terms.values()), const, "min" if kind == "minimize" else "max")


def parse(source_text: str, into: Model, source: str = "<text>") -> Model:
    """Fill the empty model ``into`` with the FlatZinc of ``source_text`` (see the module's docstring)."""
    if into.num_vars:
        raise ModelError("a model file is read into an empty model")
    reader = Reader(source)
    fzn = _Fzn(into, reader)
    fzn.run(source_text)
    if not into.num_vars:
        raise reader.fail("the file declares no variables")
    if fzn.shown:
        into.answer(sorted(set(fzn.shown)))
    return into
