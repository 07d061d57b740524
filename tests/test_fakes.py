"""The stand-ins the tests use follow the same protocols, with the same method signatures, as the
real parts they stand in for: a fake that drifted from the real shape would let tests pass on code
that fails with the real part."""

from __future__ import annotations

import inspect

import pytest

from photosearch.config import Settings
from photosearch.evaluate.synth import HashEmbedder
from photosearch.models.base import TextEmbedder
from photosearch.vision.analyzer import Analyzer, FactsAnalyzer
from photosearch.vision.facts_text import FactsTextAnalyzer
from photosearch.vision.tagger import TaggerAnalyzer
from photosearch.vision.text_embedder import MiniLmEmbedder
from tests.fakes import FactCountAnalyzer, MeanColourAnalyzer, SizeAnalyzer
from tests.query.gallery import FakeEmbedder


def _parameters(fn) -> list[tuple[str, object]]:
    return [(p.name, p.kind) for p in inspect.signature(fn).parameters.values() if p.name != "self"]


@pytest.mark.parametrize(
    "fake, protocol, real, method",
    [
        (MeanColourAnalyzer(), Analyzer, TaggerAnalyzer, "analyze"),
        (SizeAnalyzer(), Analyzer, TaggerAnalyzer, "analyze"),
        (FactCountAnalyzer(), FactsAnalyzer, FactsTextAnalyzer, "analyze_facts_batch"),
        (FakeEmbedder(), TextEmbedder, MiniLmEmbedder, "embed"),
        (HashEmbedder(), TextEmbedder, MiniLmEmbedder, "embed"),
    ],
)
def test_a_fake_has_the_real_parts_protocol_and_signature(fake, protocol, real, method):
    assert isinstance(fake, protocol)
    assert _parameters(getattr(type(fake), method)) == _parameters(getattr(real, method))
    assert _parameters(getattr(protocol, method)) == _parameters(getattr(real, method))


def test_the_real_parts_satisfy_the_protocols(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    assert isinstance(TaggerAnalyzer(settings), Analyzer)
    assert isinstance(FactsTextAnalyzer(settings), FactsAnalyzer)
    assert not isinstance(FactsTextAnalyzer(settings), Analyzer)  # it never reads pixels
    assert isinstance(MiniLmEmbedder(settings), TextEmbedder)
