"""Tiny ONNX models + tokenizer files in exactly the layouts of the real exports, built with `onnx.helper`.

CLIP (Immich's export: ``torch.onnx.export(input_names=["image"], output_names=["embedding"])``, batch 1):
  visual/model.onnx   image float32 [1,3,S,S] -> embedding float32 [1,D]  (L2-normalised inside, like
                      ``encode_image(normalize=True)``)
  textual/model.onnx  text int32 [1,77] -> embedding [1,D]  (OpenCLIP) or input_ids + attention_mask
                      int32 -> embedding (M-CLIP)
OWLv2 (optimum / transformers.js export):
  input_ids int64 [Q,16], pixel_values float32 [1,3,S,S], attention_mask int64 [Q,16]
  -> logits float32 [1,P,Q], pred_boxes float32 [1,P,4] (cx, cy, w, h in the padded square, 0..1)
"""

from __future__ import annotations

import json

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MEAN = (0.48145466, 0.4578275, 0.40821073)
STD = (0.26862954, 0.2613026, 0.2757771)
VOCAB = [
    "<pad>",
    "<|startoftext|>",
    "<|endoftext|>",
    "<unk>",
    "a",
    "photo",
    "of",
    "red",
    "green",
    "blue",
    "cat",
    "rocket",
    "coffee",
    "astronaut",
    "sky",
]
D = 8
# visual: mean normalised colour (3) -> D. Channels map to dims 0..2; other dims get a small fixed mix.
WV = np.zeros((3, D), dtype=np.float32)
WV[:3, :3] = np.eye(3, dtype=np.float32)
WV[:, 3:] = np.random.default_rng(0).normal(0, 0.05, size=(3, D - 3)).astype(np.float32)
# text: colour words point at their channel; other words at a fixed random direction; specials zero.
ET = np.zeros((len(VOCAB), D), dtype=np.float32)
_rng = np.random.default_rng(1)
for i, w in enumerate(VOCAB):
    if w in ("red", "green", "blue"):  # the normalised value of the pure colour
        pure = np.eye(3, dtype=np.float32)[("red", "green", "blue").index(w)]
        ET[i, :3] = (pure - np.array(MEAN, np.float32)) / np.array(STD, np.float32)
    elif not w.startswith("<"):
        ET[i] = _rng.normal(0, 0.03, size=D)


def _model(nodes, inputs, outputs, inits, opset=17) -> bytes:
    graph = helper.make_graph(nodes, "tiny", inputs, outputs, initializer=inits)
    m = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="photosearch-tests"
    )
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m.SerializeToString()


def clip_visual(size: int = 224, batch: int | str = 1, input_name: str = "image") -> bytes:
    x = helper.make_tensor_value_info(input_name, TensorProto.FLOAT, [batch, 3, size, size])
    y = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [batch, D])
    nodes = [
        helper.make_node("ReduceMean", [input_name], ["m"], axes=[2, 3], keepdims=0),
        helper.make_node("MatMul", ["m", "Wv"], ["v"]),
        helper.make_node("LpNormalization", ["v"], ["embedding"], axis=-1, p=2),
    ]
    return _model(nodes, [x], [y], [numpy_helper.from_array(WV, "Wv")])


def clip_textual(ctx: int = 77, batch: int | str = 1, mclip: bool = False, vocab: int = 0) -> bytes:
    """`vocab` > len(VOCAB): rows for a real-size tokenizer's ids (small fixed random directions)."""
    ids_name = "input_ids" if mclip else "text"
    inputs = [helper.make_tensor_value_info(ids_name, TensorProto.INT32, [batch, ctx])]
    nodes = [helper.make_node("Gather", ["Et", ids_name], ["e"], axis=0)]  # [B, L, D]
    if mclip:
        inputs.append(helper.make_tensor_value_info("attention_mask", TensorProto.INT32, [batch, ctx]))
        nodes += [
            helper.make_node("Cast", ["attention_mask"], ["mf"], to=TensorProto.FLOAT),
            helper.make_node("Unsqueeze", ["mf", "ax2"], ["m3"]),
            helper.make_node("Mul", ["e", "m3"], ["em"]),
            helper.make_node("ReduceSum", ["em", "ax1"], ["s"], keepdims=0),
        ]
    else:
        nodes.append(helper.make_node("ReduceSum", ["e", "ax1"], ["s"], keepdims=0))
    nodes.append(helper.make_node("LpNormalization", ["s"], ["embedding"], axis=-1, p=2))
    y = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [batch, D])
    table = ET
    if vocab > len(VOCAB):
        extra = np.random.default_rng(2).normal(0, 0.03, size=(vocab - len(VOCAB), D)).astype(np.float32)
        table = np.concatenate([ET, extra])
    inits = [
        numpy_helper.from_array(table, "Et"),
        numpy_helper.from_array(np.array([1], np.int64), "ax1"),
        numpy_helper.from_array(np.array([2], np.int64), "ax2"),
    ]
    return _model(nodes, inputs, [y], inits)


