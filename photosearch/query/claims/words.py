"""The last claims: negation phrases, then every unclaimed word — separators, and/or/only
connectives, stop words (dropped) and content words (read later as concept phrases)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from photosearch.query import lexicon as lx
from photosearch.query.claims.attributes import names_a_thing
from photosearch.query.dates import HOLIDAY_NOUNS
from photosearch.query.named_senses import THINGS
from photosearch.query.parse_state import ClaimState, sentence_start
from photosearch.query.plan import ANY_PLACE
from photosearch.query.senses import COLOUR_WORDS

if TYPE_CHECKING:
    from photosearch.vision.wordnet import WordNet


#: "nothing but dogs", "nothing except cats": only those (where "nothing blurry" is none blurry).
_NOTHING_BUT = re.compile(r"\bnothing\s+(?:but|except|other\s+than|apart\s+from)\b")
#: "anyone but tom", "everybody but me": the "but" leaves out who follows ("anyone" is counted before).
_ANYONE_BUT = re.compile(
    "(?:"
    + "|".join(rf"(?<=\b{w}\s)" for w in ("anyone", "anybody", "everyone", "everybody", "someone"))
    + r")but\b(?!\s+(?:me|us|myself)\b)"  # "everyone but me": whom "me" is may not be known
)
#: "outside (of) europe", "outside the us": somewhere known, not there, where a country or an area
#: follows ("outside the house" is by the house, "outside lisbon" just beyond the city).
_OUTSIDE = re.compile(r"\boutside\s+(?:of\s+)?(?:the\s+)?")
#: "dog -cat": a minus before a word leaves it out, as in a web search.
_MINUS = re.compile(r"(?:(?<=\s)|^)-(?=[a-z])")


class NegationClaims:
    """Claims "not", "without", "except"... as NOT connectives."""

    def __init__(self):
        self.not_re = re.compile(
            r"\b(?:" + "|".join(re.escape(p) for p in sorted(lx.NOT_PHRASES, key=len, reverse=True)) + r")\b"
        )

    def __call__(self, st: ClaimState) -> None:
        for m in st.unclaimed(_NOTHING_BUT):  # "nothing but dogs": only dogs
            st.claim(m.start(), m.end(), "drop", text="")
        for m in st.unclaimed(self.not_re):
            st.claim(m.start(), m.end(), "not", text=m.group(0))
        for m in st.unclaimed(_MINUS):
            st.claim(m.start(), m.end(), "not", text="-")
        for m in st.unclaimed(_OUTSIDE):
            place = next((t for t in st.toks if t.start == m.end() and t.slot == "place"), None)
            if place is not None and _a_country_or_area(place.node):
                # taken somewhere known, not there: a photo with no place is not known to be outside
                place.node = {"and": [{"place": ANY_PLACE}, {"not": place.node}]}
                st.claim(m.start(), m.end(), "drop", text="")
        for m in st.unclaimed(_ANYONE_BUT):  # "anyone but tom": someone, not Tom
            st.claim(m.start(), m.end(), "not", text=m.group(0))


def _a_country_or_area(node: dict | None) -> bool:
    """Whether a place atom names a country or an area ("outside europe": not there; "outside
    lisbon" is a town just beyond the city)."""
    from photosearch.query.areas import area
    from photosearch.query.places import lookup

    value = str((node or {}).get("place", ""))
    places = lookup(value) if value else []
    return area(value) is not None or bool(places) and places[0].kind == "country"


_AND_OR = re.compile(r"\band\s*/\s*or\b")
_FILLERS = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in lx.FILLER_PHRASES) + r")\b")
_WHERE = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in lx.WHERE_PHRASES) + r")\b")


#: "food I cooked", "the dog we adopted", "places you've visited": what someone did is not in the photo.
_SOMEONE_DID = re.compile(
    r"\b(?:i|we|you|they|he|she)(?:'ve|'d|\s+(?:have|had|just|once|finally|recently|also|all))?"
    r"(?P<used>\s+used\s+to)?\s+(?P<verb>[a-z]+)\b"
)
_THANK_YOU = re.compile(r"\bthank[\s-]you\b(?=\s+(?:cards?|notes?|letters?|gifts?)\b)")
#: "the day we got married", "when they got married": a wedding.
_MARRIED = re.compile(
    r"\b(?:(?:the\s+)?day\s+)?(?:(?:when|that)\s+)?(?:(?:we|i|they|you|he|she)\s+)?"
    r"(?:got|get|getting|were\s+getting|was\s+getting)\s+married\b"
)
#: A holiday written with a possessive, before a thing of it: "a new year's eve party" is one thing,
#: as "a christmas party" is, no "new year" beside an "eve party".
_HOLIDAY_THING = re.compile(
    r"\b(?:new\s+year|valentine|mother|father|st\.?\s+patrick|saint\s+patrick)['’]?s(?:\s+(?:eve|day))?"
    rf"\s+(?:{'|'.join(sorted(HOLIDAY_NOUNS, key=len, reverse=True))})\b"
)
#: A house move, by what its photos show: the boxes and the removal van ("the day we moved").
MOVING_HOUSE = {"or": [{"concept": "carton"}, {"concept": "moving van"}]}
_MOVED = re.compile(
    r"\b(?:(?:the\s+)?day\s+(?:(?:when|that)\s+)?)?"
    r"(?:(?:we|i|they)\s+(?:moved|were\s+moving|was\s+moving)(?:\s+(?:house|home|in|out|flat|apartment))?"
    r"(?!\s+(?:into|the|a|an|my|our|his|her|their|some|it|them|to)\b)"  # "we moved the sofa"
    r"|moving\s+(?:day|house|home)|(?:the|our)\s+house\s+move)\b"
)
#: Words before "we moved" that keep it the move, not a clause of the thing before ("the house we
#: moved out of").
_BEFORE_THE_MOVE = frozenset({"when", "from", "of", "during", "and"})
#: Before or after the move: no day a search can tell ("the house before we moved").
_AROUND_THE_MOVE = frozenset({"after", "before", "since", "until", "till"})
#: Where the car was left: a photo of the car or of the car park, the newest first ("where i parked").
PARKED_CAR = {"or": [{"concept": "car"}, {"concept": "parking lot"}]}
_PARKED = re.compile(
    r"\bwhere\s+(?:(?:did|do)\s+(?:i|we)\s+park|(?:i|we|you)\s+(?:(?:have|had|just)\s+)?parked"
    r"|(?:did\s+)?(?:i|we|you)\s+(?:left|leave)\s+(?:the|my|our)\s+car)(?:\s+(?:the|my|our)\s+car)?\b"
)
#: "tickets to the concert", "a ticket for the match": that event's tickets, as "concert tickets" are.
_TICKETS_FOR = re.compile(r"\btickets?\s+(?:to|for)\s+(?:(?:the|a|an|our|my)\s+)?(?P<what>[a-z]+)\b")
#: A British party before a wedding: "a stag do", "the hen night" (WordNet's stag and hen parties; a
#: stag alone is the deer).
_STAG_HEN = re.compile(r"\b(?P<who>stag|hen)\s+(?:do|dos|night|nights|weekend|weekends|party|parties)\b")
#: "team building": a group of people at work, no building ("team" says the group).
_TEAM_BUILDING = re.compile(r"(?<=\bteam[\s-])building\b")
#: Too much light, in a photographer's words: "washed out", "blown out" photos are overexposed.
_WASHED_OUT = re.compile(r"\b(?:washed|blown)[\s-]out\b")
#: "what did we eat in italy", "what i cooked": the food in the photos.
_WHAT_WE_ATE = re.compile(r"\bwhat\s+(?:did\s+|do\s+)?(?:we|i)\s+(?:eat|ate|cook|cooked|had\s+to\s+eat)\b")
#: A look measured from the pixels, said of the photo before what it shows: "a dark photo of the
#: street" is dark and a street (no "dark street"), "a sunny photo of the beach" sunny and a beach.
_A_LOOK_OF = re.compile(
    r"\b(?P<w>dark|bright|sunny|overexposed|underexposed)\s+(?P<of>(?:photos?|pictures?|pics?|shots?|images?)\s+of)\b"
)
#: Days of a time of life: "university days", "school days" are that time (no "university day").
_DAYS_OF = re.compile(
    "(?:"
    + "|".join(
        rf"(?<=\b{w}\s)" for w in ("school", "college", "university", "uni", "student", "army", "childhood")
    )
    + r")days\b"
)
#: A list on paper or a screen, where "list" is no command ("list photos of..."): "a shopping list",
#: "the to do list", "a packing list".
_A_LIST = re.compile(
    r"\b(?:(?P<todo>to[\s-]?do)|shopping|grocery|groceries|packing|guest|wish|check|bucket|reading|play"
    r"|christmas|gift|price|wine|waiting)\s+lists?\b"
)
#: The day someone did something, just before its subject: "the day we got the puppy".
_THE_DAY_BEFORE = re.compile(r"\b(?:the\s+)?(?:day|week|weekend|time)(?:\s+(?:that|when))?\s+$")
#: Who made a thing, after it: "the cake my daughter baked", "the shed our dad built" (the maker is
#: not what the photo shows; "my daughter baked a cake" is not this: no thing before it).
_MADE_BY = re.compile(
    r"(?<=[a-z])\s+(?P<by>(?:that\s+|which\s+)?(?:my|our|his|her|their)\s+(?P<who>[a-z]+)\s+(?P<verb>[a-z]+))\b"
)
#: Someone and what they did to a thing: "my daughter baked a cake" is her and a cake.
_KIN_DID_TO = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?P<who>[a-z]+)\s+(?P<verb>[a-z]+)\s+(?=(?:a|an|the|some|my|our|his|her|their)\s)"
)
#: "animals that live in the sea", "a dog that swims": the verb of a relative clause, unless the word
#: after "that" names a thing ("that dog" is a dog).
_THAT_DOES = re.compile(
    r"\b(?:that|which|who)\s+(?:(can|could|will|would|may|might|do|does|did)\s+)?([a-z]+)\b"
)


