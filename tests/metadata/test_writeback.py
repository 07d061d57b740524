"""Write-back into XMP sidecars: opt-in, never into the photo, merged with what the sidecar holds
(fields we do not know included), atomic; exiftool reads back the same values."""

from __future__ import annotations

import hashlib

import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Face, Fact, Person, Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from photosearch.metadata.sync import sync_sidecars
from photosearch.metadata.writeback import SidecarUpdate, SidecarWriteError, sidecar_path, write_sidecar
from photosearch.query.search import search
from tests.metadata import exiftool

DARKTABLE_SIDECAR = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:darktable="http://darktable.sf.net/"
    xmlns:acme="http://example.com/acme/1.0/"
    darktable:xmp_version="5"
    acme:secret="keep me">
   <dc:subject><rdf:Bag><rdf:li>Holiday</rdf:li></rdf:Bag></dc:subject>
   <darktable:history><rdf:Seq><rdf:li darktable:operation="exposure" darktable:enabled="1"/></rdf:Seq></darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def photo(tmp_path, real_photos):
    path = tmp_path / "photo.jpg"
    Image.fromarray(real_photos["astronaut"]).save(path)
    return path


def test_what_we_write_exiftool_reads_back(photo):
    before = _digest(photo)
    update = SidecarUpdate(
        keywords=["Férias", "favourite"],
        people=[("Eileen Collins", (0.4, 0.1, 0.6, 0.4))],
        rating=4,
        caption="Avó no espaço 🚀",
    )
    target = write_sidecar(photo, update, "photo.jpg.xmp", size=(512, 512))
    assert target == photo.with_name("photo.jpg.xmp")
    got = exiftool.read(target)
    assert got["Subject"] == ["Férias", "favourite"]
    assert got["Rating"] == 4
    assert got["Description"] == "Avó no espaço 🚀"
    (region,) = got["RegionInfo"]["RegionList"]
    assert region["Name"] == "Eileen Collins" and region["Type"] == "Face"
    assert (region["Area"]["X"], region["Area"]["Y"]) == pytest.approx((0.5, 0.25))
    assert (region["Area"]["W"], region["Area"]["H"]) == pytest.approx((0.2, 0.3))
    assert got["RegionInfo"]["AppliedToDimensions"] == {"W": 512, "H": 512, "Unit": "pixel"}
    assert _digest(photo) == before  # the photo itself is never written


def test_lightroom_naming_and_merge_keeps_fields_we_do_not_know(photo):
    target = sidecar_path(photo, "photo.xmp")
    target.write_text(DARKTABLE_SIDECAR, encoding="utf-8")
    exiftool.write(target, "-RegionName=Zed", "-RegionType=Face", "-RegionAreaX=0.1", "-RegionAreaY=0.1")
    exiftool.write(
        target, "-RegionAreaW=0.1", "-RegionAreaH=0.1", "-RegionAreaUnit=normalized", "-RegionRotation=0.5"
    )
    write_sidecar(
        photo, SidecarUpdate(keywords=["Moon"], people=[("Anna", (0.2, 0.2, 0.4, 0.5))]), "photo.xmp"
    )
    # again, with a shorter packet (Anna's box moves): exiv2's buffer must not leave its old tail
    write_sidecar(photo, SidecarUpdate(people=[("Anna", (0.25, 0.2, 0.35, 0.5))]), "photo.xmp")
    assert target.read_bytes().count(b"<?xpacket begin") == 1
    got = exiftool.read(target)
    assert got["Subject"] == ["Holiday", "Moon"]
    assert got["Secret"] == "keep me" and got["Xmp_version"] == 5
    assert got["History"] == [{"Enabled": 1, "Operation": "exposure"}]
    regions = {r["Name"]: r for r in got["RegionInfo"]["RegionList"]}
    assert set(regions) == {"Zed", "Anna"}
    assert regions["Zed"]["Rotation"] == 0.5  # another tool's region keeps every field it had
    assert regions["Anna"]["Area"]["X"] == pytest.approx(0.3)
    assert not list(photo.parent.glob(".*.tmp"))  # the atomic write leaves no temporary file


def test_a_sidecar_that_is_not_xml_is_left_alone(photo):
    target = sidecar_path(photo)
    target.write_bytes(b"\x00\x01 not xml at all")
    with pytest.raises(SidecarWriteError):
        write_sidecar(photo, SidecarUpdate(keywords=["x"]))
    assert target.read_bytes() == b"\x00\x01 not xml at all"


def test_regions_of_a_rotated_photo_are_written_in_the_stored_frame(photo):
    target = write_sidecar(photo, SidecarUpdate(people=[("Anna", (0.6, 0.1, 0.8, 0.3))]), orientation=6)
    (region,) = exiftool.read(target)["RegionInfo"]["RegionList"]
    # shown x 0.6..0.8, y 0.1..0.3 under orientation 6 is stored x 0.1..0.3, y 0.2..0.4
    assert (region["Area"]["X"], region["Area"]["Y"]) == pytest.approx((0.2, 0.3))


