"""The bundled models' class spaces as plain data: the COCO label map and its score-vector codec,
and where the ImageNet class names are. The query engine reads these without loading a model
runtime (this module imports numpy and the manifest loader only)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Protocol

import numpy as np

from photosearch.config import Settings
from photosearch.models.manifest import get_manifest

#: The tagger's manifest (its `labels` file holds the ImageNet class names, one class per line).
TAGGER_MANIFEST = "tagger-efficientnet-lite3"
#: The space of the tagger's whole softmax.
IMAGENET_SPACE = "imagenet"

# The TF Object Detection API's 90-id COCO label map (ids missing in COCO 2017 are absent).
COCO_LABELS: dict[int, str] = {
    1: "person",
    2: "bicycle",
    3: "car",
    4: "motorcycle",
    5: "airplane",
    6: "bus",
    7: "train",
    8: "truck",
    9: "boat",
    10: "traffic light",
    11: "fire hydrant",
    13: "stop sign",
    14: "parking meter",
    15: "bench",
    16: "bird",
    17: "cat",
    18: "dog",
    19: "horse",
    20: "sheep",
    21: "cow",
    22: "elephant",
    23: "bear",
    24: "zebra",
    25: "giraffe",
    27: "backpack",
    28: "umbrella",
    31: "handbag",
    32: "tie",
    33: "suitcase",
    34: "frisbee",
    35: "skis",
    36: "snowboard",
    37: "sports ball",
    38: "kite",
    39: "baseball bat",
    40: "baseball glove",
    41: "skateboard",
    42: "surfboard",
    43: "tennis racket",
    44: "bottle",
    46: "wine glass",
    47: "cup",
    48: "fork",
    49: "knife",
    50: "spoon",
    51: "bowl",
    52: "banana",
    53: "apple",
    54: "sandwich",
    55: "orange",
    56: "broccoli",
    57: "carrot",
    58: "hot dog",
    59: "pizza",
    60: "donut",
    61: "cake",
    62: "chair",
    63: "couch",
    64: "potted plant",
    65: "bed",
    67: "dining table",
    70: "toilet",
    72: "tv",
    73: "laptop",
    74: "mouse",
    75: "remote",
    76: "keyboard",
    77: "cell phone",
    78: "microwave",
    79: "oven",
    80: "toaster",
    81: "sink",
    82: "refrigerator",
    84: "book",
    85: "clock",
    86: "vase",
    87: "scissors",
    88: "teddy bear",
    89: "hair drier",
    90: "toothbrush",
}


COCO_SPACE = "coco"
#: The WordNet 3.0 synset (noun offset) of each COCO class whose name alone reads as another thing:
#: WordNet's first "mouse" is the rodent, its first "kite" a bad cheque, "hot dog" and "toaster"
#: people, "banana" and "carrot" the plants; and of the classes WordNet has no entry for ("sports
#: ball", "cell phone"). The other classes are their name's first sense; "book" too: its first sense,
#: the written work, is what "novel", "textbook", "cookbook" and "printed text" are kinds of.
COCO_WORDNET: dict[str, int] = {
    "stop sign": 6794110,  # street sign
    "skis": 4228054,  # ski
    "sports ball": 2778669,  # ball, game equipment
    "kite": 3621473,  # the plaything flown in the wind
    "wine glass": 4592099,  # wineglass
    "banana": 7753592,  # the fruit
    "broccoli": 7714990,  # the vegetable
    "carrot": 7730207,  # the root eaten
    "hot dog": 7697537,  # a frankfurter served hot on a bun
    "cake": 7628870,  # baked goods
    "potted plant": 11536230,  # pot plant
    "toilet": 4446521,  # the plumbing fixture, not the room
    "tv": 4405907,  # television receiver
    "mouse": 3793489,  # computer mouse
    "keyboard": 3085013,  # computer keyboard
    "cell phone": 2992529,  # cellular telephone
    "microwave": 3761084,  # microwave oven
    "toaster": 4442312,  # the kitchen appliance
}
#: Index (0-based) of each COCO class in the "coco" vector, in label-map id order.
COCO_CLASS_IDS: tuple[int, ...] = tuple(sorted(COCO_LABELS))
#: Detections below this score are noise even for the distribution.
DISTRIBUTION_MIN_SCORE = 0.05

#: A labelling model claims a concept at this much of its own evidence: the detector at the score it
#: reports objects at, the tagger at 0.3 of its probability. Below, its guess ranks but never alone
#: makes a photo sure: on the real set and the dev part, confident answers only the tagger gave were
#: wrong 22 times in 35 at 0.1-0.3 of its probability, 10 in 31 at 0.3-0.5, 17 in 232 above.
#: (A second model agrees at less: `query.resolvers.agreement.AGREES`.)
CLAIM_SCORES = {"detector": 0.4, "tagger": 0.3, "scenes": 0.3, "faces": 0.5}


def score_vector(rows: np.ndarray) -> np.ndarray:
    """Best score per COCO class plus a trailing 1.0: vector indexes store unit vectors, and the
    constant lets `decode_scores` recover the scores (score_i = v_i / v_last)."""
    out = np.zeros(len(COCO_CLASS_IDS) + 1, np.float32)
    out[-1] = 1.0
    pos = {cid: i for i, cid in enumerate(COCO_CLASS_IDS)}
    for cls, score in zip(rows[:, 0].astype(int).tolist(), rows[:, 1].tolist(), strict=True):
        i = pos.get(cls)
        if i is not None and score >= DISTRIBUTION_MIN_SCORE:
            out[i] = max(out[i], float(score))
    return out


def decode_scores(vecs: np.ndarray) -> np.ndarray:
    """Scores back from (normalised) `score_vector`s: (n, 81) -> (n, 80)."""
    vecs = np.atleast_2d(np.asarray(vecs, np.float32))
    last = np.where(vecs[:, -1:] > 0, vecs[:, -1:], 1.0)
    return np.clip(vecs[:, :-1] / last, 0.0, 1.0)


def imagenet_labels_path(settings: Settings) -> Path:
    """The installed ImageNet class-name file (raises `ModelUnavailable` when it is not installed)."""
    return get_manifest(TAGGER_MANIFEST).require("labels", settings)


#: ImageNet's classes as WordNet ids, in the models' class order (ILSVRC-2012's list of 1,000, as
#: timm ships it, Apache-2.0).
IMAGENET_SYNSETS_FILE = Path(__file__).resolve().parents[2] / "resources" / "imagenet_synsets.txt"


#: Classes whose ImageNet synset is not what their photos show: ImageNet files "spider web" under a
#: made web ("a web resembling the webs spun by spiders"); its photos are spiders' webs, where a
#: cobweb is a kind.
IMAGENET_SEEN_AS = {"n04275548": "n04275363"}


@cache
def _imagenet_offsets() -> tuple[int, ...]:
    wnids = IMAGENET_SYNSETS_FILE.read_text(encoding="ascii").split()
    return tuple(int(IMAGENET_SEEN_AS.get(w, w)[1:]) for w in wnids)


@cache
def model_class_synsets() -> frozenset[int]:
    """The WordNet synsets the tagger's and the detector's classes are (ImageNet's ids and
    `COCO_WORDNET`): the senses a photo's labels can mean."""
    return frozenset(_imagenet_offsets()) | frozenset(COCO_WORDNET.values())