def _drop_what_someone_did(st: ClaimState) -> None:
    """The verb after a subject pronoun ("I cooked", "we visited") or a relative pronoun ("that
    live") carries nothing to look for; nor who made a thing, after it ("the cake my daughter baked")."""
    from photosearch.query.expansion import shared_wordnet

    # the subject not claimed as part of something else ("a thank you card")
    did = [
        m
        for m in _SOMEONE_DID.finditer(st.low)
        if st.free(*m.span("verb")) and st.free(m.start(), m.start() + 1)
    ]
    does = [m for m in _THAT_DOES.finditer(st.low) if st.free(*m.span(2))]
    made = [
        m for m in _MADE_BY.finditer(st.low) if m.group("who") in lx.RELATION_WORDS and st.free(*m.span("by"))
    ]
    did_to = [m for m in _KIN_DID_TO.finditer(st.low) if m.group("who") in lx.RELATION_WORDS]
    wn = shared_wordnet() if did or does or made or did_to else None
    if wn is None:
        return
    for m in did_to:  # "my daughter baked a cake": her and a cake (was one concept "daughter baked cake")
        verb = m.group("verb")
        if st.free(*m.span("verb")) and any(v != verb for v in wn.verb_forms(verb)):
            st.claim(*m.span("verb"), "and", text=verb)
    for m in made:  # a past form, not the word itself ("the cake my daughter baked", not "... likes")
        verb = m.group("verb")
        if any(v != verb for v in wn.verb_forms(verb)) and not verb.endswith("s"):
            st.claim(*m.span("by"), "drop", text="")
            st.note(f"“{m.group('by')}” was read as who made it, not who is in the photo", 0.0)
    for m in did:
        if wn.verb_forms(m.group("verb")):
            st.claim(m.start("used") if m.group("used") else m.start("verb"), m.end("verb"), "drop", text="")
            day = _THE_DAY_BEFORE.search(st.low[: m.start()])
            if day and st.free(*day.span()):  # "the day we got the puppy": the puppy, no "day puppy"
                st.claim(*day.span(), "drop", text="")
    for m in does:  # a verb after a modal ("can swim"), no noun ("live"), or inflected ("swims", "fell")
        word, verbs = m.group(2), wn.verb_forms(m.group(2))
        if verbs and (m.group(1) or not wn.base_forms(word) or any(v != word for v in verbs)):
            st.claim(*m.span(2), "drop", text="")


#: "flying a kite", "reading the paper", "holding my hand": an -ing verb with its object after it.
_DOING_TO = re.compile(
    r"\b([a-z]+ing)\s+(?=(?P<prep>(?:on|at|with|in|into|onto|to|by|for|under|underneath|beneath|below|behind"
    r"|beside|near|over|through|across|along|around|down|up|off|out\s+of|inside)\s+)?"
    r"(?P<det>a|an|the|my|our|your|his|her|their|some)\s+(?P<thing>[a-z]+))"
)
#: Words after which an -ing word is a noun ("our wedding a year ago").
_NOUN_AFTER = frozenset({"a", "an", "the", "my", "our", "your", "his", "her", "their", "this", "that"})


def _verbs_with_an_object(st: ClaimState) -> None:
    """An -ing word WordNet knows as a verb, with an article or a possessive and a word after it, is
    what someone does to that thing: it separates, like "eating" or "holding" ("flying a kite" is a
    kite, "reading a book" a book, "working on a laptop" a laptop). A sport the models see stays a
    concept of its own beside it ("skiing the alps": skiing and the Alps), and so does an activity
    they see before a preposition ("hiking in the alps"); a sport they do not see separates ("a girl
    jumping into the pool"). After an article the -ing word is a noun ("our wedding a
    year ago"), and an article a date has claimed is the date's ("wedding a year ago")."""
    from photosearch.query.expansion import shared_wordnet

    matches = [
        m
        for m in _DOING_TO.finditer(st.low)
        if m.group(1) not in lx.SEPARATORS
        and all(st.free(*m.span(g)) for g in (1, "det", "thing"))
        and not _after_a_determiner(st, m.start(1))
    ]
    wn = shared_wordnet() if matches else None
    for m in matches:
        doing = m.group(1)
        if wn is None or not wn.verb_forms(doing):
            continue
        if _seen_doing(doing) and (m.group("prep") or _is_a_sport(wn, doing)):
            # a concept of its own, never joined to the word before ("a man skiing the alps")
            st.claim(*m.span(1), "atom", {"concept": doing}, slot="concept")
            st.claim(*m.span("det"), "and", text=m.group("det"))
        else:  # a sport no model sees separates too: "a girl jumping into the pool" is a girl, a pool
            st.claim(*m.span(1), "and", text=doing)


