"""Attribute claims: colour words are the photo's colours (the `color` atom), never nouns; words for
the photo's shape ("vertical", "panoramas", "in landscape orientation") are the `orientation` atom.

"black and white", "b&w", "monochrome" → ``{"color": "monochrome"}``; a colour word → ``{"color": NAME}``
("red car", "flowers that are not purple", "in blue"). "colourful", "vibrant colours", "multicoloured"
→ ``{"concept": "colourful"}``, the attribute the quality analyzer measures (`vision/attributes.py`).
A colour word stays part of a concept where colour and noun name one thing in WordNet ("red wine",
"black swan", "golden retriever", "brown bear"), and a colour word that is also a thing ("orange",
"silver") is a colour only where it describes: before another word, after "not"/"is"/"in", or alone
with another colour.
"""

from __future__ import annotations

import re

from photosearch.query import lexicon as lx
from photosearch.query.parse_state import ClaimState
from photosearch.query.senses import (
    AMBIGUOUS_COLOURS,
    COLOUR_WORDS,
    MONOCHROME,
    MONOCHROME_PHRASES,
    is_a_shade,
    shade_colour,
)

#: Words after which an ambiguous colour word describes ("not orange", "is orange", "in silver").
_DESCRIBING = frozenset(
    {"not", "no", "is", "are", "was", "were", "in", "all", "mostly", "bright", "dark", "light"}
)


#: Words for a photo's shape → the orientation atom's value. "portrait" and "landscape" alone are
#: kinds of photo (a person, scenery): only with "orientation"/"format" ("portrait mode" is the phone
#: camera's portrait, "landscape mode" the shape).
ORIENTATION_PATTERNS = (
    (
        r"\b(?:in\s+)?portrait\s+(?:orientation|format)\b|\bvertical(?:ly)?\b|\btall\s+photos?\b",
        "portrait",
    ),
    (
        r"\b(?:in\s+)?landscape\s+(?:orientation|format|mode)\b|\bhorizontal(?:ly)?\b|\bwide\s+photos?\b",
        "landscape",
    ),
    (r"\bpanoram(?:as?|ic)\b|\bpanos?\b", "panorama"),
    (r"\bsquare\s+(?:photos?|pictures?|pics|images?|format|crops?)\b", "square"),
)


class ColourClaims:
    """Colour words and the photo's shape: attributes measured at index time."""

    def __init__(self):
        self.shapes = [(re.compile(p), value) for p, value in ORIENTATION_PATTERNS]
        phrases = sorted(MONOCHROME_PHRASES, key=len, reverse=True)
        self.mono = re.compile(r"(?<![\w])(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])")
        self.colour = re.compile(r"\b(?:" + "|".join(sorted(COLOUR_WORDS, key=len, reverse=True)) + r")\b")

    def __call__(self, st: ClaimState) -> None:
        for pat, value in self.shapes:
            for m in st.unclaimed(pat):
                st.claim(m.start(), m.end(), "atom", {"orientation": value}, slot="orientation")
        self._claim_looks(st)
        self._claim_colours(st)

    def _claim_looks(self, st: ClaimState) -> None:
        """Black and white, the old photos' look, the golden hour's light."""
        for m in self.mono.finditer(st.low):
            if st.free(m.start(), m.end()) and not _colours_of_a_coat(m.group(0), st.word_after(m.end())):
                st.claim(m.start(), m.end(), "atom", {"color": MONOCHROME}, slot="color")
        for m in st.unclaimed(_OLD_LOOK):
            st.claim(m.start(), m.end(), "atom", {"concept": OLD_PHOTO}, slot="concept")
        for m in st.unclaimed(_GOLDEN_LIGHT):  # the warm light of the golden hour, no yellow thing
            st.claim(m.start(), m.end(), "atom", {"concept": "golden hour"}, slot="concept")

    def _claim_colours(self, st: ClaimState) -> None:
        """Colour words, of the frame or of the thing they are said of."""
        for m in self.colour.finditer(st.low):
            if not st.free(m.start(), m.end()):
                continue
            word = m.group(0)
            nxt = st.word_after(m.end())
            prev = st.word_before(m.start())
            if _inside_a_name(st, m):
                continue  # "west highland white terrier": a dog breed WordNet names, no white thing
            shade = prev is not None and _shade_of(st, prev, m)
            if nxt and names_a_thing(word, nxt) and not _colours_a_thing(word, nxt):
                if shade:
                    st.claim(*prev.span(), "drop", text="")  # "light blue sky": the blue sky
                continue  # "red wine", "black swan": one thing, read as a concept
            said_of = _describes(nxt, prev.group(0) if prev else "") or shade or _beside_a_colour(st.low, m)
            if word in AMBIGUOUS_COLOURS and not said_of:
                continue  # "an orange", "silver" alone: the thing ("burnt orange", "orange and black": colours)
            start = prev.start() if shade else m.start()  # "dark blue", "olive green": a shade of it
            end = _COLOURED.match(st.low, m.end())
            end = end.end() if end and st.free(m.end(), end.end()) else m.end()  # "red coloured"
            st.claim(start, end, "atom", {"color": COLOUR_WORDS[word]}, slot="color")
        _claim_shade_coloured(st)
        _claim_colourful(st)


