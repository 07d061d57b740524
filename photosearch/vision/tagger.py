"""ImageNet tagger: EfficientNet-Lite3 (uint8 TFLite, ai-edge-litert) -> tags + WordNet hypernyms,
its 1280-d head features as the image-similarity embedding (space "image"), and the full 1000-way
softmax (space "imagenet"), so search can score a concept against every class the model saw, not
only the top tags (see `photosearch.query.resolvers.distributions`)."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

import numpy as np

from photosearch.models.arrays import l2_normalize
from photosearch.models.base import Model
from photosearch.models.labels import IMAGENET_SPACE, TAGGER_MANIFEST, imagenet_class_synsets
from photosearch.models.manifest import ModelUnavailable, get_manifest
from photosearch.models.runtimes.litert import open_interpreter
from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.preprocess import combine_views, ensure_rgb, prepare, views
from photosearch.vision.wordnet import WordNet, get_wordnet

log = logging.getLogger(__name__)

IMAGE_SPACE = "image"
WORDNET_MANIFEST = "wordnet-3.0"


@dataclass
class TaggerOutput:
    probs: np.ndarray  # (1000,) float32, sums to ~1
    feature: np.ndarray  # (1280,) float32, L2-normalised


class EfficientNetTagger(Model):
    """The TFLite classifier. `predict(rgb) -> TaggerOutput`."""

    manifest_name = TAGGER_MANIFEST
    thread_safe = False  # a TFLite interpreter runs one invoke at a time

    def _load(self) -> None:
        path = self.manifest.require("model", self.settings)
        labels_path = self.manifest.require("labels", self.settings)
        self.labels = [
            line.strip() for line in labels_path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        # every tensor kept readable: the 1280-d feature layer is an intermediate one
        interp = open_interpreter(path, self.settings, preserve_all_tensors=True)
        self._interp = interp
        inp = interp.get_input_details()[0]
        out = interp.get_output_details()[0]
        self._in_index = inp["index"]
        self._in_size = (int(inp["shape"][2]), int(inp["shape"][1]))
        self._out_index = out["index"]
        self._out_q = out["quantization"]
        want = self.manifest.preprocess.get("feature_tensor")
        feats = [t for t in interp.get_tensor_details() if t["name"] == want] or [
            t for t in interp.get_tensor_details() if list(t["shape"]) == [1, 1280]
        ]
        if not feats:
            raise ModelUnavailable(f"{path} has no 1280-d feature tensor")
        self._feat_index = feats[0]["index"]
        self._feat_q = feats[0]["quantization"]
        if len(self.labels) != int(out["shape"][-1]):
            raise ModelUnavailable(
                f"{labels_path} has {len(self.labels)} labels, the model {out['shape'][-1]}"
            )

    def _predict(self, rgb: np.ndarray) -> TaggerOutput:
        """Each class at its strongest in any of the photo's `views` (a panorama's parts too); the
        similarity feature is the whole photo's."""
        params = dict(self.manifest.preprocess, size=list(self._in_size))
        probs, feature = [], None
        for view in views(ensure_rgb(rgb)):
            self._interp.set_tensor(self._in_index, prepare(view, params)[None])
            self._interp.invoke()
            probs.append(_dequantize(self._interp.get_tensor(self._out_index)[0], self._out_q))
            if feature is None:
                feature = _dequantize(self._interp.get_tensor(self._feat_index).reshape(-1), self._feat_q)
        return TaggerOutput(probs=combine_views(probs), feature=l2_normalize(feature))

    def _close(self) -> None:
        self._interp = None


def _dequantize(q: np.ndarray, quant: tuple[float, int]) -> np.ndarray:
    scale, zero = quant
    if not scale:
        return q.astype(np.float32)
    return (q.astype(np.float32) - np.float32(zero)) * np.float32(scale)


