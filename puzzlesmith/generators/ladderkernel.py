"""The technique ladder: one loop over bitmask candidates, compiled by numba where it is installed (the
``fast`` extra) and run as the same Python functions where it is not, that grades, hints and grades
generated puzzles.

Nothing here knows it is solving a sudoku. The model's plain AllDifferent constraints are *units*; a unit
is a *permutation* unit when its variables use every value of their domains (each value then has exactly
one place in it: a sudoku's rows, columns and boxes). Units fall into *families* of pairwise disjoint
permutation units (rows, columns, boxes). Two families are *orthogonal* when every unit of one meets every
unit of the other in exactly one variable (rows and columns): fish take their base and cover sets from such
a pair. A unit is *box-like* when it shares two or more variables with units of two other families, which is
how the ratings tell pointing from claiming and a hidden single in a box from one in a line (``grading.Logic``
builds these tables from the model).

The rungs, cheapest first (``COMPILED``, then ``techniques.PYTHON_RUNGS``; ratings in ``grades.RATINGS``):
full house, hidden singles, SE's direct pointing, claiming and hidden pair, the constraint rung, naked
single, direct hidden triple, pointing, claiming, naked and hidden subsets, fish, turbot fish (grouped too),
XY-, XYZ- and WXYZ-wings, X-chains, XY-chains, forcing chains, then Nishio and dynamic forcing chains. After
each step the ladder starts again from the cheapest rung. Three rungs run in Python, and the loop hands
the board back for them: the constraint rung (a constraint that is not an AllDifferent, asked whether its
tuples hold), where the loop pauses when the model has such constraints, and the two forcing-chain rungs a
few puzzles in a hundred reach, when no compiled rung applies.

Each compiled step is recorded whole on a tape (``LadderKernel.rows``: what it places and removes, in the
order it finds them, and why: units, cells, values, chain, groups), so a grade counts techniques from the
record alone and a hint turns it into the ``Step`` a person reads (``LadderKernel.step``). The finders
were transcribed from the Python ladder that came before this one; that ladder is kept only as the tests'
reference (tests/reference_ladder.py), and the tests check the two take the same steps.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from types import FunctionType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import numpy as np

from puzzlesmith.core import clock
from puzzlesmith.core.compiled import compiled_available
from puzzlesmith.core.errors import Contradiction
from puzzlesmith.generators import techniques as python_rungs
from puzzlesmith.generators.grades import RATINGS, STRONG_LINKS, length_bonus
from puzzlesmith.puzzles.play import Step

if TYPE_CHECKING:
    from puzzlesmith.generators.grading import Logic

F = TypeVar("F", bound=Callable[..., Any])
_KERNELS: dict[str, Callable[..., Any]] = {}


def kernel(function: F) -> F:
    """A function of the loop: it runs as written (plain Python over the same arrays) until ``compiled``
    has built its numba twin."""
    _KERNELS[function.__name__] = function
    return function


#: Seconds of plain-Python ladder a process spends before it loads the compiled one: importing numba and
#: loading the machine code cost about a second, more than one puzzle's grade or hint takes as Python
#: (0.01 s for an easy 9x9, 0.2 s for a hard one), and a batch or a server passes it at once.
PYTHON_SECONDS = 0.5
_spent = 0.0
_compiled: dict[str, Any] | None = None


def compiled() -> Callable[..., Any] | None:
    """The compiled loop (``_run`` and every kernel it calls, through numba, the machine code cached on
    disk), built once a process; None without numba ($PUZZLESMITH_PURE_PYTHON set, or not installed)."""
    global _compiled
    if _compiled is None:
        _compiled = {}
        if compiled_available():
            import numba

            space = dict(globals())  # the twins call each other by name, in a namespace of their own
            for name, function in _KERNELS.items():
                space[name] = numba.njit(cache=True, nogil=True)(FunctionType(function.__code__, space, name))
            _compiled = space
    return _compiled.get("_run")


def _loop() -> Callable[..., Any]:
    """The loop to run: the compiled one once numba is loaded or the Python one has taken PYTHON_SECONDS."""
    if _spent > PYTHON_SECONDS or "numba" in sys.modules:
        return compiled() or _run
    return _run


#: The rungs compiled here, in ladder order (the kernel's technique numbers are their places).
COMPILED = ("full house", "hidden single", "hidden single", "direct pointing", "direct claiming",
            "direct hidden pair", "constraint", "naked single", "direct hidden triple", "pointing", "claiming",
            "naked pair", "X-wing", "hidden pair", "naked triple", "swordfish", "hidden triple", "turbot fish",
            "grouped turbot fish", "XY-wing", "XYZ-wing", "naked quad", "jellyfish", "hidden quad", "WXYZ-wing",
            "X-chain", "XY-chain", "forcing chain")
TURBOT = ("turbot fish", "skyscraper", "two-string kite")
W = 63  # bits used in each int64 word of a bit set (the sign bit stays clear)
FULL = (1 << W) - 1

# -- bit helpers ------------------------------------------------------------------------------


@kernel
def _pc(x: int) -> int:
    """Set bits of a non-negative int64."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@kernel
def _low(x: int) -> int:
    """Index of the lowest set bit of x > 0."""
    k = 0
    while not (x >> k) & 1:
        k += 1
    return k


# -- recording a step: what it removes (``rem``: rows of variable, value bit index) and why (``desc``) ------

#: Places in ``desc``: the unit, the second unit, the unit of a direct technique's single (unit numbers, -1
#: none); the values (bit indexes, in the finder's order); a fish's base and cover units; the cells (their
#: count here, the variables from D_CELLS on), a grouped turbot fish's four group sizes, and the chain's nodes
#: (var * width + bit index, from D_CELLS + the number of variables on).
D_UNIT, D_SECOND, D_SINGLE, D_NVALUES, D_VALUES = 0, 1, 2, 3, 4
D_NBASE, D_BASE, D_NCOVER, D_COVER = 8, 9, 13, 14
D_NCELLS, D_GROUPS, D_NCHAIN, D_CELLS = 18, 19, 23, 24
MAX_CHAIN = 24  # nodes: SE's length bonus is +0.3 at 16 and +0.4 past 24, about the longest a person follows
MAX_PATH = 64  # chain nodes a step may record


@kernel
def _remove(cand: Any, v: int, k: int, rem: Any, rec: Any) -> bool:
    """Remove value bit k from ``v`` and record it; False when ``v`` has no value left."""
    cand[v] &= ~(1 << k)
    rem[rec[4], 0], rem[rec[4], 1] = v, k
    rec[4] += 1
    return cand[v] != 0


@kernel
def _cell(desc: Any, v: int) -> None:
    """Record ``v`` as the next of the step's cells."""
    desc[D_CELLS + desc[D_NCELLS]] = v
    desc[D_NCELLS] += 1


@kernel
def _value(desc: Any, k: int) -> None:
    desc[D_VALUES + desc[D_NVALUES]] = k
    desc[D_NVALUES] += 1


# -- applying a step ---------------------------------------------------------------------------


