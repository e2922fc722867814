"""The compiled depth-first expectimax of the games of chance (2048, Threes), on the packed 64-bit boards of
``chance.rules.RowBoard``, as nneonneo's 2048-ai and threes-ai search: one position at a time, depth first.

- Moves are row tables (65,536 entries on 4x4 for each of left, right, and a column moved up or down and stood
  up), so a move is one lookup per line; a board's heuristic is a row table summed over rows and columns.
- A max node takes the best move; a chance node averages over what may enter by the game's rule: ``ANYWHERE``
  (a 2 with probability 0.9 or a 4 with 0.1 on any empty cell) or ``TRAILING`` (the next card, weighted by the
  deck left and the bonus rule, at the trailing edge of one of the lines that moved, uniformly).
- After ``depth`` moves, or once the path's cumulative probability falls below ``cutoff``, a moved board is
  scored by its evaluation averaged over the last chance node: the heuristic, or ``reward + V(after)`` of an
  n-tuple network of after-states (``chance.ntuple``), whose value already averages over what enters.
- A transposition table (direct-mapped, ``TT_BITS`` bits of a hash) keeps the value of every chance node
  searched (its moved board, the depth left, and what its entries depend on), so a position reached by several
  paths at the same depth is searched once;
  each search stamps its entries with its own generation, so no search sees another's and a game replays the
  same whatever was searched before.
- Move ordering: at a max node the moves are searched best-first by their after-state's static evaluation,
  so the transposition table fills from the likeliest line of play first, and the root's values come out in
  the order the player weighs them.

``players.Expectimax`` builds the tables and calls ``search``; ``core.compiled.kernel`` runs the same functions
as plain Python when numba is absent.
"""

from __future__ import annotations

import numpy as np

from puzzlesmith.chance.rules import ANYWHERE, TRAILING
from puzzlesmith.core.compiled import flat_kernel, inline_kernel

__all__ = ["ANYWHERE", "TRAILING", "search"]
#: Transposition-table entries: 2^TT_BITS, 24 bytes each (a key of two words, a value).
TT_BITS = 20
#: Every float16 by its bits, as float32 (256 KB): how a network kept as float16 is read (``tuple_value``).
HALF = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32)
#: The top rank at which a network of several stages turns to its second stage's tables (2048's 8192, Threes'
#: 3072), the next rank its third's (16384, 6144): the late game, where one stage's weights serve it poorly
#: (Wu et al., "Multi-stage temporal difference learning for 2048", TAAI 2014, split where 16384 and 8192 appear).
FIRST_STAGE_RANK = 13
#: Deepest search the scratch rows hold (the players refuse deeper).
MAX_LEVELS = 16
#: Options (values of the next card) a chance node may have: 3 basic cards and up to 12 bonus ranks.
MAX_OPTIONS = 16
#: Threes' deck rule as the kernel reads it (``chance.threes``): 4 of each basic card, the bonus odds and
#: the rank of the 48 that starts bonus cards.
DECK_FULL, BONUS_ODDS, BONUS_FROM = 4, 21.0, 7
#: Indices of the counters array: max nodes searched, positions evaluated, transposition hits, generation.
SEARCHED, EVALUATED, HITS, GENERATION = range(4)
#: Rows of the move tables (``RowBoard.move_tables``, uint16): a row moved left, moved right, its empty cells.
LEFT_ROW, RIGHT_ROW, EMPTY = range(3)
#: Columns of the evaluation table (float64, side by side so that a row number's two are one memory access):
#: the heuristic, and what the game's tile adds to it over the row's empty cells (ANYWHERE).
HEURISTIC, GAIN = range(2)
#: A stack frame's fields (one row per level of ``ints``, ``floats``, ``words``): the move searched (an index
#: into the ordered moves), how many are allowed, the chance node's next child and its number of children,
#: its cells or lines, the table slot and the state of the child being searched, the node's own state; the
#: node's probability of being reached, its best value, the chance node's sum so far, the child's probability;
#: the node's board, the child's table tag and board.
I_MOVE, I_ALLOWED, I_CHILD, I_COUNT, I_N, I_SLOT, I_STATE = range(7)
F_REACH, F_BEST, F_VALUE, F_P = range(4)
W_BOARD, W_TAG = range(2)


