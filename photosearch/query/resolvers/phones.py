"""Which cameras are phones, from the EXIF make and model as phones write them: "Apple iPhone 13",
"samsung SM-G991B", "Google Pixel 7", "Xiaomi 2201123G"... A maker of cameras and phones counts by
its phones' model names only (Samsung's "SM-", Sony's Xperia "XQ-"/"SO-"; an "NX300" or "ILCE-7M3"
is a camera)."""

from __future__ import annotations

import re

#: Makers (folded EXIF make) whose every model is a phone or a tablet.
PHONE_MAKERS = frozenset(
    {
        "apple", "google", "xiaomi", "redmi", "poco", "oneplus", "huawei", "honor", "oppo", "vivo",
        "realme", "motorola", "hmd global", "nokia", "fairphone", "nothing", "zte", "meizu", "tecno",
        "infinix", "lenovo",
    }
)  # fmt: skip
#: Makers of cameras too: a phone only by its model name.
PHONE_MODELS = {
    "samsung": re.compile(r"\b(?:sm-|gt-|galaxy)"),
    "sony": re.compile(r"\b(?:xperia|xq-|so-\d)"),
    "lg": re.compile(r"\b(?:lm-|lg-|nexus)"),
    "lge": re.compile(r"."),
    "asus": re.compile(r"\b(?:zenfone|rog phone|asus_)"),
}


def is_phone(camera: str) -> bool:
    """Whether a folded "make model" names a phone's camera."""
    camera = camera.strip()
    if not camera:
        return False
    if "iphone" in camera or "pixel" in camera:
        return True
    for maker in PHONE_MAKERS:
        if camera == maker or camera.startswith(maker + " "):
            return True
    return any(camera.startswith(maker + " ") and pat.search(camera) for maker, pat in PHONE_MODELS.items())
