"""The main window: welcome → library (search bar, plan chips, grid) → photo view; people; ask; settings."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QMenu,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from photosearch.core import Core
from photosearch.gui.albums_view import AlbumsView
from photosearch.gui.ask_panel import AskPanel
from photosearch.gui.bridge import ErrorInfo, TaskRunner
from photosearch.gui.desktop import open_photo_file, show_folder
from photosearch.gui.elided_label import ElidedLabel
from photosearch.gui.errors import ErrorReporter
from photosearch.gui.folder_tree import FolderTreePage
from photosearch.gui.grid import SEPARATOR_ID, ResultsModel, ThumbnailGrid
from photosearch.gui.health_banner import HealthBanner
from photosearch.gui.indexing import IndexStatus
from photosearch.gui.map_view import MapView
from photosearch.gui.organize_actions import OrganizeActions
from photosearch.gui.people_view import PeopleView
from photosearch.gui.photo_info import PhotoInfoLoader
from photosearch.gui.photo_view import PhotoView
from photosearch.gui.plan_chips import PlanChips
from photosearch.gui.search_bar import SearchBar
from photosearch.gui.settings_view import SettingsDialog
from photosearch.gui.theme import app_icon
from photosearch.gui.thumbs import ThumbnailCache, load_image
from photosearch.gui.timeline_view import TimelinePage
from photosearch.gui.welcome import WelcomeView
from photosearch.query.home import HOME_RADIUS_KM

log = logging.getLogger(__name__)

ORG, APP = "PhotoSearch", "PhotoSearch"
PAGE_WELCOME, PAGE_LIBRARY, PAGE_PHOTO, PAGE_PEOPLE = range(4)
SEARCHING = "Searching…"
#: What a search started while the background warm-up is still loading the models says meanwhile.
SEARCHING_WHILE_LOADING = "Searching… (loading models…)"
FULL_IMAGE = QSize(2400, 2400)
#: How long the slideshow shows each photo.
SLIDESHOW_MS = 4000
#: While indexing, the library (no request typed, scrolled to the top) shows new photos as they land:
#: at most every LIVE_REFRESH_S, and never spending more than LIVE_REFRESH_SHARE of the time on it
#: (a big library's listing costs more, so it refreshes less often).
LIVE_REFRESH_S = 5.0
LIVE_REFRESH_SHARE = 0.05


def fit_to_screen(size: QSize) -> QSize:
    """`size`, no bigger than the primary screen's free area (a 1366x768 laptop must still see the
    status bar, where indexing shows its progress and its Cancel button)."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return size
    free = screen.availableGeometry().size()
    return size.boundedTo(QSize(max(640, free.width()), max(480, free.height() - 40)))


def _sentence(text: str) -> str:
    """A status-line part with its first letter capital."""
    return f"{text[:1].upper()}{text[1:]}"