class _Lexicon(Protocol):
    """What `imagenet_class_synsets` asks of a WordNet reader (`vision.wordnet.WordNet`)."""

    def lookup(self, lemma: str) -> tuple[int, ...]: ...

    def match_labels(self, labels: list[str]) -> list[int | None]: ...


def imagenet_class_synsets(labels: list[str], wordnet: _Lexicon) -> list[int | None]:
    """Each class's WordNet synset: ImageNet's own, where the labels are its classes and that synset
    holds the label's first name; else the one its names match (`WordNet.match_labels`). A name alone
    can mean several things, and the order of ids does not always tell them apart: by name, "ox" was
    the wild ox, "mortar" a howitzer, "volcano" a vent and "printer" a printing press."""
    by_name = wordnet.match_labels(labels)
    ids = _imagenet_offsets()
    if len(ids) != len(labels):
        return by_name
    firsts = [label.split(",")[0].strip() for label in labels]
    return [
        own if own in wordnet.lookup(first) else guess
        for first, own, guess in zip(firsts, ids, by_name, strict=True)
    ]


#: The scene model's manifest (its `categories` file holds Places365's scene names, "/b/beach 48").
SCENES_MANIFEST = "scenes-wideresnet18-places365"
#: The space of the scene model's whole softmax.
PLACES_SPACE = "places365"
#: The scene model's labels of where the camera stood, each with the other words it is found by.
INDOORS = ("indoors", "indoor", "inside")
OUTDOORS = ("outdoors", "outdoor", "outside", "outdoor scene")
#: ...as its `scene` facts say them (not scenes: "indoors" says little of what a photo shows).
SCENE_SIDES = (INDOORS[0], OUTDOORS[0])
#: Places365 qualifiers that say where the camera stood, not what the scene is ("church/outdoor").
CAMERA_QUALIFIERS = frozenset({"indoor", "outdoor", "exterior", "interior"})
#: Scene names a plain reading of the category would get wrong.
PLACE_NAMES = {
    "underwater/ocean_deep": ("underwater", "deep ocean"),
    "temple/asia": ("asian temple", "temple"),
    "desert/vegetation": ("desert",),
    "moat/water": ("moat",),
    "elevator/door": ("elevator door", "elevator"),
    "atrium/public": ("atrium",),
    "bakery/shop": ("bakery",),
    "lake/natural": ("lake",),
    "canal/natural": ("canal",),
    "subway_station/platform": ("subway platform", "subway station"),
    "train_station/platform": ("railway platform", "railway station"),
    "mountain_snowy": ("snowy mountain", "mountain"),
    "archaelogical_excavation": ("archaeological excavation", "excavation"),
    "artists_loft": ("artist's loft", "loft"),
    "childs_room": ("child's room", "nursery"),
    "butchers_shop": ("butcher's shop", "butcher shop"),
    "veterinarians_office": ("veterinarian's office", "veterinary clinic"),
    "kindergarden_classroom": ("kindergarten classroom", "classroom"),
}


