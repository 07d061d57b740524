"""What a panorama is, for every part that treats one differently (the models' views, the analysis
image, the thumbnail, the catalog migration that re-reads only panoramas): one definition, no
dependencies, so the catalog can use it without loading image code."""

from __future__ import annotations

#: A photo wider (or taller) than this is a panorama. 16:9 and 2:1 photos are not: on 59 2:1
#: landscapes, reading their parts too moved as many answers down as up.
WIDE_FROM = 2.2


def is_panorama(width: int, height: int) -> bool:
    """Whether a photo of this size is a panorama (an unknown size is not)."""
    long_side, short_side = max(width, height), min(width, height)
    return short_side > 0 and long_side / short_side > WIDE_FROM


def panorama_box(width: int, height: int, side: int, short: int, longest: int) -> tuple[int, int]:
    """The box an image of this size is scaled into: the square of `side`, or for a panorama one long
    enough that its short side stays at least `short`, at most `longest` times `side` long."""
    if not is_panorama(width, height):
        return side, side
    along = max(side, min(round(short * max(width, height) / min(width, height)), side * longest))
    return (along, side) if width >= height else (side, along)
