"""The fifth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from PIL import Image

from photosearch.evaluate import fifth_set
from photosearch.evaluate.golden import load_golden

from .rules import relevant_stems

COPYRIGHT = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/

Files: images/land/*
Copyright: Various
License: public-domain
 Taken from morgue-file.com, a collection of photographs that have been donated
 and placed in the public domain. (Exceptions noted below.)

Files: images/land/*-sfiera*
Copyright: Chris Pickel (sfiera.net)
License: CC-BY-SA-4.0

Files:
 images/land/beach3*
 images/land/city10*
 images/land/lava1*
 images/land/sea8*
 images/land/sky2*
 images/land/water0*
Copyright: Various
License: public-domain
 Taken from unsplash.com, a collection of photographs that have been donated and
 placed in the public domain.

Files:
 images/land/desert0*
Copyright: NASA
License: public-domain
"""

SIGAL_INDEX = """Title: Another example gallery with a very long name
Thumbnail: m57_the_ring_nebula-587px.jpg

### Image sources

- *Hubble Interacting Galaxy NGC 5257* : By NASA, ESA, the Hubble Heritage
  (STScI/AURA)-ESA/Hubble Collaboration [Public domain], <a
  href="https://commons.wikimedia.org/wiki/File:Hubble_Interacting_Galaxy.jpg">
  from Wikimedia Commons</a>

- *Hubble ultra deep field.jpg* : By NASA and the European Space Agency.
  [Public domain]

- *m57_the_ring_nebula-587px.jpg* : By The Hubble Heritage Team
  (AURA/STScI/NASA) [Public domain]

- *KeckObservatory20071020.jpg* : By SiOwl [CC BY 3.0]
"""

NIKOLA_INDEX = """.. title: Nikola Tesla

Some public domain pictures of Nikola Tesla
(copied from `here <https://kerryr.net/pioneers/gallery/tesla.htm>`_)
"""

NIKOLA_METADATA = """---
name: tesla_tower1_lg.jpg
caption: Wardenclyffe Tower
built_in: 1904
order: 2
---
name: tesla_conducts_lg.webp
caption: Nikola Tesla conducts electricity
order: 1
---
tesla2_lg.jpg
"""


def _image(colour: str, fmt: str = "PNG", size: tuple[int, int] = (320, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, fmt)
    return out.getvalue()


def test_file_names_say_what_a_photo_shows():
    assert fifth_set.name_words("mountain5") == "mountain 5"
    assert fifth_set.name_words("KeckObservatory20071020") == "keck observatory 20071020"
    assert fifth_set.name_words("tesla_lightning1_lg") == "tesla lightning 1 lg"
    assert fifth_set.name_words("m57_the_ring_nebula-587px") == "m 57 the ring nebula 587 px"
    assert fifth_set.land_kind("snow10") == "snow"


def test_only_the_land_photos_credited_one_by_one_are_taken():
    stems = fifth_set.credited_stems(COPYRIGHT, fifth_set.LAND_CREDIT)
    assert stems == ["beach3", "city10", "lava1", "sea8", "sky2", "water0"]  # not *-sfiera*, desert0


def test_the_galleries_say_what_their_photos_show():
    sources = fifth_set.image_sources(SIGAL_INDEX)
    assert set(sources) == {
        "Hubble Interacting Galaxy NGC 5257",
        "Hubble ultra deep field",
        "m57_the_ring_nebula-587px",
        "KeckObservatory20071020",
    }
    assert sources["m57_the_ring_nebula-587px"].startswith("by the hubble heritage team")
    assert "href" not in sources["Hubble Interacting Galaxy NGC 5257"]
    captions = fifth_set.gallery_captions(NIKOLA_METADATA)
    assert captions == {
        "tesla_tower1_lg.jpg": "Wardenclyffe Tower",
        "tesla_conducts_lg.webp": "Nikola Tesla conducts electricity",
    }
    assert fifth_set.gallery_text(NIKOLA_INDEX) == (
        "nikola tesla some public domain pictures of nikola tesla"
    )


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _fake_cache(root: Path) -> Path:
    """The fetched packages' layout, with their photos as plain images (what `fetch` leaves)."""
    deb = root / "root"
    (deb / fifth_set.LAND_COPYRIGHT).parent.mkdir(parents=True)
    (deb / fifth_set.LAND_COPYRIGHT).write_text(COPYRIGHT, encoding="utf-8")
    (deb / fifth_set.LAND).mkdir(parents=True)
    for stem in ("beach3", "city10", "lava1", "sea8", "sky2", "water0", "desert0", "beach7-sfiera"):
        Image.new("RGB", (720, 360), "orange").save(deb / fifth_set.LAND / f"{stem}.jpg")
    sdists = root / "sdists"
    sdists.mkdir()
    members = {
        "sporco": {m: _image("yellow") for m in fifth_set.SPORCO_PHOTOS},
        "sigal": {
            f"{fifth_set.SIGAL_GALLERY}/index.md": SIGAL_INDEX.encode(),
            **{f"{fifth_set.SIGAL_GALLERY}/{n}": _image("black", "JPEG") for n in fifth_set.SIGAL_PHOTOS},
        },
        "nikola": {
            f"{fifth_set.NIKOLA_GALLERY}/index.txt": NIKOLA_INDEX.encode(),
            f"{fifth_set.NIKOLA_GALLERY}/metadata.sample.yml": NIKOLA_METADATA.encode(),
            **{f"{fifth_set.NIKOLA_GALLERY}/{n}": _image("grey", "JPEG") for n in fifth_set.NIKOLA_PHOTOS},
        },
    }
    for name, files in members.items():
        version = fifth_set.SDISTS[name]
        with tarfile.open(sdists / f"{name}-{version}.tar.gz", "w:gz") as tar:
            for member, data in files.items():
                _add(tar, f"{name}-{version}/{member}", data)
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = fifth_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    others = len(fifth_set.SPORCO_PHOTOS) + len(fifth_set.SIGAL_PHOTOS) + len(fifth_set.NIKOLA_PHOTOS)
    assert counts["photos"] == 5 + others  # the credited land photos, not the sky
    assert counts["sources"] == ["endless-sky", "nikola", "sigal", "sporco"]
    gallery = tmp_path / "set" / fifth_set.PART
    beach = next((gallery / "pictures").glob("beach3.*"))
    with Image.open(beach) as im:
        assert im.size == (720, 360)
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    stems = relevant_stems({q.id: q.relevant for q in gold.queries})

    assert stems["seaside"] == ["beach3", "sea8"]
    assert stems["water, not the sea"] == ["water0"]
    assert stems["landscapes"] == ["beach3", "lava1", "sea8", "water0"]
    assert stems["volcano"] == ["lava1"]
    assert stems["butterfly"] == ["monarch"]
    assert stems["galaxies"] == ["hubble_interacting_galaxy_ngc_5257", "hubble_ultra_deep_field"]
    assert stems["outer space"] == [
        "hubble_interacting_galaxy_ngc_5257",
        "hubble_ultra_deep_field",
        "m57_the_ring_nebula_587px",
    ]
    assert stems["electricity"] == ["tesla_conducts_lg", "tesla_lightning1_lg", "tesla_lightning2_lg"]
    assert stems["electricity but not lightning"] == ["tesla_conducts_lg"]
    assert "mountain" not in by_id and "absent: zebra" in by_id
