"""Real all-MiniLM-L6-v2 int8 sentence embeddings."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.vision.text_embedder import get_text_embedder

pytestmark = pytest.mark.slow


def test_a_cat_is_nearer_kitten_than_spaceship(embedder):
    v = embedder.embed(["a cat", "kitten", "spaceship"])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_batching_and_padding_do_not_change_vectors(embedder):
    texts = ["dog", "a long sentence about a dog running on a sandy beach at sunset with friends", "", "cat"]
    batch = embedder.embed(texts)
    singles = np.stack([embedder.predict([t])[0] for t in texts])
    assert np.allclose(batch, singles, atol=1e-4)
    assert embedder.embed([]).shape == (0, 384)
    with pytest.raises(TypeError):
        embedder.embed("not a list")


def test_single_queries_are_cached_and_shared(embedder, vsettings):
    a = embedder.embed_one("beach holiday")
    assert embedder.embed_one("beach holiday") is a
    assert not a.flags.writeable
    assert np.allclose(embedder.embed(["beach holiday"])[0], a)
    assert get_text_embedder(vsettings) is embedder


def _rss_mib() -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS")) / 1024


def test_a_batch_of_long_texts_leaves_no_arena_behind(embedder):
    """The arena gives back what a big batch took (it kept ~490 MiB for the rest of an index run)."""
    rng = np.random.default_rng(0)
    words = ["cat", "street", "sign", "water", "beach", "mountain", "kitchen", "outdoor", "tabby"]
    texts = [" ".join(rng.choice(words, 200)) + f" {i}" for i in range(64)]
    embedder.embed(["warm up"])
    before = _rss_mib()
    vectors = embedder.predict(texts)
    assert _rss_mib() - before < 150
    assert np.allclose(vectors[3], embedder.predict([texts[3]])[0], atol=1e-4)
