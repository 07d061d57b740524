"""Run by the soak test: index the registered folders slowly (so a SIGKILL lands mid-run)."""

import sys
from pathlib import Path

from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from tests.fakes import MeanColourAnalyzer

data_dir, sleep_s = Path(sys.argv[1]), float(sys.argv[2])
settings = Settings.load(data_dir)
settings.batch_size, settings.decode_workers = 4, 2
store = Store(settings.database_url)
print("started", flush=True)
report = Indexer(store, settings, [MeanColourAnalyzer(sleep_s=sleep_s)]).run()
print("done", report.added, report.moved, report.changed, report.analysed, flush=True)
