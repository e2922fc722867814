"""Arrays of variables shaped as numpy arrays: ``m.int_var(0, 9, "q", shape=(3, 3))``.

A ``VarArray`` is a numpy object array whose items are variables or expressions, so slicing, ``.T``,
``.sum()``, ``.ravel()`` and arithmetic are numpy's own. Two things numpy does not do for objects are
added here: comparisons (numpy would ask each result for a truth value, which a constraint has not) build
arrays of constraints, and an index that is a variable means element (``q[i]``, and ``grid[i, j]`` the
element of the flattened array at ``i * columns + j``), never the variable's position in the model.

This module imports numpy, so only models that ask for a shape load it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr
from puzzlesmith.csp.constraints import whole


class VarArray(np.ndarray):
    """A numpy object array of variables or expressions (see the module's docstring)."""

    def __new__(cls, items: Any) -> VarArray:
        return np.asarray(items, dtype=object).view(cls)

    def _each(self, op: Callable[[Any, Any], Any], other: Any) -> VarArray:
        try:
            out = np.frompyfunc(op, 2, 1)(np.asarray(self, dtype=object), np.asarray(other, dtype=object))
        except ValueError:  # numpy's broadcasting refused the shapes
            raise ModelError(f"an array of shape {self.shape} cannot be compared item by item with one of shape "
                             f"{np.shape(other)}") from None
        return VarArray(out)

    def __eq__(self, other: Any) -> VarArray:  # type: ignore[override]
        return self._each(operator.eq, other)

    def __ne__(self, other: Any) -> VarArray:  # type: ignore[override]
        return self._each(operator.ne, other)

    def __lt__(self, other: Any) -> VarArray:
        return self._each(operator.lt, other)

    def __le__(self, other: Any) -> VarArray:
        return self._each(operator.le, other)

    def __gt__(self, other: Any) -> VarArray:
        return self._each(operator.gt, other)

    def __ge__(self, other: Any) -> VarArray:
        return self._each(operator.ge, other)

    def __bool__(self) -> bool:
        raise ModelError("an array of variables has no truth value in Python: add it to a model with m.add(...)")

    __hash__ = None

    def __getitem__(self, key: Any) -> Any:
        keys = key if isinstance(key, tuple) else (key,)
        if not any(isinstance(k, expr.Expr) for k in keys):
            return super().__getitem__(key)
        if len(keys) != self.ndim or any(isinstance(k, (slice, type(Ellipsis))) or k is None for k in keys):
            raise ModelError(f"an array of shape {self.shape} indexed by a variable takes one index per "
                             f"dimension ({self.ndim}), each a variable or a whole number, got {key!r}")
        flat: Any = 0  # the position in the flattened array (row-major), an expression
        for k, size in zip(keys, self.shape):
            if not isinstance(k, expr.Expr):
                k = whole(k, "an array index")
                if not 0 <= k < size:
                    raise ModelError(f"index {k} is outside an axis of {size} of an array of shape {self.shape}")
            flat = flat * size + k
        # each variable index within its own axis, as numpy requires of constants: (0, columns) is no cell
        axes = [(k, size) for k, size in zip(keys, self.shape) if isinstance(k, expr.Expr)] if self.ndim > 1 else []
        return expr.Element(list(np.asarray(self, dtype=object).ravel()), flat, axes)

    def __array_wrap__(self, out: Any, context: Any = None, return_scalar: bool = False) -> Any:
        if out.ndim == 0:  # a reduction (.sum()) answers the expression, not a 0-d array
            return out[()]
        return super().__array_wrap__(out, context, return_scalar)


def var_array(items: Any) -> VarArray:
    """``items`` (a list, nested lists or a numpy array of variables, expressions or numbers) as a VarArray."""
    if isinstance(items, (str, bytes, expr.Expr)):
        raise ModelError(f"an array is a list or a numpy array of variables or numbers, got {items!r}")
    out = VarArray(items)
    for item in out.flat:
        if not isinstance(item, expr.Expr):
            whole(item, "an item of an array")
    return out


def shaped(shape: Any) -> tuple[int, ...]:
    """A shape (a whole number or a tuple of them, each at least 1), checked."""
    dims = shape if isinstance(shape, tuple) else (shape,)
    if not dims:
        raise ModelError("shape=() has no dimensions: leave shape out for one variable")
    out = tuple(whole(d, "a dimension of shape=") for d in dims)
    if any(d < 1 for d in out):
        raise ModelError(f"shape={shape!r}: every dimension is at least 1")
    return out