def place_names(category: str) -> tuple[str, ...]:
    """A Places365 category's names, the most specific first: "/f/forest/broadleaf 160" ->
    ("broadleaf forest", "forest"); "/c/church/outdoor" -> ("church",); "/b/beach" -> ("beach",)."""
    path = category.split()[0].strip("/")
    letter, _, rest = path.partition("/")  # the index letter: "f" of "/f/forest/broadleaf"
    key = rest if len(letter) == 1 and rest else path
    if key in PLACE_NAMES:
        return PLACE_NAMES[key]
    base, _, qualifier = key.partition("/")
    base, qualifier = base.replace("_", " "), qualifier.replace("_", " ")
    if not qualifier or qualifier in CAMERA_QUALIFIERS:
        return (base,)
    return (f"{qualifier} {base}", base)


def places_categories(settings: Settings | None) -> list[tuple[str, ...]]:
    """Each Places365 class's names (`place_names`), in the model's output order."""
    path = get_manifest(SCENES_MANIFEST).require("categories", settings)
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return [place_names(ln) for ln in lines]


#: The space of the SUN attributes the scene model's pooled features say of a photo (CSAIL's linear
#: read-out of 102 attributes), kept for the ones a request can name: what is there (trees, brick,
#: snow, clouds) and what people do there (swimming, camping), each with the words that name it.
#: Light, layout and mood ("natural light", "open area", "soothing") name nothing one searches for.
SUN_SPACE = "sunattributes"
SUN_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "boating": ("boating",), "swimming": ("swimming",), "sunbathing": ("sunbathing",),
    "hiking": ("hiking",), "climbing": ("climbing",), "camping": ("camping",), "diving": ("diving",),
    "shopping": ("shopping",), "farming": ("farming",), "praying": ("praying",),
    "trees": ("trees", "tree"), "grass": ("grass",), "vegetation": ("vegetation",),
    "shrubbery": ("shrubbery", "bushes"), "foliage": ("foliage",), "leaves": ("leaves", "leaf"),
    "flowers": ("flowers", "flower"), "asphalt": ("asphalt",), "pavement": ("pavement",),
    "shingles": ("shingles",), "carpet": ("carpet",), "brick": ("brick", "bricks"), "tiles": ("tiles",),
    "concrete": ("concrete",), "metal": ("metal",), "wood": ("wood",), "marble": ("marble",),
    "sand": ("sand",), "rock": ("rock", "rocks"), "dirt": ("dirt",), "glass": ("glass",),
    "surf": ("surf", "waves"), "ocean": ("ocean", "sea"), "running water": ("running water", "stream"),
    "still water": ("still water",), "ice": ("ice",), "snow": ("snow",), "clouds": ("clouds", "cloud"),
    "smoke": ("smoke",), "fire": ("fire",),
}  # fmt: skip


def sun_attribute_rows(settings: Settings | None) -> list[int]:
    """The rows of the scene model's attribute read-out that `SUN_ATTRIBUTES` keeps, in its order."""
    path = get_manifest(SCENES_MANIFEST).require("attributes", settings)
    names = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return [names.index(name) for name in SUN_ATTRIBUTES]
