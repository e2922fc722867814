"""Givens held as two numpy arrays instead of a dict.

A lights-out board of 10^6 cells has 10^6 givens (every light's state): as a dict they are a
million Python ints and a 40 MB hash table, which take longer to build (and to fault into
memory) than the linear engine takes to solve the board. ``GivenArrays`` is the same read-only
mapping (variable -> value) over two arrays; an engine that reads arrays takes them whole
(``arrays``), every other reader sees an ordinary ``Mapping`` (iteration, ``in``, ``get``,
``items``), so a type may use it for large boards and dicts for the rest.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from puzzlesmith.core.errors import ModelError

if TYPE_CHECKING:
    import numpy as np


class GivenArrays(Mapping[int, int]):
    """Variables (strictly increasing) and their values as arrays; read-only (the arrays are not copied:
    do not change them afterwards)."""

    __slots__ = ("_vars", "_values")

    def __init__(self, variables: np.ndarray, values: np.ndarray) -> None:
        import numpy as np

        if variables.ndim != 1 or variables.shape != values.shape:
            raise ModelError("given variables and values must be one-dimensional arrays of one length")
        if len(variables) > 1 and not (variables[1:] > variables[:-1]).all():
            raise ModelError("given variables must be strictly increasing")
        self._vars = variables.view()
        self._values = values.view()
        self._vars.flags.writeable = self._values.flags.writeable = False
        if self._vars.dtype.kind not in "iu" or self._values.dtype.kind not in "iu":
            raise ModelError(f"given variables and values must be integers, not {np.result_type(variables, values)}")

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The variables (increasing) and their values, as read-only arrays."""
        return self._vars, self._values

    def __len__(self) -> int:
        return len(self._vars)

    def __iter__(self) -> Iterator[int]:
        return iter(self._vars.tolist())

    def __getitem__(self, var: int) -> int:
        import numpy as np

        i = int(np.searchsorted(self._vars, var))
        if i == len(self._vars) or self._vars[i] != var:
            raise KeyError(var)
        return int(self._values[i])

    def __contains__(self, var: object) -> bool:
        if not isinstance(var, int):
            return False
        try:
            self[var]
        except KeyError:
            return False
        return True

    def items(self) -> ItemsView[int, int]:
        return _Items(self)

    def __repr__(self) -> str:
        return f"GivenArrays({len(self)} givens)"

    def __reduce__(self) -> tuple[Any, ...]:
        return GivenArrays, (self._vars.copy(), self._values.copy())


class _Items(ItemsView[int, int]):
    """(variable, value) pairs read from the arrays in one pass (the generic view looks each value up)."""

    _mapping: GivenArrays

    def __iter__(self) -> Iterator[tuple[int, int]]:
        variables, values = self._mapping.arrays()
        return zip(variables.tolist(), values.tolist())


def first_lost(givens: Mapping[int, int], values: Sequence[int]) -> int | None:
    """The first given variable (in the givens' order) whose value in ``values`` is not its given, or None.

    An answer is checked against its givens after every solve: walked in Python, a board's million givens
    take 0.1 s; givens held as arrays are compared whole, the values gathered by one C call."""
    if isinstance(givens, GivenArrays) and len(givens) > 1:
        variables, wanted = givens.arrays()
        lo, hi, expected = int(variables[0]), int(variables[-1]) + 1, wanted.tolist()
        if hi - lo == len(variables):  # one range of variables (a board's lights): a slice
            got = list(values[lo:hi])
            indices: Sequence[int] = range(lo, hi)
        else:
            indices = variables.tolist()
            got = list(itemgetter(*indices)(values))
        return None if got == expected else next(v for v, x, y in zip(indices, got, expected) if x != y)
    return next((v for v, x in givens.items() if values[v] != x), None)
