"""The ninth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from photosearch.evaluate import ninth_set
from photosearch.evaluate.golden import load_golden

from .rules import relevant_stems

NAMES = """# Stellarium DSO Catalog Names
#  1 -  5  string prefix  designator for catalogue (prefix)
M    8               _("Lagoon Nebula") # WK, DSW, SOG
M    8               _("Hourglass Region") # B500
NGC  7000            _("North America Nebula") # WK, SIMBAD, DSW
NGC  7000            _("America Nebula") # SEDS
NGC  253             _("Sculptor Galaxy") # WK, B500
NGC  936             _("Darth Vader's Starfighter") # B500
IC   2118            _("Witch Head Nebula") # WK, DSW
NGC  2264            _("Christmas Tree Cluster") # WK, SIMBAD
NGC  2264            _("Cone Nebula") # WK
"""
TEXTURES = """{
	"shortName": "Nebulae",
	"subTiles" : [
	{ "imageCredits": {"short" : "Someone"}, "imageUrl" : "m8.png", "minResolution" : 0.1 },
	{ "imageUrl" : "n7000.png" },
	{ "imageUrl" : "n253.png" },
	{ "imageUrl" : "n936.png" },
	{ "imageUrl" : "ic2118-1.png" },
	{ "imageUrl" : "ic2118-2.png" },
	{ "imageUrl" : "n2264.png" },
	{ "imageUrl" : "pleiades.png" },
	{ "imageUrl" : "coma_cluster.png" },
	{ "imageUrl" : "darkshark-vasey.png" },
	{ "imageUrl" : "lmc_01.png" },
	{ "imageUrl" : "n7635-vasey.png" }
	]
}
"""
COLORBOX = """<html><body>
<p><a class="group1" href="../content/ohoopee1.jpg" title="Me and my grandfather on the Ohoopee.">Grouped Photo 1</a></p>
<p><a class="group1" href="../content/ohoopee2.jpg" title="On the Ohoopee as a child">Grouped Photo 2</a></p>
<p><a class='callbacks' href="../content/marylou.jpg" title="Marylou on Cumberland Island">Callbacks</a></p>
<p><a class="retina" href="../content/daisy.jpg" title="Retina">Retina</a></p>
</body></html>
"""


def test_names_dat_gives_only_the_well_known_names():
    names = ninth_set.well_known_names(NAMES)
    assert names[("M", "8")] == ["Lagoon Nebula"]  # the B500 name is not taken
    assert names[("NGC", "2264")] == ["Christmas Tree Cluster", "Cone Nebula"]
    assert ("NGC", "936") not in names


def test_a_sky_photos_file_names_its_object():
    assert ninth_set.catalogue_key("n7635-vasey") == ("NGC", "7635")
    assert ninth_set.catalogue_key("ic2118-1") == ("IC", "2118")
    assert ninth_set.catalogue_key("barnard72") == ("B", "72")
    assert ninth_set.catalogue_key("m24-vasey") == ("M", "24")
    assert ninth_set.catalogue_key("pleiades") is None
    assert ninth_set.sky_file_words("darkshark-vasey") == "darkshark"
    assert ninth_set.sky_file_words("etaCarinae") == "eta carinae"
    assert ninth_set.sky_file_words("barnard_loop-2") == "barnard loop 2"


def test_the_lightbox_examples_title_their_photos():
    titles = ninth_set.colorbox_titles(COLORBOX)
    assert titles["ohoopee2.jpg"] == "On the Ohoopee as a child"
    assert titles["marylou.jpg"] == "Marylou on Cumberland Island"
    assert titles["daisy.jpg"] == "Retina"


def _image(path: Path, size: tuple[int, int] = (320, 240), colour: str = "grey") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def _fake_cache(root: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    deb = root / "root"
    for _, member in ninth_set.NAMED:
        _image(deb / member)
    sky = deb / ninth_set.NEBULAE
    sky.mkdir(parents=True)
    (sky / "names.dat").write_text(NAMES, encoding="utf-8")
    (sky / "textures.json").write_text(TEXTURES, encoding="utf-8")
    for name in ("m8", "n7000", "n253", "n936", "ic2118-1", "ic2118-2", "n2264", "pleiades"):
        _image(sky / f"{name}.png", (512, 512))
    for name in ("coma_cluster", "darkshark-vasey", "lmc_01"):
        _image(sky / f"{name}.png", (256, 256))
    _image(sky / "n7635-vasey.png", (128, 128))  # too small
    ui = deb / ninth_set.COLORBOX
    (ui / "example1").mkdir(parents=True)
    (ui / "example1" / "index.html").write_text(COLORBOX, encoding="utf-8")
    for name in ("ohoopee1", "ohoopee2", "marylou", "daisy", "daisy@2x"):
        _image(ui / f"content/{name}.jpg", (700, 443))
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = ninth_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    assert counts["photos"] == len(ninth_set.NAMED) + 9 + 3
    assert counts["absent"] == 20
    assert counts["sources"] == ["colorbox", "imaging", "scribus", "stellarium"]
    gallery = tmp_path / "set" / ninth_set.PART
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    stems = relevant_stems({q.id: q.relevant for q in gold.queries})

    assert stems["nebula"] == ["ic2118_1", "ic2118_2", "m8", "n2264", "n7000"]
    assert stems["galaxy"] == ["n253"]
    assert stems["cluster"] == ["coma_cluster", "n2264"]
    assert stems["christmas tree cluster"] == ["n2264"] and stems["cone nebula"] == ["n2264"]
    assert stems["nebulae but not the witch head"] == ["m8", "n2264", "n7000"]
    assert stems["seven sisters"] == ["pleiades"]
    assert stems["moon"] == ["halfmoon", "moon", "moon_2"]
    assert stems["moon but not the half moon"] == ["moon", "moon_2"]
    assert stems["food"] == ["pizza", "teriyaki"]
    assert stems["people"] == ["marylou", "ohoopee1", "ohoopee2"]
    assert stems["kid"] == ["ohoopee2"]
    assert stems["astronomy"][:3] == ["coma_cluster", "darkshark_vasey", "halfmoon"]
    assert "bubble nebula" not in by_id  # its photo is under 250 px
    assert "absent: giraffe" in by_id and by_id["absent: giraffe"].absent
    judged = {Path(p).stem for q in gold.queries for p in q.relevant}
    assert not judged & {"n936", "lmc_01", "daisy", "daisy@2x", "n7635_vasey"}
    assert not list(gallery.rglob("daisy*")) and not list(gallery.rglob("lmc_01*"))
