"""`puzzlesmith solve xcsp FILE` (issue 48, item 6): the answer of a model file printed as name = value lines, the
objective after them, "no solution" with exit code 1, and a bad file in one line with exit code 2."""

import json
from pathlib import Path

from puzzlesmith import cli

DATA = Path(__file__).parent / "data" / "xcsp3"


def test_solves_an_xcsp3_file(capsys):
    # CSPLib prob019 (Toby Walsh, "Magic sequence"): for n = 10 the one sequence is 6,2,1,0,0,0,1,0,0,0
    assert cli.main(["solve", "xcsp", str(DATA / "MagicSequence-10.xml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"x[{i}] = {v}" for i, v in enumerate([6, 2, 1, 0, 0, 0, 1, 0, 0, 0])]


def test_prints_the_proved_optimum(capsys):
    # pycsp3's Knapsack_20-50-00: 583, the optimum test_model_files_xcsp3.py finds by dynamic programming
    assert cli.main(["solve", "xcsp", str(DATA / "Knapsack_20-50-00.xml"), "--engine", "cpsat"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "objective = 583 (optimal)" and len(out) == 21 and out[0] in ("x[0] = 0", "x[0] = 1")


def test_json(capsys):
    assert cli.main(["solve", "xcsp", str(DATA / "Queens-10.xml"), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    q = [record["values"][f"q[{i}]"] for i in range(10)]
    assert record["status"] == "solved" and sorted(q) == list(range(10))
    assert len({v + i for i, v in enumerate(q)}) == 10 and len({v - i for i, v in enumerate(q)}) == 10


def test_no_solution_is_exit_1(tmp_path, capsys):
    path = tmp_path / "none.xml"
    path.write_text('<instance format="XCSP3" type="CSP"><variables><var id="a"> 0..2 </var></variables>'
                    "<constraints><intension> gt(a,5) </intension></constraints></instance>")
    assert cli.main(["solve", "xcsp", str(path)]) == 1
    assert capsys.readouterr().out == f"{path}: no solution\n"


def test_bad_files_and_arguments_are_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.xml"
    path.write_text('<instance format="XCSP3" type="CSP">\n<variables><var id="a"> 0..2 </var></variables>\n'
                    "<constraints><binPacking/></constraints></instance>")
    for argv in (["solve", "xcsp", str(path)], ["solve", "xcsp", str(tmp_path / "missing.xml")],
                 ["solve", "xcsp", str(DATA / "Queens-10.xml"), "--all"], ["solve", "xcsp"]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    cli.main(["solve", "xcsp", str(path)])
    assert "line 3: <binPacking>: is not supported" in capsys.readouterr().err
