"""Calibrate the photo attributes' thresholds on the labelled set (`attribute_set.py`).

Each attribute's threshold is chosen on the `fit` part: the one with the highest F1 among the
current threshold and the midpoints between neighbouring measured values (ties: the nearest to the
current threshold, so a threshold moves only when the labels say it should); an attribute with
fewer than `MIN_LABELS` positives or *real* negatives there keeps its threshold (false positives
are counted on real photos, not only on generated ones). Both parts are reported, at the current
and at the chosen threshold, with real and generated photos counted apart, and with how many of
the real photos the attribute is not labelled for it is said of (`said`: a check that it does not
fire on ordinary photos):

    python -m photosearch.evaluate.attribute_calibration DIR    # DIR/measures.yaml, DIR/report.txt
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from photosearch.evaluate.attribute_set import PARTS, Labelled, build
from photosearch.vision.attributes import ATTRIBUTES, DECIDED_BY, FAILS, holds, measures, thresholds
from photosearch.vision.preprocess import resize_max_side
from photosearch.vision.quality import BLUR_SIDE  # the size of the copy the analyzer measures

#: An attribute is calibrated only with at least this many positives and real negatives in the fit part.
MIN_LABELS = 5


@dataclass
class Row:
    name: str
    part: str
    generated: bool
    label: bool
    value: float


@dataclass
class Score:
    positives: str  # "real+generated"
    negatives: str
    precision: float
    recall: float
    f1: float


def score(rows: list[Row], attribute: str, threshold: float) -> Score:
    said = [holds(attribute, r.value, threshold) for r in rows]
    tp = sum(s and r.label for s, r in zip(said, rows, strict=True))
    fp = sum(s and not r.label for s, r in zip(said, rows, strict=True))
    fn = sum(not s and r.label for s, r in zip(said, rows, strict=True))
    precision = tp / (tp + fp) if tp + fp else float("nan")
    recall = tp / (tp + fn) if tp + fn else float("nan")
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else float("nan")

    def count(label: bool) -> str:
        real = sum(r.label == label and not r.generated for r in rows)
        gen = sum(r.label == label and r.generated for r in rows)
        return f"{real}+{gen}"

    return Score(count(True), count(False), precision, recall, f1)


def choose(rows: list[Row], attribute: str, current: float) -> float | None:
    """The fit part's best-F1 threshold, or None where there are too few labels to choose."""
    if (
        sum(r.label for r in rows) < MIN_LABELS
        or sum(not r.label and not r.generated for r in rows) < MIN_LABELS
    ):
        return None
    values = sorted({r.value for r in rows if r.value != FAILS})
    candidates = [current] + [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)]
    best = max(candidates, key=lambda t: (score(rows, attribute, t).f1, -abs(t - current)))
    return round(float(best), 4)


def measure_all(photos: list[Labelled]) -> list[dict]:
    out = []
    for p in photos:
        rgb = resize_max_side(p.load(), BLUR_SIDE, "area")
        m = measures(rgb)
        out.append(
            {
                "name": p.name,
                "source": p.source,
                "part": p.part,
                "transform": p.transform,
                "labels": p.labels,
                "measures": {k: round(v, 5) for k, v in m.items()},
            }
        )
    return out


def report(measured: list[dict], attributes: tuple[str, ...] = ATTRIBUTES) -> tuple[str, dict[str, float]]:
    """The report's text, and the chosen thresholds (only those that were calibrated)."""
    current = thresholds()
    chosen: dict[str, float] = {}
    lines = [
        "attribute    part   threshold          pos(real+gen) neg(real+gen)  precision recall  F1     said",
    ]

    def fmt(x: float) -> str:
        return "  -  " if np.isnan(x) else f"{x:.3f}"

    for attribute in attributes:
        key = DECIDED_BY[attribute][0]
        rows = {
            part: [
                Row(m["name"], part, bool(m["transform"]), m["labels"][attribute], m["measures"][key])
                for m in measured
                if m["part"] == part and attribute in m["labels"]
            ]
            for part in PARTS
        }
        best = choose(rows["fit"], attribute, current[attribute])
        if best is not None:
            chosen[attribute] = best
        for part in PARTS:
            unlabelled = [
                m["measures"][key]
                for m in measured
                if m["part"] == part and not m["transform"] and attribute not in m["labels"]
            ]
            for which, t in (("current", current[attribute]), ("chosen", best)):
                if t is None:
                    continue
                s = score(rows[part], attribute, t)
                said = sum(holds(attribute, v, t) for v in unlabelled)
                lines.append(
                    f"{attribute:12} {part:6} {which:7} {t:<10.4g} {s.positives:>13} {s.negatives:>13}"
                    f"  {fmt(s.precision):>9} {fmt(s.recall):>6}  {fmt(s.f1)}  {said}/{len(unlabelled)}"
                )
        if best is None:
            lines.append(
                f"{attribute:12} (kept: fewer than {MIN_LABELS} positives or real negatives in the fit part)"
            )
    return "\n".join(lines), chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory", type=Path, help="where measures.yaml and report.txt are written")
    ap.add_argument("--reuse", action="store_true", help="read DIR/measures.yaml instead of measuring again")
    args = ap.parse_args(argv)
    args.directory.mkdir(parents=True, exist_ok=True)
    cache = args.directory / "measures.yaml"
    if args.reuse and cache.is_file():
        measured = yaml.safe_load(cache.read_text(encoding="utf-8"))
    else:
        measured = measure_all(build())
        cache.write_text(yaml.safe_dump(measured, sort_keys=False, width=120), encoding="utf-8")
    text, chosen = report(measured)
    text += "\n\nchosen on the fit part (best F1): " + (
        ", ".join(f"{k} {v:g}" for k, v in chosen.items()) or "none"
    )
    (args.directory / "report.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
