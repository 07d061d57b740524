"""The fresh test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from PIL import Image

from photosearch.evaluate import fresh_set
from photosearch.evaluate.golden import load_golden

ALBUM = """<?xml version="1.0" encoding="UTF-8"?>
<KPhotoAlbum version="8" compressed="0">
  <images>
    <image file="spiff_2.jpg" label="spiff" description="This was my beer eating pet named Spiff."
        startDate="1995-01-01T00:00:00" endDate="1995-12-31T23:59:59" width="800" height="550">
      <options><option name="People"><value value="Spiff"/></option></options>
    </image>
    <image file="wayne.jpg" description="Wayne and Jim live in Las Vegas."
        startDate="2003-11-15T10:00:00" angle="90" width="800" height="549">
      <options><option name="People"><value value="Jim"/><value value="Wayne"/></option></options>
    </image>
    <image file="new_wave.jpg" description="Back when I was a young boy."
        startDate="1988-01-01T00:00:00" endDate="1990-12-31T23:59:59" width="800" height="549">
      <options><option name="People"><value value="Jesper"/></option></options>
    </image>
    <image file="movie.avi" description="Hi my name is Linus." startDate="2006-10-29T00:00:00"/>
  </images>
</KPhotoAlbum>
"""

TOOLS = """<?xml version="1.0" encoding="UTF-8"?>
<tools>
  <item><picture>becherglas.jpg</picture><name>Beaker</name><desc>A beaker is a vessel.</desc></item>
  <item><picture>rg.jpg</picture><name>Test Tube</name><desc>A tube.</desc></item>
</tools>
"""


def _jpeg(colour: str, size: tuple[int, int] = (320, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG")
    return out.getvalue()


def _puzzle(photo: bytes, size: tuple[int, int]) -> bytes:
    """A Jigzo puzzle: its text header, a thumbnail, then the texture atlas with the photo at 0,0."""
    atlas = Image.new("RGB", (1024, 1024), "black")
    atlas.paste(Image.open(io.BytesIO(photo)), (0, 0))
    out = io.BytesIO()
    atlas.save(out, "JPEG")
    header = f"PzlF\n0.1\nbike-3x4\nbike-3x4.map\n#texture map data\nimage 0 0 {size[0]} {size[1]} 1 1\n"
    return header.encode() + _jpeg("white", (64, 64)) + out.getvalue()


def test_the_album_says_who_is_a_person_what_its_pets_are_and_when():
    entries = {e.file: e for e in fresh_set.album_entries(ALBUM)}
    assert set(entries) == {"spiff_2.jpg", "wayne.jpg", "new_wave.jpg"}  # not the movie
    spiff, wayne, wave = entries["spiff_2.jpg"], entries["wayne.jpg"], entries["new_wave.jpg"]
    assert "pet" in spiff.text.split() and spiff.persons == 0 and spiff.taken.year == 1995
    assert wayne.persons == 2 and "people" in wayne.text.split() and wayne.angle == 90
    assert wayne.taken.year == 2003  # a day: no end date
    assert wave.taken is None  # 1988 to 1990: no one year


def test_a_puzzle_photo_is_cut_from_the_atlas_not_the_thumbnail():
    photo = _jpeg("red", (300, 200))
    im = fresh_set.puzzle_photo(_puzzle(photo, (300, 200)))
    assert im.size == (300, 200) and im.getpixel((150, 100))[0] > 200


def test_tool_names_and_page_titles():
    assert fresh_set.tool_names(TOOLS) == {"becherglas.jpg": "Beaker", "rg.jpg": "Test Tube"}
    assert fresh_set.page_title("<html><head><title>Pizza\n Diavola</title></head></html>") == "Pizza Diavola"


def _fake_cache(root: Path) -> Path:
    """The fetched packages' layout, with a photo or two each (what `fetch` leaves in the cache)."""
    deb = root / "root"
    (deb / fresh_set.ALBUM).mkdir(parents=True)
    (deb / fresh_set.ALBUM / "index.xml").write_text(ALBUM, encoding="utf-8")
    for name in ("spiff_2.jpg", "wayne.jpg", "new_wave.jpg"):
        (deb / fresh_set.ALBUM / name).write_bytes(_jpeg("grey", (400, 300)))
    (deb / fresh_set.JIGZO).mkdir(parents=True)
    (deb / fresh_set.JIGZO / "bike-3x4.pzl").write_bytes(_puzzle(_jpeg("pink", (300, 400)), (300, 400)))
    (deb / fresh_set.KALZIUM / "toolpics").mkdir(parents=True)
    (deb / fresh_set.KALZIUM / "tools.xml").write_text(TOOLS, encoding="utf-8")
    (deb / fresh_set.KALZIUM / "toolpics" / "becherglas.jpg").write_bytes(_jpeg("white", (300, 400)))
    (deb / fresh_set.KALZIUM / "toolpics" / "rg.jpg").write_bytes(_jpeg("white", (80, 400)))  # too narrow
    (deb / fresh_set.RECIPES / "images").mkdir(parents=True)
    (deb / fresh_set.RECIPES / "pizza.html").write_text("<title>Pizza Diavola</title>", encoding="utf-8")
    (deb / fresh_set.RECIPES / "images" / "pizza.jpg").write_bytes(_jpeg("orange"))
    for path in fresh_set.NAMED_PHOTOS:
        (deb / path).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (300, 300), "green").save(deb / path)
    (root / "sdists").mkdir(parents=True)
    with tarfile.open(root / "sdists" / "wand-0.7.2.tar.gz", "w:gz") as tar:
        for path in fresh_set.WAND_PHOTOS:
            data = _jpeg("blue")
            info = tarfile.TarInfo(f"Wand-0.7.2/{path}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = fresh_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    assert counts["photos"] == 3 + 1 + 1 + 1 + len(fresh_set.NAMED_PHOTOS) + len(fresh_set.WAND_PHOTOS)
    gallery = tmp_path / "set" / fresh_set.PART
    with Image.open(gallery / "album" / "wayne.jpg") as im:
        assert im.size == (300, 400)  # turned as the album says
        assert im.getexif().get_ifd(0x8769).get(0x9003, b"").startswith("2003:11:15")
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    assert list(by_id["two people"].relevant) == ["album/wayne.jpg"]
    assert list(by_id["pets in 1995"].relevant) == ["album/spiff_2.jpg"]
    assert [Path(r).stem for r in by_id["bicycle"].relevant] == ["bike"]
    assert [Path(r).stem for r in by_id["lab glassware"].relevant] == ["beaker"]  # the narrow tube is out
    assert "test tube" not in by_id and "absent: zebra" in by_id