@kernel
def _place(cand: Any, placed: Any, var: int, bit: int, links: Any, llen: Any) -> bool:
    """grading.Logic.place: the value leaves every variable an AllDifferent links to ``var`` (shifted by the
    difference of their offsets); False on a contradiction."""
    cand[var] = bit
    placed[var] = True
    k = _low(bit)
    for i in range(llen[var]):
        j, shifted = links[var, i, 0], k + links[var, i, 1]
        if shifted < 0 or shifted >= W:  # outside every domain
            continue
        b = 1 << shifted
        if cand[j] & b:
            cand[j] &= ~b
            if cand[j] == 0:
                return False
    return True


# -- singles and direct techniques --------------------------------------------------------------


@kernel
def _lone(u: int, cand: Any, placed: Any, uvars: Any, ulen: Any, uunion: Any) -> int:
    """The values with one place left among the unplaced variables of permutation unit ``u``
    (``techniques.lone_values``); -1 when a value has none."""
    once = 0
    twice = 0
    done = 0
    for i in range(ulen[u]):
        v = uvars[u, i]
        d = cand[v]
        if placed[v]:
            done |= d
        else:
            twice |= once & d
            once |= d
    if (once | done) != uunion[u]:
        return -1
    return once & ~twice & ~done


@kernel
def _hidden_groups(u: int, size: int, cand: Any, placed: Any, uvars: Any, ulen: Any, free: Any, where: Any,
                   keys: Any, few: Any) -> Any:
    """The unit's free variables, value -> places over them (``where``), its values in order of first
    appearance (``keys``) and those with 2..size places (``few``): (free count, key count, few count)."""
    nf = 0
    for i in range(ulen[u]):
        v = uvars[u, i]
        if not placed[v]:
            free[nf] = v
            nf += 1
    for k in range(where.shape[0]):
        where[k] = 0
    nk = 0
    for i in range(nf):
        d = cand[free[i]]
        while d:
            low = d & -d
            k = _low(low)
            d ^= low
            if where[k] == 0:
                keys[nk] = k
                nk += 1
            where[k] |= 1 << i
    nfew = 0
    for i in range(nk):
        c = _pc(where[keys[i]])
        if 2 <= c <= size:
            few[nfew] = keys[i]
            nfew += 1
    return nf, nk, nfew


@kernel
def _next_combo(idx: Any, size: int, total: int) -> bool:
    """itertools.combinations' order: advance ``idx`` (indices into a list of ``total``), False at the end."""
    i = size - 1
    while i >= 0 and idx[i] == total - size + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, size):
        idx[j] = idx[j - 1] + 1
    return True


@kernel
def _subset_desc(u: int, size: int, cells: int, free: Any, few: Any, idx: Any, desc: Any) -> None:
    """A hidden subset's unit, cells (the free variables in ``cells``) and values (in the finder's order)."""
    desc[D_UNIT] = u
    c = cells
    while c:
        low = c & -c
        c ^= low
        _cell(desc, free[_low(low)])
    for i in range(size):
        _value(desc, few[idx[i]])


@kernel
def _hidden_subset(size: int, direct: bool, cand: Any, placed: Any, uvars: Any, ulen: Any, uperm: Any,
                   links: Any, llen: Any, rec: Any, rem: Any, desc: Any) -> int:
    """``size`` values of a permutation unit confined to ``size`` cells: those cells lose every other value, or
    (``direct``, SE's direct hidden pair and triple) the value those removals would leave one place in the unit
    is placed. 1 found and applied, 0 none, -1 contradiction."""
    L = uvars.shape[1]
    free = np.empty(L, np.int64)
    where = np.zeros(64, np.int64)
    keys = np.empty(64, np.int64)
    few = np.empty(64, np.int64)
    idx = np.empty(4, np.int64)
    for u in range(uvars.shape[0]):
        if not uperm[u]:
            continue
        nf, nk, nfew = _hidden_groups(u, size, cand, placed, uvars, ulen, free, where, keys, few)
        if nf <= size or nfew < size:
            continue
        for i in range(size):
            idx[i] = i
        while True:
            cells = 0
            keep = 0
            for i in range(size):
                cells |= where[few[idx[i]]]
                keep |= 1 << few[idx[i]]
            if _pc(cells) == size:
                if direct:
                    for i in range(nk):
                        k = keys[i]
                        places = where[k]
                        if keep >> k & 1 or _pc(places) < 2 or _pc(places & ~cells) != 1:
                            continue
                        var = free[_low(places & ~cells)]
                        rec[2], rec[3], rec[4] = var, k, 0
                        _subset_desc(u, size, cells, free, few, idx, desc)
                        desc[D_SINGLE] = u
                        return 1 if _place(cand, placed, var, 1 << k, links, llen) else -1
                else:
                    bad = False
                    c = cells
                    while c:
                        low = c & -c
                        c ^= low
                        v = free[_low(low)]
                        gone = cand[v] & ~keep
                        while gone:
                            g = gone & -gone
                            gone ^= g
                            bad |= not _remove(cand, v, _low(g), rem, rec)
                    if bad:
                        return -1
                    if rec[4]:
                        _subset_desc(u, size, cells, free, few, idx, desc)
                        return 1
            if not _next_combo(idx, size, nfew):
                break
    return 0


@kernel
def _places(u: int, bit: int, cand: Any, placed: Any, uvars: Any, ulen: Any, desc: Any) -> None:
    """Record the unplaced variables of unit ``u`` that may hold the value as the step's cells."""
    for i in range(ulen[u]):
        v = uvars[u, i]
        if not placed[v] and cand[v] & bit:
            _cell(desc, v)


@kernel
def _direct_intersection(pointing: bool, cand: Any, placed: Any, uvars: Any, ulen: Any, ubox: Any, ufam: Any,
                         fam: Any, flen: Any, ca: Any, cb: Any, cshared: Any, links: Any, llen: Any,
                         rec: Any, desc: Any) -> int:
    n = cand.shape[0]
    cleared = np.zeros(n, np.bool_)
    for x in range(ca.shape[0]):
        a, b = ca[x], cb[x]
        if ubox[a] != pointing:
            continue
        inside = 0
        outside = 0
        for i in range(ulen[a]):
            v = uvars[a, i]
            if not placed[v]:
                if cshared[x, v]:
                    inside |= cand[v]
                else:
                    outside |= cand[v]
        m = inside & ~outside
        while m:
            bit = m & -m
            m ^= bit
            count = 0
            for i in range(ulen[a]):
                v = uvars[a, i]
                if not placed[v] and cand[v] & bit:
                    count += 1
            if count < 2:
                continue
            any_cleared = False
            for i in range(ulen[b]):
                v = uvars[b, i]
                c = not cshared[x, v] and not placed[v] and (cand[v] & bit) != 0
                cleared[v] = c
                any_cleared |= c
            if any_cleared:
                f = ufam[a]
                for fi in range(flen[f]):
                    c = fam[f, fi]
                    holders = 0
                    left = 0
                    spot = -1
                    for i in range(ulen[c]):
                        v = uvars[c, i]
                        if not placed[v] and cand[v] & bit:
                            holders += 1
                            if not cleared[v]:
                                left += 1
                                spot = v
                    if c != a and holders >= 2 and left == 1:
                        rec[2], rec[3], rec[4] = spot, _low(bit), 0
                        desc[D_UNIT], desc[D_SECOND], desc[D_SINGLE] = a, b, c
                        _places(a, bit, cand, placed, uvars, ulen, desc)
                        _value(desc, _low(bit))
                        return 1 if _place(cand, placed, spot, bit, links, llen) else -1
            for i in range(ulen[b]):
                cleared[uvars[b, i]] = False
    return 0


