"""The web app in a real browser: Debian's chromium driven by Playwright (never `playwright install`, which
downloads a browser of its own), against `puzzlesmith serve --port 0` on loopback."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from browser.common import NORVIG, NORVIG_SOLVED, klotski_after_g_down, role, slitherlink_loop, sync_api


def test_typing_the_solution_of_a_sudoku_shows_solved(server, page):
    # written with 0s for blanks: the library keeps this board apart from the hint test's, which opens the
    # same puzzle and would otherwise start from the solved grid this test leaves
    page.goto(f"{server}/play/sudoku?" + urlencode({"puzzle": NORVIG.replace(".", "0")}))
    for i, ch in enumerate(NORVIG_SOLVED):
        if NORVIG[i] == ".":
            page.click(f'[data-row="{i // 9}"][data-col="{i % 9}"]')
            page.keyboard.press(ch)
    sync_api.expect(role(page, "status")).to_contain_text("solved")


def test_a_hint_names_its_technique_and_marks_its_cell(server, page):
    page.goto(f"{server}/play/sudoku?" + urlencode({"puzzle": NORVIG}))
    page.click('[data-action="hint"]')
    # the ladder's first step on Norvig's puzzle: r6c2 = 4, a hidden single in box 4
    sync_api.expect(role(page, "hint")).to_contain_text("hidden single")
    sync_api.expect(page.locator('[data-row="5"][data-col="1"]')).to_have_class(re.compile("ps-hint-place"))


def test_lights_out_solved_by_pressing(server, page):
    # "pushpull, mod-2 linear algebra and a sudoku generator": 011/110/110 is put out by pressing 111/001/010
    page.goto(f"{server}/play/pushpull?" + urlencode({"puzzle": "011/110/110"}))
    for i, ch in enumerate("111001010"):
        if ch == "1":
            page.click(f'[data-row="{i // 3}"][data-col="{i % 3}"]')
    sync_api.expect(role(page, "status")).to_contain_text("solved")


def test_klotski_shows_81_and_a_move_changes_it_by_one(server, page):
    # Klotski: 81 moves (M. Gardner, "The hypnotic fascination of sliding-block puzzles", Scientific American
    # 210, Feb 1964)
    klotski_after_g_down(server, page)
    sync_api.expect(role(page, "optimal")).to_have_text("80")
    page.click('[data-action="undo"]')
    sync_api.expect(role(page, "optimal")).to_have_text("81")
    sync_api.expect(role(page, "moves")).to_have_text("0")


def test_2048_plays_with_the_arrow_keys(server, page):
    page.goto(f"{server}/play/2048?seed=5")
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        page.wait_for_timeout(100)
    played = int(role(page, "moves").inner_text())
    assert 3 <= played <= 6  # a key that moves nothing is refused, not counted
    page.click('[data-action="suggest"]')
    sync_api.expect(role(page, "hint")).to_contain_text("suggested move")
    assert page.locator(".ps-tile").count() == 16


def test_slitherlink_solved_by_clicking_its_lines(server, page):
    # docs/types/slitherlink.md's worked example: click each line of the loop it prints, see solved
    from puzzlesmith.puzzles.grid import point_edges

    on = slitherlink_loop()
    lines = [var for var, pair in enumerate(point_edges(4, 4)) if pair in on]
    page.goto(f"{server}/play/slitherlink?" + urlencode({"puzzle": ".01./11../321./..32"}))
    page.click('[data-action="hint"]')  # the generic grader's first step names an edge of the loop
    sync_api.expect(role(page, "hint")).to_contain_text("line")
    for var in lines[:-1]:
        page.click(f'.ps-edge[data-var="{var}"]')
    page.click(f'.ps-edge[data-var="{lines[-1]}"]', button="right")  # a cross: not solved yet
    page.click('[data-action="check"]')
    sync_api.expect(role(page, "status")).to_contain_text("not solved")
    page.click(f'.ps-edge[data-var="{lines[-1]}"]')  # cross -> nothing
    page.click(f'.ps-edge[data-var="{lines[-1]}"]')  # nothing -> line
    sync_api.expect(role(page, "status")).to_have_text("solved")
    assert page.locator(".ps-edge .ps-val.ps-on").count() == len(lines) == 16


def test_tents_hint_and_a_tent_placed_by_clicking(server, page):
    # the Czech Puzzle Championship 2018 booklet's example (tests/fixtures/genres/tents_mcr2018.txt)
    text = "/".join([". . 2 . . .", ". .T....", "2 ..T.T.", ". ......", ". T..T..", "2 ....T.", ". .T...."])
    page.goto(f"{server}/play/tents?" + urlencode({"puzzle": text}))
    page.click('[data-action="hint"]')
    sync_api.expect(role(page, "hint")).to_contain_text("r")
    assert page.locator(".ps-cell.ps-hint-place").count() == 1
    cell = page.locator('.ps-cell[data-row="0"][data-col="0"]')  # its published solution has a tent here
    cell.click()
    assert cell.locator(".ps-val.ps-on polygon").count() == 1  # the picture's own tent
    cell.click()
    assert cell.locator('.ps-val.ps-on[data-value="0"]').count() == 1  # grass: a dot


def test_rush_hour_car_moved_and_the_fewest_moves_change_by_one(server, page):
    # Fogleman's hardest Rush Hour puzzle, 51 moves (docs/types/rushhour.md); its shortest solution starts G up
    page.goto(f"{server}/play/rushhour?" + urlencode({"puzzle": "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."}))
    sync_api.expect(role(page, "optimal")).to_have_text("51")
    page.click('[data-piece="G"] rect')
    page.keyboard.press("ArrowUp")
    sync_api.expect(role(page, "moves")).to_have_text("1")
    sync_api.expect(role(page, "optimal")).to_have_text("50")
    page.click('[data-piece="G"] rect >> nth=0')  # and back: no move of the metric leaves the board as it was
    page.keyboard.press("ArrowDown")
    sync_api.expect(role(page, "optimal")).to_have_text("51")
    sync_api.expect(role(page, "moves")).to_have_text("2")


def test_threes_plays_with_the_arrow_keys(server, page):
    page.goto(f"{server}/play/threes?seed=5")
    sync_api.expect(role(page, "next")).to_contain_text("next")
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
        page.wait_for_timeout(150)
    played = int(role(page, "moves").inner_text())
    assert 4 <= played <= 8  # a key that moves nothing is refused, not counted
    assert int(role(page, "score").inner_text().replace(",", "")) > 0
    page.click('[data-action="suggest"]')
    sync_api.expect(role(page, "hint")).to_contain_text("suggested move")
    assert page.locator(".ps-tile").count() == 16


def test_a_permutation_puzzle_played_by_its_move_buttons(server, page):
    # docs/types/perm.md: TripleCross's three marked pieces home in 6 moves, the first URDC'
    query = urlencode({"puzzle": "o o o . . . . . . . . . . . . . . .",
                       "p": "solved=. . o o o . . . . . . . . . . . . ."})
    page.goto(f"{server}/play/perm?{query}")
    sync_api.expect(role(page, "optimal")).to_have_text("6")
    assert sorted(page.locator("[data-move]").all_inner_texts()) == ["ULDC", "ULDC'", "URDC", "URDC'"]
    page.click("""[data-move="URDC'"]""")
    sync_api.expect(role(page, "optimal")).to_have_text("5")
    sync_api.expect(role(page, "moves")).to_have_text("1")


def test_a_seating_solved_by_choosing_seats(server, page):
    # the menage problem for three couples with Al in seat 1 (OEIS A059375): Cat, Bo, Ann, Cy, Bea in seats 2-6
    import puzzlesmith as ps

    page.goto(f"{server}/play/seating?" + urlencode({"puzzle": ps.type_of("seating").example()[0]["puzzle"]}))
    for var, seat in ((5, 2), (1, 3), (3, 4), (2, 5), (4, 6)):
        page.select_option(f'select[data-var="{var}"]', str(seat))
    sync_api.expect(role(page, "status")).to_contain_text("solved")
    page.click('[data-action="undo"]')
    sync_api.expect(page.locator('select[data-var="4"]')).to_have_value("")
