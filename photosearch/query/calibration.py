"""Per-atom calibrated cut-offs for semantic scores (no flat similarity threshold).

Raw cosine similarities are not comparable across queries or photos: a photo with many facts is
close to everything ("hub"), and a generic query is close to every photo. So each semantic atom
gets its own cut-off, in three steps:

1. **Per-photo null (z-score).** Every photo is scored against `REFERENCE_TEXTS`, phrases that are
   unrelated to each other and to photos in general. Their mean μ_p and spread σ_p are the photo's
   null distribution; a query's similarity becomes z_p = (s_p − μ_p) / σ_p.
2. **Per-query centring.** Most photos are not about any one query, so the median z of the query
   over a fixed random sample of photos is subtracted (a generic query gains nothing).
3. **Calibrated threshold.** The threshold z0 is the 99th percentile of the same statistic for the
   reference texts themselves (leave-one-out: each reference text scored against the null of the
   others, over the sample), never below `z_min`. It is computed once per catalog snapshot.

A photo passes when z ≥ z0, its raw similarity ≥ `min_similarity`, and z ≥ `relative`·z_top (z_top:
the best z): photos far weaker than the best matches are a tail, not hits.
Finally the **largest gap** in the surviving sorted z values cuts the list when it is at least
`gap_z` wide (a clear break between matches and near-misses). Lexical evidence (tags, objects,
text) is fused with the embedding evidence by noisy-OR and the fused score must reach
`min_fused`. The numbers used for each atom are reported in the plan's `explain`.

**Corroboration (abstention).** Above the cut-off, a concept needs two kinds of evidence that
agree: the photo passes an embedding signal's cut *and* its labels (tags, objects, text, class
distributions; not a WordNet route to a broader class, "tiger" ≈ "big cat") reach `min_fused` on
their own; or two embedding spaces pass; or the passing embedding reads written text (a caption,
description or keyword); or the detector and the tagger both claim it by a label that names it
(two models trained apart that see the same thing; the bundled facts-text embedding reads those very
labels, so it adds less than a second model: on the ten evaluation sets this made 67 more confident
answers right and 7 more wrong, all sure answers 0.838 → 0.842 right, "animals" on the eighth set 4
sure to 8, all right). Labels that are a model's guess (the detector's objects, the tagger's
tags) must come from both models where both can name the concept (`resolvers/agreement.py`): the
detector's "elephant" on a dragon sculpture, which the tagger's elephant classes do not see, is no
evidence. Either alone makes it a closest match, never a confident one: on the real and held-out
sets, embedding-only hits were relevant 4% of the time and label-only hits (a detector's one wrong
box, a hypernym route) rarely more, while they made requests for things no photo shows look
"found" (docs/EVALUATION.md, "Abstention"). Where no embedding signal could run, labels alone
decide as before.

**Near the best.** A confident photo's fused evidence is at least `near_the_best` of the best
photo's: the models' evidence saturates (a right label fuses to 0.95-1.0), so a photo fused well
below the best is one the models were unsure of, and it is a closest match. On the five evaluation
sets (all dev now), 7 of 704 right confident answers were below 0.9 of their query's best, and 24
of 132 wrong ones; above-cut-off precision rose by 0.00-0.03 per set, the ranking unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Unrelated phrases (different domains) whose similarity to a photo is that photo's null.
REFERENCE_TEXTS = (
    "quarterly tax invoice",
    "violin concerto",
    "quantum chromodynamics",
    "password reset email",
    "medieval tapestry weaving",
    "stock market index",
    "grammar of ancient greek",
    "kidney dialysis",
    "compiler optimisation pass",
    "insurance policy clause",
    "knitting pattern",
    "volcanic basalt rock",
    "chess opening theory",
    "subway timetable",
    "lottery ticket numbers",
    "dental floss",
    "thermostat wiring diagram",
    "poetry anthology",
    "cryptocurrency wallet",
    "parliament election",
    "mortgage interest rate",
    "opera libretto",
    "spreadsheet formula",
    "bacteria culture petri dish",
    "crossword puzzle clue",
    "semiconductor lithography",
    "legal contract signature",
    "yoga breathing",
    "satellite orbit",
    "wifi router settings",
    "philosophy of mind",
    "tram ticket",
)


@dataclass
class CalibrationConfig:
    z_min: float = 2.5
    percentile: float = 99.0
    min_similarity: float = 0.2
    relative: float = 0.7
    gap_z: float = 2.0
    min_fused: float = 0.15
    #: Above the cut-off only with embedding and label evidence together (see "Corroboration").
    corroborate: bool = True
    #: Above the cut-off only with fused evidence at least this share of the best photo's ("Near the
    #: best"); 0 turns it off.
    near_the_best: float = 0.9
    sample: int = 1024
    seed: int = 7


@dataclass
class NullModel:
    """The null statistics of one embedding space for one snapshot."""

    refs: np.ndarray  # (R, d) reference text vectors
    sample: np.ndarray  # (m, d) vectors of sampled photos
    sample_mu: np.ndarray
    sample_sd: np.ndarray
    z0: float

    def z(self, vecs: np.ndarray, sims: np.ndarray) -> np.ndarray:
        """Per-photo null z-scores of similarities `sims` of photos with vectors `vecs`."""
        if vecs.size == 0:
            return np.zeros(0, np.float32)
        null = vecs @ self.refs.T
        return (sims - null.mean(axis=1)) / np.maximum(null.std(axis=1), 0.02)

    def offset(self, query: np.ndarray) -> float:
        """Median z of a query over the sample (how close it is to photos in general)."""
        if self.sample.shape[0] == 0:
            return 0.0
        z = (self.sample @ query - self.sample_mu) / self.sample_sd
        return float(np.median(z))


def build_null(sample: np.ndarray, refs: np.ndarray, cfg: CalibrationConfig) -> NullModel:
    """Null model + leave-one-out calibrated threshold z0 for one space."""
    sample = np.asarray(sample, np.float32)
    refs = np.asarray(refs, np.float32)
    if sample.shape[0] == 0:
        return NullModel(refs, sample, np.zeros(0, np.float32), np.ones(0, np.float32), cfg.z_min)
    null = sample @ refs.T  # (m, R)
    mu, sd = null.mean(axis=1), np.maximum(null.std(axis=1), 0.02)
    r = refs.shape[0]
    z_all = []
    for j in range(r):
        others = np.delete(null, j, axis=1)
        mu_j, sd_j = others.mean(axis=1), np.maximum(others.std(axis=1), 0.02)
        zj = (null[:, j] - mu_j) / sd_j
        z_all.append(zj - np.median(zj))
    z0 = float(np.percentile(np.concatenate(z_all), cfg.percentile)) if z_all else cfg.z_min
    return NullModel(refs, sample, mu.astype(np.float32), sd.astype(np.float32), max(cfg.z_min, z0))


def gap_cut(values_desc: np.ndarray, min_gap: float) -> int:
    """How many of the descending `values_desc` to keep: up to the largest gap if it is ≥ min_gap."""
    n = values_desc.size
    if n < 2:
        return n
    gaps = values_desc[:-1] - values_desc[1:]
    i = int(np.argmax(gaps))
    return i + 1 if gaps[i] >= min_gap else n


def select(
    z: np.ndarray, sims: np.ndarray, z0: float, cfg: CalibrationConfig, min_similarity: float | None = None
) -> tuple[np.ndarray, dict]:
    """Boolean mask of the photos that pass the calibrated cut-off, and the numbers used."""
    floor = cfg.min_similarity if min_similarity is None else min_similarity
    keep = (z >= z0) & (sims >= floor)
    info: dict = {"z0": round(float(z0), 3), "min_similarity": floor}
    if not keep.any():
        return keep, info | {"kept": 0}
    top = np.sort(z[keep])[::-1]
    z_top = float(top[0])
    rel = cfg.relative * z_top
    keep &= z >= rel
    vals = np.sort(z[keep])[::-1]
    n_keep = gap_cut(vals, cfg.gap_z)
    if n_keep < vals.size:
        keep &= z >= vals[n_keep - 1]
    info |= {
        "z_top": round(z_top, 3),
        "relative_cut": round(rel, 3),
        "gap_cut": n_keep < vals.size,
        "kept": int(keep.sum()),
    }
    return keep, info


def evidence(z: np.ndarray, z0: float) -> np.ndarray:
    """Map z-scores to 0..0.9 evidence: 0.45 at the cut-off, rising slowly above it (never certain,
    so lexical evidence still separates photos that both match well)."""
    return 0.9 / (1.0 + np.exp(-(z - z0) / 2.0))
