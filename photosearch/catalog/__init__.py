"""The SQL catalog: models, migrations, store."""

from photosearch.catalog.store import AnalysisResult, FaceRecord, FactRecord, Store

__all__ = ["AnalysisResult", "FaceRecord", "FactRecord", "Store"]
