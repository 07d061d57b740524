"""Visual Content Formulation (paper §3.1).

Regions come from the detector's `object` facts (whole image when there are none; words read
outside every object get a region of their own). Each region gets a description conditioned on the
question (X_r), then a correlated formulation (X_c) that takes the other regions into account.

The describer is a VLM when one is installed (the `Describer` protocol; images go as data URIs and
never leave the machine), else the TEXT BRIDGE: a description built from what the bundled
analyzers saw inside the region (labels with hypernyms, OCR words, people, colours), optionally
phrased by the local LLM and kept only when it stays faithful to those observations.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from photosearch.enrich.stats import call_json, verdict
from photosearch.enrich.textutil import content_tokens, grounded, product_like
from photosearch.enrich.types import Region

log = logging.getLogger(__name__)


@dataclass
class Observation:
    """A fact or face as the formulation sees it (decoupled from the ORM)."""

    kind: str
    label: str
    score: float = 1.0
    box: list[float] | None = None
    data: dict = field(default_factory=dict)


@runtime_checkable
class Describer(Protocol):
    """Describes a region. A VLM uses `region.crop` (RGB uint8) and the prompt; the text bridge uses
    the analyzers' observations stored on the region."""

    is_visual: bool

    def describe(self, region: Region, prompt: str, question: str) -> str: ...


# ---- regions ---------------------------------------------------------------------------------
def _area(b: list[float]) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _iou(a: list[float], b: list[float]) -> float:
    inter = _area([max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])])
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0


def _inside(inner: list[float], outer: list[float], need: float = 0.5) -> bool:
    inter = _area(
        [max(inner[0], outer[0]), max(inner[1], outer[1]), min(inner[2], outer[2]), min(inner[3], outer[3])]
    )
    return _area(inner) > 0 and inter / _area(inner) >= need


_PALETTE = {
    "black": (20, 20, 20),
    "white": (240, 240, 240),
    "grey": (128, 128, 128),
    "red": (200, 30, 30),
    "orange": (240, 140, 20),
    "yellow": (235, 215, 40),
    "green": (40, 160, 60),
    "blue": (40, 80, 200),
    "purple": (130, 50, 160),
    "pink": (240, 150, 190),
    "brown": (120, 75, 35),
}


