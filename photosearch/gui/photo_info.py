"""Dates and places for a grid's tooltips: after each new set of results, one background call to
`Core.photo_info` for the shown photos fills the model's `info` (the search itself stays as fast)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject

from photosearch.gui.grid import SEPARATOR_ID, ResultsModel

log = logging.getLogger(__name__)

#: Photos whose date and place are fetched per set of results (a search shows at most 5,000).
MOST = 5000


class PhotoInfoLoader(QObject):
    """Keeps `model.info` in line with `model.ids` through `fetch(ids) -> {id: {"taken", "place"}}`."""

    def __init__(self, runner, fetch: Callable[[list[int]], dict[int, dict]], model: ResultsModel):
        super().__init__(model)
        self.runner, self.fetch, self.model = runner, fetch, model
        self.generation = 0
        self.task = None
        model.modelReset.connect(self.load)

    def load(self):
        self.generation += 1
        gen, fetch = self.generation, self.fetch
        ids = [pid for pid in self.model.ids[:MOST] if pid != SEPARATOR_ID]
        if not ids:
            return None

        def done(info: dict[int, dict]) -> None:
            if gen == self.generation:
                self.model.set_info(info)

        self.task = self.runner.submit(
            lambda _p, _c: fetch(ids),
            name="Dates and places",
            on_result=done,
            on_error=lambda e: log.warning("dates and places for tooltips: %s", e.message),
        )
        return self.task