@inline_kernel
def transpose(board: np.uint64, size: int, row_bits: int, row_mask: int, tables: np.ndarray, spread: np.ndarray
              ) -> np.uint64:
    """Rows become columns: on 4x4 by swapping nibble blocks in two steps (H. S. Warren, Hacker's Delight,
    "Transposing a bit matrix": the 2x2 blocks' off-diagonal cells, 12 bits apart, then the off-diagonal 2x2
    blocks, 24 bits apart); other sizes by ``spread`` (a row number stood up as column 0)."""
    if size == 4:
        x = np.uint64(board)
        x = (x & np.uint64(0xF0F00F0FF0F00F0F)) | ((x & np.uint64(0x0000F0F00000F0F0)) << np.uint64(12)) | \
            ((x & np.uint64(0x0F0F00000F0F0000)) >> np.uint64(12))
        return (x & np.uint64(0xFF00FF0000FF00FF)) | ((x & np.uint64(0x00000000FF00FF00)) << np.uint64(24)) | \
            ((x & np.uint64(0x00FF00FF00000000)) >> np.uint64(24))
    out = np.uint64(0)
    for r in range(size):
        row = (np.uint64(board) >> np.uint64(row_bits * r)) & np.uint64(row_mask)
        out |= spread[row] << np.uint64(4 * r)
    return out


@inline_kernel
def move(board: np.uint64, d: int, size: int, row_bits: int, row_mask: int, tables: np.ndarray, spread: np.ndarray
         ) -> np.uint64:
    """The board after move ``d`` (0-3: U, D, L, R) by the row tables (``tables``, uint16: 128 KB each on 4x4,
    so they stay in cache): U and D are L and R on the board transposed, and transposed back."""
    out = np.uint64(0)
    if d >= 2:
        for r in range(size):
            row = (np.uint64(board) >> np.uint64(row_bits * r)) & np.uint64(row_mask)
            out |= np.uint64(tables[LEFT_ROW + d - 2, row]) << np.uint64(row_bits * r)
        return out
    t = transpose(board, size, row_bits, row_mask, tables, spread)
    for c in range(size):
        col = (t >> np.uint64(row_bits * c)) & np.uint64(row_mask)
        out |= np.uint64(tables[LEFT_ROW + d, col]) << np.uint64(row_bits * c)
    return transpose(out, size, row_bits, row_mask, tables, spread)


@inline_kernel
def line_sum(board: np.uint64, size: int, row_bits: int, row_mask: int, tables: np.ndarray, spread: np.ndarray,
             table: np.ndarray) -> float:
    """The heuristic (column ``HEURISTIC`` of ``table``) summed over the rows and the columns of ``board``."""
    return both_sum(board, transpose(board, size, row_bits, row_mask, tables, spread), size, row_bits, row_mask,
                    table)


@inline_kernel
def both_sum(board: np.uint64, turned: np.uint64, size: int, row_bits: int, row_mask: int, table: np.ndarray
             ) -> float:
    """``line_sum`` of ``board`` whose transpose ``turned`` is known."""
    total = 0.0
    for r in range(size):
        shift = np.uint64(row_bits * r)
        total += table[(np.uint64(board) >> shift) & np.uint64(row_mask), HEURISTIC] + \
            table[(np.uint64(turned) >> shift) & np.uint64(row_mask), HEURISTIC]
    return total


@inline_kernel
def all_moves(board: np.uint64, level: int, size: int, row_bits: int, row_mask: int, tables: np.ndarray,
              spread: np.ndarray, afters: np.ndarray) -> None:
    """The four moves of ``board`` into ``afters[level, d]`` and each one's transpose into ``afters[level, 4 + d]``,
    with five transposes where four calls of ``move`` and the evaluations of what they leave take eight: U and D
    move the rows of one transposed board, which is the transpose of what they leave."""
    t = transpose(board, size, row_bits, row_mask, tables, spread)
    up, down, left, right = np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)
    for r in range(size):
        shift = np.uint64(row_bits * r)
        row, col = (np.uint64(board) >> shift) & np.uint64(row_mask), (t >> shift) & np.uint64(row_mask)
        left |= np.uint64(tables[LEFT_ROW, row]) << shift
        right |= np.uint64(tables[RIGHT_ROW, row]) << shift
        up |= np.uint64(tables[LEFT_ROW, col]) << shift
        down |= np.uint64(tables[RIGHT_ROW, col]) << shift
    afters[level, 0] = transpose(up, size, row_bits, row_mask, tables, spread)
    afters[level, 1] = transpose(down, size, row_bits, row_mask, tables, spread)
    afters[level, 2], afters[level, 3], afters[level, 4], afters[level, 5] = left, right, up, down
    afters[level, 6] = transpose(left, size, row_bits, row_mask, tables, spread)
    afters[level, 7] = transpose(right, size, row_bits, row_mask, tables, spread)


