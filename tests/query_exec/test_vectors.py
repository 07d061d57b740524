"""usearch indexes: rebuild when missing/corrupt/stale, removal on delete, dtypes."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.catalog.models import Photo
from photosearch.vectors import FACE_SPACE, VectorIndex, VectorIndexes
from photosearch.vectors.index import space_filename


def test_build_save_and_reload(store, settings, gallery):
    vi = VectorIndexes(store, settings)
    idx = vi.get("image")
    assert len(idx) == 10
    path = settings.vectors_dir / "image.usearch"
    assert path.is_file() and (settings.vectors_dir / "image.json").is_file()
    keys, sims = idx.search(idx.get(gallery["dog1.jpg"]), 2)
    assert keys[0] == gallery["dog1.jpg"] and sims[0] == pytest.approx(1.0, abs=1e-3)
    mtime = path.stat().st_mtime_ns
    again = VectorIndexes(store, settings).get("image")  # fresh process: loads, no rebuild
    assert len(again) == 10 and path.stat().st_mtime_ns == mtime
    faces = vi.get(FACE_SPACE)
    assert len(faces) == 7 and faces.dim == 128


def test_rebuild_when_deleted(store, settings, gallery):
    VectorIndexes(store, settings).get("image")
    (settings.vectors_dir / "image.usearch").unlink()
    idx = VectorIndexes(store, settings).get("image")
    assert len(idx) == 10 and (settings.vectors_dir / "image.usearch").is_file()


@pytest.mark.parametrize("damage", ["garbage", "truncate", "flip"])
def test_rebuild_when_corrupt(store, settings, gallery, damage):
    VectorIndexes(store, settings).get("image")
    path = settings.vectors_dir / "image.usearch"
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        path.write_bytes(b"not an index" * 10)
    elif damage == "truncate":
        path.write_bytes(bytes(data[: len(data) // 2]))
    else:
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    idx = VectorIndexes(store, settings).get("image")
    assert len(idx) == 10
    keys, _ = idx.search(idx.get(gallery["cat1.jpg"]), 1)
    assert keys[0] == gallery["cat1.jpg"]


def test_stale_index_syncs_and_delete_removes(store, settings, gallery):
    vi = VectorIndexes(store, settings)
    assert gallery["dog1.jpg"] in vi.get("image")
    for space in vi.spaces():
        vi.get(space)
    with store.session() as s:
        s.get(Photo, gallery["dog1.jpg"]).state = "deleted"
    assert vi.remove_photos([gallery["dog1.jpg"]]) == 3  # image + facts_text + its face
    reloaded = VectorIndex.load(settings.vectors_dir, "image")[0]
    assert gallery["dog1.jpg"] not in reloaded and len(reloaded) == 9
    # a photo state change alone (no remove call) is also caught by the staleness check
    with store.session() as s:
        s.get(Photo, gallery["cat1.jpg"]).state = "deleted"
    idx = VectorIndexes(store, settings).get("image")
    assert gallery["cat1.jpg"] not in idx and len(idx) == 8


@pytest.mark.parametrize("dtype", ["f32", "f16", "i8"])
def test_dtypes(tmp_path, dtype):
    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((50, 32)).astype(np.float32)
    idx = VectorIndex("clip:test", 32, dtype)
    idx.add(np.arange(100, 150), vecs)
    idx.save(tmp_path)
    loaded, side = VectorIndex.load(tmp_path, "clip:test")
    assert side.dtype == dtype and side.count == 50 and space_filename("clip:test") == "clip_test"
    keys, sims = loaded.search(vecs[7], 1, exact=True)
    assert keys[0] == 107 and sims[0] > 0.95
    loaded.add([999], vecs[:1])  # loaded writable (restore, not view)
    assert 999 in loaded and loaded.remove([999, 12345]) == 1
