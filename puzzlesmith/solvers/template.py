"""The template of an engine: copy this file, rename the class and ``name``, and replace ``search``.

It is a complete, working engine, the simplest there is: it tries every combination of values in order and
keeps those that ``Model.check`` accepts. That makes it a useful independent checker on models of a few
million combinations (tests count with it to cross-check the real engines) and useless beyond.

An engine implements one method, ``search``: a lazy iterator over the solutions of a model under extra
assumptions (``fix``: variable = value, ``forbid``: variable != value), wrapped in a ``Search`` that records
what it did in ``Stats``. It ends either exhausted (every solution was produced) or stopped by a time or node
limit (``stats.stopped`` names it: the answer is then "unknown"). ``Engine`` builds ``solve``, ``count`` and
``another`` on it; override them only where the engine knows a faster way. ``kinds`` lists the constraint
kinds it compiles; ``unsupported`` declines any other model with one line, before any search.

Register the copy in your own package's ``pyproject.toml`` (this file is not registered):

    [project.entry-points."puzzlesmith.engines"]
    brute = "your_module:BruteForceEngine"

then ``puzzlesmith solve TYPE PUZZLE --engine brute`` or ``puzzle.solve(engine="brute")`` runs it, and
every answer it gives passes the same independent checks as the built-in engines'.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator, Mapping

from puzzlesmith.csp.model import Model
from puzzlesmith.solvers.base import Engine, Limits, Search, Stats

#: The most combinations the engine agrees to try: beyond, ``unsupported`` declines the model.
MAX_COMBINATIONS = 10**7


class BruteForceEngine(Engine):
    name = "brute"
    kinds = frozenset({"AllDifferent", "Linear", "Table", "Parity"})  # Model.check knows every kind

    def unsupported(self, model: Model) -> str | None:
        """The kinds check, and a size check: say why before searching rather than run for hours."""
        why = super().unsupported(model)
        if why:
            return why
        combinations = 1
        for domain in model.domains:
            combinations *= len(domain)
            if combinations > MAX_COMBINATIONS:
                return f"{self.name} tries every combination of values: at most {MAX_COMBINATIONS:,}"
        return None

    def search(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Search:
        stats = Stats()
        return Search(self._solutions(model, dict(fix or {}), set(forbid), limits, stats), stats)

    def _solutions(self, model: Model, fix: dict[int, int], forbid: set[tuple[int, int]], limits: Limits,
                   stats: Stats) -> Iterator[list[int]]:
        deadline = None if limits.time is None else time.perf_counter() + limits.time
        choices = [[fix[v]] if v in fix else [x for x in domain if (v, x) not in forbid]
                   for v, domain in enumerate(model.domains)]
        for values in itertools.product(*choices):
            stats.nodes += 1
            # Limits end the search cleanly: the caller sees "unknown", never an exception.
            if limits.nodes is not None and stats.nodes > limits.nodes:
                stats.stopped = "node limit"
                return
            if deadline is not None and time.perf_counter() > deadline:
                stats.stopped = "time limit"
                return
            candidate = list(values)
            if model.check(candidate) is None:
                yield candidate
