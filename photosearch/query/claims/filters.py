"""Filter claims: words in the photo ("that says EXIT"), tags and favourites, kinds (screenshot,
document), quality (blurry) and people counts ("group photos", "at least 3 people", "a couple", "a crowd", "alone")."""

from __future__ import annotations

import copy
import re
from typing import Any

from photosearch.query import lexicon as lx
from photosearch.query.months import ANY_DAY
from photosearch.query.parse_state import ALONE, ClaimState
from photosearch.query.plan import ANY_PERSON, ANY_PLACE, ANY_SIMILAR, ANY_TAG, ANY_TEXT, UNNAMED_PERSON

#: "a crowd": at least this many people.
CROWD = 6


#: Right after "without (a|any)" or "no": the negation is that word's ("without GPS", "no date").
_AFTER_NO = r"(?:(?<=\bwithout\s)|(?<=\bwithout\sa\s)|(?<=\bwithout\sany\s)|(?<=\bno\s))"
#: "undated photos", "with no date", "without a date", "dated photos": whether the photo has a date
#: taken at all.
_DATED = re.compile(
    r"\b(?P<un>undated)\b|(?<!future-)(?<!future\s)\bdated(?=\s+(?:photos?|pictures?|pics|images?))"
    rf"|(?:{_AFTER_NO}|(?<=\bwith\sa\s))(?:date|dates|date\s+taken|capture\s+date)\b"
)
_PHOTOS = r"(?:photos?|pictures?|pics|images?|shots)"
#: "I haven't", "we never": what the user has not done to a photo yet.
_NOT_DONE = r"\b(?:that\s+)?(?:i|we)\s*(?:have\s*n[o']?t|haven't|havent|didn't|did\s+not|never)\s+"
#: "untagged", "photos I haven't tagged", "not tagged yet": no tag of the user's nor keyword of the file.
_UNTAGGED = re.compile(
    rf"\buntagged\b|{_NOT_DONE}tagged(?:\s+yet)?\b"
    r"|\bnot\s+(?:been\s+|yet\s+)?tagged(?:\s+yet)?\b(?!\s+(?:as|with)\b)(?=\s*$|\s+(?:yet|from|in|of|since|before|after|taken)\b)"
)
#: "tagged photos", "photos with tags" or keywords, "without tags" (the negation is the word before's).
_ANY_TAGS = re.compile(
    rf"\btagged(?=\s+{_PHOTOS}\b)|{_AFTER_NO}(?:tags|keywords)\b|\b(?:with|having|has)\s+(?:any\s+)?(?:tags|keywords)\b"
)
#: "rated photos", "with a rating"; "unrated", "not rated", "without a rating": whether a tool rated it.
_RATED = re.compile(
    rf"(?P<un>\bunrated|\bnot\s+(?:yet\s+)?rated|{_NOT_DONE}(?:rated|starred)(?:\s+yet)?"
    r"|\b(?:without|with\s+no)\s+(?:a\s+|any\s+)?(?:star\s+)?ratings?)\b"
    rf"|\b(?<!top\s)(?<!best\s)(?<!highest\s)rated(?=\s+{_PHOTOS}\b)|\b(?:with|having|has)\s+(?:a\s+|any\s+)?(?:star\s+)?ratings?\b"
)
#: "3 other people", "2 more people": beside someone the request named ("3 or more people" are three).
_OTHERS = re.compile(
    r"\b(?:other|(?<!\bor\s)more)\s+(?:people|persons?|faces?|humans|friends|kids|children|adults|folks|guys)\b"
)
#: "unnamed faces", "people I haven't named", "faces without a name", "faces to name": a face nobody
#: named yet.
_UNNAMED = re.compile(
    r"\b(?:unnamed|unknown|unidentified|untagged)\s+(?:faces?|people|persons?)\b"
    r"|\b(?:faces?|people|persons?)\s+(?:(?:that|who|whom)\s+)?(?:i|we)\s*(?:have\s*n[o']?t|haven't|havent|didn't|did\s+not|never)"
    r"\s+(?:named|tagged|identified)(?:\s+yet)?\b"
    r"|\b(?:faces?|people|persons?)\s+(?:without|with\s+no)\s+(?:a\s+)?names?\b"
    r"|\b(?:faces?|people|persons?)\s+(?:left\s+)?to\s+(?:name|tag|identify)\b"  # "faces to name"
)
#: "named people", "people I named", "faces with names".
_NAMED = re.compile(
    r"\bnamed\s+(?:faces?|people|persons?)\b|\b(?:faces?|people|persons?)\s+(?:(?:that|who|whom)\s+)?(?:i|we)\s*(?:'ve|have)?\s*named\b"
    r"|\b(?:faces?|people|persons?)\s+with\s+names?\b"
)


