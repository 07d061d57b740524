"""Writes small but valid DNG files (tifffile) for the RAW tests: an RGGB Bayer mosaic, 12-bit,
optionally with an 8-bit RGB preview in IFD0 (the raw image then lives in a SubIFD, as cameras do),
and optionally the EXIF a camera writes: Make/Model in IFD0, DateTimeOriginal in the Exif IFD, GPS."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np
import tifffile
from PIL import ExifTags, TiffImagePlugin

_DNG_TAGS = [
    (50706, "B", 4, (1, 4, 0, 0), True),  # DNGVersion
    (50707, "B", 4, (1, 1, 0, 0), True),  # DNGBackwardVersion
    (50708, "s", 0, "PhotoSearch Test Camera", True),  # UniqueCameraModel
    (50721, "2i", 9, (1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1), True),  # ColorMatrix1 = I
    (50778, "H", 1, (21,), True),  # CalibrationIlluminant1: D65
    (50728, "2I", 3, (1, 1, 1, 1, 1, 1), True),  # AsShotNeutral
]
_CFA_TAGS = [
    (33421, "H", 2, (2, 2), True),  # CFARepeatPatternDim
    (33422, "B", 4, (0, 1, 1, 2), True),  # CFAPattern: R G / G B
    (50717, "I", 1, (4095,), True),  # WhiteLevel
]
_LITTLE_ENDIAN_HEADER = b"II*\x00\x00\x00\x00\x00"
# tifffile refuses to write the Exif/GPS IFD pointer tags, so they are written under the tag numbers
# just below them (same sort position) and renumbered once the IFDs are appended.
_POINTER_PLACEHOLDERS = {
    ExifTags.IFD.Exif: ExifTags.IFD.Exif - 1,
    ExifTags.IFD.GPSInfo: ExifTags.IFD.GPSInfo - 1,
}


@dataclass(frozen=True)
class CameraExif:
    """What a camera writes about a shot; `gps` is (latitude, longitude) in signed degrees."""

    make: str = "PhotoSearch"
    model: str = "Test Camera"
    taken_at: datetime | None = None
    gps: tuple[float, float] | None = None


def write_dng(
    path: Path, rgb: np.ndarray, preview: np.ndarray | None = None, exif: CameraExif | None = None
) -> Path:
    h, w = rgb.shape[0] - rgb.shape[0] % 2, rgb.shape[1] - rgb.shape[1] % 2
    v = rgb[:h, :w].astype(np.uint16) * 16  # 8 -> 12 bit
    cfa = np.empty((h, w), np.uint16)
    cfa[0::2, 0::2], cfa[0::2, 1::2] = v[0::2, 0::2, 0], v[0::2, 1::2, 1]
    cfa[1::2, 0::2], cfa[1::2, 1::2] = v[1::2, 0::2, 1], v[1::2, 1::2, 2]
    ifd0_tags = _DNG_TAGS + (_camera_tags(exif) if exif else [])
    with tifffile.TiffWriter(path, byteorder="<") as tw:
        if preview is not None:
            tw.write(
                np.ascontiguousarray(preview),
                photometric="rgb",
                subfiletype=1,
                subifds=1,
                extratags=ifd0_tags,
                metadata=None,
            )
            tw.write(cfa, photometric=32803, subfiletype=0, extratags=_CFA_TAGS, metadata=None)
        else:
            tw.write(cfa, photometric=32803, subfiletype=0, extratags=ifd0_tags + _CFA_TAGS, metadata=None)
    if exif:
        _append_sub_ifds(Path(path), exif)
    return Path(path)


def _camera_tags(exif: CameraExif) -> list[tuple]:
    """Make/Model in IFD0 plus placeholder pointers to the Exif and GPS IFDs (filled in afterwards)."""
    return [
        (ExifTags.Base.Make, "s", 0, exif.make, True),
        (ExifTags.Base.Model, "s", 0, exif.model, True),
        *((placeholder, "I", 1, (0,), True) for placeholder in _POINTER_PLACEHOLDERS.values()),
    ]


def _append_sub_ifds(path: Path, exif: CameraExif) -> None:
    """Append the Exif and GPS IFDs (written by Pillow) and point IFD0's placeholders at them."""
    exif_ifd = TiffImagePlugin.ImageFileDirectory_v2(_LITTLE_ENDIAN_HEADER, group=ExifTags.IFD.Exif)
    if exif.taken_at:
        exif_ifd[ExifTags.Base.DateTimeOriginal] = exif.taken_at.strftime("%Y:%m:%d %H:%M:%S")
    gps_ifd = TiffImagePlugin.ImageFileDirectory_v2(_LITTLE_ENDIAN_HEADER, group=ExifTags.IFD.GPSInfo)
    if exif.gps:
        lat, lon = exif.gps
        gps_ifd[ExifTags.GPS.GPSLatitudeRef] = "N" if lat >= 0 else "S"
        gps_ifd[ExifTags.GPS.GPSLatitude] = _dms(lat)
        gps_ifd[ExifTags.GPS.GPSLongitudeRef] = "E" if lon >= 0 else "W"
        gps_ifd[ExifTags.GPS.GPSLongitude] = _dms(lon)
    with tifffile.TiffFile(path) as tif:
        entries = {tag: tif.pages[0].tags[p].valueoffset - 8 for tag, p in _POINTER_PLACEHOLDERS.items()}
    with open(path, "r+b") as fh:
        for tag, ifd in ((ExifTags.IFD.Exif, exif_ifd), (ExifTags.IFD.GPSInfo, gps_ifd)):
            offset = fh.seek(0, 2)
            offset += offset % 2  # IFDs start on a word boundary
            fh.write(b"\x00" * (offset - fh.tell()) + ifd.tobytes(offset))
            fh.seek(entries[tag])  # the 12-byte entry: tag, type LONG, count 1, the IFD's offset
            fh.write(struct.pack("<HHII", tag, 4, 1, offset))


def _dms(degrees: float) -> tuple[TiffImagePlugin.IFDRational, ...]:
    value = abs(degrees)
    d, rest = int(value), (value - int(value)) * 60
    m, s = int(rest), (rest - int(rest)) * 60
    return (
        TiffImagePlugin.IFDRational(d, 1),
        TiffImagePlugin.IFDRational(m, 1),
        TiffImagePlugin.IFDRational(round(s * 1000), 1000),
    )
