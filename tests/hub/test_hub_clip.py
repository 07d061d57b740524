"""CLIP path: pull a tiny Immich-layout model from the fake hub, index real photos, search text→image."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
from PIL import Image

from photosearch.catalog import Store
from photosearch.hub import pull_model
from photosearch.records import PhotoImage
from photosearch.vision.clip import (
    ClipAnalyzer,
    ClipEncoder,
    clean_text,
    load_clip,
)
from tests.hub import tiny_models as tm
from tests.hub.conftest import write_manifest


def _clip_manifest(name: str, repo: str, files: dict[str, bytes], family="openclip") -> dict:
    return {
        "name": name,
        "role": "clip",
        "tier": "hub",
        "runtime": "onnx",
        "family": family,
        "licence": "test",
        "source": {"type": "hf", "repo": repo, "revision": "main"},
        "files": [
            {"path": p, "sha256": hashlib.sha256(d).hexdigest(), "size": len(d)} for p, d in files.items()
        ],
    }


@pytest.fixture
def pulled_clip(fake_hub, settings):
    files = tm.clip_repo_files()
    for p, d in files.items():
        fake_hub.add_repo_file("immich-app/Tiny-CLIP__test", p, d)
    write_manifest(settings, _clip_manifest("tiny-clip", "immich-app/Tiny-CLIP__test", files))
    pull_model(settings, "tiny-clip")
    return settings


@pytest.fixture(scope="module")
def gallery_images():
    from skimage import data

    imgs = {name: getattr(data, name)() for name in ("astronaut", "chelsea", "coffee", "rocket")}
    red = np.zeros((120, 160, 3), np.uint8)
    red[..., 0] = 255
    blue = np.zeros((150, 100, 3), np.uint8)
    blue[..., 2] = 255
    imgs["red"] = red
    imgs["blue"] = blue
    return imgs


def test_openclip_config_picks_the_matching_transformers_processor(tmp_path, settings):
    """'shortest' is CLIPImageProcessor (short side, centre crop), 'squash' SiglipImageProcessor (no
    crop); OpenCLIP's 'longest' (letterbox) has no processor and is refused with the reason."""
    rgb = np.zeros((100, 200, 3), np.uint8)
    rgb[:, :100, 0] = 255  # left half red
    for mode in ("shortest", "squash", "longest"):
        d = tmp_path / mode
        (d / "visual").mkdir(parents=True)
        cfg = {
            "size": [32, 32],
            "mean": [0, 0, 0],
            "std": [1, 1, 1],
            "interpolation": "bilinear",
            "resize_mode": mode,
        }
        (d / "visual" / "preprocess_cfg.json").write_text(json.dumps(cfg))
    crop = ClipEncoder(tmp_path / "shortest", settings).preprocess(rgb)
    assert (
        type(ClipEncoder(tmp_path / "shortest", settings).image_processor).__name__ == "CLIPImageProcessorPil"
    )
    assert crop.shape == (3, 32, 32) and crop.dtype == np.float32
    assert crop[0, :, 0].mean() > 0.9 and crop[0, :, -1].mean() < 0.1  # the middle of a 2:1 photo
    squash = ClipEncoder(tmp_path / "squash", settings).preprocess(rgb)
    assert abs(squash[0].mean() - 0.5) < 0.05  # the whole photo, squeezed
    with pytest.raises(Exception, match="longest"):
        ClipEncoder(tmp_path / "longest", settings).preprocess(rgb)
    assert clean_text("  A  Photo, of a CAT! ", canonicalize=True) == "a photo of a cat"


def test_encoder_embeddings_are_normalised_and_match_the_model(pulled_clip, gallery_images):
    enc = load_clip(pulled_clip, "tiny-clip")
    imgs = list(gallery_images.values())
    vecs = enc.encode_images(imgs)
    assert vecs.shape == (len(imgs), tm.D)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    # the same numbers as running the ONNX graph ourselves, one image at a time (batch is fixed to 1)
    sess = ort.InferenceSession(str(pulled_clip.models_dir / "tiny-clip/visual/model.onnx"))
    for img, v in zip(imgs, vecs, strict=True):
        ref = sess.run(None, {"image": enc.preprocess(img)[None]})[0][0]
        assert np.allclose(v, ref / np.linalg.norm(ref), atol=1e-5)
    t = enc.encode_texts(["red", "a photo of a blue sky", "cat rocket"])
    assert np.allclose(np.linalg.norm(t, axis=1), 1.0, atol=1e-5)
    assert t[0].argmax() == 0  # "red" is the red channel axis
    feeds = enc.tokenize(["a red cat"])
    assert feeds["text"].dtype == np.int32 and feeds["text"].shape == (1, 77)
    assert list(feeds["text"][0][:5]) == [1, 4, 7, 10, 2] and feeds["text"][0][5:].max() == 0  # padded
    assert enc.providers and enc.providers[-1] == "CPUExecutionProvider"


def test_dynamic_batch_export_runs_in_one_call_and_agrees(tmp_path, settings, gallery_images):
    for batch, sub in ((1, "fixed"), ("batch", "dynamic")):
        for p, d in tm.clip_repo_files(batch=batch).items():
            (tmp_path / sub / p).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / sub / p).write_bytes(d)
    imgs = list(gallery_images.values())
    a = ClipEncoder(tmp_path / "fixed", settings).encode_images(imgs)
    b = ClipEncoder(tmp_path / "dynamic", settings).encode_images(imgs)
    assert np.allclose(a, b, atol=1e-5)
    ta = ClipEncoder(tmp_path / "fixed", settings).encode_texts(["red cat", "blue rocket"])
    tb = ClipEncoder(tmp_path / "dynamic", settings).encode_texts(["red cat", "blue rocket"])
    assert np.allclose(ta, tb, atol=1e-5)