#: "best photos", "top rated", "my finest shots": no model judges a photo's merit; the photos the
#: user marked do (a heart, or four stars or more in the file).
BEST = {"or": [{"tag": "favourite"}, {"rating": {"min": 4, "max": None}}]}
BEST_WORDS = "your favourites and the photos rated four stars or more"
_BEST = re.compile(
    r"\b(?:very\s+)?(?P<a>best|finest|greatest|top[- ]rated|highly[- ]rated|highest[- ]rated"
    r"|(?:(?:i|we)(?:'ve|\s+have)?\s+)?rated\s+(?:highly|high|well|the\s+highest))\b"
    r"(?!\s+(?:friends?|man|men|buddy|buddies|mates?|before|seller))"
    r"(?!(?:\s+\w+)?\s+(?:of|from|for|in)\s+(?:each|every)\b)"  # "best photo of each month": one each
    # a taste alone ("nice photos"): what the user likes; beside a thing ("nice beach") it is dropped
    r"|^\s*(?:my\s+|the\s+|some\s+)?(?:really\s+|very\s+)?"
    r"(?P<b>good|nice|great|lovely|beautiful|gorgeous|stunning|amazing)(?=\s+(?:photos?|pictures?|pics|shots)\s*$)"
)


#: Words that end what a sign says and go on with the request ("... with a car", "... or a cake").
_AFTER_WHAT_IS_SAID = frozenset(
    {"with", "without", "but", "that", "which", "who", "on", "of", "over", "under"}
)


def _ends_what_is_said(word: str, first: bool) -> bool:
    """Whether a word after "says" goes on with the request rather than with what is said: a
    preposition, a connective or a negation (but "says no parking" says "no")."""
    return (
        word in _AFTER_WHAT_IS_SAID
        or word in lx.SEPARATORS
        or word in lx.PLACE_PREPS
        or word in lx.AND_WORDS
        or word in lx.OR_WORDS
        or (word in lx.NOT_PHRASES and not first)
    )


#: "portrait photos of a dog": what a portrait is of.
_PORTRAIT_OF = re.compile(
    r"(?:\s+(?:photos?|pictures?|shots?))?\s+of\s+(?:(?:my|our|the|a|an|his|her|their|your|some)\s+)?([a-z]+)"
)


#: WordNet's lexicographer file of groups, people's among them ("a family", "people").
PEOPLE_GROUPS = 14
#: Words for someone that WordNet reads as something else ("us": the United States).
_SOMEONE_WORDS = frozenset({"us", "me", "myself", "him", "her", "them", "you"})


#: Words for several people after "portrait of", counted on their own ("a portrait of us": two or more).
_SEVERAL = frozenset({"us", "friends", "everyone", "everybody"})


_NUMBER_SHOWN = re.compile(r"\b(?:with\s+)?(?:the\s+|a\s+)?number\s+(?P<v>\d+)\b")
_PHOTO_WORD = re.compile(r"\b(?:photos?|pictures?|pics?|pix|shots?|images?|snaps?|photographs?)\b")


def _a_taste(st: ClaimState, m: re.Match) -> bool:
    """Whether "favourite" says which one thing, not which photos: "my favourite mug" is the mug,
    where "my favourite beach photos" and "favourite sunsets" are photos marked favourite."""
    word = m.group(0).split()[-1]
    nxt = st.word_after(m.end())
    return (
        word in ("favourite", "favorite", "fave")
        and bool(nxt)
        and nxt not in lx.STOP_WORDS
        and lx.singular(nxt) == nxt
        and not _PHOTO_WORD.search(st.low, m.end())
    )


