"""The one bridge between the Qt GUI and the core: work runs on a thread pool, results come back
on the GUI thread as signals.

The core never sees Qt: a job is a plain callable ``fn(progress, cancel)`` where ``progress(obj)``
reports anything and ``cancel() -> bool`` is polled by the core. Pausing makes ``cancel()`` block
(on the worker thread) until resumed, so every core loop that polls ``cancel`` between batches can
be paused without knowing about it.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from photosearch.errors import Cancelled, PhotoSearchError

log = logging.getLogger(__name__)

Job = Callable[[Callable[[Any], None], Callable[[], bool]], Any]


@dataclass
class ErrorInfo:
    """What went wrong, for a person (`message`) and for a bug report (`details`)."""

    title: str
    message: str
    details: str = ""

    @classmethod
    def from_exception(cls, exc: BaseException, title: str = "Something went wrong") -> ErrorInfo:
        details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        if isinstance(exc, PhotoSearchError):
            message = str(exc)
        elif isinstance(exc, (OSError, MemoryError)):
            message = f"{type(exc).__name__}: {exc}"
        else:
            message = f"An unexpected error stopped this task ({type(exc).__name__}: {exc})."
        return cls(title, message, details)


class _TaskSignals(QObject):
    progress = Signal(object)
    finished = Signal(object)
    failed = Signal(object)
    cancelled = Signal()


class Task:
    """Handle of one background job: cancel, pause, resume; state is safe to read from any thread."""

    _ids = itertools.count(1)

    def __init__(self, name: str, throttle_s: float = 0.0):
        self.id = next(self._ids)
        self.name = name
        self.signals = _TaskSignals()
        self._cancel = threading.Event()
        self._running = threading.Event()
        self._running.set()
        self._done = threading.Event()
        self._throttle_s = throttle_s
        self._last_emit = 0.0
        self.cancel_polls = 0  # how often the core asked (tests read this)
        self.result: Any = None
        self.state = "queued"  # queued | running | paused | done | failed | cancelled

    # ---- GUI side ----
    def cancel(self) -> None:
        self._cancel.set()
        self._running.set()  # a paused job must wake up to see the cancel

    def pause(self) -> None:
        if self.state in ("queued", "running"):
            self._running.clear()
            self.state = "paused"

    def resume(self) -> None:
        if self.state == "paused":
            self.state = "running"
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    # ---- worker side: these are what the core gets ----
    def is_cancelled(self) -> bool:
        """The core's ``cancel`` callable; blocks while paused."""
        self.cancel_polls += 1
        while not self._running.wait(0.1):
            pass
        return self._cancel.is_set()

    def report(self, payload: Any) -> None:
        """The core's ``progress`` callable (throttled when `throttle_s` is set)."""
        if self._throttle_s:
            now = time.monotonic()
            if now - self._last_emit < self._throttle_s:
                return
            self._last_emit = now
        self.signals.progress.emit(payload)


class _Runnable(QRunnable):
    def __init__(self, task: Task, fn: Job):
        super().__init__()
        self.task, self.fn = task, fn
        self.setAutoDelete(True)

    def run(self) -> None:  # worker thread
        task = self.task
        try:
            if task.cancel_requested:
                raise Cancelled(f"{task.name} was cancelled")
            task.state = "running" if not task.paused else "paused"
            result = self.fn(task.report, task.is_cancelled)
        except Cancelled:
            task.state = "cancelled"
            task._done.set()
            task.signals.cancelled.emit()
            return
        except BaseException as exc:  # noqa: BLE001 - every failure reaches the user as a dialog
            log.warning("task %s failed", task.name, exc_info=True)
            task.state = "failed"
            task._done.set()
            task.signals.failed.emit(ErrorInfo.from_exception(exc, f"{task.name} failed"))
            return
        task.result = result
        task.state = "cancelled" if task.cancel_requested else "done"
        task._done.set()
        task.signals.finished.emit(result)


class TaskRunner(QObject):
    """Runs jobs off the GUI thread and delivers their progress and results on it."""

    task_started = Signal(object)
    task_ended = Signal(object)
    _invoke = Signal(object, object)

    def __init__(self, parent: QObject | None = None, max_threads: int = 4):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max(3, max_threads))
        self.tasks: dict[int, Task] = {}
        self._invoke.connect(self._run_invoke)

    def submit(
        self,
        fn: Job,
        *,
        name: str = "task",
        on_progress: Callable[[Any], None] | None = None,
        on_result: Callable[[Any], None] | None = None,
        on_error: Callable[[ErrorInfo], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        throttle_s: float = 0.0,
    ) -> Task:
        """Start ``fn(progress, cancel)`` on the pool; callbacks run on the GUI thread."""
        task = Task(name, throttle_s)
        sig = task.signals
        if on_progress:
            sig.progress.connect(on_progress)
        if on_result:
            sig.finished.connect(on_result)
        if on_error:
            sig.failed.connect(on_error)
        if on_cancelled:
            sig.cancelled.connect(on_cancelled)
        for s in (sig.finished, sig.failed, sig.cancelled):
            s.connect(lambda *_a, t=task: self._ended(t))
        self.tasks[task.id] = task
        self.task_started.emit(task)
        self.pool.start(_Runnable(task, fn))
        return task

    def call_in_gui(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the GUI thread (for callbacks coming from core threads, e.g. the watcher)."""
        self._invoke.emit(fn, args)

    @Slot(object, object)
    def _run_invoke(self, fn, args) -> None:
        fn(*args)

    def _ended(self, task: Task) -> None:
        self.tasks.pop(task.id, None)
        self.task_ended.emit(task)

    def cancel_all(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel everything and wait for the workers (on exit)."""
        self.cancel_all()
        return self.pool.waitForDone(timeout_ms)
