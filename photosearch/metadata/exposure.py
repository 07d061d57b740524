"""Camera settings a photo was taken with, from its EXIF (or the exif: XMP of a sidecar): aperture,
shutter time, ISO, focal length (as the lens says and in 35 mm terms) and whether the flash fired.

Each becomes one fact of the `embedded` analyzer whose label is the number (`KINDS`), so that the
snapshot groups photos by value like star ratings; `words` says a value the way photographers
write it ("f/1.8", "1/250 s", "ISO 3200", "50 mm", "flash fired").
"""

from __future__ import annotations

import math

from photosearch.metadata.model import Block, Exposure

#: Fact kind of each setting (its label is the value: `label_of`).
KINDS = {
    "aperture": "aperture",
    "shutter": "shutter",
    "iso": "iso",
    "focal": "focal_length",
    "focal35": "focal_length_35mm",
    "flash": "flash",
}
FLASH_FIRED, FLASH_NOT_FIRED = "fired", "not fired"

#: Values outside these are a camera's placeholder or a broken tag, not a setting.
PLAUSIBLE = {
    "aperture": (0.5, 128.0),
    "shutter": (1e-6, 86_400.0),
    "iso": (1.0, 10_000_000.0),
    "focal": (0.5, 5_000.0),
    "focal35": (1.0, 10_000.0),
}
#: ISO written as 65535 means "higher than a SHORT holds": the real value is in another tag.
ISO_OVERFLOW = 65535

#: Where each setting is written: EXIF (JPEG, HEIF, TIFF, RAW), TIFF-EP (some RAW), then XMP.
_TAGS = {
    "aperture": ("Exif.Photo.FNumber", "Exif.Image.FNumber", "Xmp.exif.FNumber"),
    "shutter": ("Exif.Photo.ExposureTime", "Exif.Image.ExposureTime", "Xmp.exif.ExposureTime"),
    "iso": (
        "Exif.Photo.ISOSpeedRatings",
        "Exif.Photo.PhotographicSensitivity",
        "Exif.Image.ISOSpeedRatings",
        "Xmp.exif.ISOSpeedRatings",
        "Xmp.exifEX.PhotographicSensitivity",
    ),
    "focal": ("Exif.Photo.FocalLength", "Exif.Image.FocalLength", "Xmp.exif.FocalLength"),
    "focal35": ("Exif.Photo.FocalLengthIn35mmFilm", "Xmp.exif.FocalLengthIn35mmFilm"),
}
#: APEX values, read where the plain one is missing: f-number = 2^(Av/2), seconds = 2^-Tv.
_APEX = {
    "aperture": ("Exif.Photo.ApertureValue", "Xmp.exif.ApertureValue"),
    "shutter": ("Exif.Photo.ShutterSpeedValue", "Xmp.exif.ShutterSpeedValue"),
}
_ISO_HIGH = (
    "Exif.Photo.RecommendedExposureIndex",
    "Exif.Photo.ISOSpeed",
    "Xmp.exifEX.RecommendedExposureIndex",
)
_FLASH = ("Exif.Photo.Flash", "Exif.Image.Flash")
_XMP_FLASH_FIRED = "Xmp.exif.Flash/exif:Fired"


def read_exposure(block: Block) -> Exposure:
    """The settings one source (the file, or a sidecar) writes."""
    ex, xm = block.exif, block.xmp
    both = {**ex, **xm}
    found = Exposure()
    for name, keys in _TAGS.items():
        value = next((v for k in keys if (v := _number(both.get(k))) is not None), None)
        if value is None and name in _APEX:
            value = next((v for k in _APEX[name] if (v := _apex(name, both.get(k))) is not None), None)
        if name == "iso" and value == ISO_OVERFLOW:
            value = next((v for k in _ISO_HIGH if (v := _number(both.get(k))) is not None), value)
        setattr(found, name, _plausible(name, value))
    flash = next((v for k in _FLASH if (v := _number(ex.get(k))) is not None), None)
    if flash is not None and 0 <= flash < 0x80 and flash.is_integer():
        found.flash = bool(int(flash) & 1)  # bit 0: fired; bit 5 alone: the camera has no flash
    else:
        fired = _first_text(xm.get(_XMP_FLASH_FIRED)).casefold()
        found.flash = {"true": True, "false": False}.get(fired)
    return found