class MainWindow(QMainWindow):
    def __init__(
        self,
        core: Core,
        *,
        qsettings: QSettings | None = None,
        indexer_factory: Callable[[], object] | None = None,
        watch: bool = True,
        ask_llm_factory: Callable[[], object] | None = None,
        ask_backend_factory: Callable[[], object] | None = None,
        health_check: Callable[[], str] | None = None,
        warm_up: bool = True,
    ):
        super().__init__()
        self.core = core
        self.qsettings = qsettings or QSettings(ORG, APP)
        self.indexer_factory = indexer_factory or self._default_indexer
        self.watch_enabled = watch
        self.watcher = None
        self.caught_up = False  # watching begins with one index run over the folders
        self.runner = TaskRunner(self, max_threads=max(4, core.settings.threads + 2))
        self.errors = ErrorReporter(self)
        self.search_generation = 0
        self.search_task = None
        self.warm_up_task = None
        self.last_request = ""
        self.last_result: dict | None = None
        self.current_photo: int | None = None
        self.setWindowTitle("PhotoSearch")
        self.setWindowIcon(app_icon())
        self.resize(fit_to_screen(QSize(1280, 820)))

        dpr = QGuiApplication.primaryScreen().devicePixelRatio() if QGuiApplication.primaryScreen() else 1.0
        icon_size = int(self.qsettings.value("grid/icon_size", 160))
        self.thumbs = ThumbnailCache(self.runner, core.thumb_path, size=icon_size, dpr=dpr, parent=self)
        self.model = ResultsModel(self.thumbs, self)
        self.sequence = self.model  # what the viewer's arrows move through: the grid, or a browse view
        self.photo_return: QWidget | None = None  # the page the viewer goes back to

        central = QWidget(self)
        central_lay = QVBoxLayout(central)
        central_lay.setContentsMargins(8, 6, 8, 0)
        self.health_banner = HealthBanner(self.runner, health_check or core.model_check_report, central)
        self.health_banner.retry_requested.connect(lambda: self.start_indexing(retry_failed=True))
        central_lay.addWidget(self.health_banner)
        self.stack = QStackedWidget(central)
        central_lay.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.welcome = WelcomeView(self)
        self.welcome.folders_chosen.connect(self.add_folders)
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self._library_page(icon_size))
        self.photo_view = PhotoView(self)
        self.photo_view.back_requested.connect(self.leave_photo)
        self.photo_view.navigate.connect(self.navigate)
        self.photo_view.find_similar.connect(self.find_similar)
        self.photo_view.find_same_people.connect(self.find_same_people)
        self.photo_view.find_same_day.connect(self.find_same_day)
        self.photo_view.find_same_place.connect(self.find_same_place)
        self.photo_view.ask_requested.connect(self.ask_about)
        self.photo_view.act_slideshow.triggered.connect(lambda _on: self.toggle_slideshow())
        self.photo_view.act_full_screen.triggered.connect(self.toggle_full_screen)
        self.slideshow = QTimer(self)
        self.slideshow.timeout.connect(self._next_slide)
        self.stack.addWidget(self.photo_view)
        self.people_view = PeopleView(core, self.runner, self.show_error, self)
        self.people_view.find_person.connect(lambda name: self.run_search(plan={"where": {"person": name}}))
        self.stack.addWidget(self.people_view)
        self.timeline = TimelinePage(core, self.runner, self.thumbs, self.grid_menu, self.show_error, self)
        self.timeline.open_requested.connect(lambda pid: self.open_photo(pid, self.timeline.model))
        self.stack.addWidget(self.timeline)
        self.folders_page = FolderTreePage(
            core, self.runner, self.thumbs, self.grid_menu, self.show_error, self
        )
        self.folders_page.open_requested.connect(lambda pid: self.open_photo(pid, self.folders_page.model))
        self.stack.addWidget(self.folders_page)
        for other in (self.timeline.model, self.folders_page.model):  # hearts and stars on their tiles too
            other.marks_of = lambda pid: self.model.marks.get(pid)
        self.model.marks_changed.connect(self.timeline.view.viewport().update)
        self.model.marks_changed.connect(self.folders_page.grid.viewport().update)
        for model in (self.model, self.folders_page.model):  # dates and places for the tooltips
            PhotoInfoLoader(self.runner, core.photo_info, model)
        self.map_view = MapView(core, self.runner, self.show_error, self.thumbs, self)
        self.map_view.photos_chosen.connect(self.show_photos)
        self.stack.addWidget(self.map_view)
        self.albums_view = AlbumsView(core, self.runner, self.show_error, self)
        self.stack.addWidget(self.albums_view)

        self.ask_panel = AskPanel(
            core,
            self.runner,
            self.show_error,
            self,
            llm_factory=ask_llm_factory,
            backend_factory=ask_backend_factory,
        )
        self.ask_dock = QDockWidget("Ask about this photo", self)
        self.ask_dock.setObjectName("AskDock")
        self.ask_dock.setWidget(self.ask_panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.ask_dock)
        self.ask_dock.hide()

        self.index_status = IndexStatus(self.runner, self.show_error, self)
        self.index_status.finished.connect(self._index_finished)
        self.index_status.progressed.connect(self._index_progressed)
        self._live_refresh = (0.0, -1)  # (when, photos done) of the last refresh while indexing
        # a long line (how the request was read, what no photo meets) ends in "…", never widens the
        # window; its tooltip holds all of it
        self.search_info = ElidedLabel("", self)
        self.library_info = ""  # what the library's results are: the status line while it is shown
        self.statusBar().addWidget(self.search_info, 1)
        self.stack.currentChanged.connect(self._page_changed)
        self.statusBar().addPermanentWidget(self.index_status)
        self.organize = OrganizeActions(self)  # favourites, stars, albums, export
        self.albums_view.open_album.connect(self.organize.open_album)
        self.albums_view.edit_search.connect(self.organize.edit_search)
        self.albums_view.save_search_requested.connect(lambda: self.organize.save_search())
        self.albums_view.changed.connect(self.organize.reload_album_names)
        self._actions()
        self._restore()
        self.refresh_library_state()
        self.refresh_health()
        self.warm_up_task = self._start_warm_up() if warm_up else None

    # ---- construction ------------------------------------------------------------------------------
    def _library_page(self, icon_size: int) -> QWidget:
        page = QWidget(self)
        lay = QVBoxLayout(page)
        lay.setContentsMargins(10, 8, 10, 4)
        self.search_bar = SearchBar(page)
        self.search_bar.submitted.connect(lambda text: self.run_search(text))
        self.search_bar.cleared.connect(self.clear_search)
        lay.addWidget(self.search_bar)
        self.chips = PlanChips(page)
        self.chips.plan_edited.connect(lambda plan: self.run_search(plan=plan, keep_request=True))
        self.chips.save_example.connect(self.save_example)
        lay.addWidget(self.chips)
        self.grid = ThumbnailGrid(page, icon_size)
        self.grid.setModel(self.model)
        self.grid.open_requested.connect(self.open_photo)
        self.grid.preview_requested.connect(self.open_photo)
        self.grid.customContextMenuRequested.connect(self._grid_menu)
        self.grid.selectionModel().currentChanged.connect(self._current_changed)
        lay.addWidget(self.grid, 1)
        return page

    def _actions(self) -> None:
        tb = QToolBar("Main", self)
        tb.setObjectName("MainToolbar")
        tb.setMovable(False)
        self.addToolBar(tb)
        self.act_library = tb.addAction("Library", self.show_library)
        self.act_people = tb.addAction("People", self.show_people)
        self.act_ask = tb.addAction("Ask", self.toggle_ask)
        self.act_timeline = tb.addAction("Timeline", self.show_timeline)
        self.act_folders = tb.addAction("Folders", self.show_folders)
        self.act_map = tb.addAction("Map", self.show_map)
        self.act_albums = tb.addAction("Albums", self.show_albums)
        self.act_albums.setShortcut("Alt+7")
        self.act_albums.setToolTip("Your albums and saved searches (Alt+7); drop photos here to add them")
        tb.addSeparator()
        self.act_index = tb.addAction("Index now", lambda: self.start_indexing())
        self.act_settings = tb.addAction("Settings", self.open_settings)
        self.act_library.setShortcut("Alt+1")
        self.act_people.setShortcut("Alt+2")
        self.act_ask.setShortcut("Alt+3")
        self.act_timeline.setShortcut("Alt+4")
        self.act_folders.setShortcut("Alt+5")
        self.act_map.setShortcut("Alt+6")
        self.act_index.setShortcut("Ctrl+R")  # F5 is the slideshow, as in photo viewers
        self.act_settings.setShortcut(QKeySequence.StandardKey.Preferences)
        menu = self.menuBar().addMenu("&File")
        menu.addAction("Add folder…", self.welcome.pick)
        menu.addAction(self.act_index)
        menu.addSeparator()
        menu.addAction(self.act_settings)
        quit_act = menu.addAction("Quit", self.close)
        quit_act.setShortcut(QKeySequence.StandardKey.Quit)
        view = self.menuBar().addMenu("&View")
        for a in (
            self.act_library,
            self.act_people,
            self.act_ask,
            self.act_timeline,
            self.act_folders,
            self.act_map,
        ):
            view.addAction(a)
        view.addSeparator()
        view.addAction("Larger thumbnails", lambda: self.set_icon_size(self.thumbs.size + 32), "Ctrl++")
        view.addAction("Smaller thumbnails", lambda: self.set_icon_size(self.thumbs.size - 32), "Ctrl+-")
        view.addAction(self.act_albums)
        self.organize.add_actions(self.menuBar(), tb.widgetForAction(self.act_albums))
        helpm = self.menuBar().addMenu("&Help")
        helpm.addAction("Keyboard shortcuts", self._shortcuts_help)
        # window-wide keys
        QShortcut(QKeySequence.StandardKey.Find, self, self.focus_search)
        QShortcut(QKeySequence("Ctrl+L"), self, self.focus_search)
        esc = QShortcut(QKeySequence("Esc"), self, self.escape)
        esc.setContext(Qt.ShortcutContext.WindowShortcut)
        for key, step in (
            (Qt.Key.Key_Left, -1),
            (Qt.Key.Key_Right, 1),
            (Qt.Key.Key_PageUp, -1),
            (Qt.Key.Key_PageDown, 1),
        ):
            sc = QShortcut(QKeySequence(key), self.photo_view, lambda s=step: self.navigate(s))
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        sc = QShortcut(QKeySequence(Qt.Key.Key_Space), self.photo_view, self.leave_photo)
        sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # F11 and the desktop's own full-screen keys, each once (two shortcuts on one key fire neither)
        full_screen = {"F11"} | {
            k.toString() for k in QKeySequence.keyBindings(QKeySequence.StandardKey.FullScreen)
        }
        for key in sorted(full_screen):
            QShortcut(QKeySequence(key), self, self.toggle_full_screen)
        QShortcut(QKeySequence("F5"), self, self.toggle_slideshow)

    # ---- state ---------------------------------------------------------------------------------
    def _restore(self) -> None:
        q = self.qsettings
        geo = q.value("window/geometry")
        if isinstance(geo, (QByteArray, bytes)):
            self.restoreGeometry(geo)
        size = q.value("window/size")
        if isinstance(size, QSize) and size.isValid():
            # restoreGeometry clamps to the screen it first sees; the size is what we want, on this screen
            self.resize(fit_to_screen(size))
        state = q.value("window/state")
        if isinstance(state, (QByteArray, bytes)):
            self.restoreState(state)
        history = q.value("search/history", [])
        if isinstance(history, str):
            history = [history]
        self.search_bar.set_history(list(history or []))
        sizes = q.value("photo/splitter")
        if sizes:
            self.photo_view.splitter.setSizes([int(x) for x in sizes])

    def save_state(self) -> None:
        q = self.qsettings
        q.setValue("window/geometry", self.saveGeometry())
        q.setValue("window/state", self.saveState())
        q.setValue("window/size", self.size())
        q.setValue("search/history", self.search_bar.history)
        q.setValue("grid/icon_size", self.thumbs.size)
        q.setValue("photo/splitter", self.photo_view.splitter.sizes())
        q.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.stop_watching()
        self.runner.shutdown(3000)
        super().closeEvent(event)

    # ---- library ---------------------------------------------------------------------------------
    def refresh_library_state(self) -> None:
        """Welcome when there are no folders yet, else the library (with the newest photos). With
        watching on, the first call indexes what changed while the app was closed, then watches."""
        if not self.core.has_folders():
            self.stack.setCurrentIndex(PAGE_WELCOME)
            return
        if self.stack.currentIndex() == PAGE_WELCOME:
            self.stack.setCurrentIndex(PAGE_LIBRARY)
        self.reload_words()
        if self.model.rowCount() == 0 and not self.last_request:
            self.run_search("")
        if self.watch_enabled and self.watcher is None and not self.index_status.running:
            if self.caught_up:
                self.start_watching()
            else:  # what changed while the app was closed, with progress; watching starts after it
                self.caught_up = True
                self.start_indexing()

    def add_folders(self, folders: list[str]) -> None:
        for f in folders:
            try:
                self.core.store.add_folder(f)
            except Exception as exc:
                self.errors.exception(exc, f"Cannot add {f}")
                return
        self.welcome.status.setText("Indexing " + ", ".join(Path(f).name for f in folders) + "…")
        self.stack.setCurrentIndex(PAGE_LIBRARY)
        self.start_indexing()

    def _default_indexer(self):
        from photosearch.app import build_indexer

        return build_indexer(self.core.store, self.core.settings)

    def start_indexing(self, only_paths: list[str] | None = None, *, retry_failed: bool = False):
        if self.index_status.running:
            return self.index_status.task
        factory = self.indexer_factory

        def job(progress, cancel):
            indexer = factory()
            return indexer.run(
                only_paths=only_paths, progress=progress, cancel=cancel, retry_failed=retry_failed
            )

        self.stop_watching()
        return self.index_status.start(job)

    def _start_warm_up(self):
        """Models load in the background right after start, so the first search is as fast as later ones."""
        if not self.core.has_folders():
            return None
        return self.runner.submit(
            lambda _p, _c: self.core.warm_up(),
            name="warm-up",
            on_result=lambda s: self._warm_up_ended(logging.INFO, f"took {s:.1f} s"),
            on_error=lambda info: self._warm_up_ended(logging.WARNING, f"failed: {info.message}"),
        )

    @property
    def warming_up(self) -> bool:
        """The background warm-up is still loading models (a search now waits for them)."""
        return self.warm_up_task is not None and not self.warm_up_task.done

    def _warm_up_ended(self, level: int, outcome: str) -> None:
        log.log(level, "warm-up %s", outcome)
        if self.search_info.text() == SEARCHING_WHILE_LOADING:  # the waiting search runs on now
            self.search_info.setText(SEARCHING)

    def refresh_health(self) -> None:
        """Show the banner when a model is missing or failed on photos (checked off the GUI thread)."""
        self.runner.submit(
            lambda _p, _c: self.core.health(),
            name="health",
            on_result=lambda got: self.health_banner.update_health(*got),
            on_error=self.show_error,
        )

    def _index_finished(self, report) -> None:
        self.refresh_health()
        if self.stack.currentWidget() is self.map_view:
            self.map_view.refresh()
        self.run_search(
            self.last_request,
            plan=(self.last_result or {}).get("plan") if self.last_request else None,
            keep_request=True,
            record=False,
        )
        self.reload_words()
        self.refresh_browse_view()
        if self.watch_enabled:
            self.start_watching()

    def _index_progressed(self, p) -> None:
        """New photos appear in the library while a run indexes them, not only when it ends."""
        when, done = self._live_refresh
        listing_s = float(((self.last_result or {}).get("timing_ms") or {}).get("total", 0.0)) / 1000
        wait = max(LIVE_REFRESH_S, listing_s / LIVE_REFRESH_SHARE)
        if (
            p.done == done
            or time.monotonic() - when < wait
            or self.last_request
            or self.stack.currentIndex() != PAGE_LIBRARY
            or self.grid.verticalScrollBar().value() > 0  # the user is looking further down
            or (self.search_task is not None and not self.search_task.done)
        ):
            return
        self._live_refresh = (time.monotonic(), p.done)
        self.run_search(None, keep_request=True, record=False)

    def refresh_browse_view(self) -> None:
        """The library changed: the timeline or folders, when shown, read it again."""
        if self.stack.currentWidget() in (self.timeline, self.folders_page):
            self.stack.currentWidget().refresh()

    def start_watching(self) -> None:
        from photosearch.ingest.watcher import FolderWatcher

        if self.watcher is not None:
            return
        try:
            indexer = self.indexer_factory()
            self.watcher = FolderWatcher(
                self.core.store,
                indexer,
                on_update=lambda rep: self.runner.call_in_gui(self._watch_update, rep),
            )
            self.watcher.start()
        except Exception as exc:  # watching is a convenience: report and carry on
            log.warning("cannot watch folders: %s", exc)
            self.watcher = None

    def stop_watching(self) -> None:
        if self.watcher is not None:
            try:
                self.watcher.stop()
            except Exception:
                pass
            self.watcher = None

    def _watch_update(self, report) -> None:
        changed = getattr(report, "added", 0) + getattr(report, "changed", 0) + getattr(report, "deleted", 0)
        if changed:
            self.search_info.setText(f"Folders changed: {changed} photo(s) updated")
            self.run_search(self.last_request, keep_request=True, record=False)
            self.refresh_browse_view()

    def reload_words(self) -> None:
        core = self.core

        def job(_p, _c):
            return core.completions(), core.people_names()

        def done(result):
            words, people = result
            self.search_bar.set_words(words)
            self.chips.set_people(people)

        self.runner.submit(
            job,
            name="Loading completions",
            on_result=done,
            on_error=lambda e: log.warning("completions: %s", e.message),
        )

    # ---- search ---------------------------------------------------------------------------------
    def focus_search(self) -> None:
        if self.stack.currentIndex() not in (PAGE_LIBRARY,):
            self.show_library()
        self.search_bar.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_bar.selectAll()

    def run_search(
        self,
        text: str | None = None,
        plan: dict | None = None,
        *,
        keep_request: bool = False,
        record: bool = True,
    ):
        """Search for a request (or an edited plan) off the GUI thread; older answers are dropped."""
        if text is not None and not keep_request:
            self.last_request = text
            if record and text:
                self.search_bar.add_history(text)
            if self.search_bar.text() != text:
                self.search_bar.setText(text)
        # the user's own search shows the library; a refresh (record=False: indexing ended) stays put
        if (
            record
            and self.stack.currentIndex() not in (PAGE_LIBRARY, PAGE_WELCOME)
            and (plan is not None or text)
        ):
            self.stack.setCurrentIndex(PAGE_LIBRARY)
        self.search_generation += 1
        gen = self.search_generation
        core, request = self.core, (text if text is not None else self.last_request)
        if self.search_task is not None and not self.search_task.done:
            self.search_task.cancel()
        self.search_info.setText(SEARCHING_WHILE_LOADING if self.warming_up else SEARCHING)

        def job(_p, cancel):
            if plan is not None:
                return core.search(plan=plan)
            return core.search(request=request)

        def done(result):
            if gen != self.search_generation:
                return
            self.show_results(result)

        def failed(info: ErrorInfo):
            if gen == self.search_generation:
                self.search_info.setText(info.message)
                self.show_error(info)

        self.search_task = self.runner.submit(job, name="Search", on_result=done, on_error=failed)
        return self.search_task

    def show_results(self, result: dict) -> None:
        self.last_result = result
        results = result.get("results") or []
        self.model.set_results(results)
        self.chips.set_plan(result.get("plan"))
        total = sum(float(v) for k, v in (result.get("timing_ms") or {}).items() if k == "total") or None
        closest = sum(1 for r in results if r.get("below_cutoff"))
        partial = sum(1 for r in results if r.get("partial") and not r.get("below_cutoff"))
        n = len(results) - closest - partial
        msg = f"{n:,} photo{'s' if n != 1 else ''}"
        if partial:
            msg += f" + {partial:,} partial"
        if closest:
            msg += f" + {closest:,} closest (no confident match)" if not n else f" + {closest:,} closest"
        if total is not None:
            msg += f" · {total:.0f} ms"
        if result.get("composer") == "newest":
            msg += " · newest first"
        explain = result.get("explain") or {}
        # what no photo meets ("No photo with exactly two people"), the counts, then how the request
        # was read ("No birthday is known for Tom, …"): the line is cut from its end in a narrow window
        unmet, remarks = explain.get("unmet") or [], explain.get("remarks") or []
        msg = " · ".join([*(_sentence(u) for u in unmet), msg, *(_sentence(r) for r in remarks)])
        self.library_info = msg
        self.search_info.setText(msg)
        if results:
            first = 1 if self.model.ids and self.model.ids[0] == SEPARATOR_ID else 0
            self.grid.setCurrentIndex(self.model.index(first))
        self.organize.results_shown(result)

    def save_example(self) -> None:
        plan = (self.last_result or {}).get("plan") or self.chips.plan
        if not plan or not self.last_request:
            self.search_info.setText("Search for something first, then correct the plan and save it.")
            return
        request, core = self.last_request, self.core
        self.runner.submit(
            lambda _p, _c: core.save_example(request, plan),
            name="Saving example",
            on_result=lambda where: self.search_info.setText(f"Saved as an example ({where})"),
            on_error=self.show_error,
        )

    def find_similar(self, photo_id: int):
        """The photos `photosearch similar` lists for this photo, in its order (near-duplicates
        first), under the photo's file name."""
        if self.stack.currentIndex() not in (PAGE_LIBRARY, PAGE_WELCOME):
            self.stack.setCurrentIndex(PAGE_LIBRARY)
        self.search_generation += 1
        gen, core = self.search_generation, self.core
        if self.search_task is not None and not self.search_task.done:
            self.search_task.cancel()
        self.search_info.setText(SEARCHING)

        def done(result: dict) -> None:
            if gen != self.search_generation:
                return
            name = Path(result.get("query_path") or str(photo_id)).name
            self.last_request = f"similar to {name}"
            self.search_bar.setText(self.last_request)
            self.show_results(result)

        def failed(info: ErrorInfo) -> None:
            if gen == self.search_generation:
                self.search_info.setText(info.message)
                self.show_error(info)

        self.search_task = self.runner.submit(
            lambda _p, _c: core.similar(photo_id), name="Find similar", on_result=done, on_error=failed
        )
        return self.search_task

    def find_same_day(self, photo_id: int) -> None:
        """The photos taken the day this one was, oldest first, as a request in the search bar."""
        self._find_by_request(
            lambda: self.core.same_day_request(photo_id), "Same day", "This photo has no date"
        )

    def find_same_place(self, photo_id: int) -> None:
        """The photos taken in this one's town, as a request in the search bar."""
        self._find_by_request(
            lambda: self.core.same_place_request(photo_id), "Same place", "This photo has no known place"
        )

    def _find_by_request(self, request_of: Callable[[], str | None], name: str, none: str) -> None:
        """Run the request `request_of` makes (off the GUI thread) as the user's own; `none` says why
        there is none."""

        def done(request: str | None) -> None:
            if request is None:
                self.search_info.setText(none)
                return
            self.run_search(request)

        self.runner.submit(lambda _p, _c: request_of(), name=name, on_result=done, on_error=self.show_error)

    def set_home_here(self, photo_id: int) -> None:
        """Make where this photo was taken home ("kids at home" goes by it), off the GUI thread."""

        def done(place: str | None) -> None:
            self.search_info.setText(
                f"Home is now where this photo was taken ({place}): “at home” finds the photos taken there"
                if place
                else "This photo has no GPS position: it cannot tell where home is"
            )

        self.runner.submit(
            lambda _p, _c: self.core.set_home_from_photo(photo_id),
            name="Set home",
            on_result=done,
            on_error=self.show_error,
        )

    def find_same_people(self, photo_id: int) -> None:
        core = self.core

        def done(plan):
            if plan is None:
                self.search_info.setText("No named people in this photo")
                return
            self.run_search(plan=plan, keep_request=True)

        self.runner.submit(
            lambda _p, _c: core.same_people_plan(photo_id),
            name="Same people",
            on_result=done,
            on_error=self.show_error,
        )

    # ---- photo view -------------------------------------------------------------------------------
    def _current_changed(self, current, _previous) -> None:
        if current.isValid() and self.model.ids[current.row()] != SEPARATOR_ID:
            pid = self.model.ids[current.row()]
            self.ask_panel.set_photo(pid, Path(self.model.paths[current.row()]).name)

    def open_photo(self, photo_id: int, sequence=None):
        """Show a photo; the arrows then move through `sequence` (a model with `ids`, `row_of`; the
        grid's results when None), and Back returns to the page it was opened from."""
        if self.stack.currentIndex() != PAGE_PHOTO:
            self.photo_return = self.stack.currentWidget()
        self.sequence = sequence if sequence is not None else self.model
        row = self.sequence.row_of(photo_id)
        if row is not None and self.sequence is self.model:
            self.grid.setCurrentIndex(self.model.index(row))
        self.current_photo = photo_id
        self.stack.setCurrentIndex(PAGE_PHOTO)
        self.photo_view.setFocus()
        self.photo_view.set_image(None, "Loading…")
        core = self.core

        def job(_p, _c):
            details = core.details(photo_id)
            image = load_image(details.path, FULL_IMAGE) if details.online else None
            if image is None:
                image = load_image(details.thumb, FULL_IMAGE)
            return details, image

        def done(result):
            details, image = result
            if self.current_photo != photo_id:
                return
            self.photo_view.show_details(details)
            self.photo_view.set_image(
                image, "" if image is not None else "The photo cannot be shown (offline?)"
            )
            self.ask_panel.set_photo(photo_id, details.name)
            self.organize.photo_shown(photo_id)
            self.photo_view.set_position(*self._position(photo_id))
            n = self.sequence.rowCount()
            self.photo_view.act_prev.setEnabled(row is not None and row > 0)
            self.photo_view.act_next.setEnabled(row is not None and row < n - 1)

        return self.runner.submit(job, name="Opening photo", on_result=done, on_error=self.show_error)

    def _position(self, photo_id: int) -> tuple[int | None, int]:
        """(number of the photo in the shown list, how many photos it holds), separator not counted."""
        photos = [pid for pid in self.sequence.ids if pid != SEPARATOR_ID]
        try:
            return photos.index(photo_id) + 1, len(photos)
        except ValueError:
            return None, len(photos)

    def toggle_full_screen(self) -> None:
        """F11: the window fills the screen (Esc or F11 again to leave)."""
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def toggle_slideshow(self) -> None:
        """F5: the shown photos one after another (every SLIDESHOW_MS); Esc or F5 again stops it; it
        stops by itself after the last photo or when the photo view is left."""
        if self.slideshow.isActive():
            self.slideshow.stop()
            self.photo_view.act_slideshow.setChecked(False)
            return
        if self.current_photo is None:
            first = next((pid for pid in self.model.ids if pid != SEPARATOR_ID), None)
            if first is None:
                return
            self.open_photo(first)
        elif self.stack.currentIndex() != PAGE_PHOTO:
            self.open_photo(self.current_photo)
        self.photo_view.act_slideshow.setChecked(True)
        self.slideshow.start(SLIDESHOW_MS)

    def _next_slide(self) -> None:
        number, total = self._position(self.current_photo) if self.current_photo is not None else (None, 0)
        if number is None or number >= total or self.stack.currentIndex() != PAGE_PHOTO:
            self.slideshow.stop()
            self.photo_view.act_slideshow.setChecked(False)
            return
        self.navigate(1)

    def navigate(self, step: int) -> None:
        if self.current_photo is None:
            return
        seq = self.sequence
        row = seq.row_of(self.current_photo)
        if row is None:
            return
        new = row + step
        if 0 <= new < seq.rowCount() and seq.ids[new] == SEPARATOR_ID:
            new += step  # step over the "closest" separator
        if 0 <= new < seq.rowCount():
            self.open_photo(seq.ids[new], seq)

    # ---- views ----------------------------------------------------------------------------------
    def _page_changed(self, _index: int) -> None:
        """The status line speaks of the page shown: "3 photos · 239 ms" is the library's results,
        not the timeline's or the map's (their own messages still show once switched to)."""
        page = self.stack.currentWidget()
        if page is self.stack.widget(PAGE_LIBRARY):
            self.search_info.setText(self.library_info)
        elif page is not self.photo_view:
            self.search_info.clear()

    def show_library(self) -> None:
        self.stack.setCurrentIndex(PAGE_LIBRARY if self.core.has_folders() else PAGE_WELCOME)
        self.grid.setFocus()

    def leave_photo(self) -> None:
        """Back from the viewer to where the photo was opened, with that photo current there."""
        page = self.photo_return
        if page is self.timeline or page is self.folders_page:
            self.stack.setCurrentWidget(page)
            if self.current_photo is not None:
                page.reveal(self.current_photo)
        else:
            self.show_library()

    def show_timeline(self) -> None:
        self.stack.setCurrentWidget(self.timeline)
        self.timeline.view.setFocus()
        self.timeline.refresh()

    def show_folders(self) -> None:
        self.stack.setCurrentWidget(self.folders_page)
        self.folders_page.refresh()

    def show_albums(self) -> None:
        self.stack.setCurrentWidget(self.albums_view)
        self.albums_view.refresh()

    def show_people(self) -> None:
        self.stack.setCurrentIndex(PAGE_PEOPLE)
        self.people_view.refresh()

    def show_map(self) -> None:
        self.stack.setCurrentWidget(self.map_view)
        self.map_view.refresh()
        self.map_view.canvas.setFocus()

    def show_photos(self, ids: list[int], where: str):
        """These photos in the library grid, newest first (a pin chosen on the map)."""
        self.search_generation += 1
        gen, core = self.search_generation, self.core
        self.last_request = ""
        self.search_bar.clear()
        self.search_info.setText(SEARCHING)

        def done(rows: list[dict]) -> None:
            if gen != self.search_generation:
                return
            self.stack.setCurrentIndex(PAGE_LIBRARY)
            self.show_results({"plan": None, "results": rows, "composer": "map"})
            n = len(rows)
            self.search_info.setText(f"{n:,} photo{'s' if n != 1 else ''} {where}".strip())
            self.grid.setFocus()

        return self.runner.submit(
            lambda _p, _c: core.photo_rows(ids),
            name="Photos on the map",
            on_result=done,
            on_error=self.show_error,
        )

    def toggle_ask(self) -> None:
        self.ask_dock.setVisible(not self.ask_dock.isVisible())
        if self.ask_dock.isVisible():
            self.ask_panel.refresh_mode()
            self.ask_panel.question.setFocus()

    def ask_about(self, photo_id: int) -> None:
        details = self.photo_view.details
        self.ask_panel.set_photo(photo_id, details.name if details else f"photo {photo_id}")
        self.ask_panel.refresh_mode()
        self.ask_dock.show()
        self.resizeDocks([self.ask_dock], [max(380, self.width() // 3)], Qt.Orientation.Horizontal)
        self.ask_panel.question.setFocus()

    def escape(self) -> None:
        if self.slideshow.isActive():
            self.toggle_slideshow()
        elif self.isFullScreen():
            self.showNormal()
        elif self.errors.dialog is not None and self.errors.dialog.isVisible():
            self.errors.dialog.close()
        elif self.stack.currentIndex() == PAGE_PHOTO:
            self.leave_photo()
        elif self.ask_dock.isVisible() and self.ask_panel.isAncestorOf(QApplication.focusWidget()):
            self.ask_dock.hide()
        elif self.stack.currentIndex() == PAGE_PEOPLE or self.stack.currentWidget() in (
            self.map_view,
            self.albums_view,
        ):
            self.show_library()
        elif self.search_bar.text() or self.last_request:
            self.search_bar.clear()
            self.clear_search()
        else:
            self.grid.setFocus()

    def clear_search(self) -> None:
        """No request any more: the plan's chips go and the library shows again, newest first."""
        self.chips.set_plan(None)
        self.run_search("", record=False)

    def open_settings(self) -> SettingsDialog:
        dlg = SettingsDialog(self.core, self.runner, self.show_error, self)
        dlg.folders_changed.connect(self._folders_changed)
        dlg.saved.connect(self.ask_panel.refresh_mode)
        dlg.open()
        self.settings_dialog = dlg
        return dlg

    def _folders_changed(self) -> None:
        self.refresh_library_state()
        self.start_indexing()

    def set_icon_size(self, size: int) -> None:
        size = max(96, min(384, size))
        self.thumbs.set_size(size)
        self.grid.set_icon_size(size)
        self.model.layoutChanged.emit()
        self.folders_page.grid.set_icon_size(size)
        self.timeline.view.viewport().update()  # its layout follows the thumbnail size

    def show_error(self, info: ErrorInfo) -> None:
        self.errors.show(info)

    # ---- context menu ----------------------------------------------------------------------------
    def _grid_menu(self, pos) -> None:
        idx = self.grid.indexAt(pos)
        if not idx.isValid():
            return
        pid, path = self.model.ids[idx.row()], self.model.paths[idx.row()]
        if pid == SEPARATOR_ID:
            return
        menu = self.grid_menu(pid, path)
        self.organize.add_menu_entries(menu, pid)
        menu.exec(self.grid.viewport().mapToGlobal(pos))

    def grid_menu(self, pid: int, path: str, sequence=None) -> QMenu:
        """The photo's menu; "Open" moves through `sequence` (the grid's results when None)."""
        menu = QMenu(self)
        menu.addAction("Open", lambda: self.open_photo(pid, sequence))
        menu.addAction("Open with the default application", lambda: open_photo_file(path, self))
        menu.addAction("Show in folder", lambda: show_folder(path, self))
        menu.addAction("Copy path", lambda: QApplication.clipboard().setText(path))
        menu.addSeparator()
        menu.addAction("Find similar", lambda: self.find_similar(pid))
        menu.addAction("Photos with the same people", lambda: self.find_same_people(pid))
        menu.addAction("Photos from the same day", lambda: self.find_same_day(pid))
        menu.addAction("Photos from the same place", lambda: self.find_same_place(pid))
        menu.addAction("This was taken at home", lambda: self.set_home_here(pid)).setToolTip(
            f"“at home” in a search will find the photos taken within {round(HOME_RADIUS_KM * 1000)} m of here"
        )
        menu.addAction(
            "Ask about this photo…",
            lambda: (self.ask_panel.set_photo(pid, Path(path).name), self.ask_dock.show()),
        )
        return menu

    def _shortcuts_help(self) -> None:
        from photosearch.gui.bridge import ErrorInfo as _Info  # reuse the message box layout

        box = ErrorReporter(self)
        text = (
            "Ctrl+F / Ctrl+L  search\nEnter / double-click  open photo\nSpace  preview / back\n"
            "← →  previous / next photo\nB  object and face boxes\nEsc  back\nAlt+1/2/3  library, people, ask\n"
            "Alt+4/5  timeline, folders\nAlt+6  map (drag, wheel, +/−)\nAlt+7  albums\n"
            "Ctrl+click, Shift+click, Shift+arrows, Ctrl+A  select several photos\n"
            "0–5 (viewer: Ctrl+0–5)  stars for the selected photos\nF  favourite (heart) on or off\n"
            "Ctrl+E  copy the selected photos into a folder\nCtrl+Shift+S  save the search as an album\n"
            "F5  slideshow · F11  full screen\nCtrl+R  index now\nCtrl++ / Ctrl+-  thumbnail size"
        )
        dlg = box.show(_Info("Keyboard shortcuts", text))
        dlg.setIcon(dlg.Icon.Information)


__all__ = ["MainWindow", "QAction"]
