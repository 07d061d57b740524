"""The scene model in 8-bit integers, for processors: the same network with its convolutions'
weights in int8 (per output channel) and their activations in uint8 (QDQ: ONNX Runtime fuses each
dequantize → convolution → quantize into one integer convolution).

On a processor the float network is the costliest model PhotoSearch runs (about 125 ms a photo on
one core, the detector about 100); in int8 it takes about 35. The first convolution and the
classifier stay float (they cost little and lose most). Each activation's range was measured once,
on real photos, by `python -m photosearch.vision.scene_ranges PHOTO_DIR` (the 0.01 and 99.99
percentiles of every value, the float model's own) and is kept in
`resources/scene_int8_ranges.json`: building the model needs no photo and gives the same bytes each
time. The float model stays for graphics cards, where integer convolutions gain nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

#: Each quantized activation's measured (low, high) range.
RANGES_FILE = Path(__file__).resolve().parents[2] / "resources" / "scene_int8_ranges.json"
#: The percentiles of an activation's values that bound its range (outliers beyond are clipped).
LOW_PERCENTILE, HIGH_PERCENTILE = 0.01, 99.99
#: uint8 activations, int8 weights (symmetric, per output channel).
UINT8_MAX, INT8_MAX = 255, 127
#: A convolution channel whose largest weight is below this is dead (all zeros once quantized).
DEAD_CHANNEL = 1e-8


class RangesUnavailable(ValueError):
    """The measured ranges are missing or unreadable."""


def read_ranges(path: Path = RANGES_FILE) -> dict[str, tuple[float, float]]:
    """The measured (low, high) range of each quantized activation."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(name): (float(lo), float(hi)) for name, (lo, hi) in data["ranges"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RangesUnavailable(f"the scene model's int8 ranges ({path}) cannot be read: {exc}") from exc


def activation_params(low: float, high: float) -> tuple[float, int]:
    """(scale, zero point) of a uint8 activation whose values lie in [low, high] (0 always inside)."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = (high - low) / UINT8_MAX if high > low else 1.0
    return scale, int(np.clip(round(-low / scale), 0, UINT8_MAX))


def weight_params(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 weights, per-output-channel scales) of a convolution's float weights."""
    peak = np.abs(w).reshape(w.shape[0], -1).max(axis=1)
    # a dead channel (batch norm folded its weights to ~1e-38) is zeros at scale 1
    scale = np.where(peak > DEAD_CHANNEL, peak / INT8_MAX, 1.0).astype(np.float32)
    q = np.clip(np.round(w / scale[:, None, None, None]), -INT8_MAX, INT8_MAX).astype(np.int8)
    return q, scale


class QuantizedGraph:
    """Adds the quantize/dequantize pairs of an int8 network to the node and initializer lists a
    graph builder fills (`places_weights.wide_resnet18_onnx`)."""

    def __init__(self, ranges: Mapping[str, tuple[float, float]], nodes: list, inits: list):
        self.ranges, self.nodes, self.inits = ranges, nodes, inits
        self._dequantized: dict[str, str] = {}
        self.scales: dict[str, float] = {}

    def _const(self, array: np.ndarray, name: str) -> str:
        from onnx import numpy_helper

        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def activation(self, tensor: str) -> str:
        """`tensor` quantized to uint8 and back (once, however many read it): the name to read."""
        from onnx import helper

        if tensor not in self._dequantized:
            if tensor not in self.ranges:
                raise RangesUnavailable(f"the scene model's int8 ranges have none for {tensor!r}")
            scale, zero = activation_params(*self.ranges[tensor])
            self.scales[tensor] = scale
            s = self._const(np.array(scale, np.float32), f"{tensor}.scale")
            z = self._const(np.array(zero, np.uint8), f"{tensor}.zero")
            self.nodes.append(helper.make_node("QuantizeLinear", [tensor, s, z], [f"{tensor}.q"]))
            self.nodes.append(helper.make_node("DequantizeLinear", [f"{tensor}.q", s, z], [f"{tensor}.dq"]))
            self._dequantized[tensor] = f"{tensor}.dq"
        return self._dequantized[tensor]

    def conv_inputs(self, x: str, name: str, w: np.ndarray, b: np.ndarray) -> list[str]:
        """The inputs of a quantized convolution reading `x`: it dequantized, and the int8 weights
        and int32 bias (scale: input's x weight's, per channel) dequantized."""
        from onnx import helper

        x_dq = self.activation(x)
        w_q, w_scale = weight_params(w)
        b_scale = (w_scale * self.scales[x]).astype(np.float32)
        limit = np.iinfo(np.int32)
        b_q = np.clip(np.round(b / b_scale), limit.min, limit.max).astype(np.int32)
        channels = np.zeros(w.shape[0], np.int8)
        wq, ws, wz = (
            self._const(w_q, f"{name}.Wq"),
            self._const(w_scale, f"{name}.Wscale"),
            self._const(channels, f"{name}.Wzero"),
        )
        bq, bs, bz = (
            self._const(b_q, f"{name}.Bq"),
            self._const(b_scale, f"{name}.Bscale"),
            self._const(channels.astype(np.int32), f"{name}.Bzero"),
        )
        self.nodes.append(helper.make_node("DequantizeLinear", [wq, ws, wz], [f"{name}.W"], axis=0))
        self.nodes.append(helper.make_node("DequantizeLinear", [bq, bs, bz], [f"{name}.B"], axis=0))
        return [x_dq, f"{name}.W", f"{name}.B"]


def quantized_tensors(model_bytes: bytes) -> list[str]:
    """The activations the int8 network quantizes: every convolution's input but the photo, both
    inputs of every residual sum, and the last block's output (what the pooling reads)."""
    import onnx

    names: list[str] = []
    for node in onnx.load_from_string(model_bytes).graph.node:
        if node.op_type in ("Conv", "Add", "GlobalAveragePool"):
            inputs = node.input[:2] if node.op_type == "Add" else node.input[:1]
            names += [t for t in inputs if t != "input"]
    return list(dict.fromkeys(names))


def measure_ranges(model_bytes: bytes, images: Iterable[np.ndarray]) -> dict[str, tuple[float, float]]:
    """Each quantized activation's (LOW_PERCENTILE, HIGH_PERCENTILE) range over `images` (N, 3,
    224, 224 normalised), as the float model computes it."""
    import onnx
    import onnxruntime as ort

    names = quantized_tensors(model_bytes)
    model = onnx.load_from_string(model_bytes)
    known = {o.name for o in model.graph.output}
    model.graph.output.extend(onnx.ValueInfoProto(name=n) for n in names if n not in known)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    seen: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for x in images:
        for name, value in zip(names, session.run(names, {"input": x}), strict=True):
            seen[name].append(value.ravel())
    out = {}
    for name, parts in seen.items():
        values = np.concatenate(parts)
        lo, hi = np.percentile(values, [LOW_PERCENTILE, HIGH_PERCENTILE])
        out[name] = (round(float(lo), 6), round(float(hi), 6))
    return out
