"""What every command gets: settings, a lazily opened store and `Core`, and output helpers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from photosearch.config import Settings

if TYPE_CHECKING:
    from photosearch.catalog import Store
    from photosearch.core import Core


@dataclass
class Context:
    settings: Settings
    json_output: bool = False
    #: add, index and watch may start a new catalog; every other command needs one to be there.
    creates_catalog: bool = False
    _store: Store | None = field(default=None, repr=False)
    _core: Core | None = field(default=None, repr=False)

    @classmethod
    def from_args(cls, args) -> Context:
        settings = Settings.load(data_dir=args.data_dir, db_url=args.db_url)
        return cls(
            settings=settings,
            json_output=bool(args.json),
            creates_catalog=bool(getattr(args, "creates_catalog", False)),
        )

    @property
    def store(self) -> Store:
        if self._store is None:
            # imported here: only the commands that open the catalog pay for SQLAlchemy
            from photosearch.catalog import Store

            if self.creates_catalog:
                self.settings.ensure_dirs()
                self._store = Store(self.settings.database_url)
            else:
                self._store = Store(self.settings.database_url, must_exist=True)
                self.settings.ensure_dirs()
        return self._store

    @property
    def core(self) -> Core:
        """What the GUI asks of the library too: search, similar photos, status."""
        if self._core is None:
            from photosearch.core import Core  # the query engine: only the commands that search

            self._core = Core(self.settings, self.store)
        return self._core

    def emit(self, data: Any, text: Callable[[Any], str] | str | None = None) -> None:
        """Print `data` as JSON with --json, else the human text."""
        if self.json_output:
            print(json.dumps(data, indent=2, default=str, ensure_ascii=False))
        elif callable(text):
            print(text(data))
        elif text is not None:
            print(text)
        else:
            print(json.dumps(data, indent=2, default=str, ensure_ascii=False))

    def fail(self, message: str) -> None:
        if self.json_output:
            print(json.dumps({"error": message}), file=sys.stdout)
        print(f"photosearch: error: {message}", file=sys.stderr)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