def exposure_facts(exposure: Exposure) -> list[tuple[str, str]]:
    """(fact kind, label) of each setting the photo says."""
    out = [(KINDS[name], label_of(name, value)) for name, value in exposure.numbers().items()]
    if exposure.flash is not None:
        out.append((KINDS["flash"], FLASH_FIRED if exposure.flash else FLASH_NOT_FIRED))
    return out


def label_of(name: str, value: float) -> str:
    """The fact label of a setting's value: rounded as photographers read it ("1.8", "0.004")."""
    if name in ("aperture", "focal", "focal35"):
        value = round(value, 1)
    elif name == "iso":
        value = round(value)
    return f"{value:.4g}" if name == "shutter" else f"{value:g}"


def value_of(label: str) -> float | None:
    """The number of a fact label (None: not a number)."""
    try:
        value = float(label)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def words(name: str, value: float | bool) -> str:
    """A setting as photographers write it: "f/1.8", "1/250 s", "2 s", "ISO 3200", "50 mm"."""
    if name == "flash":
        return "flash fired" if value else "no flash"
    if name == "aperture":
        return f"f/{round(float(value), 1):g}"
    if name == "shutter":
        return shutter_words(float(value))
    if name == "iso":
        return f"ISO {round(float(value))}"
    mm = f"{round(float(value), 1):g} mm"
    return f"{mm} in 35 mm terms" if name == "focal35" else mm


def shutter_words(seconds: float) -> str:
    """Shutter time: a fraction below ~0.4 s ("1/250 s"), else seconds ("0.5 s", "2 s", "30 s")."""
    if seconds < 0.4:
        return f"1/{round(1 / seconds):g} s"
    return f"{round(seconds, 1):g} s"


def summary(exposure: Exposure) -> str:
    """One line for a photo's details: "f/1.8 · 1/250 s · ISO 3200 · 50 mm (75 mm in 35 mm terms) · flash fired"."""
    parts = [words(n, v) for n in ("aperture", "shutter", "iso") if (v := getattr(exposure, n)) is not None]
    focal, focal35 = exposure.focal, exposure.focal35
    if focal is not None:
        equivalent = focal35 is not None and round(focal35) != round(focal)
        parts.append(words("focal", focal) + (f" ({words('focal35', focal35)})" if equivalent else ""))
    elif focal35 is not None:
        parts.append(words("focal35", focal35))
    if exposure.flash is not None:
        parts.append(words("flash", exposure.flash))
    return " · ".join(parts)


def from_facts(facts: dict[str, list[dict]]) -> Exposure:
    """The settings of one photo from its facts by kind (as `Core.details` holds them)."""
    found = Exposure()
    for name, kind in KINDS.items():
        labels = [f["label"] for f in facts.get(kind, [])]
        if not labels:
            continue
        if name == "flash":
            found.flash = labels[0] == FLASH_FIRED
        else:
            setattr(found, name, value_of(labels[0]))
    return found


def _first_text(value) -> str:
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return str(value).strip() if value is not None else ""


def _number(value) -> float | None:
    """A rational ("9/5"), integer or real as written by exiv2; a list's first; None when odd."""
    text = _first_text(value).split(" ")[0]
    if not text:
        return None
    try:
        if "/" in text:
            num, den = text.split("/", 1)
            number = float(num) / float(den)
        else:
            number = float(text)
    except (ValueError, ZeroDivisionError):
        return None
    return number if math.isfinite(number) and number > 0 else None


def _apex(name: str, value) -> float | None:
    """An APEX aperture or shutter-speed value as an f-number or seconds."""
    text = _first_text(value).split(" ")[0]
    try:
        num, _, den = text.partition("/")
        apex = float(num) / float(den or 1)
        result = 2 ** (apex / 2) if name == "aperture" else 2 ** (-apex)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return result if math.isfinite(result) else None


def _plausible(name: str, value: float | None) -> float | None:
    if value is None:
        return None
    low, high = PLAUSIBLE[name]
    return value if low <= value <= high else None
