"""`python main.py`: start the desktop app."""

from __future__ import annotations

import argparse
import logging
import sys

# The models' native runtimes load in a fixed order, onnxruntime first (importing it after usearch
# segfaults, see vectors/index.py); the GUI's worker threads would otherwise import them in any order.
import onnxruntime  # noqa: F401

from photosearch import __version__


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="photosearch-gui", description="PhotoSearch desktop app")
    p.add_argument("--data-dir", help="catalog and settings folder (env PHOTOSEARCH_DATA_DIR)")
    p.add_argument("--db-url", help="SQLAlchemy URL of the catalog (env PHOTOSEARCH_DB_URL)")
    p.add_argument("--no-watch", action="store_true", help="do not watch the folders for changes")
    p.add_argument("-v", "--verbose", action="count", default=0)
    p.add_argument(
        "--check",
        action="store_true",
        help="load and run every model (as `photosearch doctor`), then exit (non-zero if any failed)",
    )
    args, _qt_args = p.parse_known_args(argv)
    return args


def self_check(args: argparse.Namespace) -> int:
    """For packagers and users: does this install (or frozen bundle) run every model? Same as
    `photosearch doctor`."""
    import tempfile

    from photosearch.config import Settings
    from photosearch.errors import PhotoSearchError
    from photosearch.health import check_models, failed, format_report

    try:
        settings = Settings.load(args.data_dir or tempfile.mkdtemp(prefix="photosearch-check-"), args.db_url)
    except PhotoSearchError as exc:
        print(f"photosearch-gui: error: {exc}", file=sys.stderr)
        return 1
    checks = check_models(settings)
    print(format_report(checks))
    return 1 if failed(checks) else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2), format="%(levelname)s %(name)s: %(message)s"
    )
    if args.check:
        return self_check(args)
    from PySide6.QtWidgets import QApplication

    from photosearch.config import Settings
    from photosearch.core import Core
    from photosearch.gui.bridge import ErrorInfo
    from photosearch.gui.errors import ErrorReporter
    from photosearch.gui.main_window import APP, ORG, MainWindow
    from photosearch.gui.theme import app_icon, apply_theme, follow_system
    from photosearch.search_socket.server import SearchServer

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setOrganizationName(ORG)
    app.setApplicationName(APP)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("photosearch")
    app.setWindowIcon(app_icon())
    apply_theme(app)
    follow_system(app)
    try:
        settings = Settings.load(args.data_dir, args.db_url)
        core = Core(settings)
    except Exception as exc:
        reporter = ErrorReporter(None)
        box = reporter.show(ErrorInfo.from_exception(exc, "PhotoSearch cannot open its catalog"))
        box.finished.connect(app.quit)
        return app.exec()
    window = MainWindow(core, watch=not args.no_watch)
    window.errors.install_excepthook()
    window.show()
    server = SearchServer(core)  # `photosearch search` in a terminal asks the app, whose engine is warm
    server.start()
    app.aboutToQuit.connect(server.stop)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