@inline_kernel
def row_sum(board: np.uint64, size: int, row_bits: int, row_mask: int, table: np.ndarray) -> float:
    """``table`` summed over the rows of ``board`` (a score the board implies: a move's reward is its change)."""
    total = 0.0
    for r in range(size):
        total += table[(np.uint64(board) >> np.uint64(row_bits * r)) & np.uint64(row_mask)]
    return total


@inline_kernel
def top_rank(board: np.uint64, cells: int) -> int:
    """The highest rank on the first ``cells`` cells of ``board``."""
    top = np.uint64(0)
    for c in range(cells):
        top = max(top, (np.uint64(board) >> np.uint64(4 * c)) & np.uint64(15))
    return int(np.int64(top))  # signed: numba makes a signed and an unsigned integer a float


@inline_kernel
def stage_row(board: np.uint64, tuples: np.ndarray, weights: np.ndarray) -> int:
    """The first table row of the stage ``board`` is in, for a network of several stages (each a table per base
    tuple, stacked: ``weights`` has as many rows as base tuples times stages): stage s from the board's top rank
    reaching ``FIRST_STAGE_RANK`` + s - 1, the last stage beyond (0 for a network of one stage)."""
    per_stage = tuples[tuples.shape[0] - 1, tuples.shape[1] - 1] + 1
    stages = weights.shape[0] // per_stage
    if stages == 1:
        return 0
    return int(min(max(top_rank(board, 16) - FIRST_STAGE_RANK + 1, 0), stages - 1) * per_stage)


@inline_kernel
def tuple_value(board: np.uint64, tuples: np.ndarray, weights: np.ndarray) -> float:
    """An n-tuple network's value of ``board``: for each tuple (its cells, the last column its table's row within
    a stage), the weight its cells' ranks index in the table of ``board``'s stage. ``weights`` are float32, or
    float16 kept as their bits in uint16 (``HALF`` widens each: numba computes in no float16 of its own)."""
    total = 0.0
    cells = tuples.shape[1] - 1
    first = stage_row(board, tuples, weights)
    for k in range(tuples.shape[0]):
        index = 0
        for j in range(cells):
            index = index * 16 + int((np.uint64(board) >> np.uint64(4 * tuples[k, j])) & np.uint64(15))
        w = weights[first + tuples[k, cells], index]
        total += HALF[np.int64(w)] if weights.itemsize == 2 else w
    return total


@inline_kernel
def moved_lines(before: np.uint64, after: np.uint64, d: int, size: int, row_bits: int, row_mask: int,
                tables: np.ndarray, spread: np.ndarray, out: np.ndarray, level: int) -> int:
    """How many lines (rows for L and R, columns for U and D) the move changed; their numbers into row ``level``
    of ``out``."""
    b, a = np.uint64(before), np.uint64(after)
    if d < 2:
        b = transpose(before, size, row_bits, row_mask, tables, spread)
        a = transpose(after, size, row_bits, row_mask, tables, spread)
    n = 0
    for k in range(size):
        shift = np.uint64(row_bits * k)
        if (b >> shift) & np.uint64(row_mask) != (a >> shift) & np.uint64(row_mask):
            out[level, n] = k
            n += 1
    return n


@inline_kernel
def _pack(ones: int, twos: int, threes: int) -> int:
    """A deck's counts as a state packs them: a full deck as 0, as an emptied one."""
    if ones == DECK_FULL and twos == DECK_FULL and threes == DECK_FULL:
        return 0
    return ones | twos << 3 | threes << 6


