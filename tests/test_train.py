"""The n-tuple networks (puzzlesmith/chance/ntuple.py) and `puzzlesmith train`: a network trained for a few thousand
games plays better than random play and than the heuristic at equal depth; a damaged checkpoint is refused in one
line; a run stopped by Ctrl-C and resumed makes the same network, byte for byte, as a run straight through."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from puzzlesmith.api import chance as api
from puzzlesmith.chance import ntuple
from puzzlesmith.chance.play import KITS
from puzzlesmith.chance.players import Position
from puzzlesmith.core.errors import DamagedFile

#: Games of the strength test, paired by seed.
GAMES = 20
#: Wins of the network's game over the other player's with the same seed needed to pass. Were the two players
#: equally strong (each game a fair coin), 15 or more wins of 20 would come with probability 2.1% (binomial): the
#: test's chance of passing a network that is no better. Measured: 30 wins of 30 against the heuristic at depth 1.
WINS = 15


def trained(path: Path, games: int, chunk: int = 1000, seed: int = 5) -> list[api.TrainProgress]:
    return list(api.train("2048", str(path), games, seed=seed, chunk=chunk))


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("net") / "2048.ntuple"
    trained(path, 3000)
    return path


def test_a_trained_network_beats_random_play_and_the_heuristic_at_equal_depth(network: Path) -> None:
    ours = [g.score for g in api.play_games(api.setup("2048", depth=1, network=str(network)), GAMES, 1)]
    heuristic = [g.score for g in api.play_games(api.setup("2048", depth=1, evaluation="heuristic"), GAMES, 1)]
    chance = [g.score for g in api.play_games(api.setup("2048", player="random"), GAMES, 1)]
    assert sum(a > b for a, b in zip(ours, heuristic)) >= WINS, (ours, heuristic)
    assert sum(a > b for a, b in zip(ours, chance)) >= WINS, (ours, chance)


def test_the_search_values_a_leaf_as_reward_plus_the_network(network: Path) -> None:
    """At depth 1 a move is worth its merge points and the network's value of the board it leaves."""
    net = ntuple.load(network, "2048")
    setup = api.setup("2048", depth=1, network=str(network))
    rules = api.rules_of(setup)
    board = rules.parse("2 2 4 8/. . . ./. . 4 ./. . . 2")
    values = api.best_moves("2048", rules.format(board), depth=1).values  # the heuristic's, for the moves allowed
    from puzzlesmith.chance.play import Prepared

    player = Prepared.of(setup).expectimax
    for d, value in player.move_values(board, 1).items():
        after, points = rules.play(board, d)
        assert value == pytest.approx(points + net.value(after), rel=1e-9)
    assert set(values) == {"UDLR"[d] for d in player.move_values(board, 1)}


def test_a_damaged_checkpoint_is_refused(network: Path, tmp_path: Path) -> None:
    data = bytearray(network.read_bytes())
    header_end = data.index(b"\n")
    for where in (header_end + 1000, len(data) - 3, 20):
        damaged = tmp_path / f"damaged{where}.ntuple"
        copy = bytearray(data)
        copy[where] ^= 0x40
        damaged.write_bytes(bytes(copy))
        with pytest.raises(DamagedFile):
            ntuple.load(damaged)
    cut = tmp_path / "cut.ntuple"
    cut.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(DamagedFile):
        ntuple.load(cut)
    done = subprocess.run([sys.executable, "-m", "puzzlesmith", "train", "2048", "--network", str(cut), "--games",
                           "10"], capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) <= 2 and "damaged network" in done.stderr
    assert "Traceback" not in done.stderr
    played = subprocess.run([sys.executable, "-m", "puzzlesmith", "play", "2048", "--network", str(cut), "--seed", "1",
                             "-q"], capture_output=True, text=True)
    assert played.returncode == 2 and played.stderr.count("\n") == 1 and "damaged network" in played.stderr


