"""Every format a photo folder holds is decoded and catalogued; camera RAW through rawpy (DNG files
the test writes itself); an undecodable file with an image extension is recorded with its reason."""

from __future__ import annotations

import numpy as np
import pillow_heif
import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import FileIssue, Photo
from photosearch.config import Settings
from photosearch.errors import DecodeError
from photosearch.ingest.decode import IMAGE_EXTENSIONS, RAW_EXTENSIONS, is_image_name, open_image
from photosearch.ingest.indexer import Indexer
from tests.ingest.dng import write_dng

PILLOW_FORMATS = {  # suffix -> how to save
    ".jp2": {},
    ".j2k": {},
    ".ppm": {},
    ".pnm": {},
    ".pgm": {"mode": "L"},
    ".pbm": {"mode": "1"},
    ".bmp": {},
    ".tiff": {},
    ".webp": {},
    ".png": {},
    ".jpeg": {},
    ".avif": {},
}


def _save(path, rgb, mode=None):
    img = Image.fromarray(rgb)
    if mode:
        img = img.convert(mode)
    if path.suffix == ".avif":
        pillow_heif.from_pillow(img).save(path, format="AVIF", quality=80) if not _pil_avif() else img.save(
            path
        )
    else:
        img.save(path)
    return path


def _pil_avif() -> bool:
    from PIL import features

    return bool(features.check("avif"))


@pytest.mark.parametrize("suffix", sorted(PILLOW_FORMATS))
def test_every_pillow_format_decodes(tmp_path, real_photos, suffix):
    path = _save(tmp_path / f"coffee{suffix}", real_photos["coffee"], **PILLOW_FORMATS[suffix])
    assert is_image_name(path.name)
    d = open_image(path, max_side=300)
    assert d.image.mode == "RGB" and (d.width, d.height) == (600, 400) and max(d.image.size) == 300
    if PILLOW_FORMATS[suffix].get("mode") != "1":
        assert abs(np.asarray(d.image).mean() - real_photos["coffee"].mean()) < 25


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
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    report = Indexer(store, settings, []).run()
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
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    Indexer(store, settings, []).run()
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
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    Indexer(store, settings, []).run()
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
