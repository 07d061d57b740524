"""The SQL catalog: models, migrations, store."""

from photosearch.catalog.store import Store

__all__ = ["Store"]
