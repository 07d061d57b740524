"""OpenCV DNN networks (CPU): frozen TensorFlow graphs such as the SSD MobileNet COCO detector."""

from __future__ import annotations

from pathlib import Path

from photosearch.config import Settings

PROVIDER = "OpenCV DNN CPU"


def read_tensorflow(model: Path | str, config: Path | str, settings: Settings | None = None):
    """A `cv2.dnn.Net` from a frozen graph (.pb) and its text config (.pbtxt), on the CPU backend. Not
    re-entrant: one forward pass at a time. OpenCV's thread pool is process-wide; it is sized like the
    rest of the model runtime (`settings.threads`)."""
    import cv2

    if hasattr(cv2.dnn, "ENGINE_CLASSIC"):  # OpenCV 5: the classic engine runs these graphs well
        net = cv2.dnn.readNetFromTensorflow(str(model), str(config), engine=cv2.dnn.ENGINE_CLASSIC)
    else:
        net = cv2.dnn.readNetFromTensorflow(str(model), str(config))
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
    cv2.setNumThreads(max(1, int(settings.threads if settings is not None else 2)))
    return net
