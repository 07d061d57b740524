"""Proved equal: what our pipeline feeds each hub family's ONNX model is what the family's reference
processor (transformers, built from the config files as the hub repositories hold them) makes of the
same input: pixels on real photos of several sizes and orientations within 1e-5, token ids on 1,000
strings in Latin, Cyrillic, CJK, Arabic and emoji."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from photosearch.vision.clip import ClipEncoder
from photosearch.vision.owl import OwlDetector
from tests.hub import hub_configs as hc
from tests.hub import tiny_models as tm

TOL = 1e-5


@pytest.fixture(scope="module")
def photos() -> dict[str, np.ndarray]:
    """Real photos (scikit-image's data set) landscape, portrait and square, large and small."""
    from skimage import data

    out = {}
    for name in ("astronaut", "chelsea", "coffee", "rocket"):
        img = getattr(data, name)()
        out[name] = img
        out[f"{name}-portrait"] = np.ascontiguousarray(np.rot90(img))
    out["chelsea-small"] = np.ascontiguousarray(data.chelsea()[::7, ::5])  # 43x91: enlarged
    out["coffee-strip"] = np.ascontiguousarray(data.coffee()[:, 250:310])  # 400x60: very tall
    return out


def reference(config_text: str):
    """The family's own processor from its preprocessor_config.json, as AutoImageProcessor builds it."""
    import tempfile

    from transformers import AutoImageProcessor

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "preprocessor_config.json").write_text(config_text, encoding="utf-8")
        return AutoImageProcessor.from_pretrained(d, backend="pil")


def test_the_copied_configs_have_the_sizes_the_hub_lists():
    for name, size in hc.LISTED_BYTES.items():
        assert len(getattr(hc, name).encode()) == size, name


def _immich_folder(root: Path, preprocess_cfg: str, *, embed_dim: int = tm.D) -> Path:
    (root / "visual").mkdir(parents=True)
    (root / "visual" / "preprocess_cfg.json").write_text(preprocess_cfg)
    (root / "config.json").write_text(json.dumps({"embed_dim": embed_dim}))
    return root


@pytest.mark.parametrize("family", ["openai", "laion2b"])
def test_openclip_vit_b_32_pixels_equal_clip_image_processor(family, photos, tmp_path, settings):
    """Immich's ViT-B-32 exports (OpenAI and LAION weights) against the upstream repos'
    CLIPImageProcessor (openai/clip-vit-base-patch32, laion/CLIP-ViT-B-32-laion2B-s34B-b79K)."""
    enc = ClipEncoder(_immich_folder(tmp_path / family, hc.IMMICH_CLIP_PREPROCESS_CFG), settings)
    ref = reference(hc.CLIP_PREPROCESSOR_CONFIG)
    for name, img in photos.items():
        ours = enc.preprocess(img)
        theirs = ref(images=img, return_tensors="np")["pixel_values"][0]
        assert ours.shape == theirs.shape == (3, 224, 224), name
        assert np.abs(ours - theirs).max() <= TOL, name


def test_siglip2_pixels_equal_siglip_image_processor(photos, tmp_path, settings):
    """An OpenCLIP 'squash' config with SigLIP 2's values against google/siglip2-base-patch16-224's
    SiglipImageProcessor (the Immich export's own preprocess_cfg.json is read at run time; its text was
    not in the reference copies)."""
    cfg = {"size": [224, 224], "mode": "RGB", "mean": [0.5] * 3, "std": [0.5] * 3}
    cfg |= {"interpolation": "bilinear", "resize_mode": "squash", "fill_color": 0}
    enc = ClipEncoder(_immich_folder(tmp_path / "siglip2", json.dumps(cfg)), settings)
    ref = reference(hc.SIGLIP2_PREPROCESSOR_CONFIG)
    for name, img in photos.items():
        theirs = ref(images=img, return_tensors="np")["pixel_values"][0]
        assert np.abs(enc.preprocess(img) - theirs).max() <= TOL, name


def test_owlv2_pixels_equal_owlv2_image_processor(photos, tmp_path):
    """The detector's input is Owlv2ImageProcessor's from google/owlv2-base-patch16-ensemble's config
    (960 px: grey padding to a square, anti-aliased resize)."""
    (tmp_path / "preprocessor_config.json").write_text(hc.OWLV2_PREPROCESSOR_CONFIG)
    (tmp_path / "tokenizer.json").write_bytes(tm.tokenizer_json())
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"pad_token": "<pad>"}))
    (tmp_path / "model.onnx").write_bytes(tm.owl_model(960))
    det = OwlDetector(tmp_path)
    ref = reference(hc.OWLV2_PREPROCESSOR_CONFIG)
    for name in ("chelsea", "rocket-portrait", "chelsea-small"):
        ours, hw = det.preprocess(photos[name])
        theirs = ref(images=photos[name], return_tensors="np")["pixel_values"]
        assert hw == photos[name].shape[:2] and ours.shape == theirs.shape == (1, 3, 960, 960)
        assert np.abs(ours - theirs).max() <= TOL, name


