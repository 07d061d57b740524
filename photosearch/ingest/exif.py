"""Read the EXIF facts users search by: when, with what camera and lens, where."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from PIL import ExifTags, Image

_IFD_EXIF = 0x8769
_IFD_GPS = 0x8825


@dataclass
class ExifInfo:
    taken_at: datetime | None = None
    camera_make: str | None = None
    camera_model: str | None = None
    lens: str | None = None
    gps_lat: float | None = None
    gps_lon: float | None = None
    gps_alt: float | None = None
    orientation: int | None = None


def _clean(value, limit: int = 128) -> str | None:
    """Printable text cut to the catalog column's size (EXIF strings can be any length)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    text = "".join(ch for ch in str(value) if ch.isprintable()).strip()
    return text[:limit] or None


def _parse_datetime(value) -> datetime | None:
    text = _clean(value)
    if not text:
        return None
    for fmt in ("%Y:%m:%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y:%m:%d %H:%M", "%Y-%m-%dT%H:%M:%S"):
        try:
            parsed = datetime.strptime(text[:19], fmt)
        except ValueError:
            continue
        if 1800 < parsed.year < 2200:
            return parsed
    return None


def _dms_to_degrees(dms, ref) -> float | None:
    try:
        d, m, s = (float(x) for x in dms)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    value = d + m / 60.0 + s / 3600.0
    ref_text = _clean(ref) or ""
    if ref_text.upper() in ("S", "W"):
        value = -value
    return value


def read_exif(exif: Image.Exif | None) -> ExifInfo:
    """Extract taken-at, camera, lens, GPS and orientation; never raises on odd EXIF."""
    info = ExifInfo()
    if not exif:
        return info
    try:
        orientation = int(exif.get(ExifTags.Base.Orientation, 1) or 1)
        info.orientation = orientation if 1 <= orientation <= 8 else None
    except (TypeError, ValueError):
        info.orientation = None
    info.camera_make = _clean(exif.get(ExifTags.Base.Make))
    info.camera_model = _clean(exif.get(ExifTags.Base.Model))
    try:
        sub = exif.get_ifd(_IFD_EXIF)
    except Exception:
        sub = {}
    info.taken_at = (
        _parse_datetime(sub.get(ExifTags.Base.DateTimeOriginal))
        or _parse_datetime(sub.get(ExifTags.Base.DateTimeDigitized))
        or _parse_datetime(exif.get(ExifTags.Base.DateTime))
    )
    info.lens = _clean(sub.get(ExifTags.Base.LensModel), 256)
    try:
        gps = exif.get_ifd(_IFD_GPS)
    except Exception:
        gps = {}
    if gps:
        lat = gps.get(ExifTags.GPS.GPSLatitude)
        lon = gps.get(ExifTags.GPS.GPSLongitude)
        if lat and lon:
            info.gps_lat = _dms_to_degrees(lat, gps.get(ExifTags.GPS.GPSLatitudeRef))
            info.gps_lon = _dms_to_degrees(lon, gps.get(ExifTags.GPS.GPSLongitudeRef))
            if info.gps_lat is not None and not -90 <= info.gps_lat <= 90:
                info.gps_lat = info.gps_lon = None
            if info.gps_lon is not None and not -180 <= info.gps_lon <= 180:
                info.gps_lat = info.gps_lon = None
        alt = gps.get(ExifTags.GPS.GPSAltitude)
        if alt is not None:
            try:
                info.gps_alt = float(alt) * (-1 if gps.get(ExifTags.GPS.GPSAltitudeRef) in (1, b"\x01") else 1)
            except (TypeError, ValueError, ZeroDivisionError):
                info.gps_alt = None
    return info
