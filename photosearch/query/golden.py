"""The golden library: verified request → plan pairs that steer planning and guard regressions.

Bundled pairs live in ``resources/golden/*.yaml``; the user's own (saved when a plan is corrected
in the GUI or with ``photosearch golden add``) in ``<data_dir>/golden/user.yaml``. User pairs win
over bundled ones for the same request.

Each pair: ``request``, ``now`` (the "today" its relative dates were resolved against), ``people``
(names known when it was written), optional ``owner`` ("me"), ``birthdays`` and ``years``, and
``plan`` (``where`` + optional ``compose``; defaults are filled in on load).

Nearest examples come from text embeddings (the bundled MiniLM via
``photosearch.vision.text_embedder``) or, when that model is unavailable, from a character
n-gram TF-IDF built here with numpy.
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from photosearch.cache_files import derived
from photosearch.errors import PhotoSearchError
from photosearch.query.plan import PlanError, validate_plan

log = logging.getLogger(__name__)

USER_FILE = "user.yaml"


def bundled_dir() -> Path:
    """``resources/golden`` of the source tree (or PHOTOSEARCH_GOLDEN_DIR)."""
    env = os.environ.get("PHOTOSEARCH_GOLDEN_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "resources" / "golden"


def user_file(settings) -> Path:
    return Path(settings.data_dir) / "golden" / USER_FILE


def normalize_request(text: str) -> str:
    """Case-, space- and punctuation-insensitive key for exact lookups."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"[^\w'\"/#:.+-]+", " ", text)
    return " ".join(text.split()).strip(" .")


@dataclass
class GoldenExample:
    request: str
    plan: dict
    now: date
    people: list[str] = field(default_factory=list)
    owner: str | None = None
    birthdays: dict[str, date] = field(default_factory=dict)
    years: tuple[int, int] | None = None
    source: str = "bundled"  # bundled | user

    def context(self):
        from photosearch.query.parser import PlanContext

        return PlanContext(
            people=list(self.people), owner=self.owner, birthdays=dict(self.birthdays), years=self.years
        )

    def to_yaml(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "request": self.request,
            "now": self.now.isoformat(),
            "people": list(self.people),
        }
        if self.owner:
            out["owner"] = self.owner
        if self.birthdays:
            out["birthdays"] = {k: v.isoformat() for k, v in self.birthdays.items()}
        if self.years:
            out["years"] = list(self.years)
        out["plan"] = {"where": self.plan["where"], "compose": self.plan["compose"]}
        return out


def _as_date(value: Any, where: str) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise PhotoSearchError(f"{where}: {value!r} is not a date YYYY-MM-DD") from None


def example_from_dict(d: dict, *, source: str, where: str) -> GoldenExample:
    if not isinstance(d, dict) or "request" not in d or "plan" not in d:
        raise PhotoSearchError(f"{where}: each golden pair needs 'request' and 'plan'")
    try:
        plan = validate_plan({"version": 1, **d["plan"]} if isinstance(d["plan"], dict) else d["plan"])
    except PlanError as exc:
        raise PhotoSearchError(f"{where} ({d['request']!r}): {exc}") from None
    years = tuple(d["years"]) if d.get("years") else None
    return GoldenExample(
        request=str(d["request"]),
        plan=plan,
        now=_as_date(d["now"] if "now" in d else date.today(), where),
        people=[str(p) for p in d.get("people") or []],
        owner=d.get("owner"),
        birthdays={k: _as_date(v, where) for k, v in (d.get("birthdays") or {}).items()},
        years=years,  # type: ignore[arg-type]
        source=source,
    )


def read_yaml(path: Path) -> Any:
    """A golden file as YAML data (libyaml's safe loader: ~10x faster than the pure-Python one)."""
    import yaml  # here, not at start-up: a cold search reads the bundled library from its cache

    try:
        return yaml.load(
            path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        )
    except yaml.YAMLError as exc:
        raise PhotoSearchError(f"{path}: not valid YAML: {exc}") from None


def examples_from_data(data: Any, path: Path, *, source: str) -> list[GoldenExample]:
    """The pairs of one file's YAML data (a list, or a mapping with an `examples` list)."""
    data = data or []
    if isinstance(data, dict):
        data = data.get("examples", [])
    return [example_from_dict(d, source=source, where=f"{path}[{i}]") for i, d in enumerate(data)]


def load_file(path: Path, *, source: str) -> list[GoldenExample]:
    """All pairs of one YAML file."""
    return examples_from_data(read_yaml(path), path, source=source)


def load_bundled(directory: Path | None = None) -> list[GoldenExample]:
    """Every bundled pair. The parsed YAML is cached (`cache_files.derived`, rebuilt when a file changes)."""
    directory = directory or bundled_dir()
    paths = sorted(directory.glob("*.yaml"))
    data = derived("golden", paths, lambda: [read_yaml(p) for p in paths])
    out: list[GoldenExample] = []
    for path, file_data in zip(paths, data, strict=True):
        out.extend(examples_from_data(file_data, path, source="bundled"))
    return out


def load_user(settings) -> list[GoldenExample]:
    path = user_file(settings)
    if not path.is_file():
        return []
    return load_file(path, source="user")


def _dump(examples: list[GoldenExample]) -> str:
    import yaml

    return yaml.safe_dump(
        [e.to_yaml() for e in examples],
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=None,
        width=110,
    )


def add_user_example(
    settings,
    request: str,
    plan: dict,
    *,
    now: date | None = None,
    people: list[str] | None = None,
    owner: str | None = None,
) -> GoldenExample:
    """Save a verified pair to the user's golden library (replacing one for the same request)."""
    if not request or not request.strip():
        raise PhotoSearchError("the request is empty")
    plan = validate_plan(plan)
    example = GoldenExample(
        request.strip(), plan, now or date.today(), list(people or []), owner, source="user"
    )
    path = user_file(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    existing = load_user(settings)
    key = normalize_request(request)
    kept = [e for e in existing if normalize_request(e.request) != key]
    kept.append(example)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(_dump(kept), encoding="utf-8")
    os.replace(tmp, path)
    _LIBRARIES.clear()
    return example


# --------------------------------------------------------------------------- vectors


class NgramVectorizer:
    """Character 3–5-gram TF-IDF (word-boundary padded), L2-normalised; pure numpy."""

    def __init__(self, texts: list[str]):
        self.vocab: dict[str, int] = {}
        docs = [self._grams(t) for t in texts]
        df: Counter[str] = Counter()
        for g in docs:
            df.update(set(g))
        for gram in df:
            self.vocab[gram] = len(self.vocab)
        n = max(len(texts), 1)
        self.idf = np.ones(len(self.vocab), dtype=np.float32)
        for gram, k in df.items():
            self.idf[self.vocab[gram]] = math.log((1 + n) / (1 + k)) + 1.0
        self.matrix = (
            np.stack([self._vec(g) for g in docs]) if docs else np.zeros((0, len(self.vocab)), np.float32)
        )

    @staticmethod
    def _grams(text: str) -> Counter[str]:
        text = " " + " ".join(normalize_request(text).split()) + " "
        out: Counter[str] = Counter()
        for n in (3, 4, 5):
            for i in range(len(text) - n + 1):
                out[text[i : i + n]] += 1
        return out

    def _vec(self, grams: Counter[str]) -> np.ndarray:
        v = np.zeros(len(self.vocab), dtype=np.float32)
        for g, c in grams.items():
            j = self.vocab.get(g)
            if j is not None:
                v[j] = (1.0 + math.log(c)) * self.idf[j]
        norm = float(np.linalg.norm(v))
        return v / norm if norm else v

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._vec(self._grams(t)) for t in texts])