class Hierarchy:
    """Class index -> WordNet synset, and a (classes x ancestors) matrix to sum scores upward."""

    def __init__(self, labels: list[str], wordnet: WordNet):
        self.wordnet = wordnet
        self.offsets = imagenet_class_synsets(labels, wordnet)
        ancestors: dict[int, int] = {}
        rows: list[list[int]] = []
        for off in self.offsets:
            cols = []
            if off is not None:
                for anc in wordnet.ancestors(off):
                    if wordnet.synset(anc).abstract:
                        continue
                    cols.append(ancestors.setdefault(anc, len(ancestors)))
            rows.append(cols)
        self.ancestor_offsets = list(ancestors)
        matrix = np.zeros((len(labels), len(ancestors)), dtype=np.float32)
        for i, cols in enumerate(rows):
            matrix[i, cols] = 1.0
        self.matrix = matrix

    def ancestor_scores(self, probs: np.ndarray) -> np.ndarray:
        """P(ancestor) = sum of the (mutually exclusive) class probabilities under it, capped at 1."""
        return np.minimum(probs @ self.matrix, 1.0)


class TaggerAnalyzer:
    """Writes `tag` facts (ImageNet labels, then hypernyms with data.hypernym=True) and the
    `image` embedding. Scores are probabilities; a hypernym's score is the summed probability of
    the classes below it."""

    name = "tagger"
    # 2: the full class distribution is kept (space "imagenet"); 3: ImageNet's own synsets; 4: a
    # panorama is read in parts too (`preprocess.views`)
    version = 4

    def __init__(self, settings=None, model: EfficientNetTagger | None = None):
        self.model = model or EfficientNetTagger(settings)
        self.settings = self.model.settings
        self._hierarchy: Hierarchy | None = None
        self._hierarchy_lock = threading.Lock()
        self._hierarchy_done = False
        params = self.model.manifest.preprocess
        self.top_k = int(params.get("top_k", 5))
        self.min_score = float(params.get("min_score", 0.03))
        self.hypernym_min_score = float(params.get("hypernym_min_score", 0.15))
        self.max_hypernyms = int(params.get("max_hypernyms", 12))

    def available(self) -> bool:
        return self.model.available()

    @property
    def hierarchy(self) -> Hierarchy | None:
        if self._hierarchy_done:
            return self._hierarchy
        with self._hierarchy_lock:
            if not self._hierarchy_done:
                self._hierarchy = self._build_hierarchy()
                self._hierarchy_done = True
        return self._hierarchy

    def _build_hierarchy(self) -> Hierarchy | None:
        self.model.load()
        try:
            wn_dir = get_manifest(WORDNET_MANIFEST, self.settings).base_dir(self.settings)
        except Exception:  # noqa: BLE001 - fall back to the default search path
            wn_dir = None
        try:
            return Hierarchy(self.model.labels, get_wordnet(wn_dir))
        except Exception as exc:  # noqa: BLE001 - tags still work without hypernyms
            log.warning("tags get no hypernyms: %s", exc)
            return None

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        out = self.model.predict(image.rgb)
        probs = np.clip(np.asarray(out.probs, np.float32), 0.0, None)
        return AnalysisResult(
            facts=self.facts(out.probs), embeddings={IMAGE_SPACE: out.feature, IMAGENET_SPACE: probs}
        )

    def analyze_batch(self, images: list[PhotoImage]) -> list[AnalysisResult]:
        return [self.analyze(img) for img in images]

    def facts(self, probs: np.ndarray) -> list[FactRecord]:
        labels = self.model.labels
        order = np.argsort(-probs)[: self.top_k]
        picked = [int(i) for n, i in enumerate(order) if n == 0 or probs[i] >= self.min_score]
        hier = self.hierarchy
        facts: list[FactRecord] = []
        seen: set[str] = set()
        for i in picked:
            names = [w.strip() for w in labels[i].split(",") if w.strip()]
            data: dict = {"hypernym": False, "names": names}
            if hier is not None and hier.offsets[i] is not None:
                data["synset"] = f"n{hier.offsets[i]:08d}"
            facts.append(FactRecord(kind="tag", label=names[0], score=float(probs[i]), data=data))
            seen.add(names[0].lower())
        if hier is None:
            return facts
        scores = hier.ancestor_scores(probs)
        hyper: list[FactRecord] = []
        for j in np.argsort(-scores):
            score = float(scores[j])
            if score < self.hypernym_min_score or len(hyper) >= self.max_hypernyms:
                break
            syn = hier.wordnet.synset(hier.ancestor_offsets[j])
            if syn.name.lower() in seen:
                continue
            seen.add(syn.name.lower())
            hyper.append(
                FactRecord(
                    kind="tag",
                    label=syn.name,
                    score=score,
                    data={"hypernym": True, "synset": syn.wnid, "names": syn.names},
                )
            )
        return facts + hyper