def test_mclip_layout_uses_input_ids_and_attention_mask(tmp_path, settings):
    for p, d in tm.clip_repo_files(mclip=True).items():
        (tmp_path / p).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / p).write_bytes(d)
    enc = ClipEncoder(tmp_path, settings, name="xlm-test")
    feeds = enc.tokenize(["blue sky"])
    assert set(feeds) == {"input_ids", "attention_mask"}
    assert feeds["attention_mask"][0].sum() == 4  # bos blue sky eos
    v = enc.encode_text("blue")
    assert v.argmax() == 2 and np.isclose(np.linalg.norm(v), 1.0)


def test_missing_model_gives_clear_error(settings):
    enc = ClipEncoder(settings.models_dir / "nope", settings, name="nope")
    with pytest.raises(Exception, match="models pull nope"):
        enc.encode_texts(["x"])


@pytest.mark.slow
def _index_with_clip(settings, gallery_images: dict, folder: Path) -> Store:
    """The gallery written as JPEGs and indexed with the pulled CLIP model only."""
    from photosearch.ingest.indexer import Indexer

    folder.mkdir()
    for name, img in gallery_images.items():
        Image.fromarray(img).save(folder / f"{name}.jpg", quality=95)
    store = Store(settings.database_url)
    store.add_folder(folder)
    analyzer = ClipAnalyzer(settings, "tiny-clip")
    assert analyzer.name == "clip:tiny-clip"
    assert Indexer(store, settings, analyzers=[analyzer]).run().added == len(gallery_images)
    return store


def test_index_gallery_stores_normalised_clip_vectors(pulled_clip, gallery_images, tmp_path):
    store = _index_with_clip(pulled_clip, gallery_images, tmp_path / "photos")
    from sqlalchemy import select

    from photosearch.catalog.models import Embedding, Photo

    with store.session() as s:
        rows = s.execute(
            select(Photo.path, Embedding.vector, Embedding.dim)
            .join(Embedding, Embedding.photo_id == Photo.id)
            .where(Embedding.space == "clip:tiny-clip")
        ).all()
    assert len(rows) == len(gallery_images)
    stored = {r[0].rsplit("/", 1)[-1][:-4]: np.frombuffer(r[1], np.float32) for r in rows}
    assert all(np.isclose(np.linalg.norm(v), 1.0, atol=1e-5) for v in stored.values())

    store.close()


def test_clip_analyzer_batch_equals_single(pulled_clip, gallery_images):
    an = ClipAnalyzer(pulled_clip, "tiny-clip")
    imgs = [
        PhotoImage(i, f"{n}.jpg", im, im.shape[1], im.shape[0])
        for i, (n, im) in enumerate(gallery_images.items())
    ]
    batch = an.analyze_batch(imgs)
    single = an.analyze(imgs[1])
    assert np.allclose(batch[1].embeddings["clip:tiny-clip"], single.embeddings["clip:tiny-clip"], atol=1e-6)


def test_doctor_checks_a_pulled_clip_model_and_names_a_damaged_one(pulled_clip, monkeypatch):
    """`photosearch doctor` runs pulled hub models too; a damaged pull is FAILED with a fix."""
    from photosearch.health import check_models, format_report
    from photosearch.models.manifest import model_dir
    from photosearch.vision import clip

    (check,) = check_models(pulled_clip, include=["tiny-clip"])
    assert check.ok and check.tier == "hub" and "-d image embedding" in check.detail
    visual = next(model_dir(pulled_clip, "tiny-clip").rglob("visual/model.onnx"))
    visual.write_bytes(b"not an onnx model")
    monkeypatch.setattr(clip, "_encoders", {})  # a fresh process: nothing loaded yet
    (check,) = check_models(pulled_clip, include=["tiny-clip"])
    assert not check.ok and check.fix
    assert "FAILED  tiny-clip" in format_report([check])


def test_a_pulled_clip_model_ranks_a_text_request(pulled_clip, gallery_images, tmp_path):
    """`search` matches a concept against what the photos look like through every pulled CLIP model:
    the tiny model maps the word "red" nearest to the all-red image (raw cosine); the result's `why`
    names the CLIP space. (The page order is the calibrated z against each photo's own null, which a
    two-layer toy model cannot make meaningful, so the raw similarity is what is checked.) The toy
    model knows colour words only, and a request's colour word is the `color` atom (the measured
    colours; tests/query/test_senses.py), so the plan names the concept."""
    from photosearch.query.search import clip_signals, search

    assert [s.space for s in clip_signals(pulled_clip)] == ["clip:tiny-clip"]
    store = _index_with_clip(pulled_clip, gallery_images, tmp_path / "photos")
    try:
        for word in ("red", "blue"):
            out = search(store, pulled_clip, plan={"version": 1, "where": {"concept": word}, "compose": {}})
            similarity = {
                Path(r["path"]).stem: w["similarity"]
                for r in out["results"]
                for w in r["why"]
                if w.get("fact") == "clip:tiny-clip"
            }
            assert similarity, out["results"]  # without the CLIP signal nothing matches (no other facts)
            assert max(similarity, key=similarity.get) == word, similarity
    finally:
        store.close()