def tokenizer_json(max_length: int | None = None) -> bytes:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(VOCAB)}, unk_token="<unk>"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="<|startoftext|> $A <|endoftext|>",
        special_tokens=[("<|startoftext|>", 1), ("<|endoftext|>", 2)],
    )
    return tok.to_str().encode()


def clip_repo_files(*, mclip: bool = False, batch: int | str = 1, size: int = 224) -> dict[str, bytes]:
    """Every file of an Immich-layout CLIP repo."""
    config = {"embed_dim": D, "vision_cfg": {"image_size": size}, "text_cfg": {"context_length": 77}}
    pre = {
        "size": [size, size],
        "mode": "RGB",
        "mean": [0.48145466, 0.4578275, 0.40821073],
        "std": [0.26862954, 0.2613026, 0.2757771],
        "interpolation": "bicubic",
        "resize_mode": "shortest",
        "fill_color": 0,
    }
    return {
        "config.json": json.dumps(config).encode(),
        "visual/model.onnx": clip_visual(size, batch),
        "visual/preprocess_cfg.json": json.dumps(pre).encode(),
        "textual/model.onnx": clip_textual(77, batch, mclip),
        "textual/tokenizer.json": tokenizer_json(),
        "textual/tokenizer_config.json": json.dumps({"pad_token": "<pad>", "model_max_length": 77}).encode(),
    }


# ---- OWLv2 -----------------------------------------------------------------------------------------
OWL_PATCH = 16
# text embedding per word in normalised colour space: "red" likes high R, low G/B, etc.
OWL_ET = np.zeros((len(VOCAB), 3), dtype=np.float32)
OWL_ET[VOCAB.index("red")] = [1.0, -0.5, -0.5]
OWL_ET[VOCAB.index("green")] = [-0.5, 1.0, -0.5]
OWL_ET[VOCAB.index("blue")] = [-0.5, -0.5, 1.0]


def owl_model(size: int = 64) -> bytes:
    g = size // OWL_PATCH
    p = g * g
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["num_queries", 16]),
        helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, [1, 3, size, size]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["num_queries", 16]),
    ]
    outputs = [
        helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, p, "num_queries"]),
        helper.make_tensor_value_info("pred_boxes", TensorProto.FLOAT, [1, p, 4]),
    ]
    # boxes: each patch predicts its own cell (cx, cy, w, h), row-major like OWL's patch grid
    cells = []
    for r in range(g):
        for c in range(g):
            cells.append([(c + 0.5) / g, (r + 0.5) / g, 1.0 / g, 1.0 / g])
    boxes = np.array([cells], dtype=np.float32)
    nodes = [
        helper.make_node(
            "AveragePool",
            ["pixel_values"],
            ["pool"],
            kernel_shape=[OWL_PATCH, OWL_PATCH],
            strides=[OWL_PATCH, OWL_PATCH],
        ),
        helper.make_node("Reshape", ["pool", "shape_p"], ["flat"]),  # [1,3,P]
        helper.make_node("Transpose", ["flat"], ["patches"], perm=[0, 2, 1]),  # [1,P,3]
        helper.make_node("Gather", ["Et", "input_ids"], ["te"], axis=0),  # [Q,16,3]
        helper.make_node("Cast", ["attention_mask"], ["mf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mf", "ax2"], ["m3"]),
        helper.make_node("Mul", ["te", "m3"], ["tm"]),
        helper.make_node("ReduceSum", ["tm", "ax1"], ["q"], keepdims=0),  # [Q,3]
        helper.make_node("Transpose", ["q"], ["qt"], perm=[1, 0]),  # [3,Q]
        helper.make_node("MatMul", ["patches", "qt"], ["sim"]),  # [1,P,Q]
        helper.make_node("Mul", ["sim", "scale"], ["scaled"]),
        helper.make_node("Sub", ["scaled", "bias"], ["logits"]),
        helper.make_node("Identity", ["boxes"], ["pred_boxes"]),
    ]
    inits = [
        numpy_helper.from_array(OWL_ET, "Et"),
        numpy_helper.from_array(np.array([1, 3, p], np.int64), "shape_p"),
        numpy_helper.from_array(np.array([1], np.int64), "ax1"),
        numpy_helper.from_array(np.array([2], np.int64), "ax2"),
        numpy_helper.from_array(np.array(6.0, np.float32), "scale"),
        numpy_helper.from_array(np.array(3.0, np.float32), "bias"),
        numpy_helper.from_array(boxes, "boxes"),
    ]
    return _model(nodes, inputs, outputs, inits)


def owl_repo_files(size: int = 64) -> dict[str, bytes]:
    """The Xenova layout; preprocessor_config.json is google/owlv2-base-patch16-ensemble's at `size`."""
    from tests.hub.hub_configs import OWLV2_PREPROCESSOR_CONFIG

    pre = json.loads(OWLV2_PREPROCESSOR_CONFIG)
    pre["size"] = {"height": size, "width": size}
    return {
        "model.onnx": owl_model(size),
        "tokenizer.json": tokenizer_json(),
        "tokenizer_config.json": json.dumps({"pad_token": "<pad>", "model_max_length": 16}).encode(),
        "preprocessor_config.json": json.dumps(pre).encode(),
    }
