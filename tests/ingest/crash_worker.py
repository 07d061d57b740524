"""Run by test_crash: index a gallery slowly so the test can SIGKILL it mid-run."""

import sys
from pathlib import Path

from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from tests.fakes import MeanColourAnalyzer

data_dir, sleep_s = Path(sys.argv[1]), float(sys.argv[2])
settings = Settings(data_dir=data_dir, batch_size=4, decode_workers=2)
settings.ensure_dirs()
store = Store(settings.database_url)
report = Indexer(store, settings, [MeanColourAnalyzer(sleep_s=sleep_s)]).run()
print("done", report.added, report.analysed, flush=True)
