"""evolve: the population is streamed (memory does not grow with it), the seed is every integer's own and is
shown when not given, a run with no solvable board says so, and --population 1 is refused, not raised."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from test_safety_damage import cli

from puzzlesmith.sbp import evolve as ev


def run_json(*args: str) -> list[dict]:
    code, out, err = cli("evolve", "--json", *args)
    assert code in (0, 1), err
    return [json.loads(line) for line in out.splitlines()]


def test_the_same_seed_gives_the_same_run_and_minus_1_is_not_1():
    one = run_json("-p", "size=3x3", "--population", "8", "--generations", "3", "--seed", "1")
    assert one == run_json("-p", "size=3x3", "--population", "8", "--generations", "3", "--seed", "1")
    assert one != run_json("-p", "size=3x3", "--population", "8", "--generations", "3", "--seed", "-1")


def test_without_a_seed_the_seed_is_shown_and_remakes_the_run():
    """Some seeds draw no solvable 3x3 board at all (exit 1, said on standard output); the seed remakes that too."""
    code, out, err = cli("evolve", "-p", "size=3x3", "--population", "6", "--generations", "2", "--json")
    seed = int(err.split("puzzlesmith: seed ")[1].split()[0])
    assert code in (0, 1) and f"give --seed {seed}" in err
    assert (code, out) == cli("evolve", "-p", "size=3x3", "--population", "6", "--generations", "2", "--json",
                              "--seed", str(seed))[:2]


def test_no_solvable_board_is_said_with_exit_1(monkeypatch):
    """A run whose every board scores 0 (unsolvable, or no goal piece) says so, instead of printing nothing."""
    monkeypatch.setattr(ev, "fitness_many", lambda boards, *rest: [0] * len(boards))
    code, out, _ = cli("evolve", "-p", "size=3x3", "--population", "4", "--generations", "2", "--seed", "0")
    assert code == 1 and out == "no solvable board in 6 evaluations (goal=corner)\n"


def test_population_1_is_refused_not_raised():
    code, _, err = cli("evolve", "-p", "size=3x3", "--population", "1")
    assert code == 2 and "--population" in err and "from 2" in err


def test_a_population_far_past_any_run_is_refused_before_work():
    code, out, err = cli("evolve", "-p", "size=4x5", "--population", "1000000000000", "--generations", "100000")
    assert code == 2 and out == "" and "more than any run could finish" in err


def test_memory_does_not_grow_with_the_population(monkeypatch):
    """Boards are drawn and evaluated BATCH at a time: the traced peak of 20 batches stays within a small factor of
    one batch's (holding 20 batches of boards at once would be over 10 times as much)."""
    monkeypatch.setattr(ev, "fitness_many", lambda boards, *rest: [len(set(b)) for b in boards])
    peaks = []
    for population in (ev.BATCH, 20 * ev.BATCH):
        evaluate = ev.Evaluator(4, 4, "corner", "moves")
        tracemalloc.start()
        list(ev.random_search(evaluate, population, 1, 0))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 4 * peaks[0], peaks


@pytest.mark.parametrize("seed", [0, 5])
def test_streaming_keeps_the_best_two_of_a_stable_sort(seed):
    """best_two against sorting everything at once (the evolver's selection before streaming)."""
    import random
    rng = random.Random(seed)
    boards = [tuple(rng.randrange(5) for _ in range(4)) for _ in range(3000)]
    score = {b: rng.randrange(6) for b in boards}
    evaluate = lambda batch: [score[b] for b in batch]  # noqa: E731
    whole = sorted(((score[b], b) for b in boards), key=lambda s: -s[0])[:2]
    assert ev.best_two([], evaluate, iter(boards)) == whole


def test_a_run_of_years_is_refused_in_one_line_unless_yes(monkeypatch):
    """Issue 43, item 12a: a billion boards a generation on 4x5 is about 254 years of fitness evaluations. The run is
    refused at once, in one line naming the estimate and --yes, before any seed or cost note; --yes runs it."""
    code, out, err = cli("evolve", "-p", "size=4x5", "--population", "1000000000")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "about 254 years" in err and "more than a day" in err and "--yes" in err
    ran = []

    def one_generation(evaluate, population, generations, seed):
        ran.append(population)
        yield ev.Generation(1, population, 3, "A./..")

    monkeypatch.setattr(ev, "evolve", one_generation)
    code, out, err = cli("evolve", "-p", "size=4x5", "--population", "1000000000", "--yes", "--seed", "1")
    assert code == 0 and ran == [10**9] and "about 254 years" in err and "error" not in err
