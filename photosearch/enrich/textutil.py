"""Text helpers for the non-LLM paths: tokens, sentences, BM25 + embedding ranking."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence

import numpy as np

from photosearch.models.base import TextEmbedder

log = logging.getLogger(__name__)

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "these",
        "those",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "about",
        "into",
        "than",
        "then",
        "there",
        "their",
        "they",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "kind",
        "type",
        "sort",
        "me",
        "my",
        "you",
        "your",
        "we",
        "our",
        "photo",
        "picture",
        "image",
        "please",
        "tell",
    ]
)
# Common words that are not product names even when written in capitals.
COMMON_CAPS = frozenset(
    [
        "SALE",
        "OPEN",
        "EXIT",
        "STOP",
        "PUSH",
        "PULL",
        "NEW",
        "FREE",
        "THE",
        "AND",
        "FOR",
        "YOU",
        "WITH",
        "HOTEL",
        "BAR",
        "CAFE",
        "SHOP",
        "STREET",
        "MADE",
        "IN",
        "OF",
        "TO",
        "NO",
        "ON",
        "OFF",
        "TEL",
        "WWW",
        "COM",
        "SIZE",
        "PRICE",
        "TOTAL",
    ]
)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-']*")
_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")


def tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text or "")]


def content_tokens(text: str) -> list[str]:
    return [t for t in tokens(text) if t not in STOPWORDS and len(t) > 1]


def sentences(text: str, max_len: int = 400) -> list[str]:
    out: list[str] = []
    for para in re.split(r"\n\s*\n|\n", text or ""):
        para = " ".join(para.split())
        if not para:
            continue
        for s in _SENT_SPLIT.split(para):
            s = s.strip()
            n = len(s.split())
            # headings and menu lines are not sentences: need an end mark, or be long
            if 20 <= len(s) <= max_len and n >= 4 and (s[-1] in ".!?\"')" or n >= 12):
                out.append(s)
    return out


def product_like(word: str) -> bool:
    """Does an OCR word look like a brand or model name (VOLTARO, X9, RX-100, iPhone)?"""
    w = word.strip(".,;:!?()[]\"'")
    if len(w) < 2 or w.upper() in COMMON_CAPS:
        return False
    has_digit = any(c.isdigit() for c in w)
    has_alpha = any(c.isalpha() for c in w)
    if has_digit and has_alpha:
        return True  # X9, RX100, A7III
    if w.isupper() and len(w) >= 3 and w.isalpha():
        return True  # VOLTARO
    return bool(re.fullmatch(r"[a-z]+[A-Z][A-Za-z]+", w))  # iPhone, eBike


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    a = a / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-9)
    b = b / (np.linalg.norm(b, axis=1, keepdims=True) + 1e-9)
    return a @ b.T


class HashingEmbedder:
    """A model-free stand-in: hashed word unigrams + character trigrams, L2-normalised.
    Only for ranking inside the chain when the MiniLM embedder is not installed; never stored."""

    dim = 384
    is_semantic = False

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for tok in content_tokens(t):
                feats = [tok] + [tok[j : j + 3] for j in range(max(1, len(tok) - 2))]
                for f in feats:
                    h = int.from_bytes(hashlib.blake2b(f.encode(), digest_size=4).digest(), "little")
                    out[i, h % self.dim] += 1.0 if f == tok else 0.3
        n = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(n, 1e-9)


def get_embedder(settings=None) -> TextEmbedder:
    """The shared MiniLM text embedder when installed, else the hashing stand-in."""
    try:
        from photosearch.vision.text_embedder import get_text_embedder  # type: ignore

        emb = get_text_embedder(settings)
        if emb is not None and (not hasattr(emb, "available") or emb.available()):
            return emb
    except Exception as exc:  # not built yet, or its model is missing
        log.info("text embedder unavailable (%s); using hashing embedder for ranking", exc)
    return HashingEmbedder()


def is_semantic(embedder) -> bool:
    return bool(getattr(embedder, "is_semantic", True))


def rank(
    query: str, docs: Sequence[str], embedder: TextEmbedder | None, *, weight_bm25: float = 0.5
) -> np.ndarray:
    """Relevance of each doc to the query in 0..1: BM25 (normalised) blended with embedding cosine."""
    n = len(docs)
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    from rank_bm25 import BM25Okapi

    corpus = [content_tokens(d) or ["_"] for d in docs]
    q = content_tokens(query)
    bm = np.zeros(n, dtype=np.float32)
    if q:
        # BM25Okapi idf goes negative for terms in most docs of a tiny corpus; add a dummy doc set.
        bm25 = BM25Okapi(corpus + [["_pad_"]] * max(2, n))
        bm = np.asarray(bm25.get_scores(q)[:n], dtype=np.float32)
        bm = np.clip(bm, 0, None)
        if bm.max() > 0:
            bm = bm / bm.max()
        # exact-term coverage so that a doc with every query term beats a doc repeating one
        qs = set(q)
        cov = np.asarray([len(qs & set(c)) / len(qs) for c in corpus], dtype=np.float32)
        bm = 0.5 * bm + 0.5 * cov
    emb = np.zeros(n, dtype=np.float32)
    if embedder is not None and query.strip():
        vecs = embedder.embed([query] + [d[:2000] for d in docs])
        emb = np.clip(cosine_matrix(vecs[:1], vecs[1:])[0], 0, 1)
    return weight_bm25 * bm + (1 - weight_bm25) * emb


def grounded(text: str, source: str, min_ratio: float = 0.6) -> bool:
    """Is most of `text`'s content vocabulary present in `source`? (guards LLM hallucination)"""
    t = set(content_tokens(text))
    if not t:
        return False
    s = set(content_tokens(source))
    return len(t & s) / len(t) >= min_ratio