@inline_kernel
def deck_options(state: int, top: int, ranks: np.ndarray, chances: np.ndarray, decks: np.ndarray, level: int) -> int:
    """The values the next card may have with no hint shown (rank, probability, deck after) from the deck of
    ``state`` and the highest rank ``top`` of the board it is drawn on, into row ``level`` of the scratch: as
    ``threes.Rules.options``."""
    ones, twos, threes = state & 7, (state >> 3) & 7, (state >> 6) & 7
    if ones == 0 and twos == 0 and threes == 0:
        ones = twos = threes = DECK_FULL
    total = ones + twos + threes
    bonus = top - 6 if top >= BONUS_FROM else 0
    basic = 1.0 - 1.0 / BONUS_ODDS if bonus > 0 else 1.0
    n = 0
    if ones:
        ranks[level, n], chances[level, n], decks[level, n] = 1, basic * ones / total, _pack(ones - 1, twos, threes)
        n += 1
    if twos:
        ranks[level, n], chances[level, n], decks[level, n] = 2, basic * twos / total, _pack(ones, twos - 1, threes)
        n += 1
    if threes:
        ranks[level, n], chances[level, n], decks[level, n] = 3, basic * threes / total, _pack(ones, twos, threes - 1)
        n += 1
    for r in range(4, 4 + bonus):
        ranks[level, n], chances[level, n], decks[level, n] = r, (1.0 - basic) / bonus, _pack(ones, twos, threes)
        n += 1
    return n


@inline_kernel
def evaluate(before: np.uint64, after: np.uint64, turned: np.uint64, d: int, state: int, depth: int, kind: int,
             size: int, row_bits: int, row_mask: int, tables: np.ndarray, spread: np.ndarray, table: np.ndarray,
             reward: np.ndarray, tuples: np.ndarray, weights: np.ndarray, entry: np.ndarray, lines: np.ndarray,
             ranks: np.ndarray, chances: np.ndarray, options: int, level: int, counters: np.ndarray) -> float:
    """The moved board ``after`` (whose transpose is ``turned``) scored where the search stops: with a network,
    the move's reward and the network's value of the after-state; else the heuristic averaged over the chance
    node (ANYWHERE: by the tile-gain column of ``table``, beside the heuristic in one lookup per line; TRAILING:
    every card on every moved line's edge, scored)."""
    if weights.shape[0] > 0:
        counters[EVALUATED] += 1
        return row_sum(after, size, row_bits, row_mask, reward) - row_sum(before, size, row_bits, row_mask, reward) \
            + tuple_value(after, tuples, weights)
    if kind == ANYWHERE:
        total, gained, empty = 0.0, 0.0, 0.0
        t = np.uint64(turned)
        for r in range(size):
            shift = np.uint64(row_bits * r)
            row, col = (np.uint64(after) >> shift) & np.uint64(row_mask), (t >> shift) & np.uint64(row_mask)
            total += table[row, HEURISTIC] + table[col, HEURISTIC]
            gained += table[row, GAIN] + table[col, GAIN]
            empty += tables[EMPTY, row]
        counters[EVALUATED] += 2 * int(empty)
        return total + gained / empty
    n = moved_lines(before, after, d, size, row_bits, row_mask, tables, spread, lines, level)
    total = 0.0
    for k in range(n):
        shift = np.uint64(entry[d, lines[level, k]])
        for j in range(options):
            child = np.uint64(after) | (np.uint64(ranks[level, j]) << shift)
            total += chances[level, j] * line_sum(child, size, row_bits,
                                           row_mask, tables, spread, table)
    counters[EVALUATED] += n * options
    return total / n


@inline_kernel
def _open(level: int, board: np.uint64, state: int, reach: float, root: bool, kind: int, size: int, row_bits: int,
          row_mask: int, tables: np.ndarray, spread: np.ndarray, table: np.ndarray, tuples: np.ndarray,
          weights: np.ndarray,
          ranks: np.ndarray, chances: np.ndarray, decks: np.ndarray, options: np.ndarray, afters: np.ndarray,
          order: np.ndarray, keys: np.ndarray, ints: np.ndarray, floats: np.ndarray, words: np.ndarray,
          values: np.ndarray, counters: np.ndarray) -> None:
    """Frame ``level`` made the max node ``board``: its options for the next card (TRAILING, but for the root's,
    which the caller gives), and its allowed moves ordered best static evaluation first (above the last level)."""
    counters[SEARCHED] += 1
    words[level, W_BOARD] = board
    ints[level, I_STATE] = state
    floats[level, F_REACH] = reach
    floats[level, F_BEST] = 0.0
    ints[level, I_MOVE] = -1
    ints[level, I_CHILD] = ints[level, I_COUNT] = 0
    if kind == TRAILING and not root:
        options[level] = deck_options(state, top_rank(board, size * size), ranks, chances, decks, level)
    all_moves(board, level, size, row_bits, row_mask, tables, spread, afters)
    allowed = 0
    for d in range(4):
        a = afters[level, d]
        if root:
            values[d] = -np.inf
        if a == np.uint64(board):
            continue
        key = 0.0
        if level > 1:
            key = both_sum(a, afters[level, 4 + d], size, row_bits, row_mask, table) if weights.shape[0] == 0 else \
                tuple_value(a, tuples, weights)
        at = allowed
        while at > 0 and keys[level, at - 1] < key:
            keys[level, at] = keys[level, at - 1]
            order[level, at] = order[level, at - 1]
            at -= 1
        keys[level, at] = key
        order[level, at] = d
        allowed += 1
    ints[level, I_ALLOWED] = allowed


