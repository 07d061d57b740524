"""usearch vector indexes, one per embedding space: a rebuildable cache of the catalog."""

from photosearch.vectors.exact import ExactVectors
from photosearch.vectors.index import VectorIndex, normalise
from photosearch.vectors.manager import FACE_SPACE, VectorIndexes

__all__ = ["FACE_SPACE", "ExactVectors", "VectorIndex", "VectorIndexes", "normalise"]
