"""Camera settings claims: "f/1.8", "iso 3200 or higher", "1/250s", "50mm", "telephoto", "long
exposure", "with flash" as setting atoms (`query/camera_settings.py` reads the words)."""

from __future__ import annotations

from photosearch.query.camera_settings import find_settings
from photosearch.query.parse_state import ClaimState


def claim_settings(st: ClaimState) -> None:
    """Each setting the request says, before dates claim "1/250" or words claim "telephoto"."""
    for start, end, node in find_settings(st.low):
        if st.free(start, end):
            st.claim(start, end, "atom", node, slot="setting")