@inline_kernel
def _leaf(level: int, board: np.uint64, state: int, kind: int, size: int, row_bits: int, row_mask: int,
          tables: np.ndarray, spread: np.ndarray, table: np.ndarray, reward: np.ndarray, tuples: np.ndarray,
          weights: np.ndarray, entry: np.ndarray, lines: np.ndarray, ranks: np.ndarray, chances: np.ndarray,
          decks: np.ndarray, options: np.ndarray, afters: np.ndarray, counters: np.ndarray) -> float:
    """The value of the max node ``board`` at ``level`` whose moves are scored where they stand (the last level,
    or below the cut-off): its best move's evaluation, 0 when none is allowed; what ``_open`` and the search's
    loop would make of it, without a frame."""
    counters[SEARCHED] += 1
    if kind == TRAILING:
        options[level] = deck_options(state, top_rank(board, size * size), ranks, chances, decks, level)
    all_moves(board, level, size, row_bits, row_mask, tables, spread, afters)
    best = 0.0
    for d in range(4):
        a = afters[level, d]
        if a != np.uint64(board):
            best = max(best, evaluate(board, a, afters[level, 4 + d], d, state, level, kind, size, row_bits, row_mask,
                                      tables, spread, table, reward, tuples, weights, entry, lines, ranks, chances,
                                      options[level], level, counters))
    return best


