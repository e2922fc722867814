"""XCSP3, the format of the XCSP3 competitions (Audemard, Boussemart, Lecoutre, Piette, Roussel, "XCSP3-core: A
Format for Representing Constraint Satisfaction/Optimization Problems", arXiv:2009.00514), in and out.

Written: each variable as a ``<var>`` (its domain as runs ``a..b`` and values), each compiled constraint as its
XCSP3 element (Linear as ``<sum>``, Table as ``<extension>``, AllDifferent as ``<allDifferent>`` over ``add(x,k)``
where it has offsets, Parity over non-negative values as ``<intension>``), the objective as ``<minimize>`` or
``<maximize>``. Variables that are no part of the answer are marked ``class="auxiliary"`` (XCSP3's tags), so
reading the file back counts the same answers. Names that are no XCSP3 identifier are written as ``v<index>``
with the name in ``note``.

Read: the core of the competitions' mini tracks: integer variables and arrays (``<domain for=...>`` included),
``<intension>`` (every operator of the functional syntax but the set and symbolic ones), ``<extension>`` (supports
or conflicts, ``*`` in tuples; many starred tuples as their disjunction), ``allDifferent`` (lists, expressions,
``except``, matrices), ``allEqual``, ``sum`` (coefficients, conditions with ``in``), ``count``, ``nValues``,
``cardinality``, ``minimum``/``maximum``, ``element`` (over a list or a matrix), ``ordered``, ``lex``, ``channel``,
``instantiation``, ``circuit``, ``noOverlap`` and ``cumulative`` (one dimension), inside ``<block>`` and ``<group>``
(``<args>`` with parts of arrays, one value per cell); objectives over an expression or of type sum, minimum,
maximum and nValues. Anything else is refused in one line naming the element and its line.
``div`` and ``mod`` follow the XCSP3 tools' (Java's) truncation toward zero.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from xml.etree.ElementTree import Element as Node, ParseError, TreeBuilder
from xml.parsers import expat

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr as E
from puzzlesmith.csp.constraints import TOPOLOGY, AllDifferent, Linear, Parity, Table
from puzzlesmith.csp.files import Reader
from puzzlesmith.csp.model import Model

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_OPS = {"==": "eq", "!=": "ne", "<=": "le", ">=": "ge"}


# -- writing ---------------------------------------------------------------------------------------------------------
def _domain_text(domain: Sequence[int]) -> str:
    """Sorted values as XCSP3 runs: ``0..9``, ``1 3 5..8``."""
    parts, start = [], 0
    values = list(domain)
    for k in range(1, len(values) + 1):
        if k == len(values) or values[k] != values[k - 1] + 1:
            lo, hi = values[start], values[k - 1]
            parts.append(str(lo) if lo == hi else f"{lo} {hi}" if hi == lo + 1 else f"{lo}..{hi}")
            start = k
    return " ".join(parts)


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def text(model: Model) -> str:
    """The model as an XCSP3 instance (see the module's docstring); a ModelError naming a constraint XCSP3-core
    cannot hold."""
    ids: list[str] = []
    taken: set[str] = set()
    for i in range(model.num_vars):
        name = model.names[i]
        ident = name if _ID.match(name) and name not in taken else f"v{i}"
        while ident in taken:
            ident += "_"
        taken.add(ident)
        ids.append(ident)
    auxiliary = set(range(model.num_vars)) - set(model.answer_vars) if model.projected else set()
    kind = "COP" if model.objective is not None else "CSP"
    out = [f'<instance format="XCSP3" type="{kind}">', "  <variables>"]
    for i, ident in enumerate(ids):
        attrs = f' id="{ident}"'
        if ident != model.names[i]:
            attrs += f' note="{_escape(model.names[i])}"'
        if i in auxiliary:
            attrs += ' class="auxiliary"'
        out.append(f"    <var{attrs}> {_domain_text(model.domains[i])} </var>")
    out += ["  </variables>", "  <constraints>"]
    for c in model.constraints:
        note = f' note="{_escape(c.name)}"' if c.name else ""
        names = [ids[v] for v in c.vars]
        if isinstance(c, Linear):
            coeffs = "" if all(a == 1 for a in c.coeffs) else f"<coeffs> {' '.join(map(str, c.coeffs))} </coeffs> "
            out.append(f"    <sum{note}> <list> {' '.join(names)} </list> {coeffs}"
                       f"<condition> ({_OPS[c.op]},{c.rhs}) </condition> </sum>")
        elif isinstance(c, AllDifferent):
            items = [n if o == 0 else f"add({n},{o})" for n, o in zip(names, c.offsets)]
            out.append(f"    <allDifferent{note}> {' '.join(items)} </allDifferent>")
        elif isinstance(c, Table):
            rows = sorted(c.tuples)
            if len(c.vars) == 1:
                supports = " ".join(str(r[0]) for r in rows)
            else:
                supports = "".join(f"({','.join(map(str, r))})" for r in rows)
            out.append(f"    <extension{note}> <list> {' '.join(names)} </list> <supports> {supports} </supports> "
                       "</extension>")
        elif isinstance(c, Parity):
            if any(model.domains[v][0] < 0 for v in c.vars):
                raise ModelError(f"XCSP3 cannot hold {c.describe()} over negative values: its mod truncates toward "
                                 "zero, a Parity constraint's does not")
            total = ",".join(n if a == 1 else f"mul({a},{n})" for n, a in zip(names, c.coeffs))
            out.append(f"    <intension{note}> eq(mod(add({total},0),{c.modulus}),{c.rhs}) </intension>")
        elif c.kind in TOPOLOGY:
            raise ModelError(f"XCSP3 cannot hold {c.describe()}: puzzlesmith's {c.kind} has no XCSP3-core element")
        else:
            raise ModelError(f"XCSP3 cannot hold {c.describe()}")
    out.append("  </constraints>")
    if model.objective is not None:
        variables, weights, constant, sense = model.objective
        tag = "minimize" if sense == "min" else "maximize"
        if constant or not variables:
            terms = [ids[v] if a == 1 else f"mul({a},{ids[v]})" for v, a in zip(variables, weights)] + [str(constant)]
            body = terms[0] if len(terms) == 1 else f"add({','.join(terms)})"
            out += ["  <objectives>", f"    <{tag}> {body} </{tag}>", "  </objectives>"]
        else:
            out += ["  <objectives>", f'    <{tag} type="sum"> <list> {" ".join(ids[v] for v in variables)} </list> '
                    f"<coeffs> {' '.join(map(str, weights))} </coeffs> </{tag}>", "  </objectives>"]
    out.append("</instance>")
    return "\n".join(out) + "\n"


# -- reading ---------------------------------------------------------------------------------------------------------
def _tree(source_text: str, reader: Reader) -> tuple[Node, dict[int, int]]:
    """The document's tree (ElementTree's), and each element's line, by the element's id."""
    builder = TreeBuilder()
    lines: dict[int, int] = {}
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        lines[id(builder.start(tag, attrs))] = parser.CurrentLineNumber

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(source_text, True)
        root = builder.close()
    except (expat.ExpatError, ParseError) as e:
        raise reader.fail(f"not well-formed XML ({expat.errors.messages.get(getattr(e, 'code', 0), e)})",
                          getattr(e, "lineno", None) or parser.ErrorLineNumber) from None
    return root, lines


def truncated(model: Model, x: E.Expr, y: E.Expr, modulo: bool) -> E.Expr:
    """Division toward zero and the remainder of x's sign (Java's, as the XCSP3 tools and FlatZinc compute them);
    Python's floor division where neither side is ever negative (the two agree there). By zero: no value."""
    low_x = E.bounds(model, E.linear(model, x))[0]
    low_y = E.bounds(model, E.linear(model, y))[0]
    if low_x >= 0 and low_y >= 0:
        return E.Division(x, y, modulo)

    def java(v: list[int]) -> int | None:
        if v[1] == 0:
            return None
        q = abs(v[0]) // abs(v[1]) * (1 if (v[0] >= 0) == (v[1] >= 0) else -1)
        return v[0] - q * v[1] if modulo else q

    return E.Apply([x, y], java, "mod" if modulo else "div")  # type: ignore[arg-type]


