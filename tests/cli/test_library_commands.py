"""The CLI as a user runs it: a subprocess over a real gallery."""

from __future__ import annotations

import shutil

from tests.conftest import save_photo


def test_add_index_status_rename_delete(tmp_path, gallery, cli, cli_json, real_photos):
    data = tmp_path / "data"
    out = cli_json(data, "add", str(gallery))
    assert out == {"added": [str(gallery.resolve())]}
    (gallery / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really")
    report = cli_json(data, "index", "--no-analyze")
    assert report["added"] == 7 and report["failed"] == 1
    assert list(report["failed_by_reason"]) in (["truncated"], ["not_an_image"], ["corrupt"])
    status = cli_json(data, "status")
    assert status["photos"] == 7 and status["failed"] == 1 and status["offline_folders"] == []

    shutil.move(gallery / "cats" / "chelsea.jpg", gallery / "cats" / "my cat.jpg")
    (gallery / "space" / "rocket.tif").unlink()
    save_photo(gallery / "new" / "flower.jpg", real_photos["flower"])
    report = cli_json(data, "index", "--no-analyze")
    assert (report["moved"], report["deleted"], report["added"], report["unchanged"]) == (1, 1, 1, 5)
    status = cli_json(data, "status")
    assert status["photos"] == 7 and status["deleted"] == 1


def test_text_output_and_plain_progress_lines(tmp_path, gallery, cli):
    data = tmp_path / "data"
    cli(data, "add", str(gallery))
    proc = cli(data, "index", "--no-analyze")
    assert "added 7" in proc.stdout
    assert "indexed 7/7" in proc.stderr  # not a terminal: plain progress lines, no tqdm bar codes
    assert "\r" not in proc.stderr
    proc = cli(data, "status")
    assert "photos 7" in proc.stdout


def test_errors_are_clear_without_traceback(tmp_path, cli):
    data = tmp_path / "data"
    proc = cli(data, "index", check=False)
    assert proc.returncode == 1 and "photosearch add FOLDER" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli(data, "add", str(tmp_path / "nope"), check=False)
    assert proc.returncode == 1 and "not a folder" in proc.stderr
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "catalog.db").write_bytes(b"garbage" * 1000)
    proc = cli(damaged, "status", check=False)
    assert proc.returncode == 1 and "damaged" in proc.stderr and "Traceback" not in proc.stderr


def test_db_url_option_and_env(tmp_path, gallery, cli_json):
    data = tmp_path / "data"
    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    cli_json(data, "--db-url", url, "add", str(gallery))
    assert (tmp_path / "elsewhere.db").is_file() and not (data / "catalog.db").exists()
    status = cli_json(data, "status", env={"PHOTOSEARCH_DB_URL": url})
    assert [f["path"] for f in status["folders"]] == [str(gallery.resolve())]


def test_watch_command_catches_up_then_follows_new_files(tmp_path, gallery, cli, real_photos):
    import json
    import os
    import subprocess
    import sys
    import time

    data = tmp_path / "data"
    cli(data, "add", str(gallery))
    env = {k: v for k, v in os.environ.items() if k not in ("PHOTOSEARCH_DB_URL", "PHOTOSEARCH_DATA_DIR")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "photosearch",
            "--data-dir",
            str(data),
            "--json",
            "watch",
            "--no-analyze",
            "--duration",
            "12",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(4)
    save_photo(gallery / "new" / "flower.jpg", real_photos["flower"])
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert events[0]["added"] == 7  # the catch-up index
    assert sum(e["added"] for e in events[1:]) == 1  # the new file, live
