"""OpenCV DNN networks (CPU): frozen TensorFlow graphs such as the SSD MobileNet COCO detector."""

from __future__ import annotations

from pathlib import Path

from photosearch.config import Settings

PROVIDER = "OpenCV DNN CPU"


def opencv_threads(settings: Settings | None) -> int:
    """OpenCV's process-wide pool: the model threads (`settings.threads`) shared by the model lanes
    that run side by side (`settings.model_lanes`). The detector's pass on two threads took 112–118 ms
    of CPU for 57–62 ms of wall time on the 2-core machine, on one 79 ms of each, with identical
    outputs (`benchmarks/opencv_threads.py`): while both lanes are busy the second thread only costs."""
    threads = int(settings.threads) if settings is not None else 2
    lanes = int(settings.model_lanes) if settings is not None else 2
    return max(1, threads // max(1, lanes))


def read_tensorflow(model: Path | str, config: Path | str, settings: Settings | None = None):
    """A `cv2.dnn.Net` from a frozen graph (.pb) and its text config (.pbtxt), on the CPU backend. Not
    re-entrant: one forward pass at a time. OpenCV's thread pool is process-wide (`opencv_threads`)."""
    import cv2

    if hasattr(cv2.dnn, "ENGINE_CLASSIC"):  # OpenCV 5: the classic engine runs these graphs well
        net = cv2.dnn.readNetFromTensorflow(str(model), str(config), engine=cv2.dnn.ENGINE_CLASSIC)
    else:
        net = cv2.dnn.readNetFromTensorflow(str(model), str(config))
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
    cv2.setNumThreads(opencv_threads(settings))
    return net
