"""Fast fake analyzers for indexer tests (the real ones are tested through the real models)."""

from __future__ import annotations

import threading
import time

import numpy as np

from photosearch.records import AnalysisResult, FactRecord, PhotoImage


class MeanColourAnalyzer:
    """Tags each photo with its brightest channel; counts calls; can fail or sleep on demand."""

    name = "meancolour"

    def __init__(self, version: int = 1, fail_on: str | None = None, sleep_s: float = 0.0):
        self.version = version
        self.fail_on = fail_on
        self.sleep_s = sleep_s
        self.calls: list[str] = []
        self._lock = threading.Lock()

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        with self._lock:
            self.calls.append(image.path)
        if self.sleep_s:
            time.sleep(self.sleep_s)
        if self.fail_on and self.fail_on in image.path:
            raise RuntimeError(f"cannot analyse {image.path}")
        channel = ["red", "green", "blue"][int(np.argmax(image.rgb.reshape(-1, 3).mean(axis=0)))]
        return AnalysisResult(
            facts=[FactRecord("tag", channel, 0.9)],
            embeddings={"image": image.rgb.reshape(-1, 3).mean(axis=0).astype(np.float32)},
        )


class SizeAnalyzer:
    name = "size"

    def __init__(self, version: int = 1):
        self.version = version
        self.calls = 0

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        self.calls += 1
        return AnalysisResult(facts=[FactRecord("kind", "photo" if image.full_width > 64 else "icon")])


class FactCountAnalyzer:
    """A facts analyzer (runs after the pixel analyzers): embeds how many facts a photo has."""

    name = "factcount"
    version = 1

    def __init__(self):
        self.seen: list[list[str]] = []

    def analyze_facts_batch(self, fact_lists):
        out = []
        for facts in fact_lists:
            labels = sorted(f.label for f in facts)
            self.seen.append(labels)
            out.append(AnalysisResult(embeddings={"facts_text": np.array([len(labels)], np.float32)}))
        return out


class ScriptedVlm:
    """A vision-language model that follows `RegionDescriber` (`describe_region(image_rgb, question)`)
    and answers with a fixed text, e.g. the fragment soup a small VLM makes; records each call."""

    def __init__(self, reply: str):
        self.reply = reply
        self.calls: list[tuple[tuple[int, ...], str]] = []

    def describe_region(self, image_rgb: np.ndarray, question: str) -> str:
        self.calls.append((tuple(image_rgb.shape), question))
        return self.reply
