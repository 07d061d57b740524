"""A hostile gallery end to end through the real CLI: every bad file is recorded with its reason
and skipped, every good photo is catalogued and then analysed, nothing prints a traceback, a re-run
changes nothing, and a hostile settings file or plan is refused cleanly."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import piexif
from PIL import Image

from tests.conftest import run_cli, run_cli_json, save_photo


def _gif_claiming(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("P", (8, 8)).save(buf, "GIF")
    data = bytearray(buf.getvalue())
    data[6:10] = width.to_bytes(2, "little") + height.to_bytes(2, "little")  # logical screen size
    return bytes(data)


def build_hostile_gallery(root: Path, real_photos) -> dict[str, int]:
    """Write the gallery; returns the good photos expected and the failures expected by reason."""
    import pillow_heif

    good = [
        save_photo(root / "ok" / "cat.jpg", real_photos["chelsea"]),
        save_photo(root / "ok" / "coffee.png", real_photos["coffee"][::2, ::2]),
        save_photo(root / "ok" / "space.webp", real_photos["astronaut"][::2, ::2]),
        save_photo(root / "ok" / ("deep/" * 40 + "rocket.jpg"), real_photos["rocket"]),
        save_photo(root / "names" / "new\nline.jpg", real_photos["grace_hopper"][::2, ::2]),
        save_photo(root / "names" / "émoji 📷.jpg", real_photos["flower"][::2, ::2]),
    ]
    latin1 = os.fsencode(str(root / "names")) + b"/caf\xe9.jpg"  # not UTF-8
    with open(latin1, "wb") as fh:
        Image.fromarray(real_photos["china"][::4, ::4]).save(fh, "JPEG")
    heic = root / "phone" / "IMG_0001.heic"
    heic.parent.mkdir(parents=True)
    pillow_heif.from_pillow(Image.fromarray(real_photos["coffee"][::4, ::4])).save(heic)
    gps = {
        piexif.GPSIFD.GPSLatitude: ((45, 1), (30, 1)),
        piexif.GPSIFD.GPSLongitudeRef: b"E",
        piexif.GPSIFD.GPSLongitude: ((9, 1), (10, 1), (0, 1)),
        piexif.GPSIFD.GPSAltitude: (0, 0),
    }
    odd_exif = root / "ok" / "odd_exif.jpg"
    Image.fromarray(real_photos["coffee"][::4, ::4]).save(
        odd_exif,
        "JPEG",
        exif=piexif.dump(
            {
                "0th": {piexif.ImageIFD.Make: b"\x00\xff" * 500},
                "Exif": {},
                "GPS": gps,
                "1st": {},
                "thumbnail": None,
            }
        ),
    )
    good += [heic, odd_exif]

    bad = root / "bad"
    bad.mkdir()
    (bad / "empty.jpg").write_bytes(b"")
    whole = (root / "ok" / "cat.jpg").read_bytes()
    (bad / "truncated.jpg").write_bytes(whole[: len(whole) // 3])
    (bad / "text.jpg").write_text("this is not a photo\n" * 50)
    (bad / "bomb.gif").write_bytes(_gif_claiming(65535, 65535))
    (bad / "huge.tif").write_bytes(Path(save_photo(bad / "src.tif", real_photos["china"])).read_bytes())
    os.remove(bad / "src.tif")
    (bad / "folder.jpg").mkdir()  # a directory with an image name: not a file, not listed
    (bad / "gone.jpg").symlink_to(root / "nowhere.jpg")
    (bad / "loop").symlink_to(root, target_is_directory=True)  # a link back up: a loop
    save_photo(bad / ".hidden.jpg", real_photos["rocket"][::4, ::4])  # hidden: not a photo to catalog
    failures = {
        "empty_file": 1,
        "truncated": 1,
        "not_an_image": 1,
        "too_many_pixels": 1,
        "too_large": 1,
        "vanished": 1,
        "symlink_loop": 1,
    }
    return {"good": len(good) + 1, **{f"fail:{k}": v for k, v in failures.items()}}


def test_hostile_gallery_end_to_end(tmp_path, real_photos):
    root = tmp_path / "hostile"
    expected = build_hostile_gallery(root, real_photos)
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"max_file_bytes": 400_000}))
    run_cli(data, "add", str(root))
    first = run_cli(data, "--json", "index", "--no-analyze", "--no-progress", check=False)
    assert first.returncode == 0 and "Traceback" not in first.stderr, first.stderr
    report = json.loads(first.stdout)
    assert report["added"] == expected["good"] and report["deleted"] == 0
    failed = {f"fail:{k}": v for k, v in report["failed_by_reason"].items()}
    status = run_cli_json(data, "status")
    assert status["photos"] == expected["good"]
    assert {f"fail:{k}": v for k, v in status["failed_by_reason"].items()} == {
        k: v for k, v in expected.items() if k.startswith("fail:")
    }
    assert all(expected.get(k) == v for k, v in failed.items())  # read-time failures, as the run reported
    again = run_cli_json(data, "index", "--no-analyze", "--no-progress")
    assert (again["added"], again["changed"], again["deleted"], again["unchanged"]) == (
        0,
        0,
        0,
        expected["good"],
    )
    # an analysed pass (the real quality analyzer, fast): the good files, odd names and depths included,
    # are read again for their pixels and analysed; nothing crashes; the bad files keep their reasons
    done = run_cli(data, "--json", "index", "--analyzers", "quality", "--no-progress", check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    analysed = json.loads(done.stdout)
    assert (analysed["added"], analysed["changed"], analysed["deleted"]) == (0, 0, 0)
    assert analysed["analysed"] == expected["good"] and analysed["analysis_failed"] == 0
    assert analysed["analyzers"]["quality"] == {"ok": expected["good"], "failed": 0, "first_error": None}
    after = run_cli_json(data, "status")
    assert after["analysed"] == after["photos"] == expected["good"] and after["analysis_failures"] == {}
    assert after["failed_by_reason"] == status["failed_by_reason"]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"where": {"or": [{"text": "x " * 4000}, {"camera": "\x00" * 100}]}}))
    searched = run_cli(data, "search", "--plan", str(plan), check=False)
    assert searched.returncode == 0 and "Traceback" not in searched.stderr, searched.stderr
    (data / "settings.json").write_text('{"web_enabled": "false"}')
    refused = run_cli(data, "status", check=False)
    assert refused.returncode == 1 and "'web_enabled'" in refused.stderr and "Traceback" not in refused.stderr
