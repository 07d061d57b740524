"""`photosearch album …` and `photosearch export` as a user runs them (subprocess, real gallery)."""

from __future__ import annotations

from datetime import datetime

from tests.conftest import save_photo


def test_albums_from_the_command_line(tmp_path, gallery, cli, cli_json):
    data = tmp_path / "data"
    cli(data, "add", str(gallery))
    cli(data, "index", "--no-analyze")
    chelsea, coffee = str(gallery / "cats" / "chelsea.jpg"), str(gallery / "kitchen" / "coffee.jpg")
    assert cli(data, "album", "list").stdout.strip() == "no albums yet (photosearch album create NAME)"
    created = cli_json(data, "album", "create", "Holidays")
    assert (created["name"], created["kind"], created["count"]) == ("Holidays", "manual", 0)
    assert cli_json(data, "album", "add", "holidays", chelsea, coffee) == {"album": "holidays", "added": 2}
    shown = cli_json(data, "album", "show", "Holidays")
    assert [p["path"] for p in shown["photos"]] == [coffee, chelsea]  # by date: 2021 before 2023
    # the album atom in a request
    found = cli_json(data, "search", "photos in album Holidays from 2023")
    assert [r["path"] for r in found["results"] if not r["below_cutoff"]] == [chelsea]
    assert cli_json(data, "album", "remove", "Holidays", coffee)["removed"] == 1
    # a smart album follows the library: a new photo of 2019 joins it after indexing
    saved = cli_json(data, "album", "save-search", "Old ones", "photos from 2019")
    assert saved["kind"] == "smart" and saved["count"] == 1
    save_photo(gallery / "trips" / "another.jpg", gallery_rgb(), taken_at=datetime(2019, 8, 1, 9, 0))
    cli(data, "index", "--no-analyze")
    listed = {a["name"]: a for a in cli_json(data, "album", "list")}
    assert listed["Old ones"]["count"] == 2 and listed["Holidays"]["count"] == 1
    text = cli(data, "album", "list").stdout
    assert "Old ones  (2 photos; smart: photos from 2019)" in text and "Holidays  (1 photo; manual)" in text
    cli(data, "album", "rename", "Old ones", "2019")
    assert cli_json(data, "album", "delete", "2019")["name"] == "2019"
    assert [a["name"] for a in cli_json(data, "album", "list")] == ["Holidays"]


def gallery_rgb():
    import numpy as np

    return (np.random.default_rng(1).random((64, 96, 3)) * 255).astype("uint8")


def test_album_errors_are_one_clear_line(tmp_path, gallery, cli):
    data = tmp_path / "data"
    cli(data, "add", str(gallery))
    cli(data, "index", "--no-analyze")
    cli(data, "album", "create", "Holidays")
    cli(data, "album", "save-search", "Dogs", "dogs")
    for args, words in (
        (("album", "show", "Trips"), "there is no album named 'Trips'; the albums are: Dogs, Holidays"),
        (("album", "create", "holidays"), "an album named 'Holidays' already exists"),
        (("album", "add", "Dogs", "1"), "'Dogs' is a smart album"),
        (("album", "add", "Holidays", "999999"), "no photo has the id #999999 (nothing was changed)"),
        (("album", "add", "Holidays", "/no/such.jpg"), "/no/such.jpg is not in the catalog"),
        (("album", "create", " "), "an album needs a name"),
        (("export", "--to", str(tmp_path / "o")), "say which photos"),
    ):
        proc = cli(data, *args, check=False)
        assert proc.returncode == 1, (args, proc.stderr)
        assert proc.stderr.strip() == f"photosearch: error: {words}" or words in proc.stderr, (
            args,
            proc.stderr,
        )
        assert "Traceback" not in proc.stderr


def test_export_a_request_and_an_album(tmp_path, gallery, cli, cli_json):
    data = tmp_path / "data"
    cli(data, "add", str(gallery))
    cli(data, "index", "--no-analyze")
    chelsea = gallery / "cats" / "chelsea.jpg"
    (gallery / "cats" / "chelsea.jpg.xmp").write_text("<x:xmpmeta/>")
    out = tmp_path / "out"
    report = cli_json(data, "export", "--to", str(out), "photos", "from", "2023")
    assert report["copied"] == 1 and report["sidecars"] == 1 and report["skipped"] == []
    assert (out / "chelsea.jpg").read_bytes() == chelsea.read_bytes()
    assert (out / "chelsea.jpg.xmp").is_file()
    cli(data, "album", "create", "Two")
    cli(data, "album", "add", "Two", str(chelsea), str(gallery / "kitchen" / "coffee.jpg"))
    proc = cli(data, "export", "--to", str(out), "--album", "Two")
    assert "Copied 2 of 2 photos to" in proc.stdout and "1 renamed to keep existing files" in proc.stdout
    assert (out / "chelsea (2).jpg").read_bytes() == chelsea.read_bytes() and (out / "coffee.jpg").is_file()
    assert "\r" not in proc.stderr  # not a terminal: no bar codes