#: "ducks in a group", "sheep in groups": a group of the things, not of people.
_THINGS_IN_A_GROUP = re.compile(r"\b(?P<x>[a-z]+)\s+in\s+(?:a\s+)?groups?\b")


#: "photos to delete", "what can I clean up": nothing else asked, the photos people clear out first.
CLEANUP = {"or": [{"quality": "blurry"}, {"similar": ANY_SIMILAR}]}
CLEANUP_WORDS = "blurry photos and near-duplicates"
_CLEANUP = re.compile(
    r"^\s*(?:show\s+me\s+|find\s+)?(?:the\s+|my\s+)?(?:photos?|pictures?|pics|images?)\s+"
    r"(?:to|i\s+(?:can|could|should)|worth\s+(?:deleting|removing))"
    r"(?:\s+(?:delete|clean\s+up|clean\s+out|get\s+rid\s+of|remove|throw\s+away))?\s*\??\s*$"
)


def _claim_cleanup(st: ClaimState) -> None:
    """ "photos to delete", "pictures I should get rid of": blurry photos and near-duplicates."""
    m = _CLEANUP.match(st.low)
    if m and re.search(r"delet|clean|rid|remov|throw", m.group(0)) and st.free(m.start(), m.end()):
        st.claim(m.start(), m.end(), "atom", copy.deepcopy(CLEANUP), slot="quality")
        st.note(f"“{m.group(0).strip()}” was read as {CLEANUP_WORDS}", 0.0)


def _claim_any_tags(st: ClaimState) -> None:
    """ "untagged", "photos I haven't tagged": no tag; "tagged photos", "with tags": any tag."""
    for pattern, node in ((_UNTAGGED, {"not": {"tag": ANY_TAG}}), (_ANY_TAGS, {"tag": ANY_TAG})):
        for m in st.unclaimed(pattern):
            st.claim(m.start(), m.end(), "atom", copy.deepcopy(node), slot="tag")


#: "no people or ...", "without people or ...": a negation of a list, not a count of none.
_NEGATES_A_LIST = re.compile(r"(?:no|without)\s")
_OR_AFTER = re.compile(r"\s*,?\s*(?:or|nor)\s+(?!(?:else|nothing|anything)\b)[a-z]")

#: "face" said alone is a photo with a face, as "faces" is ("a face", "close-up of a face"); not a
#: face of something ("the face of a dog", "a clock face") nor a thing named after it ("face paint").
_A_FACE = re.compile(
    r"\bface\b(?![\s-]*(?:of|masks?|paint|painting|paints|down|up|swap|cream|wash|book|time|off|to|on)\b)"
)
#: The words a face said alone comes after: none, an article, "of", "with" or an owner.
_BEFORE_A_FACE = frozenset({"a", "an", "the", "of", "with", "his", "her", "my", "your", "their", "our"})


def _a_face_said_alone(st: ClaimState) -> None:
    for m in st.unclaimed(_A_FACE):
        before = st.word_before(m.start())
        if before is None or before.group(0) in _BEFORE_A_FACE:
            st.claim(m.start(), m.end(), "atom", {"faces": {"min": 1, "max": None}}, slot="faces")


def _things_in_a_group(st: ClaimState) -> None:
    """ "ducks in a group" is a group of ducks (three or more, as "a group of ducks"), not a group of
    people beside ducks; people in a group stay people ("kids in a group", "friends in a group")."""
    from photosearch.query.expansion import PERSON, first_lexfile

    for m in _THINGS_IN_A_GROUP.finditer(st.low):
        word = m.group("x")
        thing = lx.singular(word)
        if thing == word or not st.free(m.start(), m.end()) or _PHOTO_WORD.fullmatch(word):
            continue
        if first_lexfile(thing) not in (None, PERSON, PEOPLE_GROUPS):
            st.claim(m.start(), m.end(), "atom", {"concept": f"group {thing}"}, slot="concept")