#: "opening presents", "blowing out candles": an -ing word first, with what it is done to after it.
_DOING_FIRST = re.compile(
    r"(?:^|(?<=[,;]\s))([a-z]+ing)(\s+(?:out|up|off|down)(?:\s+(?:the|a|an|my|our|his|her|their))?)?\s+([a-z]+)\b"
)


def _verbs_first_with_an_object(st: ClaimState) -> None:
    """A request that starts with what is being done, to a thing named bare, asks for the thing
    ("carving pumpkins" are pumpkins, "blowing out candles" candles), as with an article ("building a
    snowman"). Only before several things or a particle: one thing after an -ing word is mostly a
    kind of it ("a parking garage", "a mixing desk"). Not where the two words are one noun ("washing
    machines", "swimming pools"), nor for a sport ("skiing holidays")."""
    from photosearch.query.expansion import shared_wordnet

    matches = [m for m in _DOING_FIRST.finditer(st.low) if st.free(m.start(1), m.end(0))]
    wn = shared_wordnet() if matches else None
    for m in matches:
        verb, thing = m.group(1), m.group(3)
        if wn is None or not wn.verb_forms(verb) or verb in wn.verb_forms(verb) or thing in _NO_OBJECT:
            continue
        if not wn.base_forms(thing) or names_a_thing(verb, thing) or _is_a_sport(wn, verb):
            continue
        if lx.singular(thing) == thing and not m.group(2):
            continue  # a single thing after an -ing word is mostly its kind: "parking garage", "hiking trail"
        st.claim(m.start(1), m.end(2) if m.group(2) else m.end(1), "drop", text="")


#: "a football match", "tennis games": a sport and one time it is played.
_SPORT_EVENT = re.compile(
    r"\b([a-z]+)\s+(match|matches|game|games|tournament|tournaments|championship|final|finals)\b"
)


def _sport_events(st: ClaimState) -> None:
    """One match or game of a sport is the sport in the photo: "a football match" is football (its
    balls, fields and stadiums), where "match" alone was WordNet's first match, a matchstick, and as
    one concept no label named both words. Only after a word that is first a sport ("cricket" is first
    the insect)."""
    from photosearch.query.expansion import shared_wordnet

    matches = [m for m in _SPORT_EVENT.finditer(st.low) if st.free(*m.span(2))]
    wn = shared_wordnet() if matches else None
    for m in matches:
        if wn is not None and _is_a_sport(wn, m.group(1)):
            st.claim(*m.span(2), "drop", text="")


#: "a woman drinking tea", "a dog chasing ducks", "kids blowing out the candles": an -ing word between
#: two words, with a particle, or an article after a particle.
_DOING_BARE = re.compile(
    r"\b[a-z]+\s+([a-z]+ing(?:\s+(?:out|up|off|down)(?:\s+(?:the|a|an|my|our|his|her|their))?)?)\s+([a-z]+)\b"
)
#: Who does things: WordNet's people, animals and groups of them ("people", "a herd").
_DOERS = frozenset({5, 14, 18})
#: Words after an -ing word that are no thing it is done to ("dancing at the wedding").
_NO_OBJECT = lx.STOP_WORDS | lx.SEPARATORS | lx.AND_WORDS | lx.OR_WORDS


def _verbs_with_a_bare_object(st: ClaimState) -> None:
    """What a person or an animal does to a thing, said without an article ("a woman drinking tea"),
    separates them like "drinking a tea" would: a woman and tea, not one concept of three words that
    no label names. Only after someone who can do it ("an old building roof" keeps its building), of
    a verb's -ing form ("a bird wing" is no verb), not where the two words are one noun ("drinking
    water"), and a sport stays a thing of its own ("man fishing": fishing)."""
    from photosearch.query.expansion import first_lexfile, shared_wordnet

    matches = [m for m in _DOING_BARE.finditer(st.low) if st.free(*m.span(1)) and st.free(*m.span(2))]
    wn = shared_wordnet() if matches else None
    for m in matches:
        doer, verb, thing = m.group(0).split()[0], m.group(1).split()[0], m.group(2)
        if wn is None or verb in lx.STOP_WORDS or thing in _NO_OBJECT or verb in wn.verb_forms(verb):
            continue
        if not wn.verb_forms(verb) or not wn.base_forms(thing) or names_a_thing(verb, thing):
            continue
        someone = first_lexfile(doer) in _DOERS or _someone(st, doer, m.start())  # "Anna blowing out candles"
        if someone and not names_a_thing(doer, verb) and not _is_a_sport(wn, verb):
            st.claim(*m.span(1), "and", text=m.group(1))


#: "kids swimming", "a man skiing": someone and an -ing word right after.
_DOER_DOING = re.compile(r"\b([a-z]+)\s+([a-z]+ing)\b")


def _what_someone_is_doing(st: ClaimState) -> None:
    """An activity the models see (resources/scenes.yaml: swimming, skiing, dancing, cooking) done by
    someone is a concept of its own beside them: "kids swimming" is kids and swimming, "a man skiing"
    a man and skiing, where as one concept no label names both words and a dropped "skiing" would
    make any man sure. Only after a person, or people already counted ("people hiking"): the
    activities are people's (a bear fishing holds no reel; a church, first a group, does no
    wedding). Only of a verb's -ing form, not where the two words are one thing, and, but for a sport
    ("surfing a big wave"), not before what is done to ("reading a book", "reading books": the
    book's, `_verbs_with_an_object`)."""
    from photosearch.query.expansion import scenes, shared_wordnet

    matches = [m for m in _DOER_DOING.finditer(st.low) if m.group(2) in scenes() and st.free(*m.span(2))]
    wn = shared_wordnet() if matches else None
    for m in matches:
        doer, doing = m.group(1), m.group(2)
        if wn is None or not wn.verb_forms(doing) or names_a_thing(doer, doing):
            continue
        to = _DOING_TO.match(st.low, m.start(2))
        done_to = (to and not to.group("prep")) or st.word_after(m.end(2)) not in {"", *_NO_OBJECT}
        if done_to and not _is_a_sport(wn, doing):
            continue
        if _someone(st, doer, m.start(1)):
            st.claim(*m.span(2), "atom", {"concept": doing}, slot="concept")


