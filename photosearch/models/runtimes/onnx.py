"""ONNX Runtime sessions: provider choice (CUDA when usable, else CPU) and thread counts.

Import this module (not onnxruntime directly) so telemetry stays off: `photosearch` sets
ORT_DISABLE_TELEMETRY before onnxruntime is first imported.
"""

from __future__ import annotations

import ctypes
import functools
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import photosearch  # noqa: F401 - sets ORT_DISABLE_TELEMETRY before onnxruntime loads
from photosearch.config import Settings

if TYPE_CHECKING:
    import onnxruntime as ort


log = logging.getLogger(__name__)

CUDA = "CUDAExecutionProvider"
CPU = "CPUExecutionProvider"


def available_providers() -> list[str]:
    try:
        import onnxruntime as ort
    except ImportError:
        return []
    return list(ort.get_available_providers())


@functools.lru_cache(maxsize=1)
def gpu_present() -> bool:
    """True when the CUDA driver loads and reports at least one device."""
    for lib in ("libcuda.so.1", "libcuda.so", "nvcuda.dll"):
        try:
            cuda = ctypes.CDLL(lib)
        except OSError:
            continue
        try:
            if cuda.cuInit(0) != 0:
                return False
            count = ctypes.c_int(0)
            return cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0
        except AttributeError:
            return False
    return False


def choose_providers(settings: Settings | None = None) -> list[str]:
    """CUDA first when onnxruntime-gpu is installed, a GPU is present and settings allow it; CPU always last."""
    use_gpu = settings.gpu if settings is not None else True
    if use_gpu and CUDA in available_providers() and gpu_present():
        return [CUDA, CPU]
    return [CPU]


def session_options(settings: Settings | None = None, *, memory_arena: bool = True) -> ort.SessionOptions:
    """`settings.threads` intra-op threads that sleep when idle, one inter-op thread.

    ONNX Runtime's threads spin between operators by default: on a 2-core machine where photo
    decoding runs beside the models, that spinning is CPU taken from the decoder (measured: 20-25 %
    more CPU per OCR'd photo, and slower). `memory_arena=False` for inputs whose size varies from call
    to call (OCR), so the arena does not keep the largest one's memory."""
    import onnxruntime as ort

    threads = max(1, int(settings.threads if settings is not None else 2))
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    opts.enable_cpu_mem_arena = memory_arena
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    return opts


def arena_shrinking_run_options() -> ort.RunOptions:
    """Run options that hand the CPU arena's free memory back after each run: for a model whose
    input size varies (a batch of texts), so the arena does not keep the largest run's memory, and
    later runs still allocate from it (measured on MiniLM: 10 % less CPU than no arena at all)."""
    import onnxruntime as ort

    options = ort.RunOptions()
    options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
    return options


class ShrinkingSession:
    """An InferenceSession whose every `run` hands the arena's free memory back afterwards: for a
    model whose input shape changes every call (MiniLM's batches; OCR, called by RapidOCR). With the
    arena and shrinking, OCR's detector and recogniser took 19 % less CPU than with no arena (a new
    input shape cost up to 3x without one) and peaked lower (573 vs 639 MiB on 12 photos' shapes)."""

    def __init__(self, session: ort.InferenceSession):
        self._session = session
        self._options = arena_shrinking_run_options()

    def run(self, output_names, input_feed, run_options=None):
        return self._session.run(output_names, input_feed, run_options or self._options)

    def __getattr__(self, name: str):
        return getattr(self._session, name)


def create_session(
    path: Path | str,
    settings: Settings | None = None,
    providers: list[str] | None = None,
    *,
    memory_arena: bool = True,
    keep_weights_quantized: bool = False,
) -> ort.InferenceSession:
    """An InferenceSession on the best provider; falls back to CPU if CUDA fails to initialise.

    `keep_weights_quantized`: no constant folding, which would turn an int8 model's weights into
    float32 copies held for the session's life (MiniLM int8: 87 -> 23 MiB, and 0.2 -> 0.04 s to load;
    each run then dequantizes as it goes, ~18 ms more for one short text, the same for a batch)."""
    import onnxruntime as ort

    providers = providers or choose_providers(settings)
    opts = session_options(settings, memory_arena=memory_arena)
    disabled = ["ConstantFolding"] if keep_weights_quantized else None

    def start(on: list[str]) -> ort.InferenceSession:
        return ort.InferenceSession(str(path), sess_options=opts, providers=on, disabled_optimizers=disabled)

    try:
        return start(providers)
    except Exception as exc:  # noqa: BLE001 - a broken CUDA setup must not stop the app
        if providers == [CPU]:
            raise
        log.warning("cannot start %s on %s (%s); using CPU", path, providers[0], exc)
        return start([CPU])


def provider(settings: Settings | None = None) -> str:
    """What an ONNX model would run on here, for `models list`."""
    if not available_providers():
        return "unavailable (pip install onnxruntime)"
    return choose_providers(settings)[0]
