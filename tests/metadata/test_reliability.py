"""Bad metadata is recorded and skipped, never a crash, and the photo is still indexed: malformed XMP
(in the file and in a sidecar), a sidecar that is not XML, huge and binary-laden metadata, text in
the wrong encoding."""

from __future__ import annotations

import io
import os
import struct
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog.models import Analysis, Fact, Photo
from photosearch.cli.library import _status_text
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from photosearch.metadata.fields import MAX_KEYWORDS, MAX_TEXT_CHARS
from photosearch.metadata.reader import MAX_SIDECAR_BYTES, read_metadata
from tests.conftest import index_with
from tests.metadata import exiftool

XMP_HEADER = b"http://ns.adobe.com/xap/1.0/\x00"


def _jpeg_with_app1(payload: bytes) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (90, 120, 30)).save(buf, "JPEG")
    data = buf.getvalue()
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:]


@pytest.fixture
def gallery(tmp_path):
    g = tmp_path / "gallery"
    g.mkdir()
    return g


def test_malformed_xmp_in_the_file_is_recorded_and_the_rest_read(gallery):
    path = gallery / "broken.jpg"
    path.write_bytes(_jpeg_with_app1(XMP_HEADER + b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><unclosed'))
    exiftool.write(path, "-EXIF:ImageDescription=still here")
    got = read_metadata(str(path))
    assert "the XMP in the file is malformed: skipped" in got.issues
    assert [t.label for t in got.texts] == ["still here"]


def test_sidecars_that_are_not_xml_malformed_empty_or_huge_are_skipped(gallery, real_photos):
    photo = gallery / "p.jpg"
    Image.fromarray(real_photos["coffee"][:64, :64]).save(photo)
    exiftool.write(photo, "-XMP-dc:Subject=from-the-file")
    (gallery / "p.jpg.xmp").write_bytes(bytes(range(256)) * 4)  # binary junk named .xmp
    (gallery / "p.xmp").write_text("<x:xmpmeta><rdf:RDF><rdf:Description dc:subject='x'", encoding="utf-8")
    got = read_metadata(str(photo))
    assert [k.label for k in got.keywords] == ["from-the-file"]
    assert any(i.startswith("p.jpg.xmp is not XML") for i in got.issues), got.issues
    assert any(i.startswith("p.xmp is not valid XMP") for i in got.issues), got.issues
    (gallery / "p.jpg.xmp").write_bytes(b"")
    with open(gallery / "p.xmp", "wb") as fh:
        fh.truncate(MAX_SIDECAR_BYTES + 1)
    got = read_metadata(str(photo))
    assert "p.jpg.xmp is empty: skipped" in got.issues
    assert any("p.xmp is 16 MiB, over" in i for i in got.issues), got.issues


def test_huge_and_binary_laden_metadata_is_cut_to_size(gallery):
    path = gallery / "huge.jpg"
    words = "".join(f"<rdf:li>word{i}</rdf:li>" for i in range(5000))
    packet = (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<dc:subject><rdf:Bag>{words}</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>"
    ).encode()
    Image.new("RGB", (32, 32)).save(path)
    (gallery / "huge.jpg.xmp").write_bytes(packet)  # 130 kB of keywords (a JPEG segment holds 64 kB)
    exiftool.write(path, "-EXIF:ImageDescription=" + "long caption " * 200, "-EXIF:Artist=Ann\x07\x1b[31m Sá")
    got = read_metadata(str(path))
    assert len(got.keywords) == MAX_KEYWORDS
    assert f"more than {MAX_KEYWORDS} keywords: the first {MAX_KEYWORDS} kept" in got.issues
    (caption,) = [t for t in got.texts if t.kind == "description"]
    assert len(caption.label) == MAX_TEXT_CHARS
    (artist,) = [t for t in got.texts if t.kind == "credit"]
    assert artist.label == "Ann [31m Sá"  # control characters dropped, the name kept


def test_text_in_the_wrong_encoding_is_read_as_latin_1_and_said_so(gallery):
    path = gallery / "latin.jpg"
    Image.new("RGB", (32, 32)).save(path)
    exiftool.write(
        path, "-charset", "iptc=latin1", "-IPTC:Caption-Abstract=Café São", "-IPTC:Keywords=Açores"
    )
    got = read_metadata(str(path))
    assert [k.label for k in got.keywords] == ["Açores"]
    assert [t.label for t in got.texts] == ["Café São"]
    assert "IPTC in the file is not UTF-8: read as Latin-1" in got.issues


def test_a_format_with_no_metadata_is_no_issue(gallery, real_photos):
    path = gallery / "plain.ppm"
    Image.fromarray(real_photos["coffee"][:32, :32]).save(path)
    got = read_metadata(str(path))
    assert got.issues == [] and got.keywords == []


def test_a_heic_with_an_empty_exif_is_no_issue_and_is_read_without_a_decode_first(gallery, real_photos):
    """pillow-heif writes an EXIF with no entries into a HEIC made from a photo without one; exiv2
    calls that corrupted. And a process that reads metadata before it decodes any photo (a fresh
    one, here) must still open HEIF to find what exiv2 misses."""
    import subprocess
    import sys

    from photosearch.ingest.decode import heif_available

    heif_available()
    path = gallery / "empty_exif.heic"
    Image.fromarray(real_photos["coffee"][:200, :200]).save(
        path, format="HEIF", exif=b"Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00"
    )
    assert read_metadata(str(path)).issues == []
    tagged = gallery / "tagged.heic"
    Image.fromarray(real_photos["coffee"][:200, :200]).save(tagged, format="HEIF")
    exiftool.write(tagged, "-XMP-dc:Subject=from-exiftool")
    code = (
        "import sys; from photosearch.metadata.reader import read_metadata; "
        "got = read_metadata(sys.argv[1]); print(got.issues, sorted(k.label for k in got.keywords))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tagged)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[] ['from-exiftool']"


def test_every_bad_case_indexes_the_photo_and_records_why(gallery, tmp_path, real_photos):
    (gallery / "broken.jpg").write_bytes(_jpeg_with_app1(XMP_HEADER + b"<x:xmpmeta><rdf:RDF><oops"))
    ok = gallery / "ok.jpg"
    Image.fromarray(real_photos["coffee"][:64, :64]).save(ok)
    (gallery / "ok.jpg.xmp").write_bytes(b"\x89PNG\r\n\x1a\n not a sidecar")
    store, settings, report = index_with(tmp_path, gallery, lambda st: [EmbeddedMetadataAnalyzer(st)])
    assert report.failed == 0 and report.added == 2
    with store.session() as s:
        assert set(s.scalars(select(Analysis.status).where(Analysis.analyzer == "embedded"))) == {"ok"}
        issues = dict(
            s.execute(
                select(Photo.path, Fact.label)
                .join(Fact, Fact.photo_id == Photo.id)
                .where(Fact.kind == "metadata_issue")
            ).all()
        )
    assert issues == {
        str(gallery / "broken.jpg"): "the XMP in the file is malformed: skipped",
        str(gallery / "ok.jpg"): "ok.jpg.xmp is not XML: skipped",
    }
    status = store.status()
    issues = status["metadata_issues"]
    assert issues["count"] == 2 and issues["first"].endswith(": the XMP in the file is malformed: skipped")
    assert "metadata partly skipped in 2 photo(s) (still indexed); first: " in _status_text(status)


def test_a_file_name_that_is_not_utf8_is_read_too(gallery):
    path = os.fsdecode(bytes(gallery) + b"/caf\xe9.jpg")  # Latin-1 bytes in the name
    Image.new("RGB", (32, 32)).save(path)
    exiftool.write(Path(path), "-XMP-dc:Subject=Lisbon")
    got = read_metadata(path)
    assert [k.label for k in got.keywords] == ["Lisbon"] and got.issues == []
