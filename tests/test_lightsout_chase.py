"""The linear engine's chase on lights-out boards, against galois and against pressing the buttons.

The chase (light chasing found from the equations: the first row's presses as seeds, every other
press defined by the row above) and its streamed plan are checked where a wrong chase would show:
random boards of every size from 1x1 to 12x12 and non-square ones, over GF(2) and GF(3), plus and
box neighbourhoods. For each, the engine's verdict and count must match galois's ranks (a board is
solvable iff rank A = rank [A | b], with k^(cells - rank A) solutions), and its answer must clear
the board when pressed on the simulator below, which shares no code with csp/ or solvers/.
"""

from __future__ import annotations

import pickle
from dataclasses import replace

import galois
import numpy as np
import pytest

from puzzlesmith.csp.givens import GivenArrays, first_lost
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import PuzzleType
from puzzlesmith.solvers.linear import LinearEngine, analyse

LIGHTSOUT = registry.get("lightsout")
ENGINE = LinearEngine()
SHAPES = {"plus": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
          "box": tuple((a, b) for a in (-1, 0, 1) for b in (-1, 0, 1))}


def pressed(rows: int, cols: int, shape: tuple[tuple[int, int], ...], presses: np.ndarray, k: int) -> np.ndarray:
    """What ``presses`` (rows x cols counts) add to each cell, cell by cell from the rules."""
    out = np.zeros((rows, cols), dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            for dr, dc in shape:
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    out[r + dr, c + dc] += presses[r, c]
    return out % k


def matrix(rows: int, cols: int, shape: tuple[tuple[int, int], ...], k: int) -> np.ndarray:
    """A: column j is what one press of cell j adds to every cell."""
    n = rows * cols
    return np.stack([pressed(rows, cols, shape, np.eye(n, dtype=np.int64)[j].reshape(rows, cols), k).ravel()
                     for j in range(n)], axis=1)


SIZES = [(n, n) for n in range(1, 13)] + [(1, 7), (7, 1), (2, 9), (9, 2), (3, 11), (11, 4), (5, 12), (12, 5)]


@pytest.mark.parametrize("neighbourhood", ["plus", "box"])
@pytest.mark.parametrize("k", [2, 3])
def test_chased_boards_match_galois_ranks_and_are_cleared(k: int, neighbourhood: str) -> None:
    rng = np.random.default_rng(k * 10 + len(neighbourhood))
    field = galois.GF(k)
    params = LIGHTSOUT.resolve_params({"states": str(k), "neighbourhood": neighbourhood})
    chased = 0
    for rows, cols in SIZES:
        a = matrix(rows, cols, SHAPES[neighbourhood], k)
        rank = np.linalg.matrix_rank(field(a))
        for solvable in (True, False):
            if solvable:  # the board some random presses clear
                board = -pressed(rows, cols, SHAPES[neighbourhood], rng.integers(0, k, (rows, cols)), k) % k
            else:  # any board: solvable or not
                board = rng.integers(0, k, (rows, cols))
            text = "/".join("".join(map(str, row)) for row in board) + "/"
            inst = LIGHTSOUT.parse(text, params)
            model = LIGHTSOUT.model(inst)
            reachable = np.linalg.matrix_rank(field(np.column_stack([a, -board.ravel() % k]))) == rank
            assert not solvable or reachable
            count = ENGINE.count(model, fix=inst.givens)
            assert count.count == (k ** (rows * cols - rank) if reachable else 0), (rows, cols, text)
            chased += analyse(model, inst.givens).method == "chase"
            if reachable:
                presses = np.array(ENGINE.solve(model, inst.givens).solution[:rows * cols]).reshape(rows, cols)
                assert not ((board + pressed(rows, cols, SHAPES[neighbourhood], presses, k)) % k).any()
    assert chased >= 2 * (len(SIZES) - 4)  # every board of more than one row and column is chased


@pytest.mark.parametrize("size", ["1", "4", "9x5", "16"])
def test_the_all_on_board_as_arrays_is_solved_as_the_same_board_read_from_text(size: str) -> None:
    params = LIGHTSOUT.resolve_params({"size": size})
    blank = LIGHTSOUT.empty(params)
    assert blank is not None and isinstance(blank.givens, GivenArrays)
    rows, cols = blank.params["rows"], blank.params["cols"]
    text = LIGHTSOUT.parse("/".join(["1" * cols] * rows) + "/", LIGHTSOUT.resolve_params({}))
    assert blank.givens == text.givens  # the same mapping, variable by variable
    model = LIGHTSOUT.model(blank)
    assert ENGINE.count(model, fix=blank.givens).count == ENGINE.count(model, fix=text.givens).count
    assert ENGINE.solve(model, blank.givens).solution == ENGINE.solve(model, text.givens).solution
    assert LIGHTSOUT.format_puzzle(blank) == LIGHTSOUT.format_puzzle(replace(text, layout=blank.layout))


def test_given_arrays_read_as_a_mapping() -> None:
    givens = GivenArrays(np.array([3, 5, 9]), np.array([1, 0, 2], dtype=np.uint8))
    assert dict(givens) == {3: 1, 5: 0, 9: 2} == dict(givens.items())
    assert len(givens) == 3 and 5 in givens and 4 not in givens and "5" not in givens
    assert givens.get(9) == 2 and givens.get(4) is None and list(givens) == [3, 5, 9]
    assert pickle.loads(pickle.dumps(givens)) == givens
    with pytest.raises(KeyError):
        givens[10]
    with pytest.raises(ValueError, match="strictly increasing"):
        GivenArrays(np.array([2, 2]), np.array([0, 1]))


@pytest.mark.parametrize("cells,states", [
    (np.arange(4, 8), np.array([1, 0, 1, 1], dtype=np.uint8)),  # a 2x2 board's lights, all in 0..1
    (np.arange(4, 8), np.array([1, 0, 2, 1], dtype=np.int64)),  # light r2c1 at 2: outside 0..1
    (np.array([0, 3, 5, 6]), np.array([1, -1, 1, 7], dtype=np.int64)),  # press r2c2 at -1 comes first
])
def test_givens_as_arrays_are_judged_as_the_same_givens_in_a_dict(cells: np.ndarray, states: np.ndarray) -> None:
    """The type's contradiction (a given outside its domain), the answers' check against the givens
    (csp.givens.first_lost) and formatting read arrays whole; they say what the dict path says."""
    blank = LIGHTSOUT.blank(LIGHTSOUT.resolve_params({}), 2, 2)
    arrays = replace(blank, givens=GivenArrays(cells, states))
    plain = replace(blank, givens=dict(zip(cells.tolist(), states.tolist())))
    model = LIGHTSOUT.model(blank)
    assert LIGHTSOUT.contradiction(arrays, model) == PuzzleType.contradiction(LIGHTSOUT, plain, model)
    for values in ([0] * 8, [1] * 8, [1, 0, 1, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0, 2, 1]):
        assert first_lost(arrays.givens, values) == first_lost(plain.givens, values) == \
            next((v for v, x in plain.givens.items() if values[v] != x), None)


def test_a_board_of_states_formats_through_bytes_as_value_by_value() -> None:
    """States 0..35 as their characters; anything else (no state) as indexing DIGITS says."""
    inst = LIGHTSOUT.parse("0z9/a1b/", LIGHTSOUT.resolve_params({"states": "36"}))
    assert LIGHTSOUT.format(inst, [0, 35, 9, 10, 1, 11]) == "0z9/a1b"
    assert LIGHTSOUT.format(inst, (0, 35, 9, 10, 1, 11)) == "0z9/a1b"
    assert LIGHTSOUT.format(inst, np.array([0, 35, 9, 10, 1, 11])) == "0z9/a1b"
    with pytest.raises(IndexError):
        LIGHTSOUT.format(inst, [0, 36, 9, 10, 1, 11])