@flat_kernel
def search(board: np.uint64, state: int, depth: int, kind: int, size: int, row_bits: int, row_mask: int,
           tables: np.ndarray, spread: np.ndarray, table: np.ndarray, reward: np.ndarray, tuples: np.ndarray,
           weights: np.ndarray, entry: np.ndarray, cutoff: float, tt_keys: np.ndarray, tt_value: np.ndarray,
           ranks: np.ndarray, chances: np.ndarray, decks: np.ndarray, options: np.ndarray,
           lines: np.ndarray, afters: np.ndarray, order: np.ndarray, keys: np.ndarray, ints: np.ndarray,
           floats: np.ndarray, words: np.ndarray, values: np.ndarray, counters: np.ndarray) -> float:
    """The value of the position ``board`` (with public ``state``) searched ``depth`` moves deep: its best move's
    expected value, 0 when no move is allowed; each move's value into ``values`` (-inf for one not allowed). The
    root's options for the next card (its hint shown) must be in the scratch row ``depth`` already.

    Depth first with an explicit stack (numba cannot cache a recursive function): frame ``level`` is the max
    node with ``level`` moves left, its scratch rows (options, moved lines, ordered moves) its own, so a child
    never overwrites its parent's. The transposition table keeps chance nodes (as nneonneo's do): one probe a
    move, not one a child. A chance node is its moved board, the depth left and, when the next card is drawn
    from a deck at the lines that moved, the deck, the move, the lines it moved and the highest card before it
    (what its options and cells depend on); the root's are not kept (its hint is its own)."""
    generation = np.uint64(counters[GENERATION])
    level = depth
    _open(level, board, state, 1.0, True, kind, size, row_bits, row_mask, tables, spread, table, tuples, weights, ranks,
          chances, decks, options, afters, order, keys, ints, floats, words, values, counters)
    mask = np.uint64((1 << TT_BITS) - 1)
    while True:
        if ints[level, I_CHILD] < ints[level, I_COUNT]:
            # the next child of the current move's chance node, searched one level down
            k = ints[level, I_CHILD]
            d = order[level, ints[level, I_MOVE]]
            after = afters[level, d]
            if kind == ANYWHERE:
                child = after | (np.uint64(1 + (k & 1)) << np.uint64(4 * lines[level, k >> 1]))
                p = (0.1 if k & 1 else 0.9) / ints[level, I_N]
                child_state = 0
            else:
                j = k % options[level]
                child = after | (np.uint64(ranks[level, j]) << np.uint64(entry[d, lines[level, k // options[level]]]))
                p = chances[level, j] / ints[level, I_N]
                child_state = decks[level, j]
            floats[level, F_P] = p
            reach = floats[level, F_REACH] * p
            if level == 2 or reach < cutoff:  # the child evaluates its moves where it stands: no frame of its own
                floats[level, F_VALUE] += p * _leaf(level - 1, child, child_state, kind, size, row_bits, row_mask,
                                                    tables, spread, table, reward, tuples, weights, entry, lines,
                                                    ranks, chances, decks, options, afters, counters)
                ints[level, I_CHILD] += 1
                continue
            level -= 1
            _open(level, child, child_state, reach, False, kind, size, row_bits, row_mask, tables, spread, table,
                  tuples,
                  weights, ranks, chances, decks, options, afters, order, keys, ints, floats, words, values, counters)
            continue
        node = words[level, W_BOARD]
        if ints[level, I_COUNT] > 0:  # the current move's chance node is done: kept, and the move's value
            d = order[level, ints[level, I_MOVE]]
            slot = ints[level, I_SLOT]
            if slot >= 0:
                tt_keys[slot, 0] = afters[level, d]
                tt_keys[slot, 1] = words[level, W_TAG]
                tt_value[slot] = floats[level, F_VALUE]
            value = floats[level, F_VALUE]
            if weights.shape[0] > 0:
                value += row_sum(afters[level, d], size, row_bits, row_mask, reward) - \
                    row_sum(node, size, row_bits, row_mask, reward)
            _finish(level, depth, d, value, floats, values)
            ints[level, I_COUNT] = 0
        ints[level, I_MOVE] += 1
        while ints[level, I_MOVE] < ints[level, I_ALLOWED]:
            d = order[level, ints[level, I_MOVE]]
            after = afters[level, d]
            if level == 1 or floats[level, F_REACH] < cutoff:
                value = evaluate(node, after, afters[level, 4 + d], d, ints[level, I_STATE], level, kind, size,
                                 row_bits, row_mask, tables, spread, table, reward, tuples, weights, entry, lines,
                                 ranks, chances, options[level], level, counters)
                _finish(level, depth, d, value, floats, values)
                ints[level, I_MOVE] += 1
                continue
            # the chance node: what may enter (empty cells, or the lines that moved), unless the table has it
            moved = 0
            if kind == ANYWHERE:
                n = 0
                for c in range(size * size):
                    if (after >> np.uint64(4 * c)) & np.uint64(15) == 0:
                        lines[level, n] = c
                        n += 1
                count = 2 * n
            else:
                n = moved_lines(node, after, d, size, row_bits, row_mask, tables, spread, lines, level)
                count = n * options[level]
                for k in range(n):
                    moved |= 1 << lines[level, k]
                moved = moved | d << 4 | top_rank(node, size * size) << 6 | ints[level, I_STATE] << 10
            ints[level, I_SLOT] = -1
            if level < depth:
                tag = (generation << np.uint64(32)) ^ (np.uint64(moved) << np.uint64(4)) ^ np.uint64(level)
                slot = int((after ^ (after >> np.uint64(23)) ^ (after >> np.uint64(41)) ^ (tag << np.uint64(7)))
                           & mask)
                if tt_keys[slot, 0] == after and tt_keys[slot, 1] == tag:
                    counters[HITS] += 1
                    value = tt_value[slot]
                    if weights.shape[0] > 0:
                        value += row_sum(after, size, row_bits, row_mask, reward) - \
                            row_sum(node, size, row_bits, row_mask, reward)
                    _finish(level, depth, d, value, floats, values)
                    ints[level, I_MOVE] += 1
                    continue
                ints[level, I_SLOT] = slot
                words[level, W_TAG] = tag
            floats[level, F_VALUE] = 0.0
            ints[level, I_N] = n
            ints[level, I_CHILD] = 0
            ints[level, I_COUNT] = count
            break
        if ints[level, I_MOVE] < ints[level, I_ALLOWED]:
            continue
        # the node is done: its value to its parent's chance node
        v = floats[level, F_BEST]
        if level == depth:
            return v
        level += 1
        floats[level, F_VALUE] += floats[level, F_P] * v
        ints[level, I_CHILD] += 1


@inline_kernel
def _finish(level: int, depth: int, d: int, value: float, floats: np.ndarray, values: np.ndarray) -> None:
    """Move ``d`` of frame ``level`` is worth ``value``: the root records it; every node keeps its best."""
    if level == depth:
        values[d] = value
    if value > floats[level, F_BEST]:
        floats[level, F_BEST] = value