def _claim_colourful(st: ClaimState) -> None:
    """Words for many vivid colours (`_COLOURFUL`); "colours" after a colour word only repeats it
    ("red colours" is red, and no flag: WordNet's "colors" is an ensign)."""
    for m in _COLOURFUL.finditer(st.low):
        if not st.free(m.start(), m.end()):
            continue
        prev = st.word_before(m.start())
        if m.group(0).startswith("colo") and prev and prev.group(0) in COLOUR_WORDS:
            st.claim(m.start(), m.end(), "drop", text="<colours>")
        elif m.group(0).startswith("colo") and prev and prev.group(0) in _FEW_COLOURS:
            continue  # "pastel colours", "muted colors": a look of its own, not many vivid colours
        else:
            st.claim(m.start(), m.end(), "atom", {"concept": COLOURFUL}, slot="concept")


#: Words before "colours" that say they are few or soft: "pastel colours" are not colourful.
_FEW_COLOURS = frozenset(
    {"pastel", "muted", "soft", "neutral", "dull", "faded", "earthy", "subdued", "washed"}
)
#: Words for a colour's shade: "dark blue" is blue (the photo need not be dark), "vivid red" is red.
SHADES = frozenset(
    {"dark", "light", "bright", "pale", "deep", "pastel", "vivid", "vibrant", "neon", "hot", "soft", "muted"}
    | {"navy", "royal", "baby"}
    # things a shade is named after that WordNet has no colour of ("lime green", "forest green")
    | {"forest", "lime", "mint", "ocean", "sea", "ice", "electric", "midnight", "army", "hunter", "kelly"}
    | {"dusty", "burnt", "mustard", "bubblegum", "candy", "blush"}
)


def _adjacent(low: str, before: re.Match, word: re.Match) -> bool:
    return re.fullmatch(r"[\s-]+", low[before.end() : word.start()]) is not None


def _shade_of(st: ClaimState, before: re.Match, colour: re.Match) -> bool:
    """Whether the free word right before a colour word says which shade of it: "dark blue",
    "olive green", "sky blue", "pitch black" (`SHADES`, or WordNet's colours, `is_a_shade`)."""
    from photosearch.query.expansion import shared_wordnet

    word = before.group(0)
    if not st.free(*before.span()) or not _adjacent(st.low, before, colour):
        return False
    if word in SHADES:
        return True
    wn = shared_wordnet()
    if wn is None or word in COLOUR_WORDS or word in lx.STOP_WORDS:
        return False
    return is_a_shade(wn, word, colour.group(0))


