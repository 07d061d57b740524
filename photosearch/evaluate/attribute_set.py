"""A labelled set for the photo attributes (`vision/attributes.py`), labels from what the photos'
sources say about them, never from a model or from the pixels.

A label comes from a photo's description (file name, title, docstring), from its source file's
format (a one-channel file is greyscale) or from what the gallery builder did to it (the Tux Paint
stamps are cut-outs it flattened onto a light background: no sky, no sunset, not dark). Every
other attribute of the photo stays unlabelled. Sources, split by source into two parts:

* `fit` (thresholds are chosen here): the real golden set's Tux Paint stamps and OpenCV's samples.
* `check` (reported, never fitted): scikit-image's, scikit-learn's and matplotlib's sample photos
  and the held-out set's DEV part (GCompris). The held-out TEST part is never read.

Where no source describes enough positives (sepia, bright, dark), *generated* copies of every third
real colour photo are added, each by one fixed transform that makes its label true: `desaturated`
(Rec. 601 luma: monochrome), `sepia` (the W3C sepia matrix), `underexposed` (-4 EV in linear
light: dark), `overexposed` (+2 EV, clipped: bright). A copy is in its original's part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from PIL import Image

PARTS = ("fit", "check")
#: Source -> part.
PART_OF = {
    "tuxpaint": "fit",
    "opencv": "fit",
    "skimage": "check",
    "sklearn": "check",
    "matplotlib": "check",
    "gcompris-dev": "check",
}

GREY_WORDS = re.compile(
    r"\b(gr[ae]y-level|gr[ae]y ?scale|monochrome|black and white (photo|image|picture))\b"
)
COLOUR_IMAGE = re.compile(r"\bcolou?r (image|photo|picture)\b")
#: A photo whose description names one of these colours shows it: it is neither black and white nor sepia.
CHROMATIC = re.compile(r"\b(red|orange|yellow|green|blue|purple|violet|pink|scarlet|golden|turquoise)\b")
#: Words for a photo taken at night ("at night" is left out: it says what an owl does, not the photo).
NIGHT_WORDS = re.compile(r"\b(night sky|starry night|night scene|night photo|deep field)\b")
DARK_WORDS = re.compile(r"\b(deep field|dark photo)\b")
SNOW_WORDS = re.compile(r"\b(snow\w*|winter|igloo|glacier|polar bear|arctic|antarctic\w*)\b")
SKY_WORDS = re.compile(r"\bsky\b")
SUNSET_WORDS = re.compile(r"\b(sunset|sunrise|dusk|golden hour)\b")
COLOURFUL_WORDS = re.compile(r"\b(colou?rful|multi-?colou?red|rainbow)\b")
DOCUMENT_WORDS = re.compile(r"\b(document|scanned page|page of printed text)\b")


@dataclass
class Labelled:
    name: str  # "tuxpaint/animals/birds/owl", "skimage/camera", "sepia:skimage/coffee"
    source: str  # a key of PART_OF
    text: str  # what the source says the photo shows (lower case)
    labels: dict[str, bool]  # attribute -> holds; an attribute not named is not labelled
    load: Callable[[], np.ndarray] = field(repr=False, default=None)  # type: ignore[assignment]
    transform: str = ""  # "" for a real photo, else the transform of a generated copy

    @property
    def part(self) -> str:
        return PART_OF[self.source]


def labels_from(text: str, one_channel: bool = False, cutout: bool = False) -> dict[str, bool]:
    """The attribute labels a description (and the file's channel count, and whether the gallery
    made it a cut-out on a light background) supports; pixels are never looked at."""
    text = text.lower()
    out: dict[str, bool] = {}
    coloured = not one_channel and bool(CHROMATIC.search(text) or COLOUR_IMAGE.search(text))
    if one_channel or GREY_WORDS.search(text):
        out["monochrome"] = True
    elif coloured:
        out["monochrome"] = False
    if one_channel or coloured:
        out["sepia"] = False
    if one_channel or out.get("monochrome"):
        out["colourful"] = False
    elif COLOURFUL_WORDS.search(text):
        out["colourful"] = True
    if NIGHT_WORDS.search(text):
        out["night"] = True
    if DARK_WORDS.search(text):
        out["dark"] = True
    if SNOW_WORDS.search(text):
        out["white scene"] = True
    if SKY_WORDS.search(text):
        out["sky"] = True
    if SUNSET_WORDS.search(text):
        out["sunset"] = True
    if cutout or DOCUMENT_WORDS.search(text):  # an object or a page on a plain, light background
        for label in ("sky", "sunset", "night", "dark"):
            out.setdefault(label, False)
    return out


# ------------------------------------------------------------------------------ generated copies


def _linear(rgb: np.ndarray) -> np.ndarray:
    c = rgb.astype(np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _srgb(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(lin, 0.0, 1.0)
    c = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)
    return np.round(c * 255).astype(np.uint8)


def desaturated(rgb: np.ndarray) -> np.ndarray:
    luma = rgb.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    return np.repeat(np.round(luma).astype(np.uint8)[..., None], 3, axis=2)


SEPIA_MATRIX = np.array([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]], np.float32)


def sepia(rgb: np.ndarray) -> np.ndarray:
    return np.clip(rgb.astype(np.float32) @ SEPIA_MATRIX.T, 0, 255).round().astype(np.uint8)


def underexposed(rgb: np.ndarray) -> np.ndarray:
    return _srgb(_linear(rgb) / 16.0)


def overexposed(rgb: np.ndarray) -> np.ndarray:
    return _srgb(_linear(rgb) * 4.0)


#: Transform name -> (function, the labels it makes true or false).
TRANSFORMS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], dict[str, bool]]] = {
    "desaturated": (desaturated, {"monochrome": True, "sepia": False, "colourful": False}),
    "sepia": (sepia, {"sepia": True, "monochrome": False, "colourful": False}),
    "underexposed": (underexposed, {"dark": True, "bright": False}),
    "overexposed": (overexposed, {"bright": True, "dark": False}),
}
#: Every this-many-th real colour photo of a source (sorted by name) gets the generated copies.
GENERATE_EVERY = 3


def generated(photos: list[Labelled], every: int = GENERATE_EVERY) -> list[Labelled]:
    """Copies of every `every`-th real photo of each source that is not labelled monochrome."""
    out: list[Labelled] = []
    by_source: dict[str, list[Labelled]] = {}
    for p in photos:
        if not p.transform and not p.labels.get("monochrome"):
            by_source.setdefault(p.source, []).append(p)
    for group in by_source.values():
        for p in sorted(group, key=lambda q: q.name)[::every]:
            for name, (fn, labels) in TRANSFORMS.items():
                out.append(
                    replace(
                        p,
                        name=f"{name}:{p.name}",
                        labels=dict(labels),
                        transform=name,
                        load=_then(p.load, fn),
                    )
                )
    return out


def _then(load: Callable[[], np.ndarray], fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[], np.ndarray]:
    return lambda: fn(load())


# ------------------------------------------------------------------------------ sources


def _rgb(im: Image.Image) -> np.ndarray:
    return np.asarray(im.convert("RGB"))


def from_files(entries: Iterable[tuple[str, str, Path, str]], cutout: bool = False) -> list[Labelled]:
    """(name, source, file, description) -> labelled photos; a one-channel file is greyscale."""
    out = []
    for name, source, path, text in entries:
        with Image.open(path) as im:
            one_channel = im.mode in ("1", "L", "I", "I;16", "F")
        out.append(
            Labelled(
                name,
                source,
                text.lower(),
                labels_from(text, one_channel, cutout),
                lambda p=path: _rgb(Image.open(p)),
            )
        )
    return out


def tuxpaint_photos() -> list[Labelled]:
    """The real golden set's Tux Paint stamps (cut-outs on a light background), described by their
    `.txt` and file name."""
    from photosearch.evaluate import realset

    return [
        Labelled(
            f"tuxpaint/{p.rel}",
            "tuxpaint",
            p.text,
            labels_from(p.text, cutout=True),
            lambda p=p: _rgb(p.make()),
        )
        for p in realset.stamp_photos()
    ]


#: OpenCV sample files that are no photos (logos, drawings, masks, plots, ground truth), or a
#: series of near-identical ones (the chessboard calibration views: the first of each kept).
OPENCV_SKIP = re.compile(
    r"^(.*logo.*|digits|ml|mask|gradient|chessboard|pic\d|detect_blob|ellipses|blox|templ|tmpl|aloeGT"
    r"|(left|right)(0[2-9]|1\d))$",
    re.I,
)


def opencv_photos() -> list[Labelled]:
    """OpenCV's sample photos, described by the real golden set's words where it uses them, else by
    their file names."""
    from photosearch.evaluate import realset

    said = {src.rsplit("/", 1)[-1]: text for _rel, src, text in realset.OPENCV_PHOTOS}
    data = realset.OPENCV / "data"
    entries = []
    for path in sorted(data.glob("*")):
        if path.suffix.lower() not in (".jpg", ".png") or OPENCV_SKIP.match(path.stem):
            continue
        words = " ".join(re.sub(r"[_\-\d]+", " ", path.stem).split())
        entries.append((f"opencv/{path.stem}", "opencv", path, said.get(path.name, words)))
    return from_files(entries)


#: scikit-image sample photos (not its drawings, silhouettes or logos); each is described by its
#: docstring's first line ("Gray-level camera image", "Hubble eXtreme Deep Field").
SKIMAGE = (
    "astronaut", "brick", "camera", "cell", "chelsea", "clock", "coffee", "coins", "grass", "gravel",
    "hubble_deep_field", "immunohistochemistry", "microaneurysms", "moon", "page", "retina", "rocket",
    "stereo_motorcycle", "text",
)  # fmt: skip


def skimage_photos() -> list[Labelled]:
    from skimage import data

    out = []
    for name in SKIMAGE:
        fn = getattr(data, name)
        text = " ".join((fn.__doc__ or "").strip().split("\n\n")[0].split()).lower()
        first = fn()
        first = first[0] if isinstance(first, tuple) else first
        one_channel = first.ndim == 2

        def load(a=first) -> np.ndarray:
            return np.ascontiguousarray(np.stack([a] * 3, axis=-1) if a.ndim == 2 else a[..., :3]).astype(
                np.uint8
            )

        out.append(Labelled(f"skimage/{name}", "skimage", text, labels_from(text, one_channel), load))
    return out


def sklearn_matplotlib_photos() -> list[Labelled]:
    """scikit-learn's two sample photos and matplotlib's sample photos, described by file name."""
    import matplotlib
    from sklearn.datasets import load_sample_images

    entries = [
        (f"sklearn/{Path(f).stem}", "sklearn", Path(f), Path(f).stem) for f in load_sample_images().filenames
    ]
    sample = Path(matplotlib.get_data_path()) / "sample_data"
    for name in ("grace_hopper.jpg", "Minduka_Present_Blue_Pack.png"):
        words = " ".join(re.sub(r"[_\-]+", " ", Path(name).stem).split()).lower()
        entries.append((f"matplotlib/{Path(name).stem}", "matplotlib", sample / name, words))
    return from_files(entries)


def gcompris_dev_photos() -> list[Labelled]:
    """The held-out set's DEV part (GCompris), described by file name, source title and what the
    game says; the TEST part is dropped before anything of it is decoded."""
    from photosearch.evaluate import heldout

    out = []
    for p in heldout.all_photos():
        if p.part != "dev":
            continue
        text = f"{p.text} {p.about}".strip()
        out.append(
            Labelled(
                f"gcompris-dev/{p.rel}", "gcompris-dev", text, labels_from(text), lambda p=p: _rgb(p.make())
            )
        )
    return out


def build(with_generated: bool = True) -> list[Labelled]:
    """The labelled set: every real photo of every source, then the generated copies."""
    real = tuxpaint_photos() + opencv_photos() + skimage_photos() + sklearn_matplotlib_photos()
    real += gcompris_dev_photos()
    return real + (generated(real) if with_generated else [])