def _of_a_thing(st: ClaimState, end: int) -> bool:
    """Whether a portrait is of a thing WordNet knows that is no person ("portraits of my dog", "a
    portrait of a cat") or of several people counted on their own ("of us"), not of someone ("of my
    mother", "of Anna", "of me")."""
    from photosearch.query.expansion import PERSON, first_lexfile, shared_wordnet

    m = _PORTRAIT_OF.match(st.low, end)
    if m is None or shared_wordnet() is None:
        return False
    word = m.group(1)
    if word in _SEVERAL:
        return True
    if word in {n.lower() for n in st.ctx.people} or word in lx.STOP_WORDS or word in _SOMEONE_WORDS:
        return False
    return first_lexfile(word) not in (None, PERSON, PEOPLE_GROUPS)


class FilterClaims:
    """Text, tag, kind and quality claims (`claim_filters`), then face-count claims (`claim_faces`)."""

    def __init__(self):
        n = lx.NUMBER_RE
        self.tagged = re.compile(
            r"(?:\b(?:tagged(?:\s+as|\s+with)?|with\s+(?:the\s+)?tag|labell?ed(?:\s+as)?|tag)\s+(?P<v>[\w][\w-]*)"
            r"|(?:\btagged\s+(?:as\s+|with\s+)?)?(?<![\w&])#(?P<h>[a-z][\w-]*))"  # "#beach", "tagged #beach"
        )
        stars = r"(?:\s*-?\s*stars?)"
        more = r"(?:\+|or\s+(?:more|higher|better|above)|and\s+(?:up|above|higher|better|over|more))"
        self.ratings: list[tuple[re.Pattern, str]] = [
            (
                re.compile(rf"\b(?:rated|rating)\s*(?::|>=)?\s*(?P<n>{n}){stars}?\s*{more}"),
                "min",
            ),
            (re.compile(rf"\b(?:rated|rating)\s+(?:at\s+least|min(?:imum)?)\s+(?P<n>{n}){stars}?"), "min"),
            (re.compile(rf"\b(?:rated|rating)\s+(?:at\s+most|up\s+to)\s+(?P<n>{n}){stars}?"), "max"),
            (re.compile(rf"\b(?:at\s+least\s+)(?P<n>{n}){stars}"), "min"),
            (re.compile(rf"\b(?P<n>{n}){stars}\s*{more}"), "min"),
            (re.compile(rf"\b(?P<n>{n})\s*(?:or\s+more|or\s+better|and\s+more){stars}"), "min"),
            (re.compile(rf"\b(?P<n>{n})\+{stars}"), "min"),
            (re.compile(rf"\b(?:rated|rating)\s*:?\s*(?P<n>{n}){stars}?(?![\w+])"), "eq"),
            (re.compile(rf"\b(?P<n>{n}){stars}(?:\s+(?:rated|rating|photos?|pictures?|ones?))?\b"), "eq"),
            (re.compile(r"\brejected(?:\s+(?:photos?|pictures?|ones?|shots?))?\b"), "rejected"),
        ]
        colours = "|".join(lx.COLOR_LABEL_WORDS)
        self.labels = [
            re.compile(
                rf"\b(?:with\s+(?:an?\s+|the\s+)?)?(?P<c>{colours})(?:\s+colou?r)?(?:\s*-?\s*)label(?:l?ed|s)?\b"
            ),
            re.compile(
                rf"\b(?:labell?ed|colou?r\s+label(?:l?ed)?|label)\s*:?\s*(?:as\s+)?(?P<c>{colours})\b"
            ),
        ]
        self.word_text = re.compile(r"\b(?:with\s+)?(?:the\s+)?(?:word|text|writing)\s+(?P<v>[\w-]+)")
        # lower-case words count as text only after an explicit introduction
        # ("text that says happy birthday": the text is what it says; a sign that says it is a sign too)
        self.says_text = re.compile(
            r"\b(?:(?:with\s+(?:the\s+)?|the\s+)(?:(?P<one>word)|words|text|writing)|(?:(?:text|writing|words)\s+)?(?:that|which)\s+(?:says?|reads?)|saying)"
            r"\s+(?P<v>[\w-]+(?:\s+[\w-]+)*)"
        )
        # "photos with text", "with some writing", "text in it", "text on a sign", "without text" (the
        # negation is the word before's): any words read in the photo
        self.any_text = re.compile(
            r"\b(?:(?:with|containing|contains?|having|has|have)\s+(?:some\s+|any\s+)?"
            r"(?:text|writing|words|lettering|letters)|(?:text|writing|words|letters)\s+(?:in|on)\s+(?:it|them)"
            r"|(?:text|writing|lettering)(?=\s+(?:on|in)\s)|(?<=\bof\s)(?:text|writing|handwriting)"
            r"|(?:(?<=\bwithout\s)|(?<=\bwithout\sany\s)|(?<=\bno\s))(?:text|writing|words|lettering))\b"
        )
        # "photos with location", "geotagged", "without GPS" (the negation is the word before's): a
        # known place, any
        place_words = r"(?:locations?|gps\s+data|gps|coordinates|geo-?tags?|place\s+info)"
        self.any_place = re.compile(
            rf"\b(?:(?:with|having|has|have)\s+(?:a\s+|an\s+|any\s+)?{place_words}|geo-?tagged|on\s+the\s+map"
            rf"|{_AFTER_NO}{place_words})\b"
        )
        # "photos missing location", "lacking gps", "ungeotagged": no known place
        self.no_place = re.compile(
            rf"\b(?:(?:missing|lacking|with\s+missing)\s+(?:a\s+|any\s+|the\s+)?{place_words}|un-?geo-?tagged)\b"
        )
        # "my cat's favourite spot" is the cat's taste, not a photo the user marked
        self.favourite = re.compile(rf"(?<!'s\s)(?<!s'\s)\b(?:my\s+)?(?:{'|'.join(lx.FAVOURITE_WORDS)})\b")
        self.kind = re.compile(
            rf"\b(?:{'|'.join(sorted((re.escape(k) for k in lx.KIND_WORDS), key=len, reverse=True))})\b"
        )
        self.quality = re.compile(
            rf"\b(?:{'|'.join(sorted((re.escape(k) for k in lx.QUALITY_WORDS), key=len, reverse=True))})(?![\w-])"
        )
        people_w = (
            r"(?:(?:other|more)\s+)?"  # "anna and at least 3 other people": four with her
            r"(?:people|persons?|faces?|humans|friends|kids|children|adults|of\s+us|of\s+them|folks|guys)"
        )
        self.us = re.compile(r"(?<!\bthe\s)\b(?:all\s+of\s+)?us\b")
        # "portrait mode" is the phone camera's (a face before a blurred background), not the shape
        self.portrait = re.compile(r"\bportraits?(?:\s+mode)?\b(?!\s+(?:orientation|format)\b)")
        photo_w = r"(?:photos?|pictures?|pics|shots?|selfies?|portraits?|images?)"
        owner_w = r"(?:my|our|the|his|her|their|your)"
        # "a family dinner", "family reunion": the family at it, and the dinner
        family_events = (
            r"(?:dinner|lunch|breakfast|meal|party|gathering|reunion|picnic|barbecue|bbq|celebration"
            r"|christmas|holiday|vacation|trip|walk|day\s+out|outing)"
        )
        self.counts: list[tuple[re.Pattern, Any]] = [
            (
                re.compile(
                    rf"\bgroups?\s+(?:photos?|pictures?|pics|shots?|selfies?|portraits?|images?)\b"
                    rf"|\bgroups?\b(?!\s+of\b)|\bgroups?\s+(?:of\s+)?{people_w}"
                ),
                (3, None),
            ),
            (
                re.compile(
                    r"\b(?!(?:nobody|no\s*one|no-one)\s+else\b)(?:no\s+(?:people|persons|faces|humans|one|body)|nobody|no-one|without\s+(?:any\s+)?(?:people|persons|faces|humans|anyone|anybody)|empty(?:\s+scenes?)?|unpeopled|deserted|no\s+one\s+in\s+(?:it|them))\b"
                ),
                (0, 0),
            ),
            # a family is two or more people, a team or a class three or more: "family photos", "a
            # family portrait", "portrait of my family", "the whole team", "class photo", "my team"
            (
                re.compile(
                    rf"\bfamil(?:y|ies)\s+{photo_w}|\b(?:whole|entire)\s+family\b"
                    rf"|\bfamily(?=\s+{family_events}s?\b)"
                    rf"|\bportraits?\s+of\s+(?:{owner_w}\s+)?(?:whole\s+)?family\b"
                ),
                (2, None),
            ),
            (
                re.compile(
                    rf"\b(?:teams?|class|classes)\s+{photo_w}|\b(?:(?:whole|entire)\s+)?teams?\b(?!\s+of\b)"
                    rf"|\b(?:whole|entire)\s+(?:class|gang|crew|squad)\b"
                    rf"|\bportraits?\s+of\s+(?:{owner_w}\s+)?(?:whole\s+)?(?:team|class)\b"
                ),
                (3, None),
            ),
            (self.portrait, (1, 1)),
            # "tom with other people", "anna with someone else": more than the one named
            (
                re.compile(
                    rf"\bwith\s+(?:other|more|different)\s+{people_w}|\bwith\s+(?:others|someone\s+else"
                    r"|somebody\s+else|other\s+ones)\b"
                ),
                (2, None),
            ),
            (re.compile(r"\b(?:a\s+)?couples?\b(?!\s+of\b)"), (2, 2)),  # "a couple of dogs" is no count
            (
                re.compile(
                    rf"\b(?:crowds?|audiences?)\b(?!\s+of\b)|\bcrowds?\s+(?:of\s+)?{people_w}|\bcrowded\b"
                ),
                (CROWD, None),
            ),
            (
                re.compile(
                    rf"\b(?:many|several|multiple|numerous|lots\s+of|a\s+lot\s+of|loads\s+of|plenty\s+of"
                    rf"|a\s+bunch\s+of|a\s+group\s+of)\s+{people_w}"
                ),
                (3, None),
            ),
            (re.compile(rf"\ba\s+few\s+{people_w}"), (2, None)),
            (
                re.compile(
                    rf"\b(?:at\s+least|min(?:imum)?(?:\s+of)?|no\s+fewer\s+than|not\s+less\s+than)\s+(?P<n>{n})\s+{people_w}"
                ),
                "min",
            ),
            (re.compile(rf"\b(?P<n>{n})\s*(?:\+|or\s+more)\s+{people_w}"), "min"),
            (
                re.compile(
                    rf"\b{people_w}\s*:?\s*(?:at\s+least|min(?:imum)?(?:\s+of)?|no\s+fewer\s+than|not\s+less\s+than)\s+(?P<n>{n})\b"
                ),
                "min",
            ),
            (re.compile(rf"\b{people_w}\s*:?\s*(?P<n>{n})\s*(?:\+|or\s+more)(?!\w)"), "min"),
            (re.compile(rf"\b{people_w}\s*:?\s*more\s+than\s+(?P<n>{n})\b"), "gt"),
            (
                re.compile(
                    rf"\b{people_w}\s*:?\s*(?:at\s+most|up\s+to|no\s+more\s+than|max(?:imum)?(?:\s+of)?|not\s+more\s+than)\s+(?P<n>{n})\b"
                ),
                "max",
            ),
            (re.compile(rf"\b{people_w}\s*:?\s*(?:fewer|less)\s+than\s+(?P<n>{n})\b"), "lt"),
            (re.compile(rf"\bmore\s+than\s+(?P<n>{n})\s+{people_w}"), "gt"),
            (
                re.compile(
                    rf"\b(?:at\s+most|up\s+to|no\s+more\s+than|max(?:imum)?(?:\s+of)?|not\s+more\s+than)\s+(?P<n>{n})\s+{people_w}"
                ),
                "max",
            ),
            (re.compile(rf"\b(?:fewer|less)\s+than\s+(?P<n>{n})\s+{people_w}"), "lt"),
            (re.compile(rf"\b(?:the|all)\s+(?P<n>{n})\s+of\s+(?:us|them)\b"), "eq"),
            (re.compile(r"\bboth\s+of\s+(?:us|them)\b"), (2, 2)),
            (
                re.compile(
                    rf"\b(?:exactly\s+|just\s+|only\s+)?(?P<n>{n})\s+(?:(?:other|more)\s+)?"
                    r"(?:people|persons|faces|humans|friends|kids|children|adults|folks)\b"
                ),
                "eq",
            ),
            (re.compile(rf"\b(?:a\s+)?famil(?:y|ies)\s+of\s+(?P<n>{n})\b"), "eq"),  # "a family of four"
            # one person: "photos with just one person", "a single person" (a singular word is no count
            # of more than one)
            (
                re.compile(
                    r"\b(?:exactly\s+|just\s+|only\s+)?(?:one|1|a\s+single|single)\s+(?:person|face|human|adult)\b"
                    r"(?!\s*'s)"
                ),
                (1, 1),
            ),
            (
                re.compile(
                    r"\b(?:alone|solo|by\s+(?:him|her|my|your|them|our)sel(?:f|ves)|on\s+(?:his|her|my|their)\s+own"
                    r"|(?:and\s+)?(?:nobody|no\s*one|noone)\s+else)\b"  # "anna and nobody else": her alone
                ),
                (0, 1),
            ),
            (
                re.compile(
                    r"\b(?:with\s+)?(?:people|persons|faces|humans|someone|somebody|anyone|anybody)\b(?:\s+in\s+(?:it|them))?"
                ),
                (1, None),
            ),
            # friends: two or more people, where no count above said how many ("three friends")
            (re.compile(r"\b(?:with\s+)?(?:my\s+|our\s+)?friends\b"), (2, None)),
            # "photos of us", "us at the beach": the one asking and someone else ("the US" is a country)
            (self.us, (2, None)),
        ]

    def claim_ratings(self, st: ClaimState) -> None:
        """Star ratings and colour labels written by photo tools: "rated 4 or more", "5 stars",
        "at least 3 stars", "rejected", "unrated", "red label", "labelled green"."""
        for pattern, how in self.ratings:
            for m in pattern.finditer(st.low):
                if not st.free(m.start(), m.end()):
                    continue
                if how == "rejected":
                    lo, hi = -1, -1
                else:
                    k = lx.to_int(m.group("n"))
                    if not 0 <= k <= 5:
                        continue
                    lo, hi = {"min": (k, None), "eq": (k, k), "max": (1, k)}[how]
                st.claim(m.start(), m.end(), "atom", {"rating": {"min": lo, "max": hi}}, slot="rating")
        for m in st.unclaimed(_RATED):
            rated = {"rating": {"min": 1, "max": None}}
            st.claim(m.start(), m.end(), "atom", {"not": rated} if m.group("un") else rated, slot="rating")
        for pattern in self.labels:
            for m in st.unclaimed(pattern):
                value = lx.COLOR_LABEL_WORDS[m.group("c")]
                st.claim(m.start(), m.end(), "atom", {"label": value}, slot="label")

    def claim_filters(self, st: ClaimState) -> None:
        """Text in the photo, a date or place known at all, tags and favourites, kinds and quality words."""
        self._claim_text(st)
        self._claim_known(st)
        self._claim_marks(st)

    def _claim_text(self, st: ClaimState) -> None:
        """Words in the photo: "EXIT", "that says galleries", "photos with text" (any words)."""
        for m in self.word_text.finditer(st.text):
            if st.free(m.start(), m.end()) and m.group("v").isupper():
                st.claim(m.start(), m.end(), "atom", {"text": m.group("v")}, slot="text")
        for m in self.says_text.finditer(st.low):
            said = list(re.finditer(r"[\w-]+", st.low[m.start("v") : m.end("v")]))
            # the words said, up to a word that goes on with the request ("... in the street", "... or")
            n = next((i for i, w in enumerate(said) if _ends_what_is_said(w.group(0), i == 0)), len(said))
            n = min(n, 1) if m.group("one") else n  # "the word exit": one word
            while n and said[n - 1].group(0) in lx.STOP_WORDS:  # "says hello to the": "hello"
                n -= 1
            if n == 0:
                continue
            end = m.start("v") + said[n - 1].end()
            if not st.free(m.start(), end):
                continue
            st.claim(m.start(), end, "atom", {"text": st.text[m.start("v") : end]}, slot="text")
        for m in st.unclaimed(self.any_text):
            st.claim(m.start(), m.end(), "atom", {"text": ANY_TEXT}, slot="text")
        for m in st.unclaimed(_NUMBER_SHOWN):  # "a bus with the number 12": the 12 is read in it
            st.claim(m.start(), m.end(), "atom", {"text": m.group("v")}, slot="text")

    def _claim_known(self, st: ClaimState) -> None:
        """Whether the photo has a date or a place at all: "undated photos", "photos missing location"."""
        for m in st.unclaimed(_DATED):
            known = {"yearly": dict(ANY_DAY)}
            st.claim(m.start(), m.end(), "atom", {"not": known} if m.group("un") else known, slot="yearly")
        for m in st.unclaimed(self.any_place):
            st.claim(m.start(), m.end(), "atom", {"place": ANY_PLACE}, slot="place")
        for m in st.unclaimed(self.no_place):
            st.claim(m.start(), m.end(), "atom", {"not": {"place": ANY_PLACE}}, slot="place")

    def _claim_marks(self, st: ClaimState) -> None:
        """Tags and favourites, kinds and quality words."""
        _claim_cleanup(st)
        _claim_any_tags(st)
        for m in st.unclaimed(self.tagged):
            value = m.group("v") or m.group("h")
            if value in ("favourite", "favorite", "favourites", "favorites"):
                value = "favourite"
            st.claim(m.start(), m.end(), "atom", {"tag": value}, slot="tag")
        for m in st.unclaimed(self.favourite):
            if _a_taste(st, m):
                st.claim(m.start(), m.end(), "drop", text="")
            else:
                st.claim(m.start(), m.end(), "atom", {"tag": "favourite"}, slot="tag")
        for m in st.unclaimed(_BEST):
            st.claim(m.start(), m.end(), "atom", copy.deepcopy(BEST), slot="tag")
            st.note(f"“{m.group('a') or m.group('b')}” was read as {BEST_WORDS}", 0.0)
        for m in st.unclaimed(self.kind):
            st.claim(m.start(), m.end(), "atom", {"kind": lx.KIND_WORDS[m.group(0)]}, slot="kind")
        for m in st.unclaimed(self.quality):
            st.claim(m.start(), m.end(), "atom", {"quality": lx.QUALITY_WORDS[m.group(0)]}, slot="quality")

    def claim_faces(self, st: ClaimState) -> None:
        """Face counts: "group photos", "at least 3 people", "alone", "no people"; whether someone
        in the photo is named ("unnamed faces", "named people")."""
        for pattern, who in ((_UNNAMED, UNNAMED_PERSON), (_NAMED, ANY_PERSON)):
            for m in st.unclaimed(pattern):
                st.claim(m.start(), m.end(), "atom", {"person": who}, slot="person")
        _things_in_a_group(st)
        _a_face_said_alone(st)
        for pat, spec in self.counts:
            for m in pat.finditer(st.low):
                s = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
                if not st.free(s, m.end()):
                    continue
                if pat is self.us and st.text[m.end() - 2 : m.end()] == "US":
                    continue  # the country, written as its abbreviation
                if spec == (0, 0) and _NEGATES_A_LIST.match(st.low, s) and _OR_AFTER.match(st.low, m.end()):
                    continue  # "without people or umbrellas": the negation takes the list (NegationClaims)
                if pat is self.portrait and _of_a_thing(st, m.end()):
                    st.claim(s, m.end(), "drop", text="")  # "portraits of my dog": the dog, not one face
                    continue
                if isinstance(spec, tuple):
                    lo, hi = spec
                else:
                    k = lx.to_int(m.group("n").replace("a dozen", "dozen"))
                    lo, hi = {
                        "min": (k, None),
                        "gt": (k + 1, None),
                        "max": (0, k),
                        "lt": (0, max(k - 1, 0)),
                        "eq": (k, k),
                    }[spec]
                    if _OTHERS.search(m.group(0)):  # "3 other people": and the one named before them
                        lo, hi = lo + 1, hi if hi is None else hi + 1
                text = ALONE if spec == (0, 1) else ""  # "Anna and Tom alone": the tree counts them
                st.claim(s, m.end(), "atom", {"faces": {"min": lo, "max": hi}}, text=text, slot="faces")
