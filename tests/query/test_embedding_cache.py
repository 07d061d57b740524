"""Query text vectors are remembered on disk: a repeated search does not need the text model."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from photosearch.query.embedding_cache import CachedEncoder, cached_text_encoder


class CountingEncoder:
    """A deterministic stand-in encoder that records which texts it was asked for."""

    def __init__(self, dim: int = 8):
        self.dim = dim
        self.asked: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.asked.append(list(texts))
        return (
            np.stack(
                [
                    np.random.default_rng(zlib.crc32(t.encode())).random(self.dim, dtype=np.float32)
                    for t in texts
                ]
            )
            if texts
            else np.zeros((0, self.dim), np.float32)
        )

    def embed(self, texts: list[str]) -> np.ndarray:  # the TextEmbedder protocol
        return self(texts)


def test_known_texts_come_from_disk_and_only_new_ones_are_embedded(tmp_path):
    enc = CountingEncoder()
    first = CachedEncoder(enc, tmp_path / "v.sqlite", "model@1")
    a = first(["tabby cat", "violin concerto", "tabby cat"])
    assert enc.asked == [["tabby cat", "violin concerto"]]
    assert np.array_equal(a[0], a[2])
    later = CachedEncoder(enc, tmp_path / "v.sqlite", "model@1")  # a new process, same cache file
    b = later(["violin concerto", "black dog", "tabby cat"])
    assert enc.asked[1:] == [["black dog"]]
    assert np.array_equal(b[0], a[1]) and np.array_equal(b[2], a[0])
    assert b.dtype == np.float32 and b.shape == (3, 8)


def test_another_model_never_reads_these_vectors(tmp_path):
    enc = CountingEncoder()
    CachedEncoder(enc, tmp_path / "v.sqlite", "model@1")(["tabby cat"])
    CachedEncoder(enc, tmp_path / "v.sqlite", "model@2")(["tabby cat"])
    assert enc.asked == [["tabby cat"], ["tabby cat"]]


def test_an_unusable_cache_file_only_costs_the_model(tmp_path):
    enc = CountingEncoder()
    bad = tmp_path / "v.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    out = CachedEncoder(enc, bad, "model@1")(["tabby cat", "dog"])
    assert out.shape == (2, 8) and enc.asked == [["tabby cat", "dog"]]
    assert CachedEncoder(enc, tmp_path / "missing-dir" / "sub" / "v.sqlite", "m")([]).shape == (0, 8)


def test_the_real_text_model_is_not_needed_for_a_text_it_has_embedded(tmp_path):
    from photosearch.config import Settings
    from photosearch.vision.text_embedder import MiniLmEmbedder

    settings = Settings(data_dir=tmp_path / "data")
    model = MiniLmEmbedder(settings)
    if not model.available():
        pytest.fail("the bundled text model must be installed")
    cached = cached_text_encoder(model, settings)
    direct = model.embed(["tabby cat", "quarterly tax invoice"])
    via_cache = cached(["tabby cat", "quarterly tax invoice"])
    assert np.allclose(via_cache, direct, atol=1e-5)
    model.close()

    fresh = MiniLmEmbedder(settings)  # as in the next process: nothing loaded
    again = cached_text_encoder(fresh, settings)(["quarterly tax invoice", "tabby cat"])
    assert not fresh.loaded
    assert np.array_equal(again, via_cache[::-1])


def test_search_remembers_the_query_vectors_of_the_shared_model(tmp_path):
    from photosearch.catalog import Store
    from photosearch.config import Settings
    from photosearch.query.embedding_cache import FILE_NAME
    from photosearch.query.search import FACTS_SPACE, default_signals

    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    try:
        (signal,) = [s for s in default_signals(store, settings) if s.space == FACTS_SPACE]
        assert isinstance(signal.encode, CachedEncoder)
        signal.encode(["tabby cat"])
        assert (settings.cache_dir / FILE_NAME).is_file()
        injected = CountingEncoder()  # an embedder passed in is used as given (tests, benchmarks)
        (signal,) = [
            s for s in default_signals(store, settings, text_embedder=injected) if s.space == FACTS_SPACE
        ]
        assert signal.encode == injected.embed
    finally:
        store.close()
