"""Small pure image and vector functions shared by the models; parameters come from a manifest's
`preprocess`. One copy of each: `resize_max_side` and friends live only here (`l2_normalize`:
`photosearch.models.arrays`)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from photosearch.panoramas import is_panorama

INTERPOLATION = {
    "area": cv2.INTER_AREA,
    "linear": cv2.INTER_LINEAR,
    "cubic": cv2.INTER_CUBIC,
    "nearest": cv2.INTER_NEAREST,
}


def _interp(name: str, shrinking: bool) -> int:
    if name == "area" and not shrinking:
        return cv2.INTER_LINEAR  # INTER_AREA is for shrinking only
    return INTERPOLATION[name]


def resize(rgb: np.ndarray, size: Sequence[int], interpolation: str = "area") -> np.ndarray:
    """Resize to exactly (width, height), ignoring aspect ratio."""
    w, h = int(size[0]), int(size[1])
    shrinking = rgb.shape[1] >= w and rgb.shape[0] >= h
    return cv2.resize(rgb, (w, h), interpolation=_interp(interpolation, shrinking))


def resize_max_side(
    img: np.ndarray, max_side: int, interpolation: str = "area", *, enlarge: bool = True
) -> np.ndarray:
    """Scale so the longest side is `max_side`, keeping aspect ratio; a smaller image is enlarged only
    with `enlarge`."""
    h, w = img.shape[:2]
    scale = max_side / max(h, w)
    if scale == 1 or (scale > 1 and not enlarge):
        return img
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(img, size, interpolation=_interp(interpolation, scale < 1))


def center_crop(rgb: np.ndarray, fraction: float = 0.875) -> np.ndarray:
    """The central square covering `fraction` of the shorter side."""
    h, w = rgb.shape[:2]
    side = max(1, int(round(min(h, w) * fraction)))
    y0, x0 = (h - side) // 2, (w - side) // 2
    return rgb[y0 : y0 + side, x0 : x0 + side]


#: The parts of a panorama (`photosearch.panoramas`) are this much longer than they are short (4:3);
#: a network that squashes its input square sees a whole 6:1 panorama as streaks.
PART_ASPECT = 4 / 3


def part_spans(
    height: int, width: int, part_aspect: float = PART_ASPECT, overlap: float = 0.0
) -> list[tuple[int, int]]:
    """Where a panorama's parts lie along its long side, in pixels (start, end): each `part_aspect`
    of its short side long, spread evenly from one end to the other, neighbours sharing at least
    `overlap` of a part; [] for a photo that is no panorama."""
    if not is_panorama(width, height):
        return []
    long_side, short_side = max(height, width), min(height, width)
    part = min(long_side, round(short_side * part_aspect))
    step = max(1, int(part * (1.0 - overlap)))
    count = 1 + -(-(long_side - part) // step)  # enough parts to cover the long side
    starts = np.linspace(0, long_side - part, count).round().astype(int).tolist()
    return [(s, s + part) for s in starts]


def views(rgb: np.ndarray) -> list[np.ndarray]:
    """The whole photo, then for a panorama its parts (`part_spans`)."""
    h, w = rgb.shape[:2]
    spans = part_spans(h, w)
    if w >= h:
        return [rgb, *(rgb[:, a:b] for a, b in spans)]
    return [rgb, *(rgb[a:b] for a, b in spans)]


def combine_views(outputs: list[np.ndarray]) -> np.ndarray:
    """A network's outputs for the `views` of one photo, as one: each class (or attribute) at its
    strongest in any view, so a thing in one part of a panorama counts as it would in a photo of
    that part alone (a mean would thin it by the number of parts)."""
    if len(outputs) == 1:
        return outputs[0]
    return np.max(np.stack(outputs), axis=0)


def letterbox(
    rgb: np.ndarray, size: Sequence[int], fill: int = 0, interpolation: str = "area"
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Fit inside (width, height) keeping aspect ratio, pad the rest with `fill`.

    Returns the image, the scale applied, and the (x, y) padding offset of the content.
    """
    w, h = int(size[0]), int(size[1])
    ih, iw = rgb.shape[:2]
    scale = min(w / iw, h / ih)
    nw, nh = max(1, round(iw * scale)), max(1, round(ih * scale))
    resized = cv2.resize(rgb, (nw, nh), interpolation=_interp(interpolation, scale < 1))
    out = np.full((h, w, rgb.shape[2]) if rgb.ndim == 3 else (h, w), fill, dtype=rgb.dtype)
    x0, y0 = (w - nw) // 2, (h - nh) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = resized
    return out, scale, (x0, y0)


def unletterbox_box(
    box: Sequence[float], size: Sequence[int], scale: float, pad: tuple[int, int], image_wh: Sequence[int]
) -> list[float]:
    """Map a box normalised to the letterboxed input back to 0..1 of the original image."""
    w, h = size
    iw, ih = image_wh
    x0 = (box[0] * w - pad[0]) / scale / iw
    y0 = (box[1] * h - pad[1]) / scale / ih
    x1 = (box[2] * w - pad[0]) / scale / iw
    y1 = (box[3] * h - pad[1]) / scale / ih
    return clip_box([x0, y0, x1, y1])


def clip_box(box: Sequence[float]) -> list[float]:
    return [float(min(1.0, max(0.0, v))) for v in box]


def prepare(rgb: np.ndarray, params: dict) -> np.ndarray:
    """Apply a manifest's `preprocess` block: resize mode, size, interpolation (uint8 out)."""
    size = params.get("size", [224, 224])
    interp = params.get("interpolation", "area")
    mode = params.get("resize", "squash")
    if mode == "center_crop":
        return resize(center_crop(rgb, float(params.get("crop_fraction", 0.875))), size, interp)
    if mode == "letterbox":
        return letterbox(rgb, size, int(params.get("fill", 0)), interp)[0]
    if mode == "squash":
        return resize(rgb, size, interp)
    raise ValueError(f"unknown resize mode {mode!r}")


def normalize(
    img: np.ndarray,
    mean: Sequence[float] = (0.0, 0.0, 0.0),
    std: Sequence[float] = (1.0, 1.0, 1.0),
    scale: float = 1 / 255.0,
) -> np.ndarray:
    """float32 (img * scale - mean) / std, per channel."""
    out = img.astype(np.float32) * scale
    out -= np.asarray(mean, dtype=np.float32)
    out /= np.asarray(std, dtype=np.float32)
    return out


def to_nchw(img: np.ndarray) -> np.ndarray:
    """(H, W, C) -> (1, C, H, W), contiguous."""
    return np.ascontiguousarray(img.transpose(2, 0, 1)[None])


def gray(rgb: np.ndarray, max_side: int | None = None) -> np.ndarray:
    """uint8 grey image, optionally scaled so the longest side is `max_side`."""
    g = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY) if rgb.ndim == 3 else rgb
    return resize_max_side(g, max_side) if max_side else g


def ensure_rgb(img: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3) from grey or RGBA input; a clear ValueError for anything else."""
    arr = np.asarray(img)
    if arr.dtype != np.uint8:
        raise ValueError(f"expected a uint8 image, got {arr.dtype}")
    if arr.ndim == 2:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2RGB)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_RGBA2RGB)
    if arr.ndim != 3 or arr.shape[2] != 3 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"expected an RGB image (H, W, 3), got shape {arr.shape}")
    return np.ascontiguousarray(arr)
