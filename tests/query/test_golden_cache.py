"""Files derived from sources (the golden library's YAML, WordNet's index) are cached and rebuilt on change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from photosearch import cache_files
from photosearch.cache_files import derived
from photosearch.query import golden

PAIR = """- request: {request}
  now: '2024-05-15'
  plan:
    where: {{concept: {concept}}}
"""


@pytest.fixture
def golden_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "golden"
    d.mkdir()
    (d / "animals.yaml").write_text(PAIR.format(request="tabby cat", concept="tabby cat"), encoding="utf-8")
    monkeypatch.setenv("PHOTOSEARCH_GOLDEN_DIR", str(d))
    monkeypatch.setenv("PHOTOSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    return d


def _forbid_yaml(monkeypatch):
    def fail(path):
        raise AssertionError(f"{path} was parsed again")

    monkeypatch.setattr(golden, "read_yaml", fail)


def test_golden_cache_is_used_when_nothing_changed(golden_dir, tmp_path, monkeypatch):
    first = golden.load_bundled()
    assert [e.request for e in first] == ["tabby cat"]
    assert list((tmp_path / "cache").glob("golden-*.pickle"))
    _forbid_yaml(monkeypatch)
    again = golden.load_bundled()
    assert [(e.request, e.plan, e.now) for e in again] == [(e.request, e.plan, e.now) for e in first]


def test_golden_cache_is_rebuilt_when_a_file_changes(golden_dir, monkeypatch):
    assert [e.request for e in golden.load_bundled()] == ["tabby cat"]
    path = golden_dir / "animals.yaml"
    st = path.stat()
    path.write_text(PAIR.format(request="black dog", concept="black dog"), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a coarse clock still sees a change
    assert [e.request for e in golden.load_bundled()] == ["black dog"]


def test_golden_cache_is_rebuilt_when_a_file_is_added(golden_dir):
    golden.load_bundled()
    (golden_dir / "more.yaml").write_text(PAIR.format(request="red car", concept="red car"), encoding="utf-8")
    assert sorted(e.request for e in golden.load_bundled()) == ["red car", "tabby cat"]


def test_a_broken_golden_file_still_fails_loudly(golden_dir):
    (golden_dir / "bad.yaml").write_text("- request: [unclosed\n", encoding="utf-8")
    with pytest.raises(golden.PhotoSearchError, match="not valid YAML"):
        golden.load_bundled()


def test_the_bundled_library_from_the_cache_equals_a_fresh_parse(tmp_path, monkeypatch):
    monkeypatch.setenv("PHOTOSEARCH_CACHE_DIR", str(tmp_path / "cache"))
    fresh = [
        e for p in sorted(golden.bundled_dir().glob("*.yaml")) for e in golden.load_file(p, source="bundled")
    ]
    golden.load_bundled()  # builds the cache
    _forbid_yaml(monkeypatch)
    cached = golden.load_bundled()
    assert len(cached) == len(fresh) > 100
    assert [(e.request, e.plan, e.now, e.people) for e in cached] == [
        (e.request, e.plan, e.now, e.people) for e in fresh
    ]


def test_derived_rebuilds_a_damaged_file_and_survives_an_unwritable_dir(tmp_path):
    src = tmp_path / "source.txt"
    src.write_text("a", encoding="utf-8")
    calls = []

    def build():
        calls.append(1)
        return {"value": src.read_text(encoding="utf-8")}

    assert derived("thing", [src], build, directory=tmp_path / "c") == {"value": "a"}
    assert derived("thing", [src], build, directory=tmp_path / "c") == {"value": "a"}
    assert len(calls) == 1
    (saved,) = (tmp_path / "c").glob("thing-*.pickle")
    saved.write_bytes(b"not a pickle")
    assert derived("thing", [src], build, directory=tmp_path / "c") == {"value": "a"}
    assert len(calls) == 2
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x", encoding="utf-8")
    assert derived("thing", [src], build, directory=blocked) == {"value": "a"}  # cannot save: still answers


def test_user_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PHOTOSEARCH_CACHE_DIR", str(tmp_path / "x"))
    assert cache_files.user_cache_dir() == tmp_path / "x"
