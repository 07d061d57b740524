"""How a face without a name looks, in a word: the face model's likeliest word for it ("a woman")."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from photosearch.models.labels import CLAIM_SCORES

#: The fact kind of the face model's words (`vision/face_traits.FACT_KIND`, named here: importing
#: that module loads ONNX Runtime, which the app's panels and Ask never need).
FACE_KIND = "face"
#: The least score at which the face model's word is said of a face, as search claims it.
CLAIMED = CLAIM_SCORES["faces"]


def look_of(
    box: Sequence[float] | None, words: Iterable[tuple[str, float | None, Sequence[float] | None]]
) -> str:
    """The likeliest word for the face at `box` among the face model's (label, score, box) words,
    where it claims one: from `CLAIM_SCORES["faces"]`, as search does (the model keeps words from
    0.2); "" where it claims none."""
    said = [
        (score or 0.0, label) for label, score, at in words if at is not None and list(at) == list(box or [])
    ]
    said = [(score, label) for score, label in said if score >= CLAIMED]
    return max(said)[1] if said else ""


def with_article(word: str) -> str:
    """ "a woman", "an old man"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}" if word else ""
