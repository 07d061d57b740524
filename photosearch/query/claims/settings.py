"""Camera settings and sizes: "f/1.8", "iso 3200 or higher", "1/250s", "50mm", "telephoto", "long
exposure", "with flash" as setting atoms (`query/camera_settings.py` reads the words); "high
resolution", "4k", "large files", "bigger than 10mb" as size atoms (`query/photo_sizes.py`)."""

from __future__ import annotations

from photosearch.query.camera_settings import find_settings
from photosearch.query.parse_state import ClaimState
from photosearch.query.photo_sizes import find_sizes


def claim_settings(st: ClaimState) -> None:
    """Each setting and size the request says, before dates claim "1/250" or words "telephoto"."""
    for finder, slot in ((find_settings, "setting"), (find_sizes, "size")):
        for start, end, node in finder(st.low):
            if st.free(start, end):
                st.claim(start, end, "atom", node, slot=slot)