def _after_a_determiner(st: ClaimState, i: int) -> bool:
    before = st.word_before(i)
    return before is not None and before.group(0) in _NOUN_AFTER


def _seen_doing(word: str) -> bool:
    """Whether the models see the activity: a scene word (resources/scenes.yaml: "skiing",
    "skating") or an attribute the scene model reads ("climbing", "diving")."""
    from photosearch.models.labels import SUN_ATTRIBUTES
    from photosearch.query.expansion import scenes

    return word in scenes() or word in SUN_ATTRIBUTES


def _is_a_sport(wn, word: str) -> bool:
    """Whether WordNet's first sense of the word is a kind of sport (skiing, surfing, fishing)."""
    senses = wn.lookup(word)
    return bool(senses) and any(s in wn.ancestors(senses[0]) for s in wn.lookup("sport")[:1])


#: "a car parked on the street", "a table covered in snow": a past participle after a thing, before a
#: preposition or the end, says what happened to it, not what else is there.
_PARTICIPLE = re.compile(r"\b[a-z]+\s+([a-z]+(?:ed|en|ing))\b(?=\s+([a-z]+)|\s*$)")
#: Particles of a phrasal verb, dropped with it: "birds flying away", "a plane taking off".
_PARTICLES_AFTER = frozenset({"away", "off", "up", "out", "back"})
#: What may follow such a participle: a separator, a colour ("houses painted blue"), a particle.
_AFTER_PARTICIPLE = lx.SEPARATORS | lx.AND_WORDS | set(COLOUR_WORDS) | _PARTICLES_AFTER
#: A trip is where it went: with a place named, "our trip to Japan" is Japan.
TRIP_WORDS = frozenset(
    {"trip", "trips", "vacation", "vacations", "journey", "travels", "tour", "visit", "getaway"}
    | {"holiday", "holidays"}  # a British vacation
    | {"break", "breaks"}  # "spring break 2022": that spring
)


def _participles_after_a_thing(st: ClaimState) -> None:
    """Such a participle separates the thing from what follows, like "sitting" or "on"; so does
    what the thing is doing ("a bike leaning against a wall", "sheep grazing in a field", "birds
    flying"), an -ing word WordNet's texts never use as a noun (a church wedding stays a wedding),
    unless with the word before it is an activity the models see ("ice skating": a rink)."""
    from photosearch.query.expansion import scenes, shared_wordnet

    matches = [
        m
        for m in _PARTICIPLE.finditer(st.low)
        if st.free(*m.span(1)) and (m.group(2) is None or m.group(2) in _AFTER_PARTICIPLE)
    ]
    wn = shared_wordnet() if matches else None
    for m in matches:
        word = m.group(1)
        if wn is None or not wn.verb_forms(word) or word in lx.STOP_WORDS or word in scenes():
            continue  # an activity the models see is what is asked for ("mountain biking", "go biking")
        before = st.word_before(m.start(1))
        if before and (f"{before.group(0)} {word}" in scenes() or before.group(0) in lx.STOP_WORDS):
            continue  # an activity the models see with the word before ("ice skating"), or after no thing ("went skiing")
        if before and names_a_thing(before.group(0), word):
            continue  # one noun with the word before: "rock climbing", "wine tasting"
        if (
            not wn.base_forms(word)
            or (word.endswith("ing") and wn.tagged_senses(word) == 0)
            or (before and _someone(st, before.group(0), before.start()) and _names_no_thing(wn, word))
        ):
            st.claim(*m.span(1), "and", text=word)
            if m.group(2) in _PARTICLES_AFTER and st.free(*m.span(2)):
                st.claim(*m.span(2), "drop", text="")


def _names_no_thing(wn, word: str) -> bool:
    """Whether none of the word's noun senses is a thing a photo shows: "smiling" is an expression,
    "posing" an act (after someone, what they do that no model reads: "anna smiling" is Anna)."""
    return not any(wn.synset(o).lexfile in _THING_FILES for o in wn.lookup(word))


#: "a jumping cat", "the crying baby": an -ing word right before another word.
_PARTICIPLE_BEFORE = re.compile(r"\b([a-z]+ing)\s+([a-z][\w'-]*)")
#: WordNet's noun file of acts ("jumping", "running").
_ACTS = 4
#: WordNet's noun files of things a photo shows: `THINGS` (animals, artifacts, food, objects, plants)
#: and body parts, places, people, substances and times ("building", "icing", "setting", "evening").
_THING_FILES = THINGS | {8, 15, 18, 27, 28}


def _participles_before_a_thing(st: ClaimState) -> None:
    """What a thing is doing, said before it ("a jumping cat", "a smiling woman", "a crying baby",
    "barking dogs"), separates like "sleeping" does: the thing is what is asked for, as in "a cat
    jumping"; as one concept no label names both words, so no photo was ever sure. Only of a verb's
    -ing form that names no thing: a WordNet adjective none of whose nouns is a thing ("smiling",
    "rising"), or a word whose nouns are all acts ("jumping", "barking"); not an activity the models
    see ("swimming", "dancing"), and not where the two words are one thing ("sleeping bag", "frying
    pan", "living room") or the word before and the -ing word are ("rock climbing wall"). Before an
    artifact an -ing word mostly says what it is for ("a mixing desk", "a baking tray"), so only one
    WordNet's texts use as an adjective separates there ("a winding road", "a glowing lantern")."""
    from photosearch.query.expansion import ARTIFACT, first_lexfile, scenes, shared_wordnet

    matches = [m for m in _PARTICIPLE_BEFORE.finditer(st.low) if st.free(*m.span(1)) and st.free(*m.span(2))]
    wn = shared_wordnet() if matches else None
    for m in matches:
        word, nxt = m.group(1), m.group(2)
        if wn is None or word in scenes() or word in lx.STOP_WORDS or nxt in lx.STOP_WORDS:
            continue
        forms = wn.verb_forms(word)
        if not forms or word in forms or not wn.base_forms(nxt) or names_a_thing(word, nxt):
            continue
        before = st.word_before(m.start(1))
        if before and names_a_thing(before.group(0), word):
            continue
        files = {wn.synset(s).lexfile for s in wn.senses(word)}
        if first_lexfile(nxt) == ARTIFACT:  # "a mixing desk", "a baking tray": what it is for
            doing = wn.adjective_tagged(word) > 0 and not files & _THING_FILES
        else:
            doing = files <= {_ACTS} or (wn.is_adjective(word) and not files & _THING_FILES)
        if doing:
            st.claim(*m.span(1), "and", text=word)


_POSSESSIVE_NOUN = re.compile(r"\b([a-z]+)['’]s\s+([a-z]+)\b")
#: A possessive noun of these lexicographer files is no thing a photo shows: groups, people, times.
_NOT_POSSESSIVE_THINGS = frozenset({14, 18, 28})


