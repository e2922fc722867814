"""The game loop in a real browser (issue 45, item 2): a new puzzle from the menu, resume and start again, the
solved banner clearing stale hints and statuses, a wrong entry named, 2048's advice in words, a pasted puzz.link
URL played and shared. Debian's chromium driven by Playwright against `puzzlesmith serve --port 0`."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from browser.common import NORVIG, NORVIG_SOLVED, klotski_after_g_down, role, slitherlink_loop, sync_api

# pzprjs's own example URL for Light Up (robx/pzprjs, test/script/lightup.js, its ``url:``)
AKARI_URL = "https://puzz.link/p?akari/6/6/nekcakbl"


def cell(page, i):
    return page.locator(f'.ps-cell[data-row="{i // 9}"][data-col="{i % 9}"]')


def test_a_new_puzzle_from_the_menu(server, page):
    page.goto(server)
    page.select_option('[data-role="new-type"]', "sudoku")
    # the levels offered are the type's (the API's list), filled in when the type is chosen
    import puzzlesmith as ps

    offered = page.locator('[data-role="new-level"] option').all_inner_texts()
    assert offered == ["any", *ps.levels("sudoku")]
    page.select_option('[data-role="new-level"]', "easy")
    page.fill('[data-role="new-size"]', "4")
    page.fill('[data-role="new-seed"]', "7")
    page.click('[data-action="new"]')
    page.wait_for_url(re.compile(r"/play/sudoku\?seed=7&difficulty=easy&p=size%3D4$"))
    sync_api.expect(role(page, "seed")).to_have_text("seed 7")
    assert page.locator(".ps-cell").count() == 16
    sync_api.expect(page.locator('[data-role="new-type"]')).to_have_value("sudoku")
    # a game from the same control, on a play page
    page.select_option('[data-role="new-type"]', "2048")
    assert page.locator('[data-role="new-level-box"]').is_hidden()
    page.fill('[data-role="new-size"]', "3")
    page.fill('[data-role="new-seed"]', "4")
    page.click('[data-action="new"]')
    page.wait_for_url(re.compile(r"/play/2048\?seed=4&size=3$"))
    sync_api.expect(page.locator(".ps-tile")).to_have_count(9)


def test_resume_or_start_again(server, page):
    # pzprjs's example sudoku (robx/pzprjs, test/script/sudoku.js), opened by its puzz.link URL: its r1c1 is empty
    link = f"{server}/play/sudoku?" + urlencode({"puzzle": "https://puzz.link/p?sudoku/4/4/g1k23k3g"})
    first = '.ps-cell[data-row="0"][data-col="0"] .ps-value'
    page.goto(link)
    sync_api.expect(role(page, "resume")).to_be_hidden()  # nothing played yet: no offer
    page.click('.ps-cell[data-row="0"][data-col="0"]')
    page.keyboard.press("2")
    page.wait_for_timeout(700)  # the save (after 0.4 s)
    page.goto(link)
    sync_api.expect(role(page, "resume")).to_be_visible()
    sync_api.expect(role(page, "resume-text")).to_contain_text("played this puzzle before")
    sync_api.expect(page.locator(first)).to_have_text("")  # not restored until chosen
    page.click('[data-action="resume"]')
    sync_api.expect(page.locator(first)).to_have_text("2")
    page.goto(link)
    page.click('[data-action="restart"]')
    sync_api.expect(page.locator(first)).to_have_text("")
    page.wait_for_timeout(500)
    page.goto(link)
    page.wait_for_timeout(300)
    sync_api.expect(role(page, "resume")).to_be_hidden()  # started again and left untouched: a fresh puzzle


def test_the_solved_banner_clears_the_hint_and_the_clash(server, page):
    # written with 0s for blanks: a board of its own in the library (the other tests open Norvig's with dots)
    page.goto(f"{server}/play/sudoku?" + urlencode({"puzzle": NORVIG.replace(".", "0")}))
    page.click('[data-action="hint"]')
    sync_api.expect(page.locator(".ps-hint-place")).to_have_count(1)
    cell(page, 1).click()
    page.keyboard.press("4")  # a second 4 in row 1: a clash
    page.click('[data-action="check"]')
    sync_api.expect(role(page, "status")).to_contain_text("1 cell breaks a rule")
    page.click('[data-action="hint"]')
    for i, ch in enumerate(NORVIG_SOLVED):
        if NORVIG[i] == ".":
            cell(page, i).click()
            page.keyboard.press(ch)
    sync_api.expect(role(page, "solved")).to_be_visible()
    sync_api.expect(role(page, "solved-text")).to_have_text(re.compile(r"^Solved in \d+:\d\d · 65 moves$"))
    sync_api.expect(role(page, "status")).to_have_text("solved")
    assert page.locator(".ps-hinted, .ps-clash, .ps-wrong").count() == 0
    assert role(page, "hint").inner_text() == ""
    next_link = page.locator('[data-action="next"]')
    assert next_link.get_attribute("href") == "/new?type=sudoku"
    # reopened, a solved board is offered as solved and shown solved
    page.wait_for_timeout(800)  # the last saves (the solved one is sent at once)
    page.reload()
    sync_api.expect(role(page, "resume-text")).to_contain_text("solved")
    page.click('[data-action="resume"]')
    sync_api.expect(role(page, "solved")).to_be_visible()


def test_a_wrong_entry_is_named_and_marked(server, page):
    page.goto(f"{server}/play/sudoku?" + urlencode({"puzzle": NORVIG}))
    cell(page, 2).click()
    page.keyboard.press("2")  # Norvig's solution has 7 in r1c3
    page.click('[data-action="hint"]')
    sync_api.expect(role(page, "hint")).to_have_text("r1c3 is wrong: no solution has 2 there")
    sync_api.expect(cell(page, 2)).to_have_class(re.compile("ps-hint-wrong"))


def test_2048_advice_is_in_words(server, page):
    page.goto(f"{server}/play/2048?seed=21")
    for key in ("ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        page.wait_for_timeout(150)
    page.click('[data-action="suggest"]')
    words = re.compile(r"swipe (up|down|left|right): leaves \d+ cells? free")
    sync_api.expect(role(page, "hint")).to_contain_text(words)
    assert not re.search(r"\d{4}", role(page, "hint").inner_text())  # no raw expected value


def test_a_pasted_puzzlink_url_is_played_and_shared(server, page):
    page.goto(server)
    page.fill('[data-role="open"] input[name="puzzle"]', AKARI_URL)
    page.click('[data-action="open"]')
    page.wait_for_url(re.compile(r"/play/lightup\?"))
    assert page.locator(".ps-cell").count() > 0
    page.click('[data-action="share"]')
    sync_api.expect(role(page, "share-url")).to_have_value(AKARI_URL)


def test_a_loop_drawn_by_dragging(server, page):
    # docs/types/slitherlink.md's worked example: its loop drawn in one stroke, edge to neighbouring edge
    from puzzlesmith.puzzles.grid import point_edges

    on = slitherlink_loop()
    var_of = {pair: var for var, pair in enumerate(point_edges(4, 4)) if pair in on}
    loop, point = [], min(p for pair in on for p in pair)  # the edges in the loop's order, walked point to point
    while len(loop) < len(on):
        pair = next(q for q in on if point in q and var_of[q] not in loop)
        loop.append(var_of[pair])
        point = pair[1] if pair[0] == point else pair[0]
    page.goto(f"{server}/play/slitherlink?" + urlencode({"puzzle": ".01./11../321./..32"}))

    def centre(var):
        box = page.locator(f'.ps-edge[data-var="{var}"] .ps-hit').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.mouse.move(*centre(loop[0]))
    page.mouse.down()
    for var in loop[1:]:
        page.mouse.move(*centre(var), steps=6)
    page.mouse.up()
    sync_api.expect(role(page, "status")).to_have_text("solved")
    assert page.locator(".ps-edge .ps-val.ps-on").count() == len(loop) == 16  # only the loop's edges were drawn
    # a stroke that starts on a drawn line takes it to a cross, and so every line it passes over
    page.mouse.move(*centre(loop[0]))
    page.mouse.down()
    page.mouse.move(*centre(loop[1]), steps=6)
    page.mouse.up()
    crossed = page.eval_on_selector_all(".ps-edge:has(.ps-val.ps-on.ps-blank)",
                                        "els => els.map(e => Number(e.dataset.var))")
    assert sorted(crossed) == sorted(loop[:2]), (crossed, loop)
    sync_api.expect(role(page, "solved")).to_be_hidden()


def test_piece_colours_are_kept_across_a_reload(server, page):
    # Klotski (M. Gardner, Scientific American 210, Feb 1964): G down puts H before G in reading order
    klotski_after_g_down(server, page)
    before = page.inner_html("#ps-board")
    page.wait_for_timeout(700)  # the save
    page.reload()
    page.click('[data-action="resume"]')
    sync_api.expect(role(page, "moves")).to_have_text("1")
    sync_api.expect(role(page, "optimal")).to_have_text("80")
    assert re.findall(r'fill="(#[0-9a-f]{6})"', page.inner_html("#ps-board")) == \
        re.findall(r'fill="(#[0-9a-f]{6})"', before)
