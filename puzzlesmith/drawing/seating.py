"""Seating: a round table, its numbered seats, the guests' names at their seats, the rules beside it."""

from __future__ import annotations

from collections.abc import Sequence
from math import cos, pi, sin

from puzzlesmith.core.picture import BLACK, GREY, SOLUTION, WHITE, Picture, text_width
from puzzlesmith.drawing.grid import PAD
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.seating import Seating

TABLE = "#e8dcc8"


def _rules(instance: Instance) -> list[str]:
    """The puzzle's rules in words, as the type writes them (the pins are drawn at their seats)."""
    lines = Seating().format_puzzle(instance).splitlines()
    return [line for line in lines if not line.startswith(("guests:", "seats:")) and " in seat " not in line]


def seating(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Seats round the table clockwise from the top, numbered inside; a pinned guest's name bold,
    the solution's other names blue; the rules listed on the right."""
    names, pins = instance.data.names, instance.data.clashing_pins
    seats = instance.params["seats"]
    size = 11.0
    at: dict[int, tuple[str, bool]] = {}
    for guest, seat in (pins or instance.givens.items()):
        at[seat] = (names[guest], True)
    if values is not None:
        for guest, seat in enumerate(values[:len(names)]):
            at.setdefault(seat, (names[guest], False))
    longest = max((text_width(name, size, True) for name in names), default=0.0)
    radius = max(60.0, seats * 14 / pi)  # seats about 28 points apart round the table
    seat_r = 11.0
    reach = radius + seat_r + 6 + longest
    rules = _rules(instance)
    column = max((text_width(rule, size) for rule in rules), default=0.0)
    width = 2 * reach + (column + 30 if rules else 0)
    height = max(2 * reach, len(rules) * size * 1.6 + 2 * size)
    pic = Picture(width + 2 * PAD, height + 2 * PAD)
    cx, cy = PAD + reach, PAD + height / 2
    pic.circle(cx, cy, radius - seat_r - 4, fill=TABLE, stroke=GREY, width=1.5, role="table")
    for seat in range(1, seats + 1):
        angle = -pi / 2 + 2 * pi * (seat - 1) / seats
        sx, sy = cx + radius * cos(angle), cy + radius * sin(angle)
        pic.circle(sx, sy, seat_r, fill=WHITE, stroke=BLACK, width=1.2, role="seat")
        pic.text(sx, sy, str(seat), size * 0.8, color=GREY, role="seat-number")
        if seat in at:
            name, pinned = at[seat]
            tx, ty = cx + (radius + seat_r + 5) * cos(angle), cy + (radius + seat_r + 5) * sin(angle)
            anchor = "middle" if abs(cos(angle)) < 0.3 else "start" if cos(angle) > 0 else "end"
            ty += size * 0.7 * sin(angle) if anchor == "middle" else 0
            pic.text(tx, ty, name, size, anchor=anchor, bold=pinned, color=BLACK if pinned else SOLUTION,
                     role="given" if pinned else "value")
    if rules:
        x = PAD + 2 * reach + 30
        y = PAD + height / 2 - (len(rules) - 1) * size * 0.8
        for rule in rules:
            pic.text(x, y, rule, size, anchor="start", role="rule")
            y += size * 1.6
    return pic