def _possessive_nouns(st: ClaimState) -> None:
    """A noun WordNet writes with a possessive is one thing where it is a kind of the last word's
    thing: "a driver's license", "a farmer's market", "shepherd's pie"; other possessives are the
    owner and the thing ("the dog's ball": a dog and a ball; "a cat's eyes" no cat's-eye gem)."""
    from photosearch.query.expansion import first_lexfile, shared_wordnet

    wn = shared_wordnet()
    for m in _POSSESSIVE_NOUN.finditer(st.low) if wn is not None else ():
        owner, thing = m.group(1), m.group(2)
        if not st.free(m.start(), m.end()) or owner in lx.STOP_WORDS:
            continue
        name = next(
            (
                f"{owner}'s {t}"
                for t in dict.fromkeys((thing, lx.singular(thing)))
                if wn.lookup(f"{owner}'s_{t}")
            ),
            None,
        )
        key = name.replace(" ", "_") if name else ""
        if (
            name
            and first_lexfile(key) not in _NOT_POSSESSIVE_THINGS
            and _a_kind_of(wn, key, lx.singular(thing))
        ):
            st.claim(m.start(), m.end(), "word", text=name)


#: Sizes and tastes no model measures: "small dogs" are dogs, "nice photos" are photos, unless the
#: two words are one thing ("big cat", "giant panda", "great dane", "cool box"). ("colourful" is
#: measured: claims/attributes.py; "Nice" the city is claimed as a place before this runs.)
DESCRIBING_WORDS = frozenset(
    {"big", "bigger", "large", "small", "smaller", "little", "tiny", "huge", "giant", "tall", "wide"}
    | {"massive", "enormous", "gigantic", "long", "short", "narrow"}  # "a long empty road" is a road
    | {"nice", "good", "great", "cool", "lovely", "gorgeous", "stunning", "fantastic", "wonderful"}
    | {"wild"}  # "wild animals" are animals; "wild boar" and "wild flower" stay one noun
    | {"first", "second", "third", "last", "final"}  # no "first gear"; "first aid" stays one noun
    # an age no model measures on a thing: "an old church" is a church, "a modern building" a
    # building ("old photos" are the photos' look, claimed before; "modern art" stays one noun)
    | {"old", "older", "ancient", "historic", "historical", "medieval", "modern", "new"}
    # a mood or a taste no model reads: "a happy dog" is a dog, "my cat's favourite spot" a spot
    | {"happy", "sad", "angry", "sleepy", "tired", "fluffy", "playful", "grumpy", "lazy", "hungry"}
    | {"excited", "scared", "naughty", "curious", "favourite", "favorite"}
    | {"calm", "peaceful", "quiet", "tranquil", "serene"}  # "a boat on a calm lake" is on a lake
    | {"perfect", "cosy", "cozy", "comfy"}  # a taste: "a cosy cabin" is a cabin
    # how warm it was, which no model measures: "a hot summer day" is summer ("hot springs" stays)
    | {"hot", "cold", "chilly", "humid", "muggy"}  # ("warm" is also a photo's tone: "warm light")
)
#: Ages the face model reads on people: "an old guy" keeps its "old" (`face_traits`: old man).
AGES_OF_PEOPLE = frozenset({"old", "older"})


def _someone(st: ClaimState, word: str, start: int) -> bool:
    """Whether the word at `start` is first a person ("guy", "kids"), or was read as someone named
    ("Anna") or a count of people ("people", "a couple", "friends")."""
    from photosearch.query.expansion import PERSON, first_lexfile

    claimed = st.token_at(start)
    if claimed is not None and {"faces", "person"} & set(claimed.node or {}):
        return True
    return first_lexfile(word) == PERSON


def _drop_describing_words(st: ClaimState) -> None:
    """A size, an age, a taste or "wild" before a word is dropped unless WordNet has it and the next
    word or two as one noun ("great dane", "great white shark"), it is an age before someone ("an
    old woman"), or it is capitalised inside the request (a name: "Nice"); so is "late" before "(at)
    night", which the measured night attribute answers."""
    for m in re.finditer(r"\b([a-z]+)\b(?=(?:\s+([a-z][\w'-]*))?(?:\s+([a-z][\w'-]*))?)", st.low):
        word, nxt, third = m.group(1), m.group(2) or "", m.group(3) or ""
        if word not in DESCRIBING_WORDS or not st.free(*m.span(1)):
            continue
        if nxt and (names_a_thing(word, nxt) or (third and names_a_thing(word, f"{nxt}_{third}"))):
            continue
        if word in AGES_OF_PEOPLE and nxt and _someone(st, nxt, m.start(2)):
            continue
        if st.text[m.start()].isupper() and (not nxt or not sentence_start(st.text, m.start())):
            continue  # "Nice" alone or inside a sentence: a name, perhaps a place
        st.claim(*m.span(1), "drop", text="")
    for m in re.finditer(r"\b(?:late|very late)(?=\s+(?:at\s+)?night\b)", st.low):  # "late at night": night
        if st.free(m.start(), m.end()):
            st.claim(m.start(), m.end(), "drop", text="")


_TRIP_TO = re.compile(
    r"\b(?:(?P<kind>[a-z]+)\s+)?(?P<trip>trips?|visits?|outings?|excursions?|journeys?)\s+to\b"
)


def _drop_lone_days(st: ClaimState) -> None:
    """ "summer days", "sunny days at the beach": "days" after words read already (a season, a look)
    is those days, no concept "day"; "rainy days", "beach days" stay one thing."""
    for m in re.finditer(r"\bdays?\b", st.low):
        if not st.free(m.start(), m.end()):
            continue
        before = st.word_before(m.start())
        if before is not None and not st.free(*before.span()):
            st.claim(m.start(), m.end(), "drop", text="")


def _drop_trip_words(st: ClaimState) -> None:
    """ "pictures from our trip to Japan": the trip is Japan, when a place is named; "summer holidays
    2022" are the summer of 2022, when a time is; "a skiing holiday" is skiing, an activity the
    models see; a trip "to" somewhere is that place ("a school trip to the museum")."""
    from photosearch.query.expansion import scenes

    for m in _TRIP_TO.finditer(st.low):  # "a school trip to the museum": the museum
        if st.free(*m.span("trip")):
            st.claim(m.start("trip"), m.end(), "drop", text="")
            if m.group("kind") and st.free(*m.span("kind")) and m.group("kind") not in lx.STOP_WORDS:
                st.claim(*m.span("kind"), "drop", text="")
    for m in _TWO_WORDS.finditer(st.low):
        doing, trip = m.group(1), m.group(2)
        if trip in TRIP_WORDS and doing in scenes() and doing.endswith("ing") and st.free(*m.span(2)):
            st.claim(*m.span(2), "drop", text="")
    if not any(t.slot in ("place", "date") for t in st.toks):
        return
    for m in re.finditer(r"\b[a-z]+\b", st.low):
        if m.group(0) not in TRIP_WORDS or not st.free(m.start(), m.end()):
            continue
        # "road trip" is a kind of trip; "Japan trip" and "our trip" are where it went
        before = st.word_before(m.start())
        if not (before and before.group(0) not in lx.STOP_WORDS and st.free(*before.span())):
            st.claim(m.start(), m.end(), "drop", text="")


