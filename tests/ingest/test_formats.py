"""Every format a photo folder holds is decoded and catalogued; camera RAW through rawpy (DNG files
the test writes itself); an undecodable file with an image extension is recorded with its reason."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import FileIssue, Photo
from photosearch.config import Settings
from photosearch.errors import DecodeError
from photosearch.ingest import signatures
from photosearch.ingest.decode import (
    IMAGE_EXTENSIONS,
    RAW_EXTENSIONS,
    heif_available,
    is_image_name,
    open_image,
)
from photosearch.ingest.exif import read_exif
from photosearch.ingest.indexer import Indexer
from tests.conftest import save_photo
from tests.ingest.dng import CameraExif, write_dng

PILLOW_FORMATS = {  # suffix -> how to save; "sequence": a second, inverted frame follows the photo
    ".jp2": {},
    ".j2k": {},
    ".jpc": {"format": "JPEG2000", "no_jp2": True},  # a bare codestream
    ".j2c": {"format": "JPEG2000", "no_jp2": True},
    ".jpx": {"format": "JPEG2000"},
    ".ppm": {},
    ".pnm": {},
    ".pgm": {"mode": "L"},
    ".pbm": {"mode": "1"},
    ".bmp": {},
    ".tiff": {},
    ".webp": {},
    ".png": {},
    ".apng": {"format": "PNG", "sequence": True},  # animated PNG
    ".jpeg": {},
    ".mpo": {"format": "MPO", "sequence": True},  # a multi-picture (stereo) JPEG
    ".avif": {},
    ".avifs": {"format": "AVIF", "sequence": True},
    ".hif": {"format": "HEIF"},  # Fujifilm's HEIF
    ".heics": {"format": "HEIF", "sequence": True},
    ".heifs": {"format": "HEIF", "sequence": True},
    ".jxl": {},  # JPEG XL through pillow-jxl-plugin
}
#: Pillow's formats that are photos: every extension Pillow (with pillow-heif) registers for them is read.
PHOTO_FORMATS = {"JPEG", "MPO", "PNG", "GIF", "WEBP", "TIFF", "BMP", "JPEG2000", "PPM", "HEIF", "AVIF", "JXL"}
NOT_PHOTOS = {".pfm"}  # PPM's float maps: HDR data, not a photo


def _save(path, rgb, mode=None, sequence=False, **how):
    img = Image.fromarray(rgb)
    if mode:
        img = img.convert(mode)
    if sequence:
        how.update(save_all=True, append_images=[Image.fromarray(255 - rgb)])
    img.save(path, **how)
    return path


def _catalogue(tmp_path, gallery):
    """(settings, store, the first index run's report) of a fresh catalog holding `gallery`, no models."""
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    return settings, store, Indexer(store, settings, []).run()


def test_every_photo_extension_pillow_registers_is_catalogued():
    assert heif_available()  # registers pillow-heif's opener (decode.py does it on first use)
    registered = {ext for ext, fmt in Image.registered_extensions().items() if fmt in PHOTO_FORMATS}
    assert {".hif", ".heics", ".heifs", ".avifs", ".mpo", ".apng", ".jpc", ".jxl"} <= registered
    assert registered - NOT_PHOTOS <= IMAGE_EXTENSIONS
    assert not NOT_PHOTOS & IMAGE_EXTENSIONS


@pytest.mark.parametrize("suffix", sorted(PILLOW_FORMATS))
def test_every_pillow_format_decodes(tmp_path, real_photos, suffix):
    path = _save(tmp_path / f"coffee{suffix}", real_photos["coffee"], **PILLOW_FORMATS[suffix])
    assert is_image_name(path.name)
    d = open_image(path, max_side=300)
    assert d.image.mode == "RGB" and (d.width, d.height) == (600, 400) and max(d.image.size) == 300
    if PILLOW_FORMATS[suffix].get("mode") != "1":
        assert abs(np.asarray(d.image).mean() - real_photos["coffee"].mean()) < 25
        grey = Image.fromarray(real_photos["coffee"]).convert("L").resize(d.image.size)
        small, seen = np.asarray(grey, dtype=float), np.asarray(d.image.convert("L"), dtype=float)
        assert np.abs(seen - small).mean() < np.abs(seen - (255 - small)).mean() / 3  # the first frame


def test_plain_jpeg_bytes_named_mpo_decode(tmp_path, real_photos):
    path = save_photo(tmp_path / "DSCF0001.jpg", real_photos["coffee"]).rename(tmp_path / "DSCF0001.MPO")
    assert is_image_name(path.name) and open_image(path).format == "JPEG"


def test_multipage_tiff_gives_the_first_page(tmp_path):
    pages = [Image.new("RGB", (40, 30), c) for c in ((250, 0, 0), (0, 0, 250))]
    path = tmp_path / "scan.tiff"
    pages[0].save(path, save_all=True, append_images=pages[1:])
    assert np.asarray(open_image(path).image)[5, 5].tolist() == [250, 0, 0]


def test_dng_with_preview_decodes_the_preview(tmp_path, real_photos):
    cat = real_photos["chelsea"]  # 451x300
    path = write_dng(tmp_path / "IMG_0001.DNG", cat, preview=cat[:, :450].copy())
    assert is_image_name(path.name) and ".dng" in RAW_EXTENSIONS and RAW_EXTENSIONS <= IMAGE_EXTENSIONS
    d = open_image(path)
    assert d.format == "RAW" and (d.width, d.height) == (450, 300)
    assert (
        np.abs(np.asarray(d.image).astype(int) - cat[:, :450].astype(int)).mean() < 1
    )  # exactly the preview


def test_dng_without_preview_is_demosaiced(tmp_path, real_photos):
    path = write_dng(tmp_path / "raw_only.dng", real_photos["chelsea"])
    d = open_image(path, max_side=200)
    assert d.format == "RAW" and (d.width, d.height) == (450, 300)
    assert d.image.mode == "RGB" and max(d.image.size) == 200  # half-size demosaic, then downscaled
    assert np.asarray(d.image).std() > 10  # a picture, not a flat field


SHOT = CameraExif(
    make="Canon", model="EOS R6", taken_at=datetime(2019, 7, 4, 18, 30, 5), gps=(48.8584, -2.2945)
)


@pytest.mark.parametrize("with_preview", [True, False])
def test_raw_exif_is_read_from_the_raw_itself(tmp_path, real_photos, with_preview):
    cat = real_photos["chelsea"]
    path = write_dng(
        tmp_path / "IMG_7.dng", cat, preview=cat[:, :450].copy() if with_preview else None, exif=SHOT
    )
    for data in (None, path.read_bytes()):  # from the path, and from the bytes the loader already read
        info = read_exif(open_image(path, data=data).exif)
        assert (info.taken_at, info.camera_make, info.camera_model) == (SHOT.taken_at, "Canon", "EOS R6")
        assert info.gps_lat == pytest.approx(48.8584, abs=1e-6) and info.gps_lon == pytest.approx(
            -2.2945, abs=1e-6
        )


def test_raw_exif_of_tiff_variants_and_of_the_preview(tmp_path, real_photos):
    from photosearch.ingest.decode import _raw_exif

    data = write_dng(tmp_path / "a.dng", real_photos["chelsea"], exif=SHOT).read_bytes()
    orf = read_exif(_raw_exif("P1.ORF", b"IIRO" + data[4:], None))  # Olympus varies the TIFF magic
    assert (orf.camera_model, orf.taken_at) == ("EOS R6", SHOT.taken_at)
    preview = Image.Exif()
    preview[0x010F], preview[0x0110] = "FUJIFILM", "X-T5"
    raf = read_exif(_raw_exif("DSCF1.RAF", b"FUJIFILMCCD-RAW 0201" + bytes(100), preview))  # not TIFF
    assert (raf.camera_make, raf.camera_model) == ("FUJIFILM", "X-T5")
    assert _raw_exif("junk.nef", b"MM\x00*\xff\xff\xff\xff", None) is None  # damaged: no EXIF, no error


def test_a_lone_raw_is_catalogued_with_date_camera_and_place(tmp_path, real_photos):
    gallery = tmp_path / "DCIM"
    gallery.mkdir()
    cat = real_photos["chelsea"]
    write_dng(gallery / "IMG_0099.DNG", cat, preview=cat[:, :450].copy(), exif=SHOT)  # no JPEG twin
    settings, store, report = _catalogue(tmp_path, gallery)
    assert report.added == 1
    with store.session() as s:
        photo = s.scalars(select(Photo)).one()
        assert photo.format == "RAW" and photo.taken_at == SHOT.taken_at
        assert (photo.camera_make, photo.camera_model) == ("Canon", "EOS R6")
        assert (round(photo.gps_lat, 4), round(photo.gps_lon, 4)) == (48.8584, -2.2945)
    store.close()


def test_damaged_raw_has_a_reason(tmp_path):
    path = tmp_path / "broken.nef"
    path.write_bytes(b"not a raw file at all" * 100)
    with pytest.raises(DecodeError) as err:
        open_image(path)
    assert err.value.reason == "corrupt" and "broken.nef" in str(err.value)


def test_indexing_catalogues_every_format_and_records_bad_ones(tmp_path, real_photos):
    gallery = tmp_path / "Pictures"
    gallery.mkdir()
    for suffix, how in PILLOW_FORMATS.items():
        _save(gallery / f"coffee{suffix}", real_photos["coffee"], **how)
    write_dng(gallery / "cat.dng", real_photos["chelsea"], preview=real_photos["chelsea"][:, :450].copy())
    (gallery / "damaged.jp2").write_bytes(b"\x00\x00\x00\x0cjP  \r\n\x87\n" + b"\x00" * 64)
    (gallery / "damaged.cr2").write_bytes(b"II*\x00garbage" * 10)
    settings, store, report = _catalogue(tmp_path, gallery)
    assert report.added == len(PILLOW_FORMATS) + 1
    assert report.failed == 2
    with store.session() as s:
        formats = {p.path.rsplit(".", 1)[-1]: p.format for p in s.scalars(select(Photo))}
        issues = {i.path.rsplit("/", 1)[-1]: i.reason for i in s.scalars(select(FileIssue))}
    assert formats["dng"] == "RAW" and formats["jp2"] == "JPEG2000" and formats["pgm"] == "PPM"
    assert set(issues) == {"damaged.jp2", "damaged.cr2"} and all(issues.values())
    store.close()


def test_raw_and_jpeg_of_one_shot_are_one_result(tmp_path, real_photos):
    from photosearch.query.search import search
    from photosearch.records import AnalysisResult, FactRecord

    gallery = tmp_path / "DCIM"
    gallery.mkdir()
    cat = real_photos["chelsea"]
    Image.fromarray(cat).save(gallery / "IMG_0042.JPG")
    write_dng(gallery / "IMG_0042.DNG", cat, preview=cat[:, :450].copy())
    write_dng(gallery / "IMG_0043.DNG", cat, preview=cat[:, :450].copy())  # a RAW alone
    settings, store, report = _catalogue(tmp_path, gallery)
    with store.session() as s:
        for p in s.scalars(select(Photo)):
            store.write_analysis(
                s, p.id, "tagger", 2, AnalysisResult(facts=[FactRecord("tag", "tabby", 0.9)])
            )
    res = search(
        store, settings, plan={"version": 1, "where": {"concept": "tabby"}, "compose": {}}, signals=[]
    )
    names = sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"])
    assert names == ["IMG_0042.JPG", "IMG_0043.DNG"]
    jpg = next(r for r in res["results"] if r["path"].endswith(".JPG"))
    assert [p.rsplit("/", 1)[-1] for p in jpg["raw"]] == ["IMG_0042.DNG"]
    store.close()


def test_a_raw_twin_takes_no_slot_on_the_page(tmp_path, real_photos):
    """Two RAW+JPEG shots rank first: a page of two holds both shots (not one shot twice), and the
    match count counts shots, not files."""
    from photosearch.query.search import search
    from photosearch.records import AnalysisResult, FactRecord

    gallery = tmp_path / "DCIM"
    gallery.mkdir()
    cat, coffee = real_photos["chelsea"], real_photos["coffee"]
    score = {}
    for name, rgb, s in (("IMG_0001", cat, 0.95), ("IMG_0002", coffee, 0.9)):
        Image.fromarray(rgb).save(gallery / f"{name}.JPG")
        write_dng(gallery / f"{name}.DNG", rgb)
        score[f"{name}.JPG"] = score[f"{name}.DNG"] = s
    for i, rgb in enumerate((cat[::-1], coffee[::-1], cat[:, ::-1])):
        Image.fromarray(np.ascontiguousarray(rgb)).save(gallery / f"other{i}.png")
        score[f"other{i}.png"] = 0.6 - i / 10
    settings, store, report = _catalogue(tmp_path, gallery)
    with store.session() as s:
        for p in s.scalars(select(Photo)):
            fact = FactRecord("tag", "tabby", score[p.path.rsplit("/", 1)[-1]])
            store.write_analysis(s, p.id, "tagger", 2, AnalysisResult(facts=[fact]))
    plan = {"version": 1, "where": {"concept": "tabby"}, "compose": {"limit": 2}}
    res = search(store, settings, plan=plan, signals=[])
    assert [r["path"].rsplit("/", 1)[-1] for r in res["results"]] == ["IMG_0001.JPG", "IMG_0002.JPG"]
    assert [[p.rsplit("/", 1)[-1] for p in r["raw"]] for r in res["results"]] == [
        ["IMG_0001.DNG"],
        ["IMG_0002.DNG"],
    ]
    assert res["matched"] == 5  # 7 files, 5 shots
    res = search(store, settings, plan=dict(plan, compose={"limit": 10}), signals=[])
    assert len(res["results"]) == 5 and not any(r["path"].endswith(".DNG") for r in res["results"])
    store.close()


# ------------------------------------------------------------------ names and signatures the app claims

#: Undecodable files of each signature the app claims: the signature, then bytes no decoder accepts.
_JUNK = b"\x00\x01\x02 not the rest of a picture " * 8


def _signature_samples() -> dict[str, bytes]:
    """One header per claimed signature (every prefix, every ISO brand, WebP, BMP, Netpbm)."""
    samples = {f"prefix{i}": prefix + _JUNK for i, (prefix, _fmt) in enumerate(signatures.PREFIXES)}
    for brand in signatures.IMAGE_BRANDS:
        samples[f"brand_{brand.decode().strip()}"] = b"\x00\x00\x00\x18ftyp" + brand + _JUNK
    samples["webp"] = b"RIFF\x40\x00\x00\x00WEBPVP8 " + _JUNK
    samples["bmp"] = b"BM\x40\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00" + _JUNK
    samples["pnm"] = b"P6\n9999 9999\n255\n" + _JUNK
    return samples


def test_every_signature_is_sniffed_and_nothing_else():
    for name, data in _signature_samples().items():
        assert signatures.sniff(data[: signatures.HEADER_BYTES]), name
    for other in (b"\x00\x00\x00\x18ftypisom" + _JUNK, b"%PDF-1.7\n" + _JUNK, b"BMW is a car " + _JUNK, b""):
        assert signatures.sniff(other[: signatures.HEADER_BYTES]) is None


@pytest.mark.parametrize("suffix", sorted(PILLOW_FORMATS))
def test_real_files_of_every_format_carry_a_claimed_signature(tmp_path, real_photos, suffix):
    path = _save(tmp_path / f"coffee{suffix}", real_photos["coffee"], **PILLOW_FORMATS[suffix])
    assert signatures.sniff(path.read_bytes()[: signatures.HEADER_BYTES]) is not None
    dng = write_dng(tmp_path / "cat.dng", real_photos["chelsea"])
    assert signatures.sniff(dng.read_bytes()[: signatures.HEADER_BYTES]) == "TIFF"


def test_jpeg_xl_is_catalogued(tmp_path, real_photos):
    gallery = tmp_path / "Pictures"
    gallery.mkdir()
    _save(gallery / "coast.jxl", real_photos["coffee"])
    settings, store, report = _catalogue(tmp_path, gallery)
    assert (report.added, report.failed) == (1, 0)
    with store.session() as s:
        photo = s.scalars(select(Photo)).one()
        assert (photo.format, photo.width, photo.height) == ("JXL", 600, 400)
    store.close()


def test_every_claimed_extension_and_signature_is_catalogued_or_recorded(tmp_path, real_photos):
    """Each extension the app claims and each signature it sniffs, holding a file no decoder reads,
    is recorded with its reason; real photos under odd names are catalogued; an unclaimed extension
    and an unclaimed signature are left alone."""
    gallery = tmp_path / "Pictures"
    gallery.mkdir()
    for ext in sorted(IMAGE_EXTENSIONS):
        (gallery / f"bad_{ext[1:]}{ext}").write_bytes(b"this is not a picture at all " * 20)
    for name, data in _signature_samples().items():
        (gallery / f"sig_{name}.dat").write_bytes(data)  # an extension the app does not claim
    save_photo(gallery / "plain.jpg", real_photos["coffee"]).rename(gallery / "download.bin")
    _save(gallery / "noext.png", real_photos["coffee"]).rename(gallery / "noext")
    _save(gallery / "odd.jxl", real_photos["chelsea"]).rename(gallery / "odd.tmp")
    (gallery / "notes.txt").write_bytes(b"\xff\xd8\xff" + _JUNK)  # never an image by its name
    (gallery / "clip.bin").write_bytes(b"\x00\x00\x00\x18ftypisom" + _JUNK)  # a video's signature
    settings, store, report = _catalogue(tmp_path, gallery)
    with store.session() as s:
        catalogued = {p.path.rsplit("/", 1)[-1]: p.format for p in s.scalars(select(Photo))}
        issues = {i.path.rsplit("/", 1)[-1]: i.reason for i in s.scalars(select(FileIssue))}
    assert catalogued == {"download.bin": "JPEG", "noext": "PNG", "odd.tmp": "JXL"}
    expected = {f"bad_{ext[1:]}{ext}" for ext in IMAGE_EXTENSIONS} | {
        f"sig_{name}.dat" for name in _signature_samples()
    }
    assert set(issues) == expected
    assert all(issues.values()) and report.failed == len(expected)
    store.close()
