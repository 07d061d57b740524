"""Read the EXIF facts users search by: when, with what camera and lens, where."""

from __future__ import annotations

import math
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


def _dms_to_degrees(dms, ref, hemispheres: tuple[str, str]) -> float | None:
    """Degrees from (d, m, s) and a reference that must be one of `hemispheres` (positive, negative):
    without a valid reference the sign is unknown, and a place on the wrong side of the world is
    worse than none."""
    try:
        d, m, s = (float(x) for x in dms)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    value = d + m / 60.0 + s / 3600.0
    if not math.isfinite(value) or min(d, m, s) < 0:
        return None
    ref_text = (_clean(ref) or "").upper()
    if ref_text not in hemispheres:
        return None
    return -value if ref_text == hemispheres[1] else value


# Deepest point on Earth to the edge of where a camera flies (stratospheric balloons), in metres.
ALTITUDE_RANGE_M = (-11_000.0, 50_000.0)


def _gps_pair(gps) -> tuple[float | None, float | None]:
    """Latitude and longitude, both finite, in range and with their N/S and E/W references, or
    neither (a lone coordinate is no place)."""
    lat_dms, lon_dms = gps.get(ExifTags.GPS.GPSLatitude), gps.get(ExifTags.GPS.GPSLongitude)
    if not lat_dms or not lon_dms:
        return None, None
    lat = _dms_to_degrees(lat_dms, gps.get(ExifTags.GPS.GPSLatitudeRef), ("N", "S"))
    lon = _dms_to_degrees(lon_dms, gps.get(ExifTags.GPS.GPSLongitudeRef), ("E", "W"))
    if lat is None or lon is None or not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None, None
    return lat, lon


def _gps_altitude(gps) -> float | None:
    """Altitude in metres when finite and within `ALTITUDE_RANGE_M`, else None."""
    alt = gps.get(ExifTags.GPS.GPSAltitude)
    if alt is None:
        return None
    try:
        value = float(alt) * (-1 if gps.get(ExifTags.GPS.GPSAltitudeRef) in (1, b"\x01") else 1)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    low, high = ALTITUDE_RANGE_M
    return value if math.isfinite(value) and low <= value <= high else None


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
        info.gps_lat, info.gps_lon = _gps_pair(gps)
        info.gps_alt = _gps_altitude(gps) if info.gps_lat is not None else None  # no place, no height
    return info