#: "something to eat", "things to drink": what is meant is the food or the drink.
_TO_EAT = re.compile(r"\b(?:something|anything|things|stuff)\s+to\s+(eat|drink)\b")
_EATEN = {"eat": "food", "drink": "drink"}


def _things_to_eat(st: ClaimState) -> None:
    for m in st.unclaimed(_TO_EAT):
        st.claim(m.start(), m.end(), "atom", {"concept": _EATEN[m.group(1)]}, slot="concept")


#: "a day at the beach", "a nice afternoon in the park": the outing is the place it went to.
_OUTING = re.compile(
    r"\b(?:a|an|one|the|our|my)\s+(?:(?:nice|good|great|lovely|fun|long|lazy|morning|afternoon|evening|summer|winter|autumn|spring)\s+)?"
    r"(?P<w>day|days|week|weeks|fortnight|afternoon|morning|evening|weekend|trip|walk|stroll|drive)(?P<out>\s+out)?"
    r"(?=\s+(?:at|in|on|by|to|along|through)\s+(?:the\s+)?[a-z])"
)
#: What an outing is, dropped before where it went: "a day out at the zoo", "a walk on the beach".
_OUTING_WORDS = frozenset({"day", "days", "week", "weeks", "fortnight", "trip", "walk", "stroll", "drive"})


#: "birds of prey", "lily of the valley", "great wall of china": a thing WordNet names with "of" in
#: it, up to three words on either side.
_OF_NAME = re.compile(r"\b(?=([a-z]+(?:\s+[a-z]+){0,2}\s+of\s+(?:the\s+)?[a-z]+(?:\s+[a-z]+){0,2})\b)")


def _things_named_with_of(st: ClaimState) -> None:
    """The longest run of words around an "of" that WordNet names as a thing is one concept; a
    plural head is read singular ("birds of prey")."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    for m in _OF_NAME.finditer(st.low) if wn is not None else ():
        start = m.start(1)
        words = m.group(1).split()
        of = words.index("of")
        if of == 0:  # "…of the two of us": this run starts at an "of", with no name before it
            continue
        for end in range(len(words), of + 1, -1):
            if words[end - 1] == "the":
                continue
            named = _a_thing_named(wn, words[:of], words[of + 1 : end])
            stop = start + len(" ".join(words[:end]))
            if named and st.free(start, stop) and st.low[start:stop].split() == words[:end]:
                st.claim(start, stop, "atom", {"concept": named}, slot="concept")
                break


def _a_thing_named(wn: WordNet, head: list[str], tail: list[str]) -> str | None:
    """ "bird of prey" for head ["birds"] and tail ["prey"], where WordNet names such a thing."""
    *before, last = head
    for noun in dict.fromkeys((lx.singular(last), last)):
        name = "_".join([*before, noun, "of", *tail])
        if any(wn.synset(off).lexfile in THINGS for off in wn.lookup(name)):
            return name.replace("_", " ")
    return None


#: Two words people write apart that WordNet writes as one ("rain drops", "tooth brush", "sun set").
_TWO_WORDS = re.compile(r"\b(?=([a-z]{3,})\s+([a-z]{3,})\b)")
#: A joined word in these lexicographer files is no thing a photo shows: "book club" (a group),
#: "cars on" (Rachel Carson), "over view" (a summary).
_NOT_JOINED = frozenset({9, 10, 14, 18})
#: Looks measured from the pixels, said before a thing: "a dark room" is a room that is dark (no darkroom).
_LOOKS = frozenset({"dark", "bright"})
#: WordNet's lexicographer file of animals: two words joined are an animal only where the second can
#: be one ("horse fly", "sea shell"; a "leather jacket" is no leatherjacket, a fish).
_ANIMAL = 5
#: WordNet's lexicographer file of body parts: "horse head" is a horse's head, not its horsehead (a
#: fish), where the joined word is no body part itself ("eye brow" is the eyebrow).
_BODY = 8


def _words_written_as_one(st: ClaimState) -> None:
    """ "rain drops" is raindrops, where WordNet has no "rain drop" but has "raindrop" whose first
    sense is no person, group or idea; not after a colour ("blue fish" is a fish that is blue)."""
    from photosearch.query.expansion import first_lexfile, shared_wordnet

    wn = shared_wordnet()
    for m in _TWO_WORDS.finditer(st.low) if wn is not None else ():
        first, second = m.group(1), m.group(2)
        if (
            first in COLOUR_WORDS
            or first in _LOOKS
            or not st.free(m.start(1), m.end(2))
            or names_a_thing(first, second)
        ):
            continue
        if first in lx.STOP_WORDS or second in lx.STOP_WORDS:
            continue
        joined = next(
            (w for w in dict.fromkeys((first + second, first + lx.singular(second))) if wn.lookup(w)), None
        )
        if joined and wn.synset(wn.lookup(joined)[0]).lexfile not in _NOT_JOINED:
            if first_lexfile(second) == _BODY != first_lexfile(joined):
                continue
            senses = {wn.synset(o).lexfile for w in {second, lx.singular(second)} for o in wn.lookup(w)}
            if first_lexfile(joined) == _ANIMAL and _ANIMAL not in senses:
                continue  # "leather jacket" is a jacket, no leatherjacket (a fish); a sea shell is a seashell
            st.claim(m.start(1), m.end(2), "word", text=first + second)


_PARTICLES = frozenset({"in", "on", "off", "out", "up", "down", "by", "over", "away", "back", "to", "at"})
_HYPHENED = re.compile(r"\b(?=([a-z]+)\s+([a-z]+)\b(?:\s+([a-z]+)\b)?)")


def _words_written_with_a_hyphen(st: ClaimState) -> None:
    """ "hot air balloon" is WordNet's hot-air balloon, "t shirt" its t-shirt, "tortoiseshell cat" its
    tortoiseshell-cat: two words people write apart that WordNet writes with a hyphen, alone or before
    a third word, for a kind of the last word's thing; not where WordNet also writes them apart
    ("living room", "ice cream cone")."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    for m in _HYPHENED.finditer(st.low) if wn is not None else ():
        first, second, third = m.group(1), m.group(2), m.group(3) or ""
        if first in COLOUR_WORDS or first in lx.STOP_WORDS or not st.free(m.start(1), m.end(2)):
            continue
        if second in _PARTICLES:  # "a walk in the woods" is no walk-in, "a city break in rome" no break-in
            continue
        hyphened = f"{first}-{second}"
        if third and names_a_thing(f"{first}_{second}", third):
            continue
        with_third = third and _a_kind_of(wn, f"{hyphened}_{lx.singular(third)}", lx.singular(third))
        if with_third or _a_kind_of(wn, hyphened, lx.singular(second)) and not names_a_thing(first, second):
            st.claim(m.start(1), m.end(2), "word", text=hyphened)