#: A table whose starred tuples (``*`` for any value) stand for more tuples than this is read as the
#: disjunction of its tuples, each the conjunction of its values (pycsp3's AztecDiamond writes tuples of eight
#: cells over twelve values with seven stars: 36 million tuples; five cells with three stars, 1,728 each).
_STARRED_ROWS = 10_000


def _split(text: str) -> list[str]:
    """Whitespace-separated items, an expression's inner spaces (``add(x, 1)``) kept inside its item."""
    items, depth, current = [], 0, ""
    for ch in text:
        if ch.isspace() and depth == 0:
            if current:
                items.append(current)
                current = ""
            continue
        depth += (ch == "(") - (ch == ")")
        if not ch.isspace():
            current += ch
    if current:
        items.append(current)
    return items


class _Xcsp:
    def __init__(self, model: Model, reader: Reader, lines: dict[int, int]) -> None:
        self.model, self.reader, self.lines = model, reader, lines
        self.vars: dict[str, E.Var] = {}
        self.arrays: dict[str, tuple[tuple[int, ...], dict[tuple[int, ...], E.Var]]] = {}
        self.node: Node | None = None
        self.copies: list[Node] = []  # a group's constraints, made from its template: kept, so their ids stay theirs

    def fail(self, message: str, node: Node | None = None) -> ModelError:
        at = node if node is not None else self.node
        line = self.lines.get(id(at), 0) if at is not None else 0
        where = f"<{at.tag}>: " if at is not None else ""
        return self.reader.fail(where + message, line)

    # -- variables ------------------------------------------------------------------------------------------------
    def domain(self, text: str, node: Node) -> Sequence[int]:
        """The values of a domain; one run ``lo..hi`` stays a range (the model refuses one too big to hold)."""
        words = text.split()
        if len(words) == 1 and re.fullmatch(r"[+-]?\d+\.\.[+-]?\d+", words[0]):
            lo, hi = words[0].split("..")
            if int(hi) < int(lo):
                raise self.fail("an empty domain", node)
            return range(int(lo), int(hi) + 1)
        values: list[int] = []
        for item in words:
            try:
                if ".." in item:
                    lo, hi = item.split("..")
                    values.extend(range(int(lo), int(hi) + 1))
                else:
                    values.append(int(item))
            except ValueError:
                raise self.fail(f"cannot read {item!r} as a value or a range lo..hi of integers", node) from None
        if not values:
            raise self.fail("an empty domain", node)
        return values

    def new_var(self, name: str, values: Sequence[int], node: Node) -> E.Var:
        auxiliary = "auxiliary" in (node.get("class") or "").split()
        try:
            if auxiliary:
                index = self.model.add_helper(values, name)
            else:
                index = self.model.add_var(values, name)
        except ModelError as e:
            raise self.fail(str(e), node) from None
        d = self.model.domains[index]
        return (E.BoolVar if d == (0, 1) else E.Var)(self.model, index)

    def variables(self, section: Node) -> None:
        for node in section:
            self.node = node
            ident = node.get("id")
            if not ident:
                raise self.fail("a variable without its id")
            if node.get("type", "integer") != "integer":
                raise self.fail(f"variables of type {node.get('type')!r} are not supported (integer only)")
            if node.tag == "var":
                if node.get("as"):
                    other = self.vars.get(node.get("as", ""))
                    if other is None:
                        raise self.fail(f"'as' names no variable declared before: {node.get('as')!r}")
                    values: Sequence[int] = self.model.domains[other.index]
                else:
                    values = self.domain(node.text or "", node)
                self.vars[ident] = self.new_var(ident, values, node)
            elif node.tag == "array":
                self.array(ident, node)
            else:
                raise self.fail("is not a variable or an array of them")

    def array(self, ident: str, node: Node) -> None:
        sizes = re.findall(r"\[(\d+)\]", node.get("size", ""))
        if not sizes:
            raise self.fail(f"an array's size reads [n] or [n][m]..., got {node.get('size')!r}")
        shape = tuple(int(s) for s in sizes)
        cells: dict[tuple[int, ...], Sequence[int]] = {}
        every = list(itertools.product(*(range(n) for n in shape)))
        parts = [child for child in node if child.tag == "domain"]
        if not parts:
            values = self.domain(node.text or "", node)
            cells = {at: values for at in every}
        for part in parts:
            values = self.domain(part.text or "", part)
            targets = part.get("for", "").split()
            if targets == ["others"]:
                for at in every:
                    cells.setdefault(at, values)
                continue
            for target in targets:
                name, at_text = target.partition("[")[0], target[len(target.partition("[")[0]):]
                if name != ident:
                    raise self.fail(f"a domain for {target!r}, which is not a cell of array {ident!r}", part)
                for at in self.cells(shape, at_text, part):
                    cells[at] = values
        made = {at: self.new_var(f"{ident}{''.join(f'[{k}]' for k in at)}", cells[at], node)
                for at in every if at in cells}
        self.arrays[ident] = (shape, made)

    def cells(self, shape: tuple[int, ...], at_text: str, node: Node) -> Iterator[tuple[int, ...]]:
        """The positions ``[2][]``, ``[1..3][0]``, ``[]`` name, in row-major order."""
        parts = re.findall(r"\[([^\]]*)\]", at_text)
        if len(parts) != len(shape) or "".join(f"[{p}]" for p in parts) != at_text:
            raise self.fail(f"cannot read {at_text!r} as {len(shape)} index(es) of an array of size "
                            f"{''.join(f'[{n}]' for n in shape)}", node)
        axes = []
        for p, n in zip(parts, shape):
            try:
                if p == "":
                    axes.append(range(n))
                elif ".." in p:
                    lo, hi = p.split("..")
                    axes.append(range(int(lo), int(hi) + 1))
                else:
                    axes.append(range(int(p), int(p) + 1))
            except ValueError:
                raise self.fail(f"cannot read the index {p!r}", node) from None
            if axes[-1] and not (0 <= axes[-1][0] and axes[-1][-1] < n):
                raise self.fail(f"index {p!r} is outside an axis of {n}", node)
        return itertools.product(*axes)

    # -- operands and expressions ---------------------------------------------------------------------------------
    def items(self, text: str | None, node: Node | None = None) -> list[E.Expr]:
        """A list of operands: variables, ``x[]``-style parts of arrays, integers, ``a..b`` runs of integers (in
        lists of values) and expressions."""
        out: list[E.Expr] = []
        for item in _split(text or ""):
            out.extend(self.item(item, node))
        return out

    def item(self, item: str, node: Node | None) -> list[E.Expr]:
        if re.fullmatch(r"[+-]?\d+", item):
            return [E.Const(int(item))]
        if re.fullmatch(r"[+-]?\d+\.\.[+-]?\d+", item):
            lo, hi = item.split("..")
            return [E.Const(v) for v in range(int(lo), int(hi) + 1)]
        if item in self.vars:
            return [self.vars[item]]
        name = item.partition("[")[0]
        if name in self.arrays and "(" not in item:
            shape, made = self.arrays[name]
            found: list[E.Expr] = []
            for at in self.cells(shape, item[len(name):], node if node is not None else self.node):  # type: ignore[arg-type]
                if at in made:
                    found.append(made[at])
                elif "[]" not in item and ".." not in item:
                    raise self.fail(f"{item} is a cell of {name} that has no variable", node)
            return found
        if "(" in item:
            return [self.expression(item, node)]
        raise self.fail(f"{item!r} names no variable", node)

    def one(self, text: str | None, node: Node | None = None) -> E.Expr:
        got = self.items(text, node)
        if len(got) != 1:
            raise self.fail(f"expected one variable, value or expression, got {(text or '').strip()[:60]!r}", node)
        return got[0]

    def expression(self, text: str, node: Node | None) -> E.Expr:
        tokens = re.findall(r"[A-Za-z_][\w]*(?:\[[^\]]*\])*|[+-]?\d+|[(),]|\S", text)
        pos = 0

        def parse() -> Any:
            nonlocal pos
            if pos >= len(tokens):
                raise self.fail(f"the expression {text[:60]!r} ends too soon", node)
            tok = tokens[pos]
            pos += 1
            if pos < len(tokens) and tokens[pos] == "(":
                pos += 1
                args: list[Any] = []
                while True:
                    if pos < len(tokens) and tokens[pos] == ")" and not args:
                        pos += 1
                        break
                    args.append(parse())
                    if pos >= len(tokens):
                        raise self.fail(f"the expression {text[:60]!r} misses a ')'", node)
                    sep = tokens[pos]
                    pos += 1
                    if sep == ")":
                        break
                    if sep != ",":
                        raise self.fail(f"expected ',' or ')' in {text[:60]!r}, got {sep!r}", node)
                return self.apply(tok, args, node)
            if tok in ("(", ")", ","):
                raise self.fail(f"unexpected {tok!r} in {text[:60]!r}", node)
            got = self.item(tok, node)
            if len(got) != 1:
                raise self.fail(f"{tok!r} is no single variable or value in {text[:60]!r}", node)
            return got[0]

        result = parse()
        if pos != len(tokens):
            raise self.fail(f"unexpected {tokens[pos]!r} after the expression in {text[:60]!r}", node)
        if isinstance(result, tuple):
            raise self.fail("a set() is only an argument of in() or notin()", node)
        return result

    def apply(self, op: str, args: list[Any], node: Node | None) -> Any:
        def need(low: int, high: int | None = None) -> None:
            if len(args) < low or (high is not None and len(args) > high):
                want = str(low) if high == low else f"{low} or more" if high is None else f"{low} to {high}"
                raise self.fail(f"{op}() takes {want} arguments, got {len(args)}", node)

        if op == "set":
            if any(not isinstance(a, E.Const) for a in args):
                raise self.fail("set() holds integers here", node)
            return tuple(a.value for a in args)
        if any(isinstance(a, tuple) for a in args) and op not in ("in", "notin"):
            raise self.fail(f"a set() is no argument of {op}()", node)
        compare = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "ne": "!="}
        if op in compare:
            need(2, 2)
            return E.Compare(args[0], compare[op], args[1])
        if op == "eq":
            need(2)
            parts = [E.Compare(a, "==", b) for a, b in zip(args, args[1:])]
            return parts[0] if len(parts) == 1 else E.Junction(parts, any_=False)
        if op in ("in", "notin"):
            need(2, 2)
            if not isinstance(args[1], tuple):
                raise self.fail(f"{op}()'s second argument is a set(...)", node)
            inside: E.BoolExpr = E.Junction([E.Compare(args[0], "==", E.Const(v)) for v in args[1]], any_=True)
            return inside if op == "in" else E.Not(inside)
        if op == "add":
            need(1)
            return E.Sum.of([(a, 1) for a in args])
        if op == "sub":
            need(2, 2)
            return args[0] - args[1]
        if op == "neg":
            need(1, 1)
            return -args[0]
        if op == "abs":
            need(1, 1)
            return E.Abs(args[0])
        if op == "dist":
            need(2, 2)
            return E.Abs(args[0] - args[1])
        if op == "mul":
            need(1)
            out = args[0]
            for a in args[1:]:
                out = out * a.value if isinstance(a, E.Const) else (a * out.value if isinstance(out, E.Const)
                                                                    else E.Product(out, a))
            return out
        if op == "sqr":
            need(1, 1)
            return E.Product(args[0], args[0])
        if op in ("div", "mod"):
            need(2, 2)
            return self.division(args[0], args[1], op == "mod")
        if op == "pow":
            need(2, 2)
            return E.Apply(args, lambda v: v[0] ** v[1] if v[1] >= 0 else None, "pow")  # type: ignore[arg-type,return-value]
        if op in ("min", "max"):
            need(1)
            return E.MinMax(args, largest=op == "max")
        if op == "if":
            need(3, 3)
            return E.if_then_else(self.boolean(args[0], node), args[1], args[2])
        if op == "not":
            need(1, 1)
            return E.Not(self.boolean(args[0], node))
        if op in ("and", "or"):
            need(1)
            return E.Junction([self.boolean(a, node) for a in args], any_=op == "or")
        if op == "imp":
            need(2, 2)
            return self.boolean(args[0], node).implies(self.boolean(args[1], node))
        if op == "xor":
            need(1)
            total = E.Sum.of([(self.boolean(a, node), 1) for a in args])
            return E.Compare(E.Division(total, E.Const(2), modulo=True), "==", E.Const(1))
        if op == "iff":
            need(2)
            bs = [self.boolean(a, node) for a in args]
            parts = [E.Compare(a, "==", b) for a, b in zip(bs, bs[1:])]
            return parts[0] if len(parts) == 1 else E.Junction(parts, any_=False)
        raise self.fail(f"the operator {op}() is not supported", node)

    def boolean(self, e: E.Expr, node: Node | None) -> E.BoolExpr:
        if isinstance(e, E.BoolExpr):
            return e
        if isinstance(e, E.Const):
            return E.Truth(bool(e.value))
        return E.Compare(e, "!=", E.Const(0))  # an integer as a condition: true when not 0

    def division(self, x: E.Expr, y: E.Expr, modulo: bool) -> E.Expr:
        return truncated(self.model, x, y, modulo)

    # -- constraints ----------------------------------------------------------------------------------------------
    def constraints(self, section: Node) -> None:
        for node in section:
            self.constraint(node)

    def post(self, c: Any, node: Node) -> None:
        try:
            self.model.add(c)  # a ps.Model keeps it as given, for explain
        except ModelError as e:
            raise self.fail(str(e), node) from None

    def child(self, node: Node, tag: str, required: bool = True) -> Node | None:
        found = node.find(tag)
        if found is None and required:
            raise self.fail(f"has no <{tag}>", node)
        return found

    def list_of(self, node: Node) -> list[E.Expr]:
        lst = node.find("list")
        return self.items(lst.text if lst is not None else node.text, lst if lst is not None else node)

    def start_index(self, node: Node) -> int:
        lst = node.find("list")
        try:
            return int((lst.get("startIndex") if lst is not None else None) or 0)
        except ValueError:
            raise self.fail("startIndex must be an integer", node) from None

    def condition(self, node: Node, lhs: E.Expr) -> E.BoolExpr:
        cond = self.child(node, "condition")
        assert cond is not None
        m = re.fullmatch(r"\s*\(\s*(\w+)\s*,\s*(.+?)\s*\)\s*", cond.text or "")
        if not m:
            raise self.fail(f"a condition reads (operator,operand), got {(cond.text or '').strip()!r}", cond)
        op, operand = m.group(1), m.group(2)
        if op in ("in", "notin"):
            if re.fullmatch(r"[+-]?\d+\.\.[+-]?\d+", operand):
                lo, hi = map(int, operand.split(".."))
                inside: E.BoolExpr = E.Junction([E.Compare(lhs, ">=", E.Const(lo)), E.Compare(lhs, "<=", E.Const(hi))],
                                                any_=False)
            else:
                values = self.items(operand.strip("{}").replace(",", " "), cond)
                inside = E.Junction([E.Compare(lhs, "==", v) for v in values], any_=True)
            return inside if op == "in" else E.Not(inside)
        ops = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
        if op not in ops:
            raise self.fail(f"the operator {op!r} of a condition is none of lt le ge gt eq ne in notin", cond)
        return E.Compare(lhs, ops[op], self.one(operand, cond))

    def constraint(self, node: Node) -> None:
        self.node = node
        tag = node.tag
        if tag == "block":
            for child in node:
                self.constraint(child)
            return
        if tag == "group":
            self.group(node)
            return
        if tag == "intension":
            function = node.find("function")
            self.post(self.boolean(self.one((function if function is not None else node).text, node), node), node)
            return
        handler: Callable[[Node], None] | None = getattr(self, f"_{tag}", None)
        if handler is None:
            raise self.fail("is not supported (puzzlesmith reads the XCSP3-core constraints of the mini tracks)")
        handler(node)

    def group(self, node: Node) -> None:
        template = next((child for child in node if child.tag != "args"), None)
        if template is None:
            raise self.fail("a group without its constraint template", node)
        for args in node.findall("args"):
            made = self.filled(template, self.arguments(args), args)
            self.copies.append(made)
            self.constraint(made)

    def arguments(self, args: Node) -> list[str]:
        """The values of one <args>, each part of an array (``x[0][]``, ``x[0..1][2]``) as its cells, one
        value each, so that %0, %1, ... count cells as the XCSP3 tools do."""
        values: list[str] = []
        for item in _split(args.text or ""):
            name = item.partition("[")[0]
            if name in self.arrays and "(" not in item and ("[]" in item or ".." in item):
                shape, made = self.arrays[name]
                values.extend(name + "".join(f"[{i}]" for i in at)
                              for at in self.cells(shape, item[len(name):], args) if at in made)
            else:
                values.append(item)
        return values

    def filled(self, n: Node, values: list[str], args: Node, rest: int | None = None) -> Node:
        """A copy of the template ``n`` with %0, %1, ... and %... replaced by the values of one <args>: %...
        stands for the values after the highest %k of the whole template (``<sum> <list> %... </list>
        <condition> (eq,%0) </condition> </sum>``: all but the first)."""
        if rest is None:
            used = [int(k) for part in n.itertext() for k in re.findall(r"%(\d+)", part)]
            rest = max(used) + 1 if used else 0

        def fill(s: str | None) -> str | None:
            if s is None:
                return None
            s = s.replace("%...", " ".join(values[rest:]))

            def arg(m: re.Match[str]) -> str:
                k = int(m.group(1))
                if k >= len(values):
                    raise self.fail(f"%{k} has no value in <args> {(args.text or '').strip()!r}", args)
                return values[k]
            return re.sub(r"%(\d+)", arg, s)

        other = Node(n.tag, dict(n.attrib))
        other.text, other.tail = fill(n.text), n.tail
        other.extend([self.filled(k, values, args, rest) for k in n])
        self.lines[id(other)] = self.lines.get(id(args), 0)
        return other

    def _extension(self, node: Node) -> None:
        scope = self.list_of(node)
        supports, conflicts = node.find("supports"), node.find("conflicts")
        rows_node = supports if supports is not None else conflicts
        if rows_node is None:
            raise self.fail("has neither <supports> nor <conflicts>", node)
        body = (rows_node.text or "").strip()
        rows: list[tuple[int, ...]]
        if len(scope) == 1 and "(" not in body:
            rows = [(self.number(c, rows_node),) for c in self.items(body, rows_node)]
        else:
            domains = [self.values_of(x) for x in scope]
            starred: list[list[int | None]] = []  # None for *
            for m in re.finditer(r"\(([^)]*)\)", body):
                cells = [c.strip() for c in m.group(1).split(",")]
                if len(cells) != len(scope):
                    raise self.fail(f"the tuple ({m.group(1)}) has {len(cells)} values for {len(scope)} variables",
                                    rows_node)
                try:
                    starred.append([None if c == "*" else int(c) for c in cells])
                except ValueError:
                    raise self.fail(f"cannot read the tuple ({m.group(1)})", rows_node) from None
            expanded = sum(math.prod(len(d) for c, d in zip(row, domains) if c is None) for row in starred)
            if expanded > _STARRED_ROWS:  # each tuple as the conjunction of its values, the table their disjunction
                anyof = E.Junction([E.Junction([E.Compare(x, "==", E.Const(c)) for x, c in zip(scope, row)
                                                if c is not None], any_=False) for row in starred], any_=True)
                self.post(anyof if supports is not None else E.Not(anyof), node)
                return
            rows = [t for row in starred
                    for t in itertools.product(*([c] if c is not None else d for c, d in zip(row, domains)))]
        table = E.Table(scope, rows)
        self.post(table if supports is not None else E.Not(table), node)

    def number(self, e: E.Expr, node: Node | None) -> int:
        if not isinstance(e, E.Const):
            raise self.fail(f"expected a whole number, got {e!r}", node)
        return e.value

    def values_of(self, e: E.Expr) -> list[int]:
        lo, hi = E.bounds(self.model, E.linear(self.model, e))
        if isinstance(e, E.Var):
            return list(self.model.domains[e.index])
        return list(range(lo, hi + 1))

    def _allDifferent(self, node: Node) -> None:
        matrix = node.find("matrix")
        if matrix is not None:
            rows = [self.items(row, matrix) for row in re.findall(r"\(([^)]*)\)", matrix.text or "")]
            if not rows:
                rows = self.rows_of(matrix)
            for line in [*rows, *map(list, zip(*rows))]:
                self.post(E.AllDifferent(line), node)
            return
        if len(node.findall("list")) > 1:
            raise self.fail("allDifferent over several lists is not supported", node)
        xs = self.list_of(node)
        exc = node.find("except")
        if exc is None:
            self.post(E.AllDifferent(xs), node)
            return
        skip = [self.number(c, exc) for c in self.items(exc.text, exc)]
        if skip == [0]:
            self.post(E.AllDifferentExcept0(xs), node)
            return
        for i, a in enumerate(xs):
            for b in xs[i + 1:]:
                self.post(E.Junction([E.Compare(a, "!=", b), *(E.Compare(a, "==", E.Const(v)) for v in skip)],
                                     any_=True), node)

    def rows_of(self, matrix: Node) -> list[list[E.Expr]]:
        """A matrix given as ``x[][]``: its rows."""
        text = (matrix.text or "").strip()
        name = text.partition("[")[0]
        if name not in self.arrays or len(self.arrays[name][0]) != 2:
            raise self.fail(f"cannot read {text!r} as a matrix", matrix)
        shape, made = self.arrays[name]
        return [[made[r, c] for c in range(shape[1])] for r in range(shape[0])]

    def _allEqual(self, node: Node) -> None:
        self.post(E.AllEqual(self.list_of(node)), node)

    def _sum(self, node: Node) -> None:
        xs = self.list_of(node)
        coeffs_node = node.find("coeffs")
        coeffs: list[E.Expr] = self.items(coeffs_node.text, coeffs_node) if coeffs_node is not None else []
        if coeffs and len(coeffs) != len(xs):
            raise self.fail(f"{len(xs)} terms but {len(coeffs)} coefficients", node)
        terms: list[tuple[E.Expr, int]] = []
        for k, x in enumerate(xs):
            c = coeffs[k] if coeffs else E.Const(1)
            if isinstance(c, E.Const):
                terms.append((x, c.value))
            else:
                terms.append((E.Product(x, c), 1))
        self.post(self.condition(node, E.Sum.of(terms)), node)

    def _count(self, node: Node) -> None:
        xs = self.list_of(node)
        values_node = self.child(node, "values")
        values = self.items(values_node.text if values_node is not None else "", values_node)
        total = E.Sum.of([(E.Junction([E.Compare(x, "==", v) for v in values], any_=True), 1) for x in xs])
        self.post(self.condition(node, total), node)

    def _nValues(self, node: Node) -> None:
        if node.find("except") is not None:
            raise self.fail("nValues with <except> is not supported", node)
        self.post(self.condition(node, E.NValue(self.list_of(node))), node)

    def _cardinality(self, node: Node) -> None:
        xs = self.list_of(node)
        values_node, occurs_node = self.child(node, "values"), self.child(node, "occurs")
        assert values_node is not None and occurs_node is not None
        values = self.items(values_node.text, values_node)
        occurs: list[tuple[E.Expr, E.Expr | None]] = []  # (count, None) or an interval (low, high)
        for item in _split(occurs_node.text or ""):
            if re.fullmatch(r"[+-]?\d+\.\.[+-]?\d+", item):
                lo, hi = item.split("..")
                occurs.append((E.Const(int(lo)), E.Const(int(hi))))
            else:
                occurs.extend((o, None) for o in self.item(item, occurs_node))
        if len(occurs) != len(values):
            raise self.fail(f"{len(values)} values but {len(occurs)} occurrences", node)
        for v, (low, high) in zip(values, occurs):
            count = E.Sum.of([(E.Compare(x, "==", v), 1) for x in xs])
            if high is None:
                self.post(E.Compare(count, "==", low), node)
            else:
                self.post(E.Junction([E.Compare(count, ">=", low), E.Compare(count, "<=", high)], any_=False), node)
        if values_node.get("closed") == "true":
            for x in xs:
                self.post(E.Junction([E.Compare(x, "==", v) for v in values], any_=True), node)

    def _minimum(self, node: Node) -> None:
        self.post(self.condition(node, E.MinMax(self.list_of(node), largest=False)), node)

    def _maximum(self, node: Node) -> None:
        self.post(self.condition(node, E.MinMax(self.list_of(node), largest=True)), node)

    def _element(self, node: Node) -> None:
        index_node = node.find("index")
        value_node = node.find("value")
        matrix = node.find("matrix")
        if matrix is not None:  # m[i][j] with two variable indices: the element of the rows read one after another
            rows = [self.items(row.replace(",", " "), matrix) for row in re.findall(r"\(([^)]*)\)", matrix.text or "")]
            rows = rows or self.rows_of(matrix)
            if len({len(r) for r in rows}) != 1 or index_node is None or value_node is None:
                raise self.fail("element over a matrix takes equal rows, <index> i j </index> and a <value>", node)
            i, j = self.items(index_node.text, index_node)
            width = len(rows[0])
            flat = E.Element([x for r in rows for x in r], i * width + j, [(i, len(rows)), (j, width)])
            self.post(E.Compare(flat, "==", self.one(value_node.text, value_node)), node)
            return
        xs, start = self.list_of(node), self.start_index(node)
        if value_node is None:
            if node.find("condition") is None:
                raise self.fail("has no <value> and no <condition>", node)
            target: E.Expr | None = None
        else:
            target = self.one(value_node.text, value_node)
        if index_node is None:  # the value is one of the list's
            if target is None:
                raise self.fail("element without <index> takes a <value>", node)
            self.post(E.Junction([E.Compare(x, "==", target) for x in xs], any_=True), node)
            return
        index = self.one(index_node.text, index_node)
        picked = E.Element(xs, index - start if start else index)
        self.post(E.Compare(picked, "==", target) if target is not None else self.condition(node, picked), node)

    def _ordered(self, node: Node) -> None:
        if node.find("lengths") is not None:
            raise self.fail("ordered with <lengths> is not supported", node)
        op = (self.child(node, "operator").text or "").strip()  # type: ignore[union-attr]
        if op not in ("lt", "le", "gt", "ge"):
            raise self.fail(f"the operator of ordered is lt, le, gt or ge, got {op!r}", node)
        self.post(E.Ordered(self.list_of(node), decreasing=op in ("gt", "ge"), strict=op in ("lt", "gt")), node)

    def _lex(self, node: Node) -> None:
        op = (self.child(node, "operator").text or "").strip()  # type: ignore[union-attr]
        if op not in ("lt", "le", "gt", "ge"):
            raise self.fail(f"the operator of lex is lt, le, gt or ge, got {op!r}", node)
        matrix = node.find("matrix")
        if matrix is not None:
            rows = [self.items(row, matrix) for row in re.findall(r"\(([^)]*)\)", matrix.text or "")]
            rows = rows or self.rows_of(matrix)
            lists = [rows, [list(c) for c in zip(*rows)]]
        else:
            lists = [[self.items(lst.text, lst) for lst in node.findall("list")]]
        for group in lists:
            for a, b in zip(group, group[1:]):
                first, second = (a, b) if op in ("lt", "le") else (b, a)
                try:
                    self.post(E.Lex(first, second, strict=op in ("lt", "gt")), node)
                except ModelError as e:
                    raise self.fail(str(e), node) from None

    def _channel(self, node: Node) -> None:
        lists = node.findall("list")
        value_node = node.find("value")
        if len(lists) == 1 and value_node is not None:  # x[i] = 1 exactly when value = i
            xs, start, v = self.list_of(node), self.start_index(node), self.one(value_node.text, value_node)
            for i, x in enumerate(xs):
                self.post(E.Compare(E.Compare(x, "==", E.Const(1)), "==", E.Compare(v, "==", E.Const(i + start))),
                          node)
            self.post(E.Junction([E.Compare(v, "==", E.Const(i + start)) for i in range(len(xs))], any_=True), node)
            return
        starts = []
        for lst in lists:
            try:
                starts.append(int(lst.get("startIndex") or 0))
            except ValueError:
                raise self.fail("startIndex must be an integer", lst) from None
        if len(lists) <= 1:  # one list: its own inverse (the list may stand alone, as <channel> x[] </channel>)
            xs = self.list_of(node)
            start = starts[0] if starts else 0
            lists_values, s = [xs, xs], [start, start]
        elif len(lists) == 2:
            lists_values, s = [self.items(lst.text, lst) for lst in lists], starts
        else:
            raise self.fail("channel takes one or two lists", node)
        xs, ys = lists_values
        if len(xs) > len(ys):
            raise self.fail("channel: the first list may not be longer than the second", node)
        for i, x in enumerate(xs):
            self.post(E.Junction([E.Compare(x, "==", E.Const(j + s[1])) for j in range(len(ys))], any_=True), node)
            for j, y in enumerate(ys):
                a, b = E.Compare(x, "==", E.Const(j + s[1])), E.Compare(y, "==", E.Const(i + s[0]))
                self.post(E.Compare(a, "==", b) if len(xs) == len(ys) else a.implies(b), node)

    def transitions(self, node: Node) -> list[tuple[str, int, str]]:
        got = self.child(node, "transitions")
        assert got is not None
        out = []
        for m in re.finditer(r"\(([^)]*)\)", got.text or ""):
            parts = [p.strip() for p in m.group(1).split(",")]
            if len(parts) != 3 or not re.fullmatch(r"[+-]?\d+", parts[1]):
                raise self.fail(f"a transition reads (state,value,state), got ({m.group(1)})", got)
            out.append((parts[0], int(parts[1]), parts[2]))
        return out

    def automaton(self, node: Node, xs: list[E.Expr], delta: list[tuple[str, int, str]], start: str,
                  final: list[str]) -> None:
        try:
            self.post(E.Regular(xs, delta, start, final), node)
        except ModelError as e:
            raise self.fail(str(e), node) from None

    def _regular(self, node: Node) -> None:
        start, final = self.child(node, "start"), self.child(node, "final")
        assert start is not None and final is not None
        self.automaton(node, self.list_of(node), self.transitions(node), (start.text or "").strip(),
                       (final.text or "").split())

    def _mdd(self, node: Node) -> None:
        """A layered diagram: its root is the node no arc enters, its terminal the node no arc leaves."""
        delta = self.transitions(node)
        sources, targets = {a for a, _, _ in delta}, {b for _, _, b in delta}
        roots, terminals = sources - targets, targets - sources
        if len(roots) != 1 or len(terminals) != 1:
            raise self.fail("an mdd has one root (no arc enters it) and one terminal (no arc leaves it)", node)
        self.automaton(node, self.list_of(node), delta, roots.pop(), [terminals.pop()])

    def _slide(self, node: Node) -> None:
        """The template on each window of the list: %0 ... %k-1 over x[i*offset], x[i*offset+1], ..."""
        lst = self.child(node, "list")
        assert lst is not None
        template = next((child for child in node if child.tag != "list"), None)
        if template is None:
            raise self.fail("a slide without its constraint template", node)
        xs = _split(lst.text or "")
        items = [t for item in xs for t in ([item] if "(" in item else self.expanded(item, lst))]
        try:
            offset = int(lst.get("offset") or 1)
        except ValueError:
            raise self.fail("offset must be an integer", lst) from None
        width = 1 + max(int(k) for k in re.findall(r"%(\d+)", "".join(n.text or "" for n in template.iter())) or ["0"])
        circular = node.get("circular") == "true"
        last = len(items) if circular else len(items) - width + 1
        for start in range(0, max(last, 0), offset):
            window = [items[(start + k) % len(items)] for k in range(width)]
            made = self.filled(template, window, lst)
            self.copies.append(made)
            self.constraint(made)

    def expanded(self, item: str, node: Node) -> list[str]:
        """A list item as the names of the variables it stands for (``x[]`` is every x), for templates."""
        return [repr(e) if isinstance(e, E.Var) else str(e) for e in self.item(item, node)]

    def _instantiation(self, node: Node) -> None:
        xs = self.list_of(node)
        values_node = self.child(node, "values")
        values = self.items(values_node.text if values_node is not None else "", values_node)
        if len(values) != len(xs):
            raise self.fail(f"{len(xs)} variables but {len(values)} values", node)
        for x, v in zip(xs, values):
            self.post(E.Compare(x, "==", v), node)

    def _circuit(self, node: Node) -> None:
        if node.find("size") is not None:
            raise self.fail("circuit with <size> is not supported", node)
        xs, start = self.list_of(node), self.start_index(node)
        self.post(E.Circuit([x - start if start else x for x in xs]), node)

    def _tasks(self, node: Node, tag: str) -> list[int]:
        got = self.child(node, tag)
        assert got is not None
        items = self.items(got.text, got)
        return [self.number(i, got) for i in items]

    def _noOverlap(self, node: Node) -> None:
        origins = self.child(node, "origins")
        assert origins is not None
        if "(" in (origins.text or ""):
            raise self.fail("noOverlap in several dimensions is not supported", node)
        self.post(E.NoOverlap(self.items(origins.text, origins), self._tasks(node, "lengths")), node)

    def _cumulative(self, node: Node) -> None:
        origins = self.child(node, "origins")
        assert origins is not None
        cond = self.child(node, "condition")
        assert cond is not None
        m = re.fullmatch(r"\s*\(\s*le\s*,\s*(\d+)\s*\)\s*", cond.text or "")
        if not m:
            raise self.fail("cumulative's condition is (le,CAPACITY) here", cond)
        self.post(E.Cumulative(self.items(origins.text, origins), self._tasks(node, "lengths"),
                               self._tasks(node, "heights"), int(m.group(1))), node)

    # -- objectives -----------------------------------------------------------------------------------------------
    def objectives(self, section: Node) -> None:
        goals = list(section)
        if len(goals) > 1:
            raise self.fail("several objectives are not supported (one objective a model)", goals[1])
        for node in goals:
            self.node = node
            if node.tag not in ("minimize", "maximize"):
                raise self.fail("is not an objective (minimize or maximize)")
            kind = node.get("type", "expression")
            if kind == "expression":
                goal = self.one(node.text, node)
            else:
                xs = self.list_of(node)
                coeffs_node = node.find("coeffs")
                coeffs = [self.number(c, coeffs_node) for c in self.items(coeffs_node.text, coeffs_node)] \
                    if coeffs_node is not None else [1] * len(xs)
                if kind == "sum":
                    goal = E.Sum.of(list(zip(xs, coeffs)))
                elif kind in ("minimum", "maximum"):
                    goal = E.MinMax([x * c if c != 1 else x for x, c in zip(xs, coeffs)], largest=kind == "maximum")
                elif kind == "nValues":
                    goal = E.NValue(xs)
                else:
                    raise self.fail(f"objectives of type {kind!r} are not supported")
            try:
                E._check(self.model, goal)
                terms, const = E.linear(self.model, goal)
            except ModelError as e:
                raise self.fail(str(e)) from None
            self.model.objective = (tuple(terms), tuple(terms.values()), const,
                                    "min" if node.tag == "minimize" else "max")


def parse(source_text: str, into: Model, source: str = "<text>") -> Model:
    """Fill the empty model ``into`` with the XCSP3 instance of ``source_text`` (see the module's docstring)."""
    if into.num_vars:
        raise ModelError("a model file is read into an empty model")
    reader = Reader(source)
    root, lines = _tree(source_text, reader)
    if root.tag != "instance" or root.get("format", "XCSP3") != "XCSP3":
        raise reader.fail(f"not an XCSP3 instance: the document is <{root.tag} format={root.get('format')!r}>", 1)
    if root.get("type", "CSP") not in ("CSP", "COP"):
        raise reader.fail(f"instances of type {root.get('type')!r} are not supported (CSP and COP)", 1)
    x = _Xcsp(into, reader, lines)
    for section in root:
        if section.tag == "variables":
            x.variables(section)
        elif section.tag == "constraints":
            x.constraints(section)
        elif section.tag == "objectives":
            x.objectives(section)
        elif section.tag != "annotations":
            raise x.fail("is not a section of an XCSP3 instance", section)
    if not into.num_vars:
        raise reader.fail("the instance declares no variables")
    return into