def _inside_a_name(st: ClaimState, colour: re.Match) -> bool:
    """Whether the colour word is inside a noun of three or four words WordNet knows, none a colour:
    "west highland white terrier" is a breed (an ImageNet class), not a white thing and a terrier."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    if wn is None:
        return False
    before = list(re.finditer(r"[a-z]+", st.low[: colour.start()]))[-2:]
    after = list(re.finditer(r"[a-z]+", st.low[colour.end() :]))[:2]
    for b in range(len(before) + 1):
        for a in range(len(after) + 1):
            words = [w.group(0) for w in before[len(before) - b :]] + [colour.group(0)]
            words += [w.group(0) for w in after[:a]]
            start = before[len(before) - b].start() if b else colour.start()
            end = colour.end() + after[a - 1].end() if a else colour.end()
            if len(words) < 3 or not st.free(start, end):
                continue
            if any(w in lx.STOP_WORDS or w in lx.AND_WORDS or w in lx.OR_WORDS for w in words):
                continue  # "black and white" with a coat's noun: the coat's two colours
            name = "_".join([*words[:-1], lx.singular(words[-1])])
            hyphened = name.replace(f"{colour.group(0)}_", f"{colour.group(0)}-", 1)  # "white-tailed deer"
            if (wn.lookup(name) or wn.lookup(hyphened)) and shade_colour(wn, name) is None:
                return True
    return False


#: "coloured" after a colour word only repeats it: "a red coloured car" is a red car.
_COLOURED = re.compile(r"[\s-]+colou?red\b")
#: "peach coloured", "an ivory-colored dress": a word with a colour sense before "coloured".
_SHADE_COLOURED = re.compile(r"\b([a-z]+)[\s-]+colou?red\b")


def _claim_shade_coloured(st: ClaimState) -> None:
    """A word WordNet has a colour sense of, before "coloured", is that colour: "peach coloured" is
    pink, "ivory-colored" white, "burgundy coloured" red (`senses.shade_colour`)."""
    from photosearch.query.expansion import shared_wordnet

    matches = list(st.unclaimed(_SHADE_COLOURED))
    wn = shared_wordnet() if matches else None
    for m in matches:
        colour = shade_colour(wn, m.group(1)) if wn is not None else None
        if colour is not None:
            st.claim(m.start(), m.end(), "atom", {"color": colour}, slot="color")


#: A colour word joined to the next or the one before: "orange and black", "black or orange".
_COLOUR_AFTER = re.compile(r"\s*(?:,|&|\band\b|\bor\b)\s*([a-z]+)")
_COLOUR_BEFORE = re.compile(r"([a-z]+)\s*(?:,|&|\band\b|\bor\b)\s*$")


def _beside_a_colour(low: str, colour: re.Match) -> bool:
    """Whether an ambiguous colour word is listed with another colour ("orange and black", "blue
    or orange"): a colour then, not the fruit ("oranges and lemons" stay fruit)."""
    after = _COLOUR_AFTER.match(low, colour.end())
    before = _COLOUR_BEFORE.search(low[: colour.start()])
    return any(m is not None and m.group(1) in COLOUR_WORDS for m in (after, before))


#: Words for many vivid colours ("colourful", "vibrant colours", "full of colour", "multicolored") →
#: the measured attribute; "bright colours" too (not the "bright" of a photo's light), and "colours"
#: of their own ("fall colors": autumn's months, and colourful; it was a concept "colors" no model
#: labels).
COLOURFUL = "colourful"
_COLOURFUL = re.compile(
    r"\b(?:(?:colou?rful|vibrant|vivid|multi-?colou?red|rainbow-colou?red)(?:\s+colou?rs?)?"
    r"|(?:bright|lots\s+of|full\s+of|many|all\s+the)\s+colou?rs?|colou?rs)\b"
)
#: "old photos", "vintage pictures", "old family photos", "scanned photos", "film photos": the word
#: describes the photo itself (not "an old car", "a film poster").
_OLD_LOOK = re.compile(
    r"\b(?<!mm\s)(?:old|older|ancient|vintage|retro|antique|old-fashioned|scanned|film|analog|analogue)"
    r"(?=\s+(?:(?:family|childhood|baby|school|wedding|holiday|vacation)\s+)?(?:photo|photos|photograph|"
    r"photographs|picture|pictures|pic|pics|image|images|print|prints|snapshots?|shots)\b)"
)
#: "golden light", "a golden glow": the golden hour's light (a scene word), not a yellow light.
_GOLDEN_LIGHT = re.compile(r"\bgolden\s+(?:light|glow|sunlight|sunshine|rays?)\b")
#: What an old photo is to the models: the scene word "vintage" (resources/scenes.yaml), black and
#: white or sepia.
OLD_PHOTO = "vintage"


def _describes(nxt: str, before: str) -> bool:
    content_next = bool(nxt) and nxt not in lx.STOP_WORDS and nxt not in lx.SEPARATORS
    content_next = content_next and nxt not in lx.AND_WORDS and nxt not in lx.OR_WORDS
    return content_next or before in _DESCRIBING


def _colours_of_a_coat(phrase: str, noun: str) -> bool:
    """Whether "black and white" before the noun are its two colours, not a photo in black and white:
    an animal's coat ("a black and white dog", "black and white bear": the panda) or clothes ("a
    black and white dress"). The photo words, a street, a portrait are photos in black and white."""
    from photosearch.query.expansion import ANIMAL, shared_wordnet

    wn = shared_wordnet()
    if wn is None or not noun or phrase.replace("&", "and").replace("-", " ") != "black and white":
        return False
    first = (wn.lookup(lx.singular(noun)) or wn.lookup(noun))[:1]
    if not first:
        return False
    clothing = wn.lookup("clothing")[:1]
    return wn.synset(first[0]).lexfile == ANIMAL or bool(clothing) and clothing[0] in wn.ancestors(first[0])


def _colours_a_thing(colour: str, noun: str) -> bool:
    """Whether the colour describes the noun although WordNet names the two words as one thing of
    another kind: its "black cat" is a fisher (a marten), its "white horse" a whitecap (a wave), its
    "white sheep" a Dall sheep; a black cat is what is asked, and cats and horses are what the models
    label. Not where the one thing is itself labelled ("red fox") or a name ("Golden Gate"), or the
    noun is nothing the models label ("black widow" is the spider)."""
    from photosearch.query.expansion import shared_wordnet
    from photosearch.query.senses import is_proper, labelled_and_above

    wn = shared_wordnet()
    if wn is None:
        return False
    one = wn.lookup(f"{colour}_{lx.singular(noun)}") or wn.lookup(f"{colour}_{noun}")
    head = wn.lookup(lx.singular(noun)) or wn.lookup(noun)
    if not one or not head:
        return False
    labelled = labelled_and_above(wn)
    if any(o in labelled for o in one) or is_proper(wn, f"{colour} {lx.singular(noun)}", one[0]):
        return False
    return head[0] in labelled and not any(h in wn.ancestors(one[0]) for h in head)


def names_a_thing(word: str, nxt: str) -> bool:
    """Whether "word nxt" is one WordNet noun ("red wine", "golden retrievers") or a scene word
    ("golden hour")."""
    from photosearch.query.expansion import scenes, shared_wordnet

    if f"{word} {nxt}" in scenes():
        return True
    wn = shared_wordnet()
    if wn is None:
        return False
    return any(wn.lookup(f"{word}_{form}") for form in {nxt, lx.singular(nxt)})