def test_a_run_stopped_by_ctrl_c_and_resumed_equals_one_straight_through(tmp_path: Path) -> None:
    straight, stopped = tmp_path / "straight.ntuple", tmp_path / "stopped.ntuple"
    trained(straight, 1200, chunk=1200)
    steps = []
    for step in api.train("2048", str(stopped), 1200, seed=5, chunk=100):
        steps.append(step)
        if len(steps) == 3:
            os.kill(os.getpid(), signal.SIGINT)  # between chunks: the run ends here, saved
    assert steps[-1].saved and steps[-1].games == 300
    assert ntuple.load(stopped).games == 300
    trained(stopped, 1200, chunk=300)
    a, b = ntuple.load(straight), ntuple.load(stopped)
    assert a.games == b.games == 1200 and np.array_equal(a.weights, b.weights)


def test_a_checkpoint_of_another_seed_or_game_is_refused(network: Path) -> None:
    with pytest.raises(api.PuzzleError, match="seed"):
        trained(network, 4000, seed=6)
    with pytest.raises(api.PuzzleError, match="trained for"):
        ntuple.load(network, "threes")


def test_a_threes_network_trained_for_two_thousand_games_beats_random_play(tmp_path: Path) -> None:
    """Threes learns more slowly (measured at 2,000 games: above the heuristic at depth 1 in 14 of 20 seeds, short of
    the test's 15; above random play in 20 of 20), so its test is against random play alone."""
    path = tmp_path / "threes.ntuple"
    list(api.train("threes", str(path), 2000, seed=5, chunk=1000))
    ours = [g.score for g in api.play_games(api.setup("threes", depth=1, network=str(path)), GAMES, 1)]
    chance = [g.score for g in api.play_games(api.setup("threes", player="random"), GAMES, 1)]
    assert sum(a > b for a, b in zip(ours, chance)) >= WINS, (ours, chance)


def test_a_network_of_stages_values_each_board_by_its_own_stage_tables(tmp_path: Path) -> None:
    """Stage s's tables value the boards whose top rank has reached 12 + s (8192 in 2048 is rank 13); a saved
    network of three stages loads with them."""
    base = ntuple.SHAPES["4-tuples"]
    weights = np.repeat(np.arange(1, 4, dtype=np.float32), len(base))[:, None] * np.ones((1, 16 ** 4), np.float32)
    net = ntuple.Network("2048", weights, base=base, stages=3)
    images = len(ntuple.expanded_tuples(base))
    for top, stage in ((1, 0), (12, 0), (13, 1), (14, 2), (15, 2)):
        board = top << 4 * 5 | 1 << 4 * 15  # a tile of rank ``top`` on cell 5 and a 2 on cell 15
        assert net.value(board) == images * (stage + 1)
    path = tmp_path / "staged.ntuple"
    ntuple.save(net, path)
    again = ntuple.load(path)
    assert again.stages == 3 and np.array_equal(again.weights, weights)


def test_early_games_teach_only_the_first_stage(tmp_path: Path) -> None:
    """300 games of a new two-stage network never reach 8192, so the second stage's tables keep their initial
    weights while the first stage's move."""
    path = tmp_path / "two.ntuple"
    list(api.train("2048", str(path), 300, seed=5, chunk=300, stages=2))
    net = ntuple.load(path)
    first, second = net.weights[:5], net.weights[5:]
    assert net.weights.shape == (10, 16 ** 4)
    assert np.all(second == second[0, 0]) and not np.all(first == second[0, 0])
    with pytest.raises(api.PuzzleError, match="stage"):
        list(api.train("2048", str(path), 400, stages=3))


