"""Sentence embeddings: all-MiniLM-L6-v2 int8 ONNX, mean pooling + L2 norm (384-d float32).

Used by analyzers (facts_text), the query planner/executor and web enrichment. Get the shared
instance with `get_text_embedder(settings)`; it loads on first use and is thread-safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from photosearch.config import Settings
from photosearch.models.arrays import l2_normalize
from photosearch.models.base import Model
from photosearch.models.manifest import ModelUnavailable
from photosearch.models.runtimes.onnx import ShrinkingSession, create_session

DIM = 384


class MiniLmEmbedder(Model):
    """`embed(texts) -> (n, 384)` float32, rows L2-normalised. Single strings are LRU-cached. A
    `photosearch.models.TextEmbedder`."""

    manifest_name = "text-minilm-l6-v2-int8"
    thread_safe = True  # ONNX Runtime sessions allow concurrent runs

    def __init__(
        self, settings: Settings | None = None, manifest=None, *, cache_size: int = 2048, batch_size: int = 64
    ):
        super().__init__(settings, manifest)
        self.cache_size = cache_size
        self.batch_size = batch_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        p = self.manifest.preprocess
        self.max_length = int(p.get("max_length", 256))
        self.dim = int(p.get("dim", DIM))

    def _load(self) -> None:
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelUnavailable("the text embedder needs tokenizers; pip install tokenizers") from exc
        model = self.manifest.require("model", self.settings)
        tok = Tokenizer.from_file(str(self.manifest.require("tokenizer", self.settings)))
        tok.enable_truncation(max_length=self.max_length)
        tok.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest text in the batch
        self._tokenizer = tok
        # Batches vary in length: the arena would keep the largest one's memory (64 long fact texts:
        # ~490 MiB held for the rest of an index run); it gives it back after each run instead.
        self._session = ShrinkingSession(create_session(model, self.settings, keep_weights_quantized=True))
        self._inputs = {i.name for i in self._session.get_inputs()}

    @property
    def provider(self) -> str:
        self.load()
        return self._session.get_providers()[0]

    def _predict(self, texts: list[str]) -> np.ndarray:
        enc = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
        return l2_normalize(pooled, axis=1)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed many texts; batches are length-sorted so padding stays short."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of strings; use embed_one() for a single string")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) == 1:
            return self.embed_one(texts[0])[None].copy()
        texts = [str(t) for t in texts]
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self.predict([texts[i] for i in idx])
        return out

    def embed_one(self, text: str) -> np.ndarray:
        """One (384,) vector, from an LRU cache when this string was seen (read-only array)."""
        text = str(text)
        with self._cache_lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit
        vec = self.predict([text])[0]
        vec.setflags(write=False)
        with self._cache_lock:
            self._cache[text] = vec
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return vec

    def similarity(self, a: str, b: str) -> float:
        return float(self.embed_one(a) @ self.embed_one(b))

    def _close(self) -> None:
        self._session = None
        with self._cache_lock:
            self._cache.clear()


_shared: dict[tuple, MiniLmEmbedder] = {}
_shared_lock = threading.Lock()


def get_text_embedder(settings: Settings | None = None) -> MiniLmEmbedder:
    """The process-wide text embedder for these settings (threads, models dir, GPU choice)."""
    settings = settings if settings is not None else Settings()
    key = (str(settings.models_dir), int(settings.threads), bool(settings.gpu))
    with _shared_lock:
        if key not in _shared:
            _shared[key] = MiniLmEmbedder(settings)
        return _shared[key]