@kernel
def _intersection(pointing: bool, cand: Any, placed: Any, uvars: Any, ulen: Any, ubox: Any, ca: Any, cb: Any,
                  cshared: Any, rec: Any, rem: Any, desc: Any) -> int:
    for x in range(ca.shape[0]):
        a, b = ca[x], cb[x]
        if ubox[a] != pointing:
            continue
        values = 0
        for i in range(ulen[a]):
            v = uvars[a, i]
            if not placed[v]:
                values |= cand[v]
        while values:
            bit = values & -values
            values ^= bit
            count = 0
            inside = True
            for i in range(ulen[a]):
                v = uvars[a, i]
                if not placed[v] and cand[v] & bit:
                    count += 1
                    if not cshared[x, v]:
                        inside = False
            if count < 2 or not inside:
                continue
            for i in range(ulen[b]):
                v = uvars[b, i]
                if not cshared[x, v] and not placed[v] and cand[v] & bit:
                    if rec[4] == 0:
                        desc[D_UNIT], desc[D_SECOND] = a, b
                        _places(a, bit, cand, placed, uvars, ulen, desc)
                        _value(desc, _low(bit))
                    if not _remove(cand, v, _low(bit), rem, rec):
                        return -1
            if rec[4]:
                return 1
    return 0


@kernel
def _naked_subset(size: int, cand: Any, placed: Any, uvars: Any, ulen: Any, rec: Any, rem: Any, desc: Any) -> int:
    L = uvars.shape[1]
    free = np.empty(L, np.int64)
    small = np.empty(L, np.int64)
    idx = np.empty(4, np.int64)
    for u in range(uvars.shape[0]):
        nf = 0
        ns = 0
        for i in range(ulen[u]):
            v = uvars[u, i]
            if not placed[v]:
                free[nf] = v
                nf += 1
                c = _pc(cand[v])
                if 2 <= c <= size:
                    small[ns] = v
                    ns += 1
        if nf <= size or ns < size:
            continue
        for i in range(size):
            idx[i] = i
        while True:
            union = 0
            for i in range(size):
                union |= cand[small[idx[i]]]
            if _pc(union) == size:
                for i in range(nf):
                    v = free[i]
                    inside = False
                    for j in range(size):
                        if small[idx[j]] == v:
                            inside = True
                    gone = cand[v] & union
                    while not inside and gone:
                        g = gone & -gone
                        gone ^= g
                        if not _remove(cand, v, _low(g), rem, rec):
                            return -1
                if rec[4]:
                    desc[D_UNIT] = u
                    for i in range(size):
                        _cell(desc, small[idx[i]])
                    m = union
                    while m:
                        low = m & -m
                        m ^= low
                        _value(desc, _low(low))
                    return 1
            if not _next_combo(idx, size, ns):
                break
    return 0


@kernel
def _fish(size: int, all_values: int, cand: Any, placed: Any, uvars: Any, ulen: Any, fam: Any, flen: Any,
          obase: Any, oblen: Any, ocover: Any, cidx: Any, rec: Any, rem: Any, desc: Any) -> int:
    n = cand.shape[0]
    rows = np.empty(64, np.int64)
    masks = np.empty(64, np.int64)
    idx = np.empty(4, np.int64)
    inside = np.zeros(n, np.bool_)
    for o in range(ocover.shape[0]):
        cover = ocover[o]
        vals = all_values
        while vals:
            bit = vals & -vals
            vals ^= bit
            nr = 0
            for bi in range(oblen[o]):
                u = obase[o, bi]
                done = False
                for i in range(ulen[u]):
                    v = uvars[u, i]
                    if placed[v] and cand[v] == bit:
                        done = True
                if done:
                    continue
                mask = 0
                for i in range(ulen[u]):
                    v = uvars[u, i]
                    if cand[v] & bit:
                        mask |= 1 << cidx[cover, v]
                c = _pc(mask)
                if 2 <= c <= size:
                    rows[nr] = u
                    masks[nr] = mask
                    nr += 1
            if nr < size:
                continue
            for i in range(size):
                idx[i] = i
            while True:
                union = 0
                for i in range(size):
                    union |= masks[idx[i]]
                if _pc(union) == size:
                    for i in range(size):
                        u = rows[idx[i]]
                        for j in range(ulen[u]):
                            inside[uvars[u, j]] = True
                    bad = False
                    m = union
                    while m:
                        low = m & -m
                        m ^= low
                        c = fam[cover, _low(low)]
                        for j in range(ulen[c]):
                            v = uvars[c, j]
                            if not inside[v] and not placed[v] and cand[v] & bit:
                                bad |= not _remove(cand, v, _low(bit), rem, rec)
                    for i in range(size):
                        u = rows[idx[i]]
                        for j in range(ulen[u]):
                            inside[uvars[u, j]] = False
                    if bad:
                        return -1
                    if rec[4]:
                        desc[D_NBASE] = size
                        for i in range(size):
                            desc[D_BASE + i] = rows[idx[i]]
                        m = union
                        while m:
                            low = m & -m
                            m ^= low
                            desc[D_COVER + desc[D_NCOVER]] = fam[cover, _low(low)]
                            desc[D_NCOVER] += 1
                        _value(desc, _low(bit))
                        return 1
                if not _next_combo(idx, size, nr):
                    break
    return 0


# -- wings ----------------------------------------------------------------------------------------


@kernel
def _wing(xyz: bool, cand: Any, placed: Any, peer: Any, porder: Any, plen: Any, rec: Any, rem: Any,
          desc: Any) -> int:
    n = cand.shape[0]
    wings = np.empty(n, np.int64)
    for pivot in range(n):
        d = cand[pivot]
        if placed[pivot] or _pc(d) != (3 if xyz else 2):
            continue
        nw = 0
        for i in range(plen[pivot]):  # the order Python iterates the peer set in
            w = porder[pivot, i]
            if placed[w] or _pc(cand[w]) != 2:
                continue
            if (cand[w] & ~d == 0) if xyz else (_pc(cand[w] & d) == 1):
                wings[nw] = w
                nw += 1
        for i in range(nw):
            a = wings[i]
            for j in range(i + 1, nw):
                b = wings[j]
                z = cand[a] & cand[b] & (d if xyz else ~d)
                if cand[a] == cand[b] or _pc(z) != 1:
                    continue
                for v in range(n):
                    if peer[a, v] and peer[b, v] and (not xyz or peer[pivot, v]) and v != pivot and not placed[v] \
                            and cand[v] & z:
                        if not _remove(cand, v, _low(z), rem, rec):
                            return -1
                if rec[4]:
                    _cell(desc, pivot)
                    _cell(desc, a)
                    _cell(desc, b)
                    _value(desc, _low(z))
                    return 1
    return 0


@kernel
def _restricted(peer: Any, cand: Any, cells: Any, bit: int) -> bool:
    for i in range(4):
        a = cells[i]
        if not cand[a] & bit:
            continue
        for j in range(i + 1, 4):
            b = cells[j]
            if cand[b] & bit and not peer[a, b]:
                return False
    return True