def _a_kind_of(wn: WordNet, name: str, head: str) -> bool:
    """Whether WordNet's `name` is a kind of its last word's thing: the hot-air balloon is a balloon,
    the t-shirt a shirt; its "horse-head" is a fish, no head of a horse."""
    heads = set(wn.lookup(head))
    return any(h in wn.ancestors(offset) for offset in wn.lookup(name) for h in heads)


_HOLDER_OF = re.compile(r"\b([a-z]+)\s+(of)\s+(?=[a-z])")


def _what_holders_hold(st: ClaimState) -> None:
    """ "a plate of pasta", "a glass of wine", "a vase of flowers": the holder and its "of" are
    dropped, the thing held is what is looked for; "a painting of a horse" is a painting and a
    horse. (A thing WordNet names with "of", "loaf of bread", was claimed whole before this runs.)"""
    for m in _HOLDER_OF.finditer(st.low):
        if m.group(1) in lx.HOLDER_WORDS and st.free(m.start(), m.end()):
            st.claim(m.start(), m.end(), "drop", text="")
        elif m.group(1) in lx.DEPICTION_WORDS and st.free(*m.span(2)):
            st.claim(*m.span(2), "and", text="of")  # "a painting of a horse"


def _scene_adjectives(st: ClaimState) -> None:
    """A scene word that describes ("sunny", "indoor", "underwater", "overexposed": in
    resources/scenes.yaml, no noun in WordNet) before a thing is a concept of its own: "sunny beach"
    is sunny and a beach, each sure on its own, where as one concept no label would name both
    words. Not where the two words are one thing ("sunny day" in scenes.yaml, WordNet's nouns)."""
    from photosearch.query.expansion import scenes, shared_wordnet

    wn = shared_wordnet()
    if wn is None:
        return
    for m in re.finditer(r"\b([a-z]+)\s+([a-z][\w'-]*)", st.low):
        word, nxt = m.group(1), m.group(2)
        if word not in scenes() or wn.base_forms(word) or not st.free(*m.span(1)):
            continue
        if names_a_thing(word, nxt):
            continue
        st.claim(*m.span(1), "atom", {"concept": word}, slot="concept")


#: What a photo is wanted for, which no photo shows: "a sunset for a card", "photos for my linkedin".
_FOR_A_USE = re.compile(
    # "so I can delete them", "so that we can print it": what the user will do with the photos
    r"\bso\s+(?:that\s+)?(?:i|we|you)\s+(?:can|could|may|might)\s+[a-z]+"
    r"(?:\s+(?:them|it|these|those|some|one|(?:(?:a|an|the|my|our)\s+)?[a-z]+(?:\s+[a-z]+)?))?"
    r"(?:\s+(?:later|out|up|away|again))?(?=\s*$|\s*[,.;!?])"
    r"|\bfor\s+(?:(?:a|an|the|my|our|his|her|their)\s+)?(?:(?:christmas|birthday|greeting|thank[\s-]you)\s+)?"
    r"(?:cards?|calendars?|print(?:ing)?|profile(?:\s+(?:pic(?:ture)?|photo))?|wallpapers?|backgrounds?|instagram"
    r"|linkedin|facebook|twitter|presentations?|(?:photo\s+)?albums?|frames?|slideshows?|collages?|posts?)\b"
)


def _fillers_and_where_phrases(st: ClaimState) -> None:
    """Filler phrases ("close up", "lots of") and what a photo is wanted for ("for a card") are
    dropped; where one thing is beside another ("on top of") separates two things."""
    for m in st.unclaimed(_FOR_A_USE):
        st.claim(m.start(), m.end(), "drop", text="")
    for m in st.unclaimed(_FILLERS):
        # between two words it still parts them: "the kids first day of school" is kids and a school
        between = bool(st.low[: m.start()].strip()) and bool(st.low[m.end() :].strip())
        st.claim(m.start(), m.end(), "and" if between else "drop", text="")
    for m in st.unclaimed(_WHERE):
        st.claim(m.start(), m.end(), "and", text=m.group(0))


def _claim_house_moves(st: ClaimState) -> None:
    """ "the day we moved house", "moving day": the photos of moving boxes or a removal van."""
    for m in st.unclaimed(_MOVED):
        before = st.word_before(m.start())
        said_day = m.group(0).startswith(("the day", "day"))
        if before is not None and before.group(0) in _AROUND_THE_MOVE and not said_day:
            st.claim(before.start(), m.end(), "drop", text="")
            st.note(f"“{before.group(0)} {m.group(0)}” was left out: it names no day to search by", 0.0)
            continue
        if before is not None and before.group(0) not in _BEFORE_THE_MOVE and not said_day:
            continue  # "the house we moved out of": the house
        st.claim(m.start(), m.end(), "atom", MOVING_HOUSE, slot="concept")
        st.note(f"“{m.group(0)}” was read as the photos of moving boxes or a removal van", 0.0)


def _phrases_read_as_one(st: ClaimState) -> None:
    """ "a thank you card" (what the card says), "the day we got married" (a wedding), "where i
    parked" (the car or a car park, the newest first), "tickets to the concert" (concert tickets),
    "what we ate" (food), "washed out" (overexposed), "a stag do" (a stag party), "a new year's eve
    party" (one thing, as "a christmas party" is), "a shopping list" (no command "list")."""
    for m in st.unclaimed(_THANK_YOU):
        st.claim(m.start(), m.end(), "word", text="thank-you")
    for m in st.unclaimed(_MARRIED):
        st.claim(m.start(), m.end(), "word", text="wedding")
    _claim_house_moves(st)
    for m in st.unclaimed(_PARKED):
        st.claim(m.start(), m.end(), "atom", PARKED_CAR, slot="concept")
        if st.compose["sort"] == "relevance":
            st.compose["sort"] = "date_desc"
        st.note(f"“{m.group(0)}” was read as a car or a car park, the newest photos first", 0.0)
    for m in st.unclaimed(_TICKETS_FOR):
        if m.group("what") not in _NO_OBJECT:
            st.claim(m.start(), m.end(), "word", text=f"{m.group('what')} ticket")
    for m in st.unclaimed(_WASHED_OUT):  # a look of its own, beside what it is said of
        st.claim(m.start(), m.end(), "atom", {"concept": "overexposed"}, slot="concept")
    for m in st.unclaimed(_STAG_HEN):
        st.claim(m.start(), m.end(), "word", text=f"{m.group('who')} party")
    for m in st.unclaimed(_TEAM_BUILDING):
        st.claim(m.start(), m.end(), "drop", text="")
    for m in st.unclaimed(_WHAT_WE_ATE):
        st.claim(m.start(), m.end(), "word", text="food")
    for m in st.unclaimed(_HOLIDAY_THING):
        st.claim(m.start(), m.end(), "word", text=" ".join(st.text[m.start() : m.end()].split()))
    for m in st.unclaimed(_A_LOOK_OF):
        st.claim(*m.span("w"), "atom", {"concept": m.group("w")}, slot="concept")
        st.claim(*m.span("of"), "and", text="of")
    for m in st.unclaimed(_DAYS_OF):
        st.claim(m.start(), m.end(), "drop", text="")
    for m in st.unclaimed(_A_LIST):
        st.claim(m.start(), m.end(), "word", text="to-do list" if m.group("todo") else m.group(0))