def _catalog(tmp_path, gallery, writeback: bool):
    settings = Settings(data_dir=tmp_path / "data", sidecar_writeback=writeback)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)]).run()
    return settings, store


def _name_and_tag(store):
    with store.session() as s:
        photo = s.scalars(select(Photo)).one()
        person = Person(name="Eileen Collins")
        s.add(person)
        s.flush()
        s.add(Face(photo_id=photo.id, analyzer="faces", box=[0.4, 0.1, 0.6, 0.4], person_id=person.id))
        s.add(Fact(photo_id=photo.id, analyzer="user", kind="user_tag", label="favourite"))
        s.add(Fact(photo_id=photo.id, analyzer="user", kind="rating", label="5"))


def test_nothing_is_written_unless_the_user_opts_in(tmp_path, photo):
    settings, store = _catalog(tmp_path, photo.parent, writeback=False)
    _name_and_tag(store)
    assert sync_sidecars(store, settings).enabled is False
    assert not list(photo.parent.glob("*.xmp"))


def test_names_tags_and_ratings_travel_to_the_sidecar_and_come_back_as_the_files_words(tmp_path, photo):
    settings, store = _catalog(tmp_path, photo.parent, writeback=True)
    _name_and_tag(store)
    report = sync_sidecars(store, settings)
    assert (report.written, report.failed) == (1, [])
    got = exiftool.read(photo.with_name("photo.jpg.xmp"))
    assert got["Subject"] == ["favourite"] and got["Rating"] == 5
    assert [r["Name"] for r in got["RegionInfo"]["RegionList"]] == ["Eileen Collins"]
    assert sync_sidecars(store, settings).unchanged == 1  # nothing new: not written again
    # the next index run sees the sidecar changed and reads it as the file's words; the region
    # joins the face that was already Eileen's (one face, not two)
    Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)]).run()
    with store.session() as s:
        keywords = set(s.scalars(select(Fact.label).where(Fact.kind == "keyword")))
        faces = list(s.scalars(select(Face)))
    assert keywords == {"favourite"}
    assert len(faces) == 1 and faces[0].analyzer == "faces"
    assert sync_sidecars(store, settings).unchanged == 1


@pytest.mark.slow
def test_the_sidecars_command_says_to_opt_in_then_writes(tmp_path, photo, cli):
    settings, store = _catalog(tmp_path, photo.parent, writeback=False)
    _name_and_tag(store)
    store.close()
    off = cli(settings.data_dir, "sidecars", check=False)
    assert off.returncode == 1 and '"sidecar_writeback": true' in off.stderr
    assert not list(photo.parent.glob("*.xmp"))
    (settings.data_dir / "settings.json").write_text(
        '{"sidecar_writeback": true, "sidecar_naming": "photo.xmp"}'
    )
    out = cli(settings.data_dir, "sidecars")
    assert "sidecars written 1" in out.stdout
    assert exiftool.read(photo.with_name("photo.xmp"))["Subject"] == ["favourite"]


def test_an_unknown_naming_writes_nothing_and_says_what_to_set(tmp_path, photo):
    settings, store = _catalog(tmp_path, photo.parent, writeback=True)
    _name_and_tag(store)
    settings.sidecar_naming = "photo.XMP-sidecar"
    report = sync_sidecars(store, settings)
    assert report.written == 0 and len(report.failed) == 1
    assert "photo.jpg.xmp, photo.xmp" in report.failed[0]
    assert not list(photo.parent.glob("*.xmp"))


@pytest.mark.slow
def test_marks_given_by_hand_are_searchable_and_travel_to_the_sidecar(tmp_path, photo, cli_json):
    settings, store = _catalog(tmp_path, photo.parent, writeback=True)
    store.close()
    (settings.data_dir / "settings.json").write_text('{"sidecar_writeback": true}')
    got = cli_json(
        settings.data_dir,
        "mark",
        str(photo),
        "--tag",
        "roadtrip",
        "--tag",
        "favourite",
        "--rating",
        "4",
        "--caption",
        "Avó no espaço",
    )
    assert (got["tags"], got["rating"], got["caption"]) == (["roadtrip", "favourite"], 4, "Avó no espaço")
    assert got["sidecars"]["written"] == 1
    sidecar = exiftool.read(photo.with_name("photo.jpg.xmp"))
    assert (sidecar["Subject"], sidecar["Rating"], sidecar["Description"]) == (
        ["roadtrip", "favourite"],
        4,
        "Avó no espaço",
    )
    store = Store(settings.database_url)
    for request in ("tagged roadtrip", "my favourites", "rated 4 or more", "avó espaço"):
        res = search(store, settings, request, signals=[])
        assert [r["path"] for r in res["results"] if not r["below_cutoff"]] == [str(photo)], request
    got = cli_json(settings.data_dir, "mark", "1", "--untag", "roadtrip", "--no-rating")
    assert (got["tags"], got["rating"]) == (["favourite"], None)