@kernel
def _wxyz(cand: Any, placed: Any, peer: Any, rec: Any, rem: Any, desc: Any) -> int:
    n = cand.shape[0]
    near = np.empty(n, np.int64)
    cells = np.empty(4, np.int64)
    for pivot in range(n):
        d = cand[pivot]
        if placed[pivot] or not 2 <= _pc(d) <= 4:
            continue
        nn = 0
        for w in range(n):
            if peer[pivot, w] and not placed[w] and 2 <= _pc(cand[w]) <= 4 and _pc(cand[w] | d) <= 4:
                near[nn] = w
                nn += 1
        for i in range(nn):
            a = near[i]
            for j in range(i + 1, nn):
                b = near[j]
                if _pc(d | cand[a] | cand[b]) > 4:
                    continue
                for m in range(j + 1, nn):
                    c = near[m]
                    union = d | cand[a] | cand[b] | cand[c]
                    if _pc(union) != 4:
                        continue
                    cells[0], cells[1], cells[2], cells[3] = pivot, a, b, c
                    loose = 0
                    nloose = 0
                    vals = union
                    while vals:
                        bit = vals & -vals
                        vals ^= bit
                        if not _restricted(peer, cand, cells, bit):
                            loose = bit
                            nloose += 1
                    if nloose != 1:
                        continue
                    z = loose
                    for v in range(n):
                        if v == pivot or v == a or v == b or v == c or placed[v] or not cand[v] & z:
                            continue
                        sees = True
                        for h in range(4):
                            if cand[cells[h]] & z and not peer[cells[h], v]:
                                sees = False
                        if sees and not _remove(cand, v, _low(z), rem, rec):
                            return -1
                    if rec[4]:
                        rec[1] = _pc(d)
                        for h in range(4):
                            _cell(desc, cells[h])
                        _value(desc, _low(z))
                        return 1
    return 0


# -- grouped turbot fish: variable sets as rows of words (W variables a word) --------------------


@kernel
def _less(a: Any, b: Any) -> bool:
    """Whether the variable set ``a`` is smaller than ``b`` as one integer (Python's sorted)."""
    for i in range(a.shape[0] - 1, -1, -1):
        if a[i] != b[i]:
            return a[i] < b[i]
    return False


@kernel
def _same(a: Any, b: Any) -> bool:
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@kernel
def _count(a: Any) -> int:
    c = 0
    for i in range(a.shape[0]):
        c += _pc(a[i])
    return c


@kernel
def _seen(a: Any, pmask: Any, out: Any) -> None:
    """The variables that see every variable of the set ``a`` (every variable's peers), into ``out``."""
    for i in range(out.shape[0]):
        out[i] = FULL
    for word in range(a.shape[0]):
        m = a[word]
        while m:
            low = m & -m
            m ^= low
            v = word * W + _low(low)
            for i in range(out.shape[0]):
                out[i] &= pmask[v, i]


