"""Chunks of a batch sized to their work (issue 47, item 4): at least 100 ms a task once timed, as dask's
documentation advises ("Dask Best Practices", docs.dask.org: every task costs the scheduler between 200 us and 1 ms,
"Avoid Very Large Graphs"; its array best practices: chunks whose operations take 100 ms or so), and the puzzles the
same whatever the chunks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from puzzlesmith.generators import generate, generate_chunks
from puzzlesmith.generators.batch import CHUNK_SECONDS, MAX_CHUNK, MIN_CHUNK_SECONDS, ChunkSizes, by_seed_chunks
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")


def test_the_puzzles_do_not_depend_on_how_the_batch_is_chunked():
    """Seed per puzzle: one process, a pool with chunks of 1 and of 7, and the timed chunks make the same 6x6
    sudokus in the same order; the chunks hold consecutive seeds and together all of them."""
    params = SUDOKU.resolve_params({"size": "6"})

    def key(made):
        return [(m.seed, m.givens, m.solution) for m in made]

    one = key(generate(SUDOKU, params, 40, seed=99, grade=False))
    assert [s for s, _, _ in one] == list(range(99, 139))
    assert key(generate(SUDOKU, params, 40, seed=99, workers=2, chunk=1, grade=False)) == one
    assert key(generate(SUDOKU, params, 40, seed=99, workers=2, chunk=7, grade=False)) == one
    chunks = list(generate_chunks(SUDOKU, params, 40, seed=99, workers=2, grade=False))
    assert key(m for chunk in chunks for m in chunk) == one
    assert key(generate(SUDOKU, params, 40, seed=99, start=25, grade=False)) == one[25:]


def test_chunks_grow_from_one_seed_to_the_work_of_a_quarter_second_and_cover_every_seed_once():
    """A task whose seeds each "cost" 2 ms (told by the sizing, not slept): after the first chunks of one seed, the
    chunks hold 125 seeds, 0.25 s of work; the seeds come back in order, each once."""
    sizes = ChunkSizes(2, None)
    assert sizes.next(10**30) == 1
    for _ in range(3):
        sizes.timed(0.002, 1)
    assert sizes.next(10**30) == 125 == round(CHUNK_SECONDS / 0.002)
    with ThreadPoolExecutor(2) as pool:
        chunks = list(by_seed_chunks(list, 1000, 5, workers=2, executor=pool, chunk=None))
    assert [s for chunk in chunks for s in chunk] == list(range(5, 1005))
    assert chunks[0] == [5]


def test_a_workers_first_chunk_does_not_shrink_the_rest_and_the_end_keeps_100_ms_a_chunk():
    """The median leaves out the first chunk of each worker (its imports and models: 0.5 s here against 1.25 ms a
    puzzle after); the end of a batch is shared down to chunks of 100 ms of work (80 seeds), not to single seeds;
    puzzles of 2 s each go one a chunk, so 20 of them keep 2 workers busy; a cost too small to time is capped."""
    sizes = ChunkSizes(2, None)
    for seconds, seeds in [(0.5, 1), (0.5, 1), (0.00125, 1), (0.00125 * 5, 5), (0.00125 * 5, 5)]:
        sizes.timed(seconds, seeds)
    assert sizes.next(10**6) == 200  # 0.25 s of work
    assert sizes.next(200) == 80 == round(MIN_CHUNK_SECONDS / 0.00125)  # a share (50) would be 62 ms
    slow = ChunkSizes(2, None)
    slow.timed(2.0, 1)
    assert slow.next(20) == 1
    free = ChunkSizes(1, None)
    free.timed(0.0, 10)
    assert free.next(10**9) == MAX_CHUNK
    assert ChunkSizes(4, 16).next(10**9) == 16  # told: as told


def test_a_board_generators_batch_resumed_at_start_is_the_rest_of_the_same_batch():
    """Boards made by a type's own generator (lights-out) come in chunks too; from ``start`` on they are the
    uninterrupted batch's boards from there, seeds included (the generator's stream is made again up to ``start``)."""
    from puzzlesmith.api import generate_chunks, generate_many

    lightsout = registry.get("lightsout")
    params = lightsout.resolve_params({"size": "5"})
    whole = [(m.puzzle.seed, m.record["puzzle"]) for m in generate_many(lightsout, params, 12, seed=3, presses=6)]
    rest = [(m.puzzle.seed, m.record["puzzle"]) for chunk in generate_chunks(lightsout, params, 12, seed=3, start=7,
                                                                               presses=6) for m in chunk]
    assert rest == whole[7:] and [s for s, _ in whole] == list(range(3, 15))


def test_the_apis_refusals_of_where_to_run_name_the_argument():
    import pytest

    from puzzlesmith.api import PuzzleError, generate_many

    params = SUDOKU.resolve_params({})
    lightsout = registry.get("lightsout")
    for call, where in [(lambda: generate_many(SUDOKU, params, 2, scheduler="tcp://127.0.0.1:1", workers=2),
                         "scheduler"),
                        (lambda: generate_many(SUDOKU, params, 2, scheduler=8786), "scheduler"),
                        (lambda: generate_many(SUDOKU, params, 2, start=-1), "start"),
                        (lambda: generate_many(lightsout, lightsout.resolve_params({"size": "3"}), 2,
                                               scheduler="tcp://127.0.0.1:1"), "type 'lightsout'")]:
        with pytest.raises(PuzzleError) as refused:
            call()
        assert refused.value.where == where, refused.value
