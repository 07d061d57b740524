"""A set's judgement rule applied to a photo described by words: shared by the sets' tests."""

from __future__ import annotations

from photosearch.evaluate.heldout import Photo


def judged(queries, request: str, text: str, source: str = "test") -> bool:
    """Whether the rule `queries` (a set's QUERIES) give `request` takes a photo with this text
    (its source's words) from `source`."""
    rule = next(r for q, r, _ in queries if q == request)
    return rule(Photo("pictures/x.jpg", text, source, "test"))