def _embedder(settings):
    """The bundled sentence embedder, or None when it cannot load here."""
    try:
        from photosearch.vision.text_embedder import get_text_embedder

        emb = get_text_embedder(settings)
        emb.embed_one("probe")
        return emb
    except Exception as exc:  # model package missing, ONNX error, ... → n-grams
        log.info("golden library: text embedder unavailable (%s); using character n-grams", exc)
        return None


# --------------------------------------------------------------------------- library


class GoldenLibrary:
    """Examples + exact lookup + nearest neighbours + skeleton (slot pattern) index."""

    def __init__(self, examples: list[GoldenExample], *, settings=None, use_embedder: bool | None = None):
        # user pairs override bundled pairs for the same request
        by_key: dict[str, GoldenExample] = {}
        for e in examples:
            key = normalize_request(e.request)
            if key not in by_key or e.source == "user":
                by_key[key] = e
        self.examples = list(by_key.values())
        self._by_key = by_key
        self.settings = settings
        self._use_embedder = use_embedder
        self._lock = threading.Lock()
        self._vectors: np.ndarray | None = None
        self._encoder = None
        self.backend = "none"
        self._skeletons: dict[str, list[tuple[GoldenExample, Any]]] | None = None

    def __len__(self) -> int:
        return len(self.examples)

    def exact(self, request: str) -> GoldenExample | None:
        return self._by_key.get(normalize_request(request))

    # -- nearest
    def _ensure_vectors(self) -> None:
        with self._lock:
            if self._vectors is not None:
                return
            texts = [e.request for e in self.examples]
            emb = None
            if self._use_embedder is not False and self.settings is not None:
                emb = _embedder(self.settings)
            if emb is not None:
                self._encoder = emb
                self._vectors = emb.embed(texts) if texts else np.zeros((0, 384), np.float32)
                self.backend = "minilm"
            else:
                self._encoder = NgramVectorizer(texts)
                self._vectors = self._encoder.matrix
                self.backend = "ngram"

    def nearest(self, request: str, k: int = 5) -> list[tuple[GoldenExample, float]]:
        """The k most similar examples with cosine similarity, best first."""
        if not self.examples:
            return []
        self._ensure_vectors()
        if self.backend == "minilm":
            q = self._encoder.embed_one(request)
        else:
            q = self._encoder.embed([request])[0]
        sims = self._vectors @ q
        order = np.argsort(-sims)[:k]
        return [(self.examples[i], float(sims[i])) for i in order]

    # -- skeletons
    def skeleton_matches(self, skeleton: str) -> list[tuple[GoldenExample, Any]]:
        """Examples whose request has the same shape (slot types, connectives, compose words)."""
        with self._lock:
            if self._skeletons is None:
                from photosearch.query.parser import parse_detailed

                index: dict[str, list[tuple[GoldenExample, Any]]] = {}
                for e in self.examples:
                    r = parse_detailed(e.request, now=e.now, context=e.context())
                    index.setdefault(r.skeleton, []).append((e, r))
                self._skeletons = index
        return self._skeletons.get(skeleton, [])


_LIBRARIES: dict[tuple, GoldenLibrary] = {}
_LIB_LOCK = threading.Lock()


def get_library(settings=None, *, use_embedder: bool | None = None) -> GoldenLibrary:
    """Bundled + user library, loaded once per data dir (reloaded after add_user_example)."""
    key = (str(getattr(settings, "data_dir", "")), use_embedder)
    with _LIB_LOCK:
        lib = _LIBRARIES.get(key)
        if lib is None:
            examples = load_bundled()
            if settings is not None:
                examples += load_user(settings)
            lib = GoldenLibrary(examples, settings=settings, use_embedder=use_embedder)
            _LIBRARIES[key] = lib
        return lib
