"""`python -m photosearch.gui.screenshots OUTDIR`: build a demo gallery and catalog in a temp dir and
write PNGs of the main views (welcome, results, photo, people, albums, ask, settings) for review by eye.

The demo catalog gets hand-written facts (tags, objects with boxes, text, faces, names, knowledge)
so every panel has something to show without loading models.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import numpy as np

SHOTS = (
    "welcome",
    "results",
    "photo",
    "people",
    "albums",
    "map",
    "ask",
    "settings",
    "settings_performance",
    "models",
    "timeline",
    "timeline_scrub",
    "folders",
)


def _photos() -> dict[str, np.ndarray]:
    from skimage import color, data

    photos = {
        "astronaut": data.astronaut(),
        "chelsea": data.chelsea(),
        "coffee": data.coffee(),
        "rocket": data.rocket(),
        "camera": color.gray2rgb(data.camera()),
        "hubble": data.hubble_deep_field(),
        "immunohistochemistry": data.immunohistochemistry(),
        "retina": data.retina(),
    }
    try:
        import matplotlib.cbook
        from PIL import Image

        with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as fh:
            photos["grace_hopper"] = np.asarray(Image.open(fh).convert("RGB"))
    except Exception:
        pass
    return photos


#: Where the demo photos were "taken" (the map's pins): every inhabited continent.
DEMO_GPS = {
    "astronaut": (29.5519, -95.0970),  # Houston
    "chelsea": (51.5072, -0.1276),  # London
    "coffee": (38.7223, -9.1393),  # Lisbon
    "rocket": (28.3922, -80.6077),  # Cape Canaveral
    "camera": (-22.9068, -43.1729),  # Rio de Janeiro
    "hubble": (19.8207, -155.4681),  # Mauna Kea
    "immunohistochemistry": (-1.2921, 36.8219),  # Nairobi
    "retina": (35.6762, 139.6503),  # Tokyo
    "grace_hopper": (-33.8688, 151.2093),  # Sydney
}


def _gps_ifd(lat: float, lon: float) -> dict:
    import piexif

    def dms(value: float):
        value = abs(value)
        d, m = int(value), int(value * 60) % 60
        return ((d, 1), (m, 1), (round((value * 3600) % 60 * 100), 100))

    return {
        piexif.GPSIFD.GPSLatitudeRef: b"N" if lat >= 0 else b"S",
        piexif.GPSIFD.GPSLatitude: dms(lat),
        piexif.GPSIFD.GPSLongitudeRef: b"E" if lon >= 0 else b"W",
        piexif.GPSIFD.GPSLongitude: dms(lon),
    }


def write_gallery(folder: Path) -> list[Path]:
    """Real photos as JPEGs with EXIF dates, cameras and GPS positions."""
    import piexif
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    cameras = [("Canon", "EOS 80D"), ("Google", "Pixel 7"), ("FUJIFILM", "X-T4")]
    for i, (name, rgb) in enumerate(_photos().items()):
        taken = datetime(2023, 3 + i % 9, 1 + 3 * i, 10 + i, 30)
        make, model = cameras[i % len(cameras)]
        exif = piexif.dump(
            {
                "0th": {piexif.ImageIFD.Make: make.encode(), piexif.ImageIFD.Model: model.encode()},
                "Exif": {piexif.ExifIFD.DateTimeOriginal: taken.strftime("%Y:%m:%d %H:%M:%S").encode()},
                "GPS": _gps_ifd(*DEMO_GPS[name]) if name in DEMO_GPS else {},
            }
        )
        path = folder / f"{name}.jpg"
        Image.fromarray(np.ascontiguousarray(rgb[..., :3]).astype(np.uint8)).save(path, quality=90, exif=exif)
        out.append(path)
    return out


#: A trip in another year, with GPS (Lisbon and Sintra), and a scan without a date: the timeline's
#: years, day headers with places, and its "No date" group; the folder tree's subfolders.
TRIP = (
    ("tram", "coffee", datetime(2019, 6, 14, 9, 12), (38.7139, -9.1394)),
    ("tiles", "immunohistochemistry", datetime(2019, 6, 14, 17, 40), (38.7139, -9.1394)),
    ("palace", "rocket", datetime(2019, 6, 15, 11, 5), (38.7877, -9.3906)),
    ("castle", "astronaut", datetime(2018, 12, 24, 20, 0), (38.7139, -9.1394)),
    ("old scan", "camera", None, None),
)


def write_trip(folder: Path) -> list[Path]:
    """The `TRIP` photos (crops of the demo photos) in `folder/Lisbon` and `folder/Scans`."""
    from PIL import Image

    from photosearch.evaluate.example import exif_bytes

    photos = _photos()
    out = []
    for i, (name, source, taken, gps) in enumerate(TRIP):
        sub = folder / ("Lisbon" if gps else "Scans")
        sub.mkdir(parents=True, exist_ok=True)
        rgb = np.ascontiguousarray(photos[source][..., :3]).astype(np.uint8)
        h, w = rgb.shape[:2]
        crop = rgb[(i * h) // 10 : h - h // 10, (i * w) // 12 : w]  # not the same picture as the demo's
        path = sub / f"{name}.jpg"
        Image.fromarray(np.ascontiguousarray(crop)).save(path, quality=90, exif=exif_bytes(taken, gps=gps))
        out.append(path)
    return out


DEMO_FACTS = {
    "astronaut": dict(
        tags=["astronaut", "person", "flag", "space suit"],
        caption="An astronaut in an orange suit in front of a flag",
        objects=[("person", 0.93, [0.05, 0.05, 0.98, 0.99]), ("flag", 0.71, [0.0, 0.0, 0.34, 0.46])],
        faces=[("Eileen Collins", [0.37, 0.09, 0.58, 0.40])],
        knowledge=(
            "Eileen Collins",
            "person",
            "First woman to pilot and command a Space Shuttle.",
            [("https://en.wikipedia.org/wiki/Eileen_Collins", "Eileen Collins - Wikipedia")],
        ),
    ),
    "chelsea": dict(
        tags=["tabby cat", "cat", "animal"],
        caption="A tabby cat looking to the side",
        objects=[("cat", 0.95, [0.12, 0.02, 0.92, 0.98])],
    ),
    "coffee": dict(
        tags=["espresso", "coffee", "cup"],
        caption="A cup of coffee on a saucer",
        objects=[("cup", 0.9, [0.1, 0.05, 0.85, 0.85])],
    ),
    "rocket": dict(
        tags=["rocket", "launch pad"],
        caption="A rocket on the launch pad",
        objects=[("rocket", 0.8, [0.38, 0.05, 0.62, 0.95])],
        text=["NASA", "USA"],
    ),
    "camera": dict(
        tags=["photographer", "tripod", "person"],
        caption="A man with a camera on a tripod",
        objects=[("person", 0.88, [0.2, 0.05, 0.75, 0.98])],
        faces=[(None, [0.42, 0.1, 0.6, 0.3])],
    ),
    "grace_hopper": dict(
        tags=["military uniform", "person"],
        caption="A portrait of a woman in uniform",
        faces=[("Grace Hopper", [0.28, 0.08, 0.74, 0.55])],
        objects=[("tie", 0.6, [0.42, 0.7, 0.6, 0.99])],
    ),
    "hubble": dict(tags=["galaxy", "space", "stars"], caption="Galaxies in deep space"),
}


def build_demo(root: Path):
    """(core, gallery folder) with an indexed demo catalog under `root`."""
    from photosearch.app import build_indexer
    from photosearch.catalog.models import Face, Person, Photo
    from photosearch.config import Settings
    from photosearch.core import Core
    from photosearch.records import AnalysisResult, FaceRecord, FactRecord

    gallery = root / "Pictures" / "Holidays"
    write_gallery(gallery)
    write_trip(gallery)
    settings = Settings(data_dir=root / "data")
    core = Core(settings)
    core.store.add_folder(gallery)
    build_indexer(core.store, settings, analyzers=[], post_steps=[]).run()
    from photosearch.query.resolvers.places import ensure_place_facts

    ensure_place_facts(core.store)  # the indexer's places step: GPS → place names
    rng = np.random.default_rng(0)
    people: dict[str, int] = {}
    with core.store.session() as s:
        for photo in s.query(Photo).all():
            spec = DEMO_FACTS.get(Path(photo.path).stem)
            if not spec:
                continue
            facts = [FactRecord("tag", t, 0.9 - 0.1 * i) for i, t in enumerate(spec.get("tags", []))]
            facts += [
                FactRecord("object", label, score, box) for label, score, box in spec.get("objects", [])
            ]
            facts += [FactRecord("text", w, 0.95) for w in spec.get("text", [])]
            if spec.get("caption"):
                facts.append(FactRecord("caption", spec["caption"], 0.8))
            if spec.get("knowledge"):
                label, cat, text, sources = spec["knowledge"]
                facts.append(
                    FactRecord(
                        "knowledge",
                        label,
                        0.9,
                        data={
                            "category": cat,
                            "facts": text,
                            "sources": [{"url": u, "title": t} for u, t in sources],
                            "learned_at": "2024-05-01",
                        },
                    )
                )
            faces = [
                FaceRecord(box, 0.99, rng.normal(size=128).astype(np.float32))
                for _n, box in spec.get("faces", [])
            ]
            core.store.write_analysis(s, photo.id, "demo", 1, AnalysisResult(facts=facts, faces=faces))
            s.flush()
            for face, (name, _box) in zip(
                s.query(Face).filter(Face.photo_id == photo.id).order_by(Face.id),
                spec.get("faces", []),
                strict=False,
            ):
                key = name or f"unnamed-{photo.id}"
                if key not in people:
                    person = Person(name=name)
                    s.add(person)
                    s.flush()
                    people[key] = person.id
                face.person_id = people[key]
    return core, gallery


def wait_until(app, cond: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        app.processEvents()
        if cond():
            return True
        time.sleep(0.01)
    app.processEvents()
    return cond()


def settle(app, window, seconds: float = 0.4) -> None:
    """Let pending jobs (thumbnails, completions) finish and repaint."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and window.runner.tasks:
        app.processEvents()
        time.sleep(0.01)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def take_screenshots(
    outdir: Path | str, workdir: Path | str | None = None, size=(1280, 820)
) -> dict[str, Path]:
    """Write one PNG per view into `outdir`; returns {view: path}."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from photosearch.config import Settings
    from photosearch.core import Core
    from photosearch.gui.main_window import MainWindow
    from photosearch.gui.theme import apply_theme

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    apply_theme(app)
    tmp = tempfile.TemporaryDirectory() if workdir is None else None
    root = Path(workdir or tmp.name)
    shots: dict[str, Path] = {}

    def shoot(name: str, widget) -> None:
        path = outdir / f"{name}.png"
        widget.grab().save(str(path))
        shots[name] = path

    try:
        # 1. first run: an empty catalog shows the welcome view
        empty = Core(Settings(data_dir=root / "empty"))
        w0 = MainWindow(
            empty, qsettings=QSettings(str(root / "gui0.ini"), QSettings.Format.IniFormat), watch=False
        )
        w0.resize(*size)
        w0.show()
        settle(app, w0)
        shoot("welcome", w0)
        w0.close()

        core, gallery = build_demo(root)
        by_name = {Path(r["path"]).stem: r["id"] for r in core.all_photos()}
        picked = [by_name[n] for n in ("astronaut", "grace_hopper", "camera") if n in by_name]
        core.organize.set_marks(picked[:2], favourite=True)  # hearts and stars on the tiles
        core.organize.set_marks(picked[:1], rating=4)
        w = MainWindow(
            core,
            qsettings=QSettings(str(root / "gui.ini"), QSettings.Format.IniFormat),
            watch=False,
            ask_llm_factory=lambda: None,
        )
        w.resize(*size)
        w.show()
        settle(app, w)
        w.search_bar.add_history("cat")
        w.search_bar.add_history("astronaut in space")
        task = w.run_search("person")
        wait_until(app, lambda: task.done)
        settle(app, w)
        wait_until(app, lambda: all(k in w.thumbs._cache for k in w.model.ids), 10)
        settle(app, w)
        shoot("results", w)

        astro = next(i for i, p in zip(w.model.ids, w.model.paths, strict=True) if "astronaut" in p)
        task = w.open_photo(astro)
        wait_until(app, lambda: task.done)
        settle(app, w)
        shoot("photo", w)

        w.show_people()
        wait_until(app, lambda: w.people_view.list.count() > 0)
        settle(app, w)
        w.people_view.list.setCurrentRow(0)
        settle(app, w)
        shoot("people", w)

        w.show_map()
        wait_until(app, lambda: w.map_view.points_task.done and "c" in w.map_view.canvas.basemap.levels)
        w.map_view.canvas.show_world()
        settle(app, w, 1.0)  # the single pins' thumbnails
        shoot("map", w)
        core.organize.create_album("Portraits", picked)
        core.organize.save_search("People", {"where": {"concept": "person"}}, "person")
        core.organize.save_search("Space", {"where": {"concept": "space"}}, "space")
        w.show_albums()
        wait_until(app, lambda: w.albums_view.tiles.count() == 3)
        settle(app, w)
        shoot("albums", w)

        w.open_photo(astro)
        settle(app, w)
        w.ask_about(astro)
        w.ask_panel.question.setText("who is this?")
        w.ask_panel.ask()
        wait_until(
            app, lambda: w.ask_panel.result is not None or (w.ask_panel.task and w.ask_panel.task.done), 60
        )
        settle(app, w)
        shoot("ask", w)

        w.ask_dock.hide()
        w.show_timeline()
        wait_until(app, lambda: w.timeline.model.rowCount() > 0)
        settle(app, w)
        wait_until(app, lambda: all(k in w.thumbs._cache for k in w.timeline.model.ids[:12]), 10)
        settle(app, w)
        shoot("timeline", w)
        # the scrubber: the pointer over June 2019 names it in a bubble; a click shows that month
        scrub = w.timeline.scrubber
        june = next(m for m in w.timeline.model.months() if m.key == "2019-06")
        y = scrub.y_of(june.start + june.count // 2)
        scrub.hover_y = y
        scrub._show_bubble(y)
        scrub.month_chosen.emit(june.key)
        settle(app, w)
        wait_until(app, lambda: all(k in w.thumbs._cache for k in w.timeline.model.ids), 10)
        settle(app, w)
        shoot("timeline_scrub", w)
        scrub.bubble.hide()

        w.show_folders()
        wait_until(app, lambda: w.folders_page.model.rowCount() > 0)
        lisbon = w.folders_page.item_for(str(gallery.resolve() / "Lisbon"))
        if lisbon is not None:
            w.folders_page.tree.setCurrentIndex(lisbon.index())
            wait_until(app, lambda: w.folders_page.model.rowCount() == 4)
        settle(app, w)
        wait_until(app, lambda: all(k in w.thumbs._cache for k in w.folders_page.model.ids), 10)
        settle(app, w)
        shoot("folders", w)

        dlg = w.open_settings()
        tabs = {dlg.tabs.tabText(i): i for i in range(dlg.tabs.count())}
        dlg.tabs.setCurrentIndex(tabs["Privacy"])
        settle(app, w)
        shoot("settings", dlg)
        dlg.tabs.setCurrentIndex(tabs["Performance"])
        settle(app, w)
        shoot("settings_performance", dlg)
        dlg.tabs.setCurrentIndex(tabs["Models"])  # by name: tabs come and go
        dlg.models.recommend()  # what a person presses first: the note says why
        wait_until(app, lambda: "This computer:" in dlg.models.recommend_note.text(), 30)
        dlg.models.select_name("clip-vit-b-32-openai")
        settle(app, w)
        shoot("models", dlg)
        dlg.reject()
        w.close()
        core.store.close()
        empty.store.close()
    finally:
        if tmp is not None:
            tmp.cleanup()
    return shots


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m photosearch.gui.screenshots", description=__doc__)
    p.add_argument("outdir")
    p.add_argument("--workdir", help="keep the demo gallery and catalog here (default: a temp dir)")
    p.add_argument("--size", default="1280x820", help="window size, WIDTHxHEIGHT (default 1280x820)")
    args = p.parse_args(argv)
    width, _, height = args.size.partition("x")
    shots = take_screenshots(args.outdir, args.workdir, size=(int(width), int(height)))
    for name, path in shots.items():
        print(f"{name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