def test_any_tuple_set_round_trips_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    base = ((0, 1, 2), (5, 6, 10))
    rng = np.random.default_rng(3)
    net = ntuple.Network("threes", rng.random((2, 16 ** 3), dtype=np.float32), seed=9, base=base)
    path = tmp_path / "three.ntuple"
    ntuple.save(net, path)
    again = ntuple.load(path, "threes")
    assert again.base == base and again.seed == 9 and np.array_equal(again.weights, net.weights)
    assert again.value(0x1234) == pytest.approx(net.value(0x1234))
    line, _, body = path.read_bytes().partition(b"\n")
    bad = tmp_path / "bad.ntuple"
    bad.write_bytes(line.replace(b"[5, 6, 10]", b"[5, 6, 16]") + b"\n" + body)
    with pytest.raises(DamagedFile, match="tuples"):
        ntuple.load(bad)


def test_the_raw_format_of_the_first_shipped_networks_still_loads(tmp_path: Path) -> None:
    shipped = Path(__file__).parent.parent / "data" / "networks" / "threes.ntuple"
    if json.loads(shipped.read_bytes().partition(b"\n")[0])["format"] != ntuple.RAW_FORMAT:
        pytest.skip("the shipped Threes network is no longer of format 1")
    net = ntuple.load(shipped, "threes")
    assert net.base == ntuple.SHAPES["4-tuples"] and net.stages == 1
    path = tmp_path / "again.ntuple"
    ntuple.save(net, path)
    assert np.array_equal(ntuple.load(path).weights, net.weights)
    assert path.stat().st_size < shipped.stat().st_size  # compressed now