# ---- tokens ------------------------------------------------------------------------------------------
FAMILIES = {
    # family: (tokenizer.json builder, tokenizer_config.json text, context length, text tower layout)
    "openai-clip": (hc.clip_tokenizer_json, hc.CLIP_TOKENIZER_CONFIG, 77, "openclip"),
    "xlm-roberta": (hc.xlmr_tokenizer_json, hc.XLMR_TOKENIZER_CONFIG, 77, "mclip"),
    "siglip2-gemma": (hc.gemma_tokenizer_json, hc.GEMMA_TOKENIZER_CONFIG, 64, "openclip"),
    "nllb": (hc.nllb_tokenizer_json, hc.NLLB_TOKENIZER_CONFIG, 77, "mclip"),
}


def _text_folder(root: Path, family: str, strings: list[str]) -> Path:
    build, config, ctx, layout = FAMILIES[family]
    (root / "textual").mkdir(parents=True)
    (root / "textual" / "tokenizer.json").write_text(build(strings), encoding="utf-8")
    (root / "textual" / "tokenizer_config.json").write_text(config, encoding="utf-8")
    text_cfg = {"context_length": ctx} | (
        {"tokenizer_kwargs": {"clean": "canonicalize"}} if "siglip" in family else {}
    )
    (root / "config.json").write_text(json.dumps({"embed_dim": tm.D, "text_cfg": text_cfg}))
    (root / "textual" / "model.onnx").write_bytes(tm.clip_textual(ctx, "batch", layout == "mclip"))
    return root


@pytest.mark.parametrize("family", list(FAMILIES))
def test_token_ids_equal_the_tokenizer_on_1000_strings_in_five_scripts(family, tmp_path, settings):
    from transformers import AutoTokenizer

    strings = hc.mixed_script_strings(1000)
    name = "nllb-test" if family == "nllb" else family
    root = _text_folder(tmp_path / name, family, strings)
    enc = ClipEncoder(root, settings, name=name, language="rus_Cyrl" if family == "nllb" else None)
    feeds = enc.tokenize(strings)
    ids = feeds.get("text", feeds.get("input_ids"))
    ctx = FAMILIES[family][2]
    ref_tok = AutoTokenizer.from_pretrained(str(root / "textual"))
    texts = enc.text_inputs(strings)
    ref = ref_tok(texts, padding="max_length", max_length=ctx, truncation=True, return_tensors="np")
    assert ids.shape == (1000, ctx)
    assert np.array_equal(ids, ref["input_ids"])
    if "attention_mask" in feeds:
        assert np.array_equal(feeds["attention_mask"], ref["attention_mask"])
    # what the reference must hold for these to be worth comparing: every script became real tokens,
    # long strings were cut with the end token kept, padding follows the end token
    special = np.isin(ids, ref_tok.all_special_ids)
    assert ((~special) & (ref["attention_mask"] == 1)).sum(axis=1).min() >= 1
    if ref_tok.unk_token_id not in (ref_tok.eos_token_id, ref_tok.pad_token_id):
        assert (ids == ref_tok.unk_token_id).sum() < 0.01 * ref["attention_mask"].sum()
    eos = ref_tok.eos_token_id
    long_rows = [i for i, s in enumerate(strings) if len(ref_tok(s)["input_ids"]) > ctx]
    assert long_rows and all(ids[i, -1] == eos for i in long_rows)
    short = int(np.argmin(ref["attention_mask"].sum(axis=1)))
    n = int(ref["attention_mask"][short].sum())
    assert ids[short, n - 1] == eos and (ids[short, n:] == ref_tok.pad_token_id).all()
    if family == "nllb":
        assert all(t.startswith("rus_Cyrl") for t in texts)
        assert (ids[:, 0] == ref_tok.convert_tokens_to_ids("rus_Cyrl")).all()
    if family == "siglip2-gemma":  # OpenCLIP's canonicalize runs before the tokenizer: no punctuation left
        assert all("!" not in t and t == t.lower() for t in texts)