def dominant_colors(rgb: np.ndarray, k: int = 2) -> list[str]:
    """Named dominant colours of an RGB crop (nearest palette colour per pixel, on a subsample)."""
    if rgb is None or rgb.size == 0:
        return []
    px = np.asarray(rgb, dtype=np.float32).reshape(-1, 3)
    px = px[:: max(1, len(px) // 4000)]
    names = list(_PALETTE)
    pal = np.asarray([_PALETTE[n] for n in names], dtype=np.float32)
    idx = ((px[:, None, :] - pal[None]) ** 2).sum(-1).argmin(1)
    counts = np.bincount(idx, minlength=len(names)) / max(1, len(idx))
    return [names[i] for i in counts.argsort()[::-1][:k] if counts[i] >= 0.15]


def crop(rgb: np.ndarray | None, box: list[float]) -> np.ndarray | None:
    if rgb is None:
        return None
    h, w = rgb.shape[:2]
    x0, y0 = int(max(0, box[0]) * w), int(max(0, box[1]) * h)
    x1, y1 = int(np.ceil(min(1, box[2]) * w)), int(np.ceil(min(1, box[3]) * h))
    if x1 <= x0 or y1 <= y0:
        return rgb
    return rgb[y0:y1, x0:x1]


def _hypernyms(o: Observation) -> list[str]:
    hyp = o.data.get("hypernyms") if isinstance(o.data, dict) else None
    return [str(h) for h in hyp] if isinstance(hyp, list) else []


def build_regions(
    observations: list[Observation],
    rgb: np.ndarray | None = None,
    *,
    max_regions: int = 4,
    min_object_score: float = 0.25,
) -> list[Region]:
    """Regions of interest with the observations that fall inside each."""
    regions = _object_regions(observations, max_regions, min_object_score)
    texts = [o for o in observations if o.kind == "text"]
    stray = [t for t in texts if t.box and not any(_inside(t.box, r.box) for r in regions)]
    if regions and stray and len(regions) < max_regions + 1:
        box = [
            min(t.box[0] for t in stray),
            min(t.box[1] for t in stray),
            max(t.box[2] for t in stray),
            max(t.box[3] for t in stray),
        ]
        regions.append(Region(index=len(regions), box=box, label="printed text", score=1.0))
    if not regions:
        regions = [Region(index=0, box=[0.0, 0.0, 1.0, 1.0], label="photo", score=1.0)]
    whole = [r for r in regions if _area(r.box) >= 0.5] or regions[:1]
    for r in regions:
        r.crop = crop(rgb, r.box)
        labels: list[str] = [] if r.label in ("photo", "printed text") else [r.label]
        for o in observations:
            labels += _observe(r, o, r in whole)
        r.labels = list(dict.fromkeys(x for x in labels if x))
        r.words = list(dict.fromkeys(w for w in r.words if w.strip()))
        r.people = list(dict.fromkeys(r.people))
        if not r.colors and r.crop is not None:
            r.colors = dominant_colors(r.crop)
    return regions


def _object_regions(observations: list[Observation], max_regions: int, min_score: float) -> list[Region]:
    """The most confident detected objects, one region each (a same-label near-duplicate box is skipped)."""
    objects = sorted(
        (o for o in observations if o.kind == "object" and o.box and o.score >= min_score),
        key=lambda o: -o.score,
    )
    chosen: list[Observation] = []
    for o in objects:
        if all(_iou(o.box, c.box) < 0.6 or o.label != c.label for c in chosen):
            chosen.append(o)
        if len(chosen) >= max_regions:
            break
    return [Region(index=i, box=list(o.box), label=o.label, score=o.score) for i, o in enumerate(chosen)]


def _observe(r: Region, o: Observation, whole: bool) -> list[str]:
    """Record what one observation says about region `r` (a `whole` region also takes the photo-level
    ones); returns the labels it adds."""
    if o.kind in ("object", "tag"):
        return _labels_in(r, o, whole)
    if o.kind == "text":
        if (o.box is None and whole) or (o.box is not None and _inside(o.box, r.box)):
            r.words += o.label.split()
    elif o.kind == "person":
        if o.box is None or _iou(o.box, r.box) > 0 or _inside(o.box, r.box, 0.3):
            r.people.append(o.label)
    elif o.kind == "color" and whole:
        r.colors.append(o.label)
    elif o.kind == "caption" and whole:
        r.caption = r.caption or o.label
    return []


def _labels_in(r: Region, o: Observation, whole: bool) -> list[str]:
    """An object's or tag's label and hypernyms, when it lies in `r` (a box-less tag: in a whole region)."""
    if o.box is None and not whole:
        return []
    if o.box is not None and not (_iou(o.box, r.box) >= 0.5 or _inside(o.box, r.box, 0.8)):
        return []
    if o.kind == "tag" and o.score < 0.05:
        return []
    return [o.label, *_hypernyms(o)]


# ---- describers ------------------------------------------------------------------------------
_TEXTY = {
    "text",
    "written",
    "word",
    "words",
    "brand",
    "model",
    "name",
    "called",
    "logo",
    "label",
    "say",
    "says",
    "read",
}


def bridge_description(region: Region, question: str) -> str:
    """The text bridge: a plain description of the region from the analyzers' observations,
    ordered by what the question asks about."""
    parts: list[tuple[str, str]] = []
    if region.labels:
        head, rest = region.labels[0], region.labels[1:4]
        parts.append(("what", f"a {head}" + (f" (a kind of {', '.join(rest)})" if rest else "")))
    elif region.caption:
        parts.append(("what", region.caption))
    if region.words:
        names = [w for w in region.words if product_like(w)]
        said = " ".join(region.words[:12])
        text = f'the printed words "{said}"'
        if names:
            text += f" (a name or model: {' '.join(names)})"
        parts.append(("text", text))
    if region.people:
        parts.append(("who", "with " + ", ".join(region.people[:4])))
    if region.colors:
        parts.append(("colour", "mostly " + " and ".join(region.colors[:2])))
    q = set(content_tokens(question))
    if q & _TEXTY or (region.words and not region.labels):
        parts.sort(key=lambda p: p[0] != "text")
    if q & {"who", "person", "people", "man", "woman"}:
        parts.sort(key=lambda p: p[0] != "who")
    if not parts:
        return f"the {region.label}"
    first, *rest = [p[1] for p in parts]
    return first + ("; " + "; ".join(rest) if rest else "")


class TextBridgeDescriber:
    """Describes regions from analyzer observations; the LLM (optional) only rephrases."""

    is_visual = False

    def __init__(self, llm=None):
        self.llm = llm

    def describe(self, region: Region, prompt: str, question: str) -> str:
        template = bridge_description(region, question)
        if self.llm is None:
            return template
        schema = {
            "type": "object",
            "properties": {"description": {"type": "string", "minLength": 5, "maxLength": 400}},
            "required": ["description"],
        }
        out = call_json(
            self.llm,
            [
                {
                    "role": "system",
                    "content": "You describe one region of a photo in one sentence, using ONLY the "
                    'observations given. Keep every printed word exactly. Answer as JSON {"description": ...}.',
                },
                {
                    "role": "user",
                    "content": f"Question about the photo: {question}\nObservations: {template}",
                },
            ],
            schema,
            120,
            "describe",
        )
        text = (out or {}).get("description", "").strip()
        ok = bool(text) and faithful(text, region, template)
        verdict(self.llm, "describe", ok)
        return text if ok else template


class RegionDescriber(Protocol):
    """What a vision-language model offers for one region: `VlmCaptioner.describe_region`."""

    def describe_region(self, image_rgb: np.ndarray, question: str) -> str: ...


class VlmDescriber:
    """Describes a region's pixels with a pulled vision-language model, conditioned on the question
    (the paper's X_r); a region without pixels (the photo is offline) gets the text bridge."""

    is_visual = True

    def __init__(self, vlm: RegionDescriber):
        self.vlm = vlm

    def describe(self, region: Region, prompt: str, question: str) -> str:
        if region.crop is None:
            return bridge_description(region, question)
        return self.vlm.describe_region(region.crop, question).strip() or bridge_description(region, question)


def faithful(text: str, region: Region, source: str) -> bool:
    """An LLM phrasing is kept only if it keeps every name/model word and adds little."""
    low = text.lower()
    names = [w for w in region.words if product_like(w)]
    if any(n.lower().strip(".,") not in low for n in names):
        return False
    return grounded(
        text, source + " " + " ".join(region.labels + region.words + region.people + region.colors), 0.6
    )


# ---- the formulation -------------------------------------------------------------------------
def describe_regions(regions: list[Region], question: str, describer: Describer) -> None:
    """X_r^(i) = F(region_i, question) for every region (in place)."""
    for r in regions:
        prompt = f"Describe this part of the photo in one sentence, focusing on what helps answer: {question}"
        try:
            r.description = describer.describe(r, prompt, question).strip() or bridge_description(r, question)
        except Exception as exc:  # a failing VLM must not stop the chain
            log.warning("describer failed on region %d: %s", r.index, exc)
            r.description = bridge_description(r, question)


def correlate_regions(regions: list[Region], question: str, describer: Describer) -> None:
    """X_c^(i) = F(region_i, [X_r^(i), {X_r^(j)}_{j≠i}]) for every region (in place)."""
    for r in regions:
        others = [o.description for o in regions if o is not r and o.description]
        joined = r.description + (" In the same photo: " + "; ".join(others) + "." if others else "")
        if not others:
            r.formulation = r.description
            continue
        if getattr(describer, "is_visual", False):
            prompt = (
                "Here is a description of this region and of the other regions of the same photo:\n"
                f"{joined}\nDescribe this region again, taking its relation to the others into account, "
                f"to help answer: {question}"
            )
            try:
                r.formulation = describer.describe(r, prompt, question).strip() or joined
            except Exception as exc:
                log.warning("describer failed to correlate region %d: %s", r.index, exc)
                r.formulation = joined
        else:
            r.formulation = joined


def formulate(regions: list[Region], question: str, describer: Describer) -> list[Region]:
    describe_regions(regions, question, describer)
    correlate_regions(regions, question, describer)
    return regions