#: Number words by their value, to say a bounded count in words ("at least 2 cats": "least two").
_NUMBER_WORD = {n: w for w, n in lx.NUMBER_WORDS.items() if " " not in w and w != "dozen"}
_N = r"\d{1,2}|" + "|".join(w for w in lx.NUMBER_WORDS if " " not in w)
#: A count of things with a bound: "at least two dogs", "2+ cats", "more than one horse", "up to 3 kids".
_BOUNDED_COUNT = re.compile(
    r"\b(?:(?P<least>at\s+least|no\s+fewer\s+than|not\s+less\s+than|a\s+minimum\s+of)|(?P<more>more\s+than)"
    r"|(?P<most>at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of)"
    rf"|(?P<fewer>fewer\s+than|less\s+than))\s+(?P<n>{_N})\s+(?=[a-z])"
    rf"|\b(?P<n2>{_N})(?:\s*\+|\s+or\s+more)\s+(?=[a-z])"
)


def _counts_with_a_bound(st: ClaimState) -> None:
    """A count of things with a bound is kept as the concept's first words, "least two" or "most
    three" (`quantities.count_of` reads them): "at least two dogs", "2+ cats", "more than one horse"
    (at least two); were a concept "least two dog" counted as exactly two, or "two" or "more dog"."""
    for m in _BOUNDED_COUNT.finditer(st.low):
        if not st.free(m.start(), m.end()):
            continue
        said = m.group("n") or m.group("n2")
        n = (
            (int(said) if said.isdigit() else lx.NUMBER_WORDS[said])
            + bool(m.group("more"))
            - bool(m.group("fewer"))
        )
        if n in _NUMBER_WORD:
            bound = "most" if m.group("most") or m.group("fewer") else "least"
            st.claim(m.start(), m.end(), "word", text=f"{bound} {_NUMBER_WORD[n]}")


#: A selfie after the word for where or with what it was taken: "an airport selfie" is an airport and a
#: selfie (a selfie is measured from the faces and the lens, `resolvers/selfies.py`, no compound of
#: it is); a "mirror selfie" is its own kind (taken with the back camera), a "selfie stick" a thing.
_SELFIE_AFTER = re.compile(r"(?<=[a-z]\s)(?<!\bmirror\s)(?:selfies?)\b(?!\s+sticks?\b)")


def _selfies_after_a_word(st: ClaimState) -> None:
    for m in _SELFIE_AFTER.finditer(st.low):
        before = st.word_before(m.start())
        if st.free(*m.span()) and before and before.group(0) not in lx.STOP_WORDS and st.free(*before.span()):
            st.claim(*m.span(), "atom", {"concept": "selfie"}, slot="concept")


#: Out of doors, said after what is there: "kids outside", "dinner outdoors", "playing outside in the
#: snow" (not "outside the house", "an outdoor pool", nor "outside of europe": a place left out).
_OUTDOORS = re.compile(
    r"\b(?:outside|outdoors|outdoor|out\s+of\s+doors)\b"
    r"(?=\s*(?:$|[,;.!?]|(?:and|or|with|in|on|at|during|last|this|from|but|not|without)\b))"
)


def _out_of_doors(st: ClaimState) -> None:
    for m in st.unclaimed(_OUTDOORS):
        st.claim(m.start(), m.end(), "atom", {"concept": "outdoors"}, slot="concept")


#: Words that join what is with a thing, and say nothing after an "or" ("with tom or with lisa").
_WITH_WORDS = frozenset({"with", "w/", "featuring", "including"})


def _after_an_or(st: ClaimState, start: int) -> bool:
    """Whether the word claimed last before `start`, dropped words aside, is an "or" ("beach or in")."""
    before = [t for t in st.toks if t.end <= start and t.kind != "drop"]
    return bool(before) and max(before, key=lambda t: t.end).kind == "or"


def claim_words(st: ClaimState) -> None:
    """Every word left: filler phrases, stop words and what someone did (dropped), separators,
    connectives and content words."""
    _fillers_and_where_phrases(st)
    _out_of_doors(st)
    _phrases_read_as_one(st)
    _things_named_with_of(st)
    _what_holders_hold(st)
    _words_written_as_one(st)
    _words_written_with_a_hyphen(st)
    for m in _OUTING.finditer(st.low):
        if st.free(m.start("w"), m.end()) and m.group("w") in _OUTING_WORDS:
            st.claim(m.start("w"), m.end(), "drop", text="")
    _things_to_eat(st)
    _drop_what_someone_did(st)
    _what_someone_is_doing(st)
    _sport_events(st)
    _verbs_with_an_object(st)
    _verbs_first_with_an_object(st)
    _verbs_with_a_bare_object(st)
    _participles_after_a_thing(st)
    _participles_before_a_thing(st)
    _drop_trip_words(st)
    _drop_describing_words(st)
    _scene_adjectives(st)
    _drop_lone_days(st)
    _possessive_nouns(st)
    _selfies_after_a_word(st)
    _counts_with_a_bound(st)
    for m in st.unclaimed(_AND_OR):  # "dog and/or cat": either
        st.claim(m.start(), m.end(), "or", text="or")
    for m in re.finditer(r"\bw/(?!o\b)|[\w][\w'’.-]*[\w]|[\w]|[,;&+/]|\bw/o\b", st.low):
        s, e = m.start(), m.end()
        if not st.free(s, e):
            continue
        w = m.group(0)
        if w in (",", ";"):
            st.claim(s, e, "sep", text=w)
        elif (w in lx.SEPARATORS or w in _WITH_WORDS) and _after_an_or(st, s):
            st.claim(s, e, "drop", text="")  # "at the beach or in the mountains": either place
        elif w in lx.AND_WORDS or w in ("but", "&", "+"):
            st.claim(s, e, "and", text=w)
        elif w in lx.OR_WORDS or w == "/":
            st.claim(s, e, "or", text=w)
        elif w in lx.ONLY_WORDS:
            st.claim(s, e, "only", text=w)
        elif w in lx.SEPARATORS and not (w.endswith("ing") and names_a_thing(w, st.word_after(e))):
            st.claim(s, e, "and", text=w)  # but "sleeping bag", "running shoes" are one thing
        elif w in lx.STOP_WORDS or w.rstrip("'s") in lx.STOP_WORDS and w.endswith("'s"):
            st.claim(s, e, "drop", text="")
        elif w.endswith(("'s", "’s")) and len(w) > 3:  # "the dog's ball": the dog and a ball
            st.claim(s, e - 2, "word", text=st.text[s : e - 2])
            st.claim(e - 2, e, "and", text=w[-2:])
        else:
            st.claim(s, e, "word", text=st.text[s:e])
            if w.endswith("s") and st.low[e : e + 1] == "'" and st.free(e, e + 1):
                st.claim(e, e + 1, "and", text="'")  # "the kids' toys": the kids and toys
