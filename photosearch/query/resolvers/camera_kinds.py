"""What kind of camera took a photo, from its EXIF make and model: a phone ("Apple iPhone 13",
"samsung SM-G991B", "Google Pixel 7", "Xiaomi 2201123G"...), a drone (DJI's "FC3582", Parrot's
"Anafi", Hasselblad's "L1D-20c" on a Mavic 2), an action camera (GoPro, Insta360, DJI's Osmo Action)
or a dedicated camera (a DSLR, a mirrorless or a compact: any other camera but a scanner). A maker of
cameras and phones counts by its phones' model names only (Samsung's "SM-", Sony's Xperia
"XQ-"/"SO-"; an "NX300" or "ILCE-7M3" is a camera)."""

from __future__ import annotations

import re

from photosearch.query.plan import ANY_ACTION_CAMERA, ANY_DEDICATED_CAMERA, ANY_DRONE, ANY_PHONE

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


#: Drones (folded make and model): DJI's aircraft (not its handheld Osmo, Pocket or Action cameras),
#: the Hasselblad camera of a Mavic 2 or 3 ("L1D-20c"), and the other drone makers.
_DRONE = re.compile(
    r"^(?:dji\b(?!.*\b(?:osmo|pocket|action|ot-?\d|ac00\d|ronin))|hasselblad l\dd-|"
    r"(?:parrot|autel(?: robotics)?|skydio|yuneec|fimi|hubsan|potensic|holy stone|eachine)\b)"
)
#: Action cameras: GoPro, Insta360 (whose make is "Arashi Vision"), DJI's Osmo Action and Pocket.
_ACTION = re.compile(
    r"^(?:gopro|insta360|arashi vision|akaso|sjcam|garmin virb)\b|^dji\b.*\b(?:osmo|pocket|action)"
)
#: Film and flatbed scanners: they took no photo ("NIKON SUPER COOLSCAN 5000", "EPSON Perfection V600").
_SCANNER = re.compile(r"scan|perfection|fastfoto|expression \d|^(?:plustek|pacific image|reflecta)\b")


def camera_kind(camera: str) -> str | None:
    """The kind of camera a folded "make model" names, or None for no camera (or a scanner)."""
    camera = camera.strip()
    if not camera or _SCANNER.search(camera):
        return None
    if is_phone(camera):
        return ANY_PHONE
    if _DRONE.search(camera):
        return ANY_DRONE
    if _ACTION.search(camera):
        return ANY_ACTION_CAMERA
    return ANY_DEDICATED_CAMERA
