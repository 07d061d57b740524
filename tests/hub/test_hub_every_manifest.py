"""The same contract end to end, for every shipped hub manifest: tiny generated models in the real
layout (file paths, input and output names and shapes, the family's tokenizer structure and processor
config) are served by the loopback hub under the manifest's own repository, revision and paths, pulled
with the shipped manifest itself, run through the reference processors, and checked by the doctor.
GGUF manifests: a download whose bytes differ from a pinned sha256 is refused and the file named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from photosearch.hub import VerifyError, pull_model
from photosearch.models.manifest import BUNDLED_MANIFEST_DIR, load_manifests, model_dir
from tests.hub import hub_configs as hc
from tests.hub import tiny_models as tm

SHIPPED = load_manifests(None, [BUNDLED_MANIFEST_DIR / "hub"], strict=True)
CLIP = sorted(n for n, m in SHIPPED.items() if m.role == "clip")
GGUF_PINNED = sorted(n for n, m in SHIPPED.items() if m.runtime == "gguf" and any(f.sha256 for f in m.files))
SQUASH = {"size": [224, 224], "mode": "RGB", "mean": [0.5] * 3, "std": [0.5] * 3, "interpolation": "bilinear"}
SQUASH |= {"resize_mode": "squash", "fill_color": 0}
#: manifest family -> tokenizer.json builder, tokenizer_config.json, context length, M-CLIP inputs,
#: preprocess_cfg.json, the upstream processor config that must give the same pixels
FAMILY = {
    "openclip": (hc.clip_tokenizer_json, hc.CLIP_TOKENIZER_CONFIG, 77, False, hc.IMMICH_CLIP_PREPROCESS_CFG),
    "mclip": (hc.xlmr_tokenizer_json, hc.XLMR_TOKENIZER_CONFIG, 77, True, hc.IMMICH_CLIP_PREPROCESS_CFG),
    "siglip": (hc.gemma_tokenizer_json, hc.GEMMA_TOKENIZER_CONFIG, 64, False, json.dumps(SQUASH)),
    "nllb": (hc.nllb_tokenizer_json, hc.NLLB_TOKENIZER_CONFIG, 77, True, json.dumps(SQUASH)),
}
REFERENCE_PIXELS = {"openclip": hc.CLIP_PREPROCESSOR_CONFIG, "mclip": hc.CLIP_PREPROCESSOR_CONFIG}
REFERENCE_PIXELS |= {"siglip": hc.SIGLIP2_PREPROCESSOR_CONFIG, "nllb": hc.SIGLIP2_PREPROCESSOR_CONFIG}
#: the real text of each small file a shipped CLIP manifest pins (a pull checks its sha256)
PINNED_TEXTS = {"config.json": hc.IMMICH_VIT_B_32_OPENAI_CONFIG}


def test_every_shipped_manifest_has_a_loopback_contract():
    assert set(CLIP) | {"owlv2-base-patch16"} | {n for n, m in SHIPPED.items() if m.runtime == "gguf"} == set(
        SHIPPED
    )
    assert {SHIPPED[n].family for n in CLIP} <= set(FAMILY)
    assert GGUF_PINNED  # LLaVA 1.5 and 1.6, Qwen2.5-VL, Qwen2.5 carry published digests


def _clip_files(family: str, strings: list[str]) -> dict[str, bytes]:
    build, tok_config, ctx, mclip, preprocess = FAMILY[family]
    tokenizer = build(strings)
    vocab = len(json.loads(tokenizer)["model"]["vocab"]) + 16
    text_cfg = {"context_length": ctx} | (
        {"tokenizer_kwargs": {"clean": "canonicalize"}} if family == "siglip" else {}
    )
    return {
        "config.json": json.dumps(
            {"embed_dim": tm.D, "vision_cfg": {"image_size": 224}, "text_cfg": text_cfg}
        ).encode(),
        "visual/model.onnx": tm.clip_visual(224),
        "visual/preprocess_cfg.json": preprocess.encode(),
        "textual/model.onnx": tm.clip_textual(ctx, 1, mclip, vocab=vocab),
        "textual/tokenizer.json": tokenizer.encode(),
        "textual/tokenizer_config.json": tok_config.encode(),
    }


def _reference_pixels(config_text: str, images: list[np.ndarray], tmp: Path) -> np.ndarray:
    from transformers import AutoImageProcessor

    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "preprocessor_config.json").write_text(config_text)
    proc = AutoImageProcessor.from_pretrained(str(tmp), backend="pil")
    return proc(images=images, return_tensors="np")["pixel_values"]


@pytest.mark.parametrize("name", CLIP)
def test_a_shipped_clip_manifest_pulls_and_feeds_what_the_processors_make(name, fake_hub, settings, tmp_path):
    from skimage import data
    from transformers import AutoTokenizer

    from photosearch.health import check_models
    from photosearch.vision.clip import load_clip

    manifest = SHIPPED[name]
    strings = hc.mixed_script_strings(300)
    files = _clip_files(manifest.family, strings)
    files |= {p: PINNED_TEXTS[p].encode() for p in (f.path for f in manifest.files if f.sha256)}
    for path, blob in files.items():
        fake_hub.add_repo_file(manifest.source["repo"], path, blob)
    report = pull_model(settings, name)
    assert {p for p, _ in report.not_verified} == {f.path for f in manifest.files if not f.sha256}
    assert all(len(why) > 20 for _, why in report.not_verified)  # the manifest's reason, in words
    assert any(
        revision in e[1] for e in fake_hub.gets("config.json") for revision in [manifest.source["revision"]]
    )

    enc = load_clip(settings, name)
    root = model_dir(settings, name)
    photos = [data.chelsea(), np.ascontiguousarray(np.rot90(data.rocket())), data.astronaut()]
    ref_pixels = _reference_pixels(REFERENCE_PIXELS[manifest.family], photos, tmp_path / "ref")
    visual = ort.InferenceSession(str(root / "visual/model.onnx"), providers=["CPUExecutionProvider"])
    want = np.concatenate([visual.run(None, {"image": ref_pixels[i : i + 1]})[0] for i in range(len(photos))])
    assert (
        np.abs(enc.encode_images(photos) - want / np.linalg.norm(want, axis=1, keepdims=True)).max() <= 1e-5
    )

    texts = strings[:40]
    ctx = FAMILY[manifest.family][2]
    ref = AutoTokenizer.from_pretrained(str(root / "textual"))(
        enc.text_inputs(texts), padding="max_length", max_length=ctx, truncation=True, return_tensors="np"
    )
    textual = ort.InferenceSession(str(root / "textual/model.onnx"), providers=["CPUExecutionProvider"])
    names = [i.name for i in textual.get_inputs()]
    rows = []
    for i in range(len(texts)):
        feeds = {"attention_mask": ref["attention_mask"][i : i + 1].astype(np.int32)}
        feeds[names[0]] = ref["input_ids"][i : i + 1].astype(np.int32)
        rows.append(textual.run(None, {k: feeds[k] for k in names})[0])
    want = np.concatenate(rows)
    assert np.abs(enc.encode_texts(texts) - want / np.linalg.norm(want, axis=1, keepdims=True)).max() <= 1e-5
    if manifest.family == "nllb":
        assert enc.text_inputs(["cat"]) == [manifest.preprocess["language"] + "cat"]

    (check,) = check_models(settings, include=[name])
    assert check.ok and "through its tokenizer" in check.detail, check


def test_the_shipped_owlv2_manifest_pulls_and_feeds_what_owlv2_processor_makes(fake_hub, settings, tmp_path):
    from photosearch.vision.owl import load_owl

    manifest = SHIPPED["owlv2-base-patch16"]
    files = tm.owl_repo_files(64)
    for f in manifest.files:
        fake_hub.add_repo_file(manifest.source["repo"], f.remote_path, files[f.path])
    pull_model(settings, manifest.name)
    assert fake_hub.gets("onnx/model_quantized.onnx")  # fetched from its path in the repo
    det = load_owl(settings, manifest.name)
    scene = np.full((48, 96, 3), 128, np.uint8)
    scene[8:24, 60:76] = (255, 0, 0)
    config = (model_dir(settings, manifest.name) / "preprocessor_config.json").read_text()
    ours, _ = det.preprocess(scene)
    assert np.abs(ours - _reference_pixels(config, [scene], tmp_path / "ref")).max() <= 1e-5
    assert det.tokenize(["red"])["input_ids"].shape == (1, manifest.preprocess["max_length"])
    assert det.detect(scene, ["red", "blue"])[0].label == "red"


@pytest.mark.parametrize("name", GGUF_PINNED)
def test_a_shipped_gguf_manifest_refuses_bytes_that_differ_from_its_pin(name, fake_hub, settings):
    manifest = SHIPPED[name]
    for f in manifest.files:
        fake_hub.add_repo_file(manifest.source["repo"], f.remote_path, b"GGUF" + f.path.encode() * 40)
    pinned = next(f for f in manifest.files if f.sha256)
    with pytest.raises(VerifyError, match=pinned.path.replace(".", r"\.")):
        pull_model(settings, name)
    assert name not in {p.name for p in settings.models_dir.iterdir() if not p.name.startswith(".")}
