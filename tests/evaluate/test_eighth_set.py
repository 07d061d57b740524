"""The eighth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from photosearch.evaluate import eighth_set
from photosearch.evaluate.golden import load_golden

from .rules import relevant_stems

TOUR = """<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
<Placemark id="vesuvius">
    <name>Vesuvius</name>
    <description><![CDATA[<p style="font-size: x-large; text-align:center">Vesuvius</p>
<p>Mount Vesuvius is a stratovolcano in the Gulf of Naples, Italy.</p>
<center><a href="http://commons.wikimedia.org/wiki/File:V.jpg"><img src="Vesuvius.jpg" width="80%" ></a></center>
<p>Read more at <a href="https://en.wikipedia.org/wiki/Mount_Vesuvius">Wikipedia</a>.</p>
<p style="font-style:italic; font-size: smaller">"<a href="http://commons.wikimedia.org/wiki/File:V.jpg">Vesuvius from Naples at sunset</a>" by someone.</p>]]></description>
</Placemark>
<Placemark id="brasilia">
    <name>Bras&#237;lia</name>
    <description><![CDATA[<p style="font-size: x-large; text-align:center">Bras&iacute;lia</p>
<p>Bras&iacute;lia is the federal capital of Brazil.</p>
<img src="Brasilia.jpg" width="80%" >]]></description>
</Placemark>
<Placemark id="castle">
    <name>Dunnottar Castle</name>
    <description><![CDATA[<p style="font-size: x-large; text-align:center">Dunnottar Castle</p>
<p>Dunnottar Castle is a ruined medieval fortress located upon a rocky headland.</p>
<img src="Dunnottar Castle.jpg" width="80%" >]]></description>
</Placemark>
<Placemark id="jetty">
    <name>Spiral Jetty</name>
    <description><![CDATA[<p>Spiral Jetty is an earthwork sculpture.</p><img src="Spiral Jetty.jpg">]]></description>
</Placemark>
<Placemark id="hexagon">
    <name>Hexagon</name>
    <description><![CDATA[<p>No photo here.</p>]]></description>
</Placemark>
</Document></kml>
"""

DROPPABLE = """<html><body><ul>
<li><h5>High Tatras 2</h5>
<img src="images/high_tatras2_min.jpg" alt="The chalet at the Green mountain lake" width="96" height="72" />
<a href="images/high_tatras2.jpg" title="View larger image">View larger</a></li>
</ul></body></html>
"""
POSITION = """<html><body>
<img src="images/earth.jpg" width="458" height="308" alt="earth">
<img src="images/rocket.jpg" width="300" alt="rocket">
<img src="images/tower-bridge.jpg" alt="Tower Bridge" class="ui-corner-all">
</body></html>
"""


def test_the_tour_describes_its_photos_by_name_title_credit_and_text():
    places = eighth_set.tour_places(TOUR)
    assert sorted(places) == ["Brasilia.jpg", "Dunnottar Castle.jpg", "Spiral Jetty.jpg", "Vesuvius.jpg"]
    text, about = places["Vesuvius.jpg"]
    assert "Vesuvius from Naples at sunset" in text  # the Commons title its credit gives
    assert about == "Mount Vesuvius is a stratovolcano in the Gulf of Naples, Italy."
    assert places["Brasilia.jpg"][0].startswith("Brasilia Brasilia")  # accents dropped


def test_a_large_photo_takes_its_thumbnails_alt_text():
    alts = eighth_set.thumbnail_alts(DROPPABLE + POSITION)
    assert alts["high_tatras2.jpg"] == "The chalet at the Green mountain lake"
    assert alts["tower-bridge.jpg"] == "Tower Bridge" and alts["earth.jpg"] == "earth"
    assert "high_tatras2_min.jpg" not in alts


def test_file_names_say_what_a_photo_shows():
    assert eighth_set.portrait_name("Marie_Curie") == "marie curie"
    assert eighth_set.gallery_stem("St Peter's Basilica") == "st_peters_basilica"
    assert eighth_set.gallery_stem("640px-IceBlockNearJoekullsarlon") == "ice_block_near_joekullsarlon"
    assert eighth_set.gallery_stem("another-kitten") == "another_kitten"


def _jpeg(path: Path, size: tuple[int, int] = (320, 240), colour: str = "grey") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def _fake_cache(root: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    deb = root / "root"
    for _, member in eighth_set.NAMED:
        _jpeg(deb / member)
    _jpeg(deb / "usr/share/elementary/images/mystrale.jpg")  # not named: not taken
    tour = deb / eighth_set.MARBLE_TOUR
    tour.mkdir(parents=True)
    (tour / "tour.kml").write_text(TOUR, encoding="utf-8")
    for name in ("Vesuvius.jpg", "Brasilia.jpg", "Dunnottar Castle.jpg"):  # no Spiral Jetty photo
        _jpeg(tour / name, (300, 225))
    ui = deb / eighth_set.JQUERY_UI
    (ui / "droppable").mkdir(parents=True)
    (ui / "droppable" / "photo-manager.html").write_text(DROPPABLE, encoding="utf-8")
    _jpeg(ui / "droppable/images/high_tatras2.jpg", (384, 288))
    _jpeg(ui / "droppable/images/high_tatras2_min.jpg", (96, 72))
    (ui / "position").mkdir(parents=True)
    (ui / "position" / "cycler.html").write_text(POSITION, encoding="utf-8")
    for name in ("earth", "rocket"):
        _jpeg(ui / f"position/images/{name}.jpg", (458, 308))
    _jpeg(ui / "position/images/tower-bridge.jpg", (200, 101))  # too small
    for name in ("Marie_Curie", "Dmitri_Mendeleev"):
        _jpeg(deb / eighth_set.XRAYLARCH / f"{name}.jpg", (232, 325))
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = eighth_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    assert counts["photos"] == len(eighth_set.NAMED) + 3 + 2 + 2
    assert "marble" in counts["sources"] and "jquery-ui" in counts["sources"]
    gallery = tmp_path / "set" / eighth_set.PART
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    stems = relevant_stems({q.id: q.relevant for q in gold.queries})

    assert stems["volcano"] == ["vesuvius"]  # from the quoted text, not the name
    assert stems["sunset"] == ["sunset", "vesuvius"]  # the credit's words count
    assert stems["castle"] == ["castle", "dunnottar_castle"]
    assert stems["castle on a rocky headland"] == ["dunnottar_castle"]
    assert stems["chalet"] == ["high_tatras2"]
    assert stems["earth"] == ["earth"]
    assert stems["cat"] == [
        "another_kitten",
        "cat_animal_cat_portrait_mackerel",
        "kitten",
        "kitten_2",
        "ocean_cat",
    ]
    assert stems["cats but not kittens"] == ["cat_animal_cat_portrait_mackerel", "ocean_cat"]
    assert stems["fish"] == ["fish", "lionfish", "manyfish"]
    assert stems["marie curie"] == ["marie_curie"]
    assert stems["bridge"] == ["baybridge"]  # Tower Bridge under 250 px: not taken
    assert "absent: elephant" in by_id and by_id["absent: elephant"].absent
    judged = {Path(p).stem for q in gold.queries for p in q.relevant}
    assert not judged & {"rocket", "mystrale", "spiral_jetty", "high_tatras2_min", "tower_bridge"}
    assert not (gallery / "places" / "rocket.jpg").exists()
