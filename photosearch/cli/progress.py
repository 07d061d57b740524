"""Terminal progress for long work: a tqdm bar on a terminal, plain lines otherwise; Ctrl-C cancels."""

from __future__ import annotations

import signal
import sys
import threading
import time

from tqdm import tqdm

from photosearch.ingest.indexer import IndexProgress


class CancelOnInterrupt:
    """First Ctrl-C asks the work to stop after the current batch; a second one aborts."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._previous = None

    def __call__(self) -> bool:
        return self._event.is_set()

    def __enter__(self) -> CancelOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, _signum, _frame) -> None:
        if self._event.is_set():
            raise KeyboardInterrupt
        self._event.set()
        print("\nstopping after the current batch (Ctrl-C again to abort)…", file=sys.stderr)

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


class IndexProgressPrinter:
    """Turns IndexProgress events into a tqdm bar (TTY) or a line every few seconds (pipes, logs)."""

    def __init__(self, stream=None, interval_s: float = 2.0, enabled: bool = True):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval_s = interval_s
        self.enabled = enabled
        self._bar: tqdm | None = None
        self._last_line = 0.0

    def __call__(self, event: IndexProgress) -> None:
        if not self.enabled:
            return
        if event.stage == "waiting":
            print(event.path, file=self.stream, flush=True)
            return
        if event.stage == "post":
            self._close()
            print(f"post: {event.path}…", file=self.stream)
            return
        if event.stage == "done":
            self._close()
            return
        if event.total <= 0 or (event.done == 0 and not self.tty):
            return
        if self.tty:
            if self._bar is None:
                self._bar = tqdm(
                    total=event.total, unit="photo", file=self.stream, desc="indexing", dynamic_ncols=True
                )
            self._bar.n = event.done
            self._bar.set_postfix({k: v for k, v in event.counts.items() if v}, refresh=False)
            self._bar.refresh()
        else:
            now = time.monotonic()
            if now - self._last_line >= self.interval_s or event.done >= event.total:
                self._last_line = now
                eta = (event.total - event.done) / event.rate if event.rate else 0
                counts = " ".join(f"{k}={v}" for k, v in event.counts.items() if v)
                print(
                    f"indexed {event.done}/{event.total} ({event.rate:.1f} photos/s, ETA {eta:.0f}s) {counts}",
                    file=self.stream,
                    flush=True,
                )

    def _close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