@kernel
def _grouped(cand: Any, placed: Any, width: int, umask: Any, segu: Any, segptr: Any, segmask: Any, pmask: Any,
             rec: Any, rem: Any, desc: Any) -> int:
    n = cand.shape[0]
    nw = umask.shape[1]
    cap = segmask.shape[0] + segu.shape[0]  # a value's links: one a segment at most, and one a unit
    links = np.empty((cap, 2, nw), np.int64)  # (A, B) of each strong link, A < B
    seen = np.empty((cap, 2, nw), np.int64)
    h = np.zeros(nw, np.int64)
    p = np.zeros(nw, np.int64)
    a = np.zeros(nw, np.int64)
    b = np.zeros(nw, np.int64)
    gone = np.zeros(nw, np.int64)
    for k in range(width):
        bit = 1 << k
        for i in range(nw):
            h[i] = 0
        for v in range(n):
            if cand[v] & bit and not placed[v]:
                h[v // W] |= 1 << (v % W)
        nl = 0
        for si in range(segu.shape[0]):
            u = segu[si]
            for i in range(nw):
                p[i] = h[i] & umask[u, i]
            cp = _count(p)
            if cp < 2:
                continue
            for s in range(segptr[si], segptr[si + 1]):
                for i in range(nw):
                    a[i] = p[i] & segmask[s, i]
                    b[i] = p[i] & ~segmask[s, i]
                ca, cb = _count(a), _count(b)
                if ca and cb:
                    ok = cb == 1
                    if not ok:
                        for t in range(segptr[si], segptr[si + 1]):
                            inside = True
                            for i in range(nw):
                                if b[i] & ~segmask[t, i]:
                                    inside = False
                            if inside:
                                ok = True
                                break
                    if ok:
                        first, second = (b, a) if _less(b, a) else (a, b)
                        for i in range(nw):
                            links[nl, 0, i], links[nl, 1, i] = first[i], second[i]
                        nl += 1
            if cp == 2:
                lowest = True
                for i in range(nw):
                    low = p[i] & -p[i] if lowest else 0
                    if low:
                        lowest = False
                    links[nl, 0, i], links[nl, 1, i] = low, p[i] ^ low
                nl += 1
        # sorted(set(links)): insertion sort by (A, B) as integers, duplicates dropped
        m = 0
        for i in range(nl):
            for x in range(nw):
                a[x], b[x] = links[i, 0, x], links[i, 1, x]
            dup = False
            for j in range(m):
                if _same(links[j, 0], a) and _same(links[j, 1], b):
                    dup = True
                    break
            if dup:
                continue
            j = m
            while j > 0 and (_less(a, links[j - 1, 0]) or (_same(links[j - 1, 0], a) and _less(b, links[j - 1, 1]))):
                links[j] = links[j - 1]
                j -= 1
            for x in range(nw):
                links[j, 0, x], links[j, 1, x] = a[x], b[x]
            m += 1
        nl = m
        grouped = False
        for i in range(nl):
            if _count(links[i, 0]) > 1 or _count(links[i, 1]) > 1:
                grouped = True
        if not grouped:
            continue
        for i in range(nl):
            _seen(links[i, 0], pmask, seen[i, 0])
            _seen(links[i, 1], pmask, seen[i, 1])
        # ends: the links as (A, B), then reversed as (B, A)
        for e1 in range(2 * nl):
            i = e1 % nl
            sa = 0 if e1 < nl else 1
            sb = 1 - sa
            la, lb, seen_a, seen_b = links[i, sa], links[i, sb], seen[i, sa], seen[i, sb]
            for e2 in range(2 * nl):
                j = e2 % nl
                sc = 0 if e2 < nl else 1
                sd = 1 - sc
                lc, ld = links[j, sc], links[j, sd]
                skip = False
                for x in range(nw):
                    if lc[x] & ~seen_b[x] or (la[x] | lb[x]) & (lc[x] | ld[x]):
                        skip = True
                if skip or not (_count(la) > 1 or _count(lb) > 1 or _count(lc) > 1 or _count(ld) > 1):
                    continue
                any_gone = False
                for x in range(nw):
                    gone[x] = seen_a[x] & seen[j, sd, x] & h[x] & ~(la[x] | ld[x])
                    any_gone |= gone[x] != 0
                if any_gone:
                    for x in range(nw):
                        g = gone[x]
                        while g:
                            low = g & -g
                            g ^= low
                            if not _remove(cand, x * W + _low(low), k, rem, rec):
                                return -1
                    for gi, side in enumerate((la, lb, lc, ld)):
                        desc[D_GROUPS + gi] = _count(side)
                        for x in range(nw):
                            g = side[x]
                            while g:
                                low = g & -g
                                g ^= low
                                _cell(desc, x * W + _low(low))
                    _value(desc, k)
                    return 1
    return 0


# -- chains: node sets as words of W bits, node = var * width + k ------------------------------


@kernel
def _add(s: Any, node: int) -> None:
    s[node // W] |= 1 << (node % W)


@kernel
def _weak_table(width: int, cand: Any, placed: Any, porder: Any, plen: Any, rank: Any, wt: Any) -> None:
    """The weak links of every candidate node (by rank), once a board: wt[0, node] its value in its unplaced peers,
    wt[1, node] that and its cell's other values."""
    for var in range(cand.shape[0]):
        if placed[var]:
            continue
        d = cand[var]
        while d:
            bit = d & -d
            d ^= bit
            k = _low(bit)
            node = rank[var * width + k]
            row = wt[0, node]
            for i in range(plen[var]):
                p = porder[var, i]
                if not placed[p] and cand[p] & bit:
                    _add(row, rank[p * width + k])
            full = wt[1, node]
            for i in range(row.shape[0]):
                full[i] = row[i]
            e = cand[var] & ~bit
            while e:
                low = e & -e
                e ^= low
                _add(full, rank[var * width + _low(low)])


@kernel
def _strong_of(node: int, use_x: bool, use_y: bool, xcnt: Any, xadj: Any, yadj: Any, out: Any) -> None:
    """OR the node's strong links into ``out``."""
    if use_x:
        for i in range(xcnt[node]):
            _add(out, xadj[node, i])
    if use_y and yadj[node] >= 0:
        _add(out, yadj[node])


@kernel
def _chains(cand: Any, placed: Any, width: int, uvars: Any, ulen: Any, uperm: Any, rank: Any, xcnt: Any, xadj: Any,
            yadj: Any) -> None:
    """The strong links (conjugate places of a value in a unit; a bivalue cell's values), between
    nodes numbered by ``rank`` (a node's place among the board's candidates: the same order, fewer words)."""
    for i in range(xcnt.shape[0]):
        xcnt[i] = 0
        yadj[i] = -1
    for u in range(uvars.shape[0]):
        if not uperm[u]:
            continue
        for k in range(width):
            bit = 1 << k
            first = -1
            second = -1
            count = 0
            for i in range(ulen[u]):
                v = uvars[u, i]
                if not placed[v] and cand[v] & bit:
                    count += 1
                    if count == 1:
                        first = v
                    elif count == 2:
                        second = v
            if count == 2:
                a, b = rank[first * width + k], rank[second * width + k]
                known = False
                for i in range(xcnt[a]):
                    if xadj[a, i] == b:
                        known = True
                if not known:
                    xadj[a, xcnt[a]] = b
                    xcnt[a] += 1
                    xadj[b, xcnt[b]] = a
                    xcnt[b] += 1
    for v in range(cand.shape[0]):
        d = cand[v]
        if not placed[v] and _pc(d) == 2:
            a = rank[v * width + _low(d)]
            b = rank[v * width + _low(d & (d - 1))]
            yadj[a] = b
            yadj[b] = a


@kernel
def _chain_from(s: int, use_x: bool, use_y: bool, cell_weak: bool, limit: int, min_nodes: int, wt: Any,
                xcnt: Any, xadj: Any, yadj: Any, work: Any, found: Any) -> int:
    """The shortest chain from node ``s`` (strong and weak links alternating, breadth first) whose ends see a
    candidate to remove: its node count (0: none), its end in found[0] and what it removes in ``found[1:]``.
    ``work`` holds scratch node sets (rows)."""
    seen_true, seen_false, frontier, reached = work[0], work[1], work[2], work[3]
    target = wt[1, s]
    near = wt[1 if cell_weak else 0]
    nw = seen_true.shape[0]
    for i in range(nw):
        seen_true[i] = 0
        seen_false[i] = 0
        frontier[i] = 0
    _add(seen_false, s)
    _add(frontier, s)
    count = 1
    while count + 1 <= limit:
        alive = False
        for i in range(nw):
            if frontier[i]:
                alive = True
        if not alive:
            return 0
        for i in range(nw):
            reached[i] = 0
        for i in range(nw):
            m = frontier[i]
            while m:
                low = m & -m
                m ^= low
                _strong_of(i * W + _low(low), use_x, use_y, xcnt, xadj, yadj, reached)
        for i in range(nw):
            reached[i] &= ~seen_true[i]
            seen_true[i] |= reached[i]
        count += 1
        if count >= min_nodes:
            for i in range(nw):
                m = reached[i]
                while m:
                    low = m & -m
                    m ^= low
                    e = i * W + _low(low)
                    if e == s:
                        continue
                    weak = wt[1, e]
                    any_gone = False
                    for j in range(nw):
                        g = target[j] & weak[j]
                        if j == e // W:
                            g &= ~(1 << (e % W))
                        found[1 + j] = g
                        if g:
                            any_gone = True
                    if any_gone:
                        found[0] = e
                        return count
        if count + 2 > limit:
            return 0
        for i in range(nw):
            frontier[i] = 0
        for i in range(nw):
            m = reached[i]
            while m:
                low = m & -m
                m ^= low
                weak = near[i * W + _low(low)]
                for j in range(nw):
                    frontier[j] |= weak[j]
        for i in range(nw):
            frontier[i] &= ~seen_false[i]
            seen_false[i] |= frontier[i]
        count += 1
    return 0


@kernel
def _chain_search(use_x: bool, use_y: bool, cell_weak: bool, max_nodes: int, min_nodes: int, wt: Any, xcnt: Any,
                  xadj: Any, yadj: Any, work: Any, found: Any, best: Any) -> int:
    """The shortest chain from any start: its node count (0: none); start in best[0], end and removals after."""
    nodes = 0
    for s in range(xcnt.shape[0]):
        if not ((use_x and xcnt[s] > 0) or (use_y and yadj[s] >= 0)):
            continue
        limit = nodes - 1 if nodes else max_nodes
        c = _chain_from(s, use_x, use_y, cell_weak, limit, min_nodes, wt, xcnt, xadj, yadj, work, found)
        if c and (nodes == 0 or c < nodes):
            nodes = c
            best[0] = s
            for i in range(found.shape[0]):
                best[1 + i] = found[i]
    return nodes


@kernel
def _chain_path(s: int, e: int, nodes: int, use_x: bool, use_y: bool, cell_weak: bool, wt: Any, xcnt: Any,
                xadj: Any, yadj: Any, work: Any, path: Any) -> None:
    """One chain of ``nodes`` nodes from s to e, breadth first with parents, into ``path``."""
    N = xcnt.shape[0]
    parent = np.full((2, N), -2, np.int64)  # [is_true][node] -> parent node (-1: the start)
    layer = np.empty(2 * N, np.int64)
    nxt_layer = np.empty(2 * N, np.int64)
    nxt = work[5]
    parent[0, s] = -1
    layer[0] = s * 2  # entries: node * 2 + is_true
    size = 1
    for _ in range(nodes - 1):
        nsize = 0
        for li in range(size):
            n = layer[li] // 2
            is_true = layer[li] % 2 == 1
            if is_true:
                row = wt[1 if cell_weak else 0, n]
                for i in range(nxt.shape[0]):
                    nxt[i] = row[i]
            else:
                for i in range(nxt.shape[0]):
                    nxt[i] = 0
                _strong_of(n, use_x, use_y, xcnt, xadj, yadj, nxt)
            side = 0 if is_true else 1
            for i in range(nxt.shape[0]):
                m = nxt[i]
                while m:
                    low = m & -m
                    m ^= low
                    node = i * W + _low(low)
                    if parent[side, node] == -2:
                        parent[side, node] = n * 2 + (1 if is_true else 0)
                        nxt_layer[nsize] = node * 2 + side
                        nsize += 1
        for i in range(nsize):
            layer[i] = nxt_layer[i]
        size = nsize
    at = e * 2 + 1
    count = 0
    while at >= 0:
        path[count] = at // 2
        count += 1
        at = parent[at % 2, at // 2]
    for i in range(count // 2):
        path[i], path[count - 1 - i] = path[count - 1 - i], path[i]


@kernel
def _x_unit(a: int, b: int, width: int, cand: Any, placed: Any, uvars: Any, ulen: Any, uperm: Any,
            ubox: Any) -> int:
    """The unit of an X link: the last line unit where a and b are the value's two places, else the
    first box-like one."""
    k = a % width
    va, vb = a // width, b // width
    bit = 1 << k
    chosen = -1
    for u in range(uvars.shape[0]):
        if not uperm[u]:
            continue
        count = 0
        has_a = False
        has_b = False
        for i in range(ulen[u]):
            v = uvars[u, i]
            if not placed[v] and cand[v] & bit:
                count += 1
                has_a |= v == va
                has_b |= v == vb
        if count == 2 and has_a and has_b and (chosen < 0 or not ubox[u]):
            chosen = u
    return chosen


@kernel
def _chain_step(kind: int, width: int, maxu: int, cand: Any, placed: Any, uvars: Any, ulen: Any, uperm: Any,
                ubox: Any, ufam: Any, porder: Any, plen: Any, rank: Any, rec: Any, rem: Any, desc: Any) -> int:
    """Turbot fish (kind 0), X-chain (1), XY-chain (2), forcing chain (3): 1 applied, 0 none, -1 contradiction.
    rec[1]: turbot fish's name (TURBOT), a chain's node count (+ 100 * (lines + 1) + 1000 * box for an
    X-chain of 3 to 6 strong links: the unit kinds of ``strong_links_rating``)."""
    n = cand.shape[0]
    m = 0
    for v in range(n):
        for k in range(width):
            if not placed[v] and cand[v] >> k & 1:
                rank[v * width + k] = m
                m += 1
            else:
                rank[v * width + k] = -1
    node_of = np.empty(max(m, 1), np.int64)
    for node in range(n * width):
        if rank[node] >= 0:
            node_of[rank[node]] = node
    nw = max(1, (m + W - 1) // W)
    xcnt = np.zeros(m, np.int64)
    xadj = np.zeros((m, maxu), np.int64)
    yadj = np.full(m, -1, np.int64)
    wt = np.zeros((2, m, nw), np.int64)
    work = np.zeros((6, nw), np.int64)
    found = np.zeros(nw + 1, np.int64)
    best = np.zeros(nw + 2, np.int64)
    path = np.zeros(64, np.int64)
    _chains(cand, placed, width, uvars, ulen, uperm, rank, xcnt, xadj, yadj)
    _weak_table(width, cand, placed, porder, plen, rank, wt)
    use_x = kind != 2
    use_y = kind >= 2
    cell_weak = kind == 3
    nodes = _chain_search(use_x, use_y, cell_weak, 4 if kind == 0 else MAX_CHAIN, 4 if kind in (0, 3) else 6, wt, xcnt,
                          xadj, yadj, work, found, best)
    if nodes == 0:
        return 0
    s, e = best[0], best[1]
    _chain_path(s, e, nodes, use_x, use_y, cell_weak, wt, xcnt, xadj, yadj, work, path)
    for i in range(nodes):
        path[i] = node_of[path[i]]
        desc[D_CELLS + n + i] = path[i]
    desc[D_NCHAIN] = nodes
    if kind == 0:
        u0 = _x_unit(path[0], path[1], width, cand, placed, uvars, ulen, uperm, ubox)
        u1 = _x_unit(path[2], path[3], width, cand, placed, uvars, ulen, uperm, ubox)
        if ubox[u0] or ubox[u1]:
            rec[1] = 0
        elif ufam[u0] == ufam[u1]:
            rec[1] = 1
        else:
            rec[1] = 2
    else:
        rec[1] = nodes
        if kind == 1 and 3 <= nodes // 2 <= 6:
            fams = 0
            box = 0
            for i in range(0, nodes - 1, 2):
                u = _x_unit(path[i], path[i + 1], width, cand, placed, uvars, ulen, uperm, ubox)
                if ubox[u]:
                    box = 1
                else:
                    fams |= 1 << ufam[u]
            rec[1] += 100 * (_pc(fams) + 1) + 1000 * box
    for i in range(best.shape[0] - 2):
        bits = best[2 + i]
        while bits:
            low = bits & -bits
            bits ^= low
            node = node_of[i * W + _low(low)]
            if not _remove(cand, node // width, node % width, rem, rec):
                return -1
    return 1


# -- the loop ---------------------------------------------------------------------------------------


@kernel
def _run(first: int, pause: int, stop: int, enabled: Any, cand: Any, placed: Any, width: int, all_values: int,
         uvars: Any, ulen: Any, uunion: Any, uperm: Any, ubox: Any, ufam: Any, fam: Any, flen: Any, ca: Any, cb: Any,
         cshared: Any, obase: Any, oblen: Any, ocover: Any, cidx: Any, peer: Any, porder: Any, plen: Any, links: Any,
         llen: Any, umask: Any, segu: Any, segptr: Any, segmask: Any, pmask: Any, rem: Any, desc: Any, tape: Any,
         top: int) -> Any:
    """The compiled rungs, cheapest first, from rung ``first`` (then from the cheapest again after each step),
    each step recorded on ``tape`` (see ``LadderKernel.rows``). Returns (status, tape length): 0 solved, 1 no
    compiled rung applies, -1 a contradiction, 2 rung ``pause`` is next (the constraint rung, in Python),
    3 the tape has no room for another step, 4 ``stop`` was met (1: a step placed a value; 2: any step)."""
    n = cand.shape[0]
    per_var = np.zeros(n, np.int64)  # a node has at most one conjugate in each unit of its variable
    for u in range(uvars.shape[0]):
        for i in range(ulen[u]):
            per_var[uvars[u, i]] += 1
    maxu = max(1, per_var.max())
    rank = np.empty(n * width, np.int64)
    rec = np.zeros(5, np.int64)
    rung = first
    while True:
        solved = True
        left = 0
        for v in range(n):
            if not placed[v]:
                solved = False
                left += _pc(cand[v])
        if solved:
            return 0, top
        if tape.shape[0] - top < 5 + 2 * left + D_CELLS + n + MAX_PATH:
            return 3, top
        status = 0
        while rung < len(enabled) and status == 0:
            if not enabled[rung]:
                rung += 1
                continue
            if rung == pause:
                return 2, top
            rec[1], rec[2], rec[3], rec[4] = 0, -1, -1, 0
            desc[D_UNIT], desc[D_SECOND], desc[D_SINGLE] = -1, -1, -1
            desc[D_NVALUES], desc[D_NBASE], desc[D_NCOVER], desc[D_NCELLS], desc[D_NCHAIN] = 0, 0, 0, 0, 0
            for i in range(4):
                desc[D_GROUPS + i] = 0
            if rung == 0:  # full house
                for u in range(uvars.shape[0]):
                    if not uperm[u]:
                        continue
                    nf = 0
                    last = -1
                    for i in range(ulen[u]):
                        v = uvars[u, i]
                        if not placed[v]:
                            nf += 1
                            last = v
                    if nf == 1 and _pc(cand[last]) == 1:
                        rec[2], rec[3] = last, _low(cand[last])
                        desc[D_UNIT] = u
                        status = 1 if _place(cand, placed, last, cand[last], links, llen) else -1
                        break
            elif rung == 1 or rung == 2:  # hidden single, box-like units then lines
                boxes = rung == 1
                for u in range(uvars.shape[0]):
                    if not uperm[u] or ubox[u] != boxes:
                        continue
                    alone = _lone(u, cand, placed, uvars, ulen, uunion)
                    if alone < 0:
                        status = -1
                        break
                    if alone:
                        bit = alone & -alone
                        for i in range(ulen[u]):
                            v = uvars[u, i]
                            if not placed[v] and cand[v] & bit:
                                rec[2], rec[3] = v, _low(bit)
                                desc[D_UNIT] = u
                                status = 1 if _place(cand, placed, v, bit, links, llen) else -1
                                break
                        break
            elif rung == 3 or rung == 4:
                status = _direct_intersection(rung == 3, cand, placed, uvars, ulen, ubox, ufam, fam, flen, ca, cb,
                                              cshared, links, llen, rec, desc)
            elif rung == 5 or rung == 8:
                status = _hidden_subset(2 if rung == 5 else 3, True, cand, placed, uvars, ulen, uperm, links, llen,
                                        rec, rem, desc)
            elif rung == 7:  # naked single
                for v in range(n):
                    d = cand[v]
                    if not placed[v] and not d & (d - 1):
                        if d == 0:
                            status = -1
                            break
                        rec[2], rec[3] = v, _low(d)
                        status = 1 if _place(cand, placed, v, d, links, llen) else -1
                        break
            elif rung == 9 or rung == 10:
                status = _intersection(rung == 9, cand, placed, uvars, ulen, ubox, ca, cb, cshared, rec, rem, desc)
            elif rung == 11 or rung == 14 or rung == 21:
                status = _naked_subset(2 if rung == 11 else 3 if rung == 14 else 4, cand, placed, uvars, ulen, rec,
                                       rem, desc)
            elif rung == 12 or rung == 15 or rung == 22:
                status = _fish(2 if rung == 12 else 3 if rung == 15 else 4, all_values, cand, placed, uvars, ulen,
                               fam, flen, obase, oblen, ocover, cidx, rec, rem, desc)
            elif rung == 13 or rung == 16 or rung == 23:
                status = _hidden_subset(2 if rung == 13 else 3 if rung == 16 else 4, False, cand, placed, uvars,
                                        ulen, uperm, links, llen, rec, rem, desc)
            elif rung == 17:
                status = _chain_step(0, width, maxu, cand, placed, uvars, ulen, uperm, ubox, ufam, porder, plen,
                                     rank, rec, rem, desc)
            elif rung == 18:
                status = _grouped(cand, placed, width, umask, segu, segptr, segmask, pmask, rec, rem, desc)
            elif rung == 19 or rung == 20:
                status = _wing(rung == 20, cand, placed, peer, porder, plen, rec, rem, desc)
            elif rung == 24:
                status = _wxyz(cand, placed, peer, rec, rem, desc)
            elif rung >= 25:  # 25, 26, 27: X-chain, XY-chain, forcing chain
                status = _chain_step(rung - 24, width, maxu, cand, placed, uvars, ulen, uperm, ubox, ufam, porder,
                                     plen, rank, rec, rem, desc)
            if status == 0:
                rung += 1
        if status < 0:
            return -1, top
        if status == 0:
            return 1, top
        tape[top] = rung
        for i in range(1, 5):
            tape[top + i] = rec[i]
        top += 5
        for i in range(rec[4]):
            tape[top], tape[top + 1] = rem[i, 0], rem[i, 1]
            top += 2
        end = D_CELLS + desc[D_NCELLS]
        for i in range(end):
            tape[top + i] = desc[i]
        top += end
        for i in range(desc[D_NCHAIN]):
            tape[top + i] = desc[D_CELLS + n + i]
        top += desc[D_NCHAIN]
        if stop == 2 or stop == 1 and rec[2] >= 0:
            return 4, top
        rung = 0


# -- Python side -------------------------------------------------------------------------------------


def _table(rows: Sequence[Sequence[int]], fill: int = -1) -> Any:
    width = max([len(r) for r in rows] + [1])
    out = np.full((max(len(rows), 1), width), fill, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def fits(net: Logic) -> bool:
    """Whether the kernel can hold the model: values as bits of an int64 (62 at most, so that a shifted value
    stays inside the word), and a family's units as bits of one word (fish)."""
    return net.width <= 62 and all(len(f) < W for f in net.families) and len(net.units) > 0


class LadderKernel:
    """One model's tables for the compiled ladder, and the ladder's steps: the compiled rungs, with the Python
    rungs (``techniques``) where the kernel hands the board back."""

    def __init__(self, net: Logic) -> None:
        """``net``: a model the ladder fits (``fits``; grading.ladder_fits checks)."""
        self.net = net
        n = len(net.initial)
        words = (n + W - 1) // W

        def as_words(vars_: Iterable[int]) -> list[int]:
            w = [0] * words
            for v in vars_:
                w[v // W] |= 1 << (v % W)
            return w

        fam_of = {u: f for f, us in enumerate(net.families) for u in us}
        links = np.zeros((n, max([len(row) for row in net.links] + [1]), 2), dtype=np.int64)
        for v, row in enumerate(net.links):
            for i, link in enumerate(row):
                links[v, i] = link
        self.tables = (
            net.width, net.all_values,
            _table([list(u[1]) for u in net.units]), np.array([len(u[1]) for u in net.units], dtype=np.int64),
            np.array([u[2] for u in net.units], dtype=np.int64), np.array([u[3] for u in net.units], dtype=np.bool_),
            np.array(net.box_like, dtype=np.bool_), np.array([fam_of.get(u, -1) for u in range(len(net.units))],
                                                             dtype=np.int64),
            _table(net.families), np.array([len(f) for f in net.families], dtype=np.int64),
            np.array([a for a, _, _ in net.crossings], dtype=np.int64),
            np.array([b for _, b, _ in net.crossings], dtype=np.int64),
            np.array([[v in shared for v in range(n)] for _, _, shared in net.crossings] or [[False] * n],
                     dtype=np.bool_),
            _table([base for base, _ in net.orthogonal]),
            np.array([len(base) for base, _ in net.orthogonal], dtype=np.int64),
            np.array([cover for _, cover in net.orthogonal], dtype=np.int64),
            _table([[net.cover_index.get(f, {}).get(v, -1) for v in range(n)] for f in range(len(net.families))]),
            np.array([[w in net.peers[v] for w in range(n)] for v in range(n)], dtype=np.bool_),
            _table([list(net.peers[v]) for v in range(n)]),  # the order a peer set iterates in: the wings' order
            np.array([len(net.peers[v]) for v in range(n)], dtype=np.int64),
            links, np.array([len(row) for row in net.links], dtype=np.int64),
            np.array([as_words(u[1]) for u in net.units], dtype=np.int64),
            np.array(list(net.segments), dtype=np.int64),
            np.cumsum([0] + [len(s) for s in net.segments.values()]).astype(np.int64),
            np.array([as_words(v for v in range(n) if m >> v & 1) for s in net.segments.values() for m in s]
                     or [[0] * words], dtype=np.int64),
            np.array([as_words(net.peers[v]) for v in range(n)], dtype=np.int64))
        self.size = 8 * n * net.width + 4 * (D_CELLS + n + MAX_PATH)  # a tape: room for a few of the largest steps
        self.pause = COMPILED.index("constraint") if net.others else -1

    def enabled(self, techniques: Collection[str] | None) -> Any:
        """The compiled rungs a ladder limited to ``techniques`` climbs (None: every one)."""
        return np.array([techniques is None or t in techniques for t in COMPILED], dtype=np.bool_)

    def rows(self, cand: list[int], placed: list[bool], stop: int = 0, first: int = 0,
             enabled: Any = None) -> tuple[int, list[Row]]:
        """The compiled rungs from this board on, until ``_run``'s status (which it returns), the board updated
        in place, and the steps taken: each a ``Row``."""
        c = np.array(cand, dtype=np.int64)
        p = np.array(placed, dtype=np.bool_)
        n = len(cand)
        rem = np.empty((n * self.net.width + 1, 2), dtype=np.int64)
        desc = np.zeros(D_CELLS + n + MAX_PATH, dtype=np.int64)
        tape = np.empty(self.size, dtype=np.int64)  # per call: threads may share one model's tables
        global _spent
        run = _loop()
        start = time.perf_counter()
        status, top = run(first, self.pause, stop, self.enabled(None) if enabled is None else enabled, c, p,
                          *self.tables, rem, desc, tape, 0)
        if run is _run:
            _spent += time.perf_counter() - start
        cand[:] = c.tolist()
        placed[:] = p.tolist()
        out: list[Row] = []
        values = tape[:top].tolist()
        at = 0
        while at < top:
            rung, param, var, k, count = values[at:at + 5]
            at += 5
            removes = tuple((values[i], values[i + 1]) for i in range(at, at + 2 * count, 2))
            at += 2 * count
            head = values[at:at + D_CELLS]
            at += D_CELLS
            cells = tuple(values[at:at + head[D_NCELLS]])
            at += head[D_NCELLS]
            chain = tuple(values[at:at + head[D_NCHAIN]])
            at += head[D_NCHAIN]
            out.append(Row(rung, param, var, k, removes, head, cells, chain))
        return int(status), out

    def deduce(self, cand: list[int], placed: list[bool], stop: int = 0,
               techniques: Collection[str] | None = None) -> Iterator[Row | Step]:
        """The ladder's deductions from this board on, cheapest rung first, applied to the board, until it is
        solved, no rung applies, or ``stop`` (1: after a step that places a value; 2: after one step): the
        compiled rungs' steps as ``Row``s, the Python rungs' as ``Step``s. Raises Contradiction after the steps
        that led to one."""
        net, enabled = self.net, self.enabled(techniques)
        first = 0
        while not all(placed):
            clock.check()  # a caller's time limit (grade --time-limit) ends the ladder between calls
            status, rows = self.rows(cand, placed, stop, first, enabled)
            yield from rows
            first = 0
            if status == 0 or status == 4:
                return
            if status < 0:
                raise Contradiction
            if status == 3:  # the tape was full: go on from the cheapest rung, as after any step
                continue
            if status == 2:  # the constraint rung's turn: in Python (a constraint checks its own tuples)
                step = python_rungs.constraint(net, cand, placed) if enabled[self.pause] else None
                if step is None:
                    first = self.pause + 1
                    continue
            else:
                step = None
                for name, find in python_rungs.PYTHON_RUNGS:
                    if techniques is None or name in techniques:
                        clock.check()
                        step = find(net, cand, placed)
                        if step is not None:
                            break
                if step is None:
                    return
            net.apply(cand, placed, step)
            yield step
            if stop == 2 or stop == 1 and step.place is not None:
                return

    def step(self, row: Row) -> Step:
        """A compiled step as the ladder's ``Step``: the technique, its rating and its reasons by name."""
        net = self.net
        technique, rating = self.describe(row)
        head = row.head
        names = [u[0] for u in net.units]
        unit = names[head[D_UNIT]] if head[D_UNIT] >= 0 else ""
        place = (row.var, net.lo + row.k) if row.var >= 0 else None
        if technique == "naked single":
            unit = ", ".join(net.units_of[row.var]) or "its constraints"
        elif head[D_NBASE]:  # a fish: its base and cover units
            unit = ", ".join(names[u] for u in head[D_BASE:D_BASE + head[D_NBASE]])
        second = (names[head[D_SECOND]] if head[D_SECOND] >= 0 else
                  ", ".join(names[u] for u in head[D_COVER:D_COVER + head[D_NCOVER]]))
        sizes = head[D_GROUPS:D_GROUPS + 4]
        groups: tuple[tuple[int, ...], ...] = ()
        if any(sizes):
            at = 0
            for size in sizes:
                groups += (row.cells[at:at + size],)
                at += size
        width = net.width
        return Step(technique, unit, rating, place=place, removes=tuple((v, net.lo + k) for v, k in row.removes),
                    cells=row.cells, values=tuple(net.lo + k for k in head[D_VALUES:D_VALUES + head[D_NVALUES]]),
                    second=second, chain=tuple((node // width, net.lo + node % width) for node in row.chain),
                    single=names[head[D_SINGLE]] if head[D_SINGLE] >= 0 else "", groups=groups)

    @staticmethod
    def describe(row: Row) -> tuple[str, float]:
        """A compiled step's technique and rating (SE's, with the length bonus and Sukaku's strong links)."""
        rung, param = row.rung, row.param
        technique = COMPILED[rung]
        if rung == 1:
            return technique, 1.2
        if rung == 17:
            return TURBOT[param], RATINGS[TURBOT[param]]
        if rung == 24:
            return technique, round(5.5 + (1 - abs(3 - param)) * 0.1, 1)
        if rung >= 25:
            nodes = param % 100
            value = RATINGS[technique] + length_bonus(nodes)
            if rung == 25 and param >= 100:
                lines, box = param // 100 % 10 - 1, param // 1000
                links = round(STRONG_LINKS[nodes // 2] + (0.0 if lines == 1 and not box else
                                                          0.2 if lines >= 2 and box else 0.1), 1)
                if links < value:
                    value = links
            return technique, value
        return technique, RATINGS[technique] if rung != 2 else 1.5


class Row(NamedTuple):
    """A compiled step as the kernel recorded it: the rung and its parameter (a turbot fish's kind, a chain's
    length, a WXYZ-wing's pivot size), the placement (var -1: none) as a value bit index, the removals as
    (variable, bit index), the reasons (``head``: the D_ places), the cells and the chain's nodes."""

    rung: int
    param: int
    var: int
    k: int
    removes: tuple[tuple[int, int], ...]
    head: list[int]
    cells: tuple[int, ...]
    chain: tuple[int, ...]