def test_a_float16_export_is_the_checkpoint_rounded_and_a_run_resumed_from_it_says_so(tmp_path: Path) -> None:
    checkpoint, shipped = tmp_path / "run.ntuple", tmp_path / "ship.ntuple"
    list(api.train("2048", str(checkpoint), 400, seed=5, chunk=200, export=str(shipped)))
    exact, rounded = ntuple.load(checkpoint), ntuple.load(shipped)
    assert json.loads(shipped.read_bytes().partition(b"\n")[0])["dtype"] == "float16"
    assert rounded.loaded_as == "float16" and rounded.games == exact.games == 400
    assert np.array_equal(rounded.weights, exact.weights.astype(np.float16).astype(np.float32))
    assert not np.array_equal(rounded.weights, exact.weights)  # rounding lost bits somewhere
    data = bytearray(shipped.read_bytes())
    data[len(data) // 2] ^= 0x10
    damaged = tmp_path / "damaged.ntuple"
    damaged.write_bytes(bytes(data))
    with pytest.raises(DamagedFile):
        ntuple.load(damaged)
    list(api.train("2048", str(shipped), 500, chunk=100))
    assert ntuple.load(shipped).history[-2] == {"games": 400, "resumed_from": "float16"}
    with pytest.raises(api.PuzzleError, match="export"):
        list(api.train("2048", str(checkpoint), 600, export=str(checkpoint)))


def test_byte_planes_shrink_the_file_and_a_format_2_file_still_loads(tmp_path: Path) -> None:
    import zlib

    from puzzlesmith.core.integrity import checksum_field

    rng = np.random.default_rng(7)
    weights = np.full((2, 16 ** 4), 20_000 / 16, dtype=np.float32)
    weights[:, :30_000] = rng.normal(1250, 200, (2, 30_000)).astype(np.float32)  # the often visited features
    net = ntuple.Network("2048", weights, seed=2, base=((0, 1, 2, 3), (4, 5, 6, 7)))
    path = tmp_path / "planes.ntuple"
    ntuple.save(net, path)
    assert json.loads(path.read_bytes().partition(b"\n")[0])["format"] == ntuple.FORMAT
    assert np.array_equal(ntuple.load(path).weights, weights)
    body = weights.reshape(-1).view(np.uint8)
    header = net.header() | {"format": ntuple.ZLIB_FORMAT}
    header["checksum"] = checksum_field(header, body)
    old = tmp_path / "format2.ntuple"
    old.write_bytes(json.dumps(header, sort_keys=True).encode() + b"\n" + zlib.compress(body.tobytes(), ntuple.LEVEL))
    assert np.array_equal(ntuple.load(old).weights, weights)
    assert path.stat().st_size < old.stat().st_size  # the planes compress better than the mixture


def test_a_network_played_with_is_unpacked_once_and_mapped_after(network: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZZLESMITH_NETWORKS", str(tmp_path / "cache"))
    monkeypatch.setattr(ntuple, "_SHARED", {})
    exact = ntuple.load(network)
    first = ntuple.shared(network, "2048")
    assert np.array_equal(first.weights, exact.weights) and ntuple.shared(network) is first
    [unpacked] = (tmp_path / "cache").iterdir()
    assert unpacked.stat().st_size == exact.weights.nbytes
    monkeypatch.setattr(ntuple, "_SHARED", {})  # as a new process finds it
    mapped = ntuple.shared(network)
    assert mapped is not first and np.array_equal(mapped.weights, exact.weights)
    assert isinstance(mapped.weights.base, np.memmap) and mapped.history == exact.history
    unpacked.write_bytes(unpacked.read_bytes()[:-4])  # cut short: not used, unpacked again
    monkeypatch.setattr(ntuple, "_SHARED", {})
    assert np.array_equal(ntuple.shared(network).weights, exact.weights)
    assert unpacked.stat().st_size == exact.weights.nbytes
    with pytest.raises(api.PuzzleError, match="threes"):
        ntuple.shared(network, "threes")


def test_a_float16_network_is_played_with_as_float16_and_values_as_its_float32_reading(
        network: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A network saved as float16 (as the shipped ones are) is unpacked for play as float16, half the bytes of
    widening it to float32, and every value and search is the one of the same file read whole as float32: every
    float16 is a float32, and the kernels widen each weight they read (searchkernel.HALF)."""
    half = tmp_path / "half.ntuple"
    ntuple.save(ntuple.load(network), half, dtype="float16")
    monkeypatch.setenv("PUZZLESMITH_NETWORKS", str(tmp_path / "cache"))
    monkeypatch.setattr(ntuple, "_SHARED", {})
    (tmp_path / "cache").mkdir()
    crc = zlib.crc32(half.read_bytes())
    older = tmp_path / "cache" / f"2048-{crc:08x}.weights"  # what the version before left: float32
    older.write_bytes(b"old")
    played, read = ntuple.shared(half, "2048"), ntuple.load(half)
    assert played.weights.dtype == np.float16 and read.weights.dtype == np.float32
    [unpacked] = (tmp_path / "cache").iterdir()  # the float32 one is gone
    assert unpacked.suffix == ".f16" and unpacked.stat().st_size == read.weights.nbytes // 2
    assert np.array_equal(played.weights, read.weights)
    rng = random.Random(3)
    boards = [sum(rng.choice([0, 0, 1, 2, 3, 5, 8, 11]) << 4 * k for k in range(16)) for _ in range(30)]
    assert [played.value(b) for b in boards] == [read.value(b) for b in boards]
    rules_class, player, weights = KITS["2048"]
    rules = rules_class(4)
    searched = [player(rules, 2, weights(), network=net) for net in (played, read)]
    for b in boards[:10]:
        assert searched[0].move_values(Position(b)) == searched[1].move_values(Position(b))


@pytest.mark.parametrize("game", ["2048", "threes"])
def test_the_shipped_networks_are_what_their_files_say(game: str) -> None:
    """One network a game ships (issue 46: at most 64 MB each, float16 or compressed): the 6-tuples of Wu et
    al. in three stages, trained for that game, its history a rising greedy score."""
    path = ntuple.shipped(game)
    assert path.stat().st_size <= 64_000_000
    header = json.loads(path.read_bytes().partition(b"\n")[0])
    assert header["format"] == ntuple.FORMAT and header["dtype"] == "float16" and header["game"] == game
    assert header["tuples"] == [list(t) for t in ntuple.SHAPES["6-tuples"]] and header["stages"] == 3
    scores = [h["mean_score"] for h in header["history"] if "mean_score" in h]
    assert len(scores) > 5 and scores[-1] > 1.5 * scores[0]
