"""Editor claims: "edited photos", "photos I edited in lightroom", "snapseed edits", "photoshopped",
"unedited photos" → the editor atom (what the file or its sidecar says: `metadata/editing.py`)."""

from __future__ import annotations

import re

from photosearch.metadata.editing import EDITORS
from photosearch.query.parse_state import ClaimState
from photosearch.query.plan import ANY_EDITOR

#: Editor names that are also things or file kinds when said bare ("topaz photos", "camera raw
#: photos"): an editor only after "edited in".
_BARE_AMBIGUOUS = frozenset({"topaz", "camera raw"})
_NAMES = dict(EDITORS) | {"affinity": "Affinity Photo", "capture one": "Capture One", "on1": "ON1"}
_ANY_NAME = "|".join(sorted((re.escape(w) for w in _NAMES), key=len, reverse=True))
_BARE_NAME = "|".join(
    sorted((re.escape(w) for w in _NAMES if w not in _BARE_AMBIGUOUS), key=len, reverse=True)
)
_PHOTOS = r"(?:photos?|pictures?|pics|images?|shots?|versions?|copies|ones)"
_EDITED_IN = re.compile(
    r"\b(?:edited|retouched|processed|developed|touched\s+up|fixed|adjusted)\s+(?:in|with|using|on|through)\s+"
    rf"(?P<app>{_ANY_NAME})\b"
    rf"|\b(?P<app2>{_BARE_NAME})\s+(?:edits?|exports?|edited|{_PHOTOS})\b"
)
_EDITED = re.compile(
    r"\b(?P<no>un-?edited|unretouched|not\s+edited|never\s+edited|without\s+(?:any\s+)?edits|sooc"
    r"|straight\s+out\s+of\s+(?:the\s+)?camera)\b"
    rf"|\b(?:edited|retouched|post-?processed|photoshopped)\b(?=\s+(?:{_PHOTOS}|portraits?|selfies?|landscapes?)\b)"
    rf"|\b{_PHOTOS}\s+(?:that\s+)?(?:i|we|you)\s*(?:have\s+|'ve\s+)?(?:edited|retouched|photoshopped)\b"
    r"|\b(?:my|our)\s+edits\b|\bphotoshopped\b"
)


def claim_editors(st: ClaimState) -> None:
    """A named editor ("edited in lightroom", "snapseed edits"), then any edit or none."""
    for m in st.unclaimed(_EDITED_IN):
        word = " ".join((m.group("app") or m.group("app2")).split())
        st.claim(m.start(), m.end(), "atom", {"editor": _NAMES[word]}, slot="editor")
    for m in st.unclaimed(_EDITED):
        node = {"editor": ANY_EDITOR}
        st.claim(m.start(), m.end(), "atom", {"not": node} if m.group("no") else node, slot="editor")
