"""Entity claims: the catalog's people (and "me"), date expressions (via `query.dates`, with
birthdays), days of the week, times of day and places from the gazetteer."""

from __future__ import annotations

import re
from datetime import date, timedelta

from photosearch.query import lexicon as lx
from photosearch.query.ages import PATTERNS as AGE_PATTERNS
from photosearch.query.ages import find_age
from photosearch.query.areas import area, find_areas
from photosearch.query.claims.attributes import names_a_thing
from photosearch.query.claims.words import TRIP_WORDS
from photosearch.query.clock_times import find_clock_times
from photosearch.query.dates import DateMatch, finder, month_range, open_span, recent_month
from photosearch.query.demonyms import demonym_places, nationality_scenery
from photosearch.query.landmarks import find_landmarks
from photosearch.query.parse_state import ME_UNNAMED, ClaimState, PlanContext, sentence_start
from photosearch.query.places import (
    AMBIGUOUS_COUNTRY_WORDS,
    COUNTRIES,
    FAMOUS_CITIES,
    Place,
    canonical_name,
    fold,
    gazetteer,
    place_key,
)
from photosearch.query.region_codes import region_names
from photosearch.query.times_of_day import TIME_ALIASES, TIMES_OF_DAY, hours_of
from photosearch.query.weekdays import DAY_WORDS, DAYS_RE

#: Said when a request names "me" and nobody is: how to say who you are.
ME_UNKNOWN = "“me” is nobody in your library yet (choose “This is me” on your face in People)"

_SHOW_VERBS = {"show", "give", "find", "get", "tell", "send", "let", "bring", "fetch", "help", "remind"}
_SHOW_VERBS |= {"showed", "shown", "gave", "given", "sent", "brought", "sends", "shows", "gives"}


def _people_by_name(ctx: PlanContext) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The catalog's people by folded full name, and by folded first name (several where shared)."""
    names: dict[str, str] = {}
    firsts: dict[str, list[str]] = {}
    for name in ctx.people:
        if not name or not name.strip():
            continue
        names[fold(name)] = name
        firsts.setdefault(fold(name).split()[0], []).append(name)
    return names, firsts


def claim_people(st: ClaimState) -> None:
    """The catalog's people by full or unambiguous first name, and "me" (`_claim_me`)."""
    names, firsts = _people_by_name(st.ctx)
    for first, full in firsts.items():
        if len(full) == 1:
            names.setdefault(first, full[0])
    for key in sorted(names, key=len, reverse=True):
        if key in ("me", "myself"):
            continue
        pat = re.compile(rf"(?<![\w@#]){re.escape(key)}(?:'s|’s|s')?(?![\w])")
        for m in pat.finditer(st.fold):
            if not st.free(m.start(), m.end()):
                continue
            if re.match(r"\s*birthdays?\b", st.low[m.end() :]) and m.group(0).endswith(("'s", "’s")):
                if _birthday_of(names[key], st.ctx) is not None:
                    continue  # "Anna's birthday" with her birthday known: a date, read in _dates
                # unknown birthday: keep the person; "birthday" stays a concept
                st.note(
                    f"no birthday is known for {names[key]}, so these are photos of {names[key]} "
                    "that look like a birthday",
                    0.0,
                )
            st.claim(m.start(), m.end(), "atom", {"person": names[key]}, slot="person")
    _claim_me(st)


def _claim_me(st: ClaimState) -> None:
    """ "me", "photos I'm in": the owner; else, with nobody else named, someone in the photo ("photos
    of me")."""
    for m in re.finditer(r"\b(?:me|myself|i'm\s+in|i\s+am\s+in)\b(?!\s+(?:the|a|an|my)\b)", st.low):
        if not st.free(m.start(), m.end()):
            continue
        prev = st.word_before(m.start())
        if prev and prev.group(0) in _SHOW_VERBS:
            continue
        if re.search(r"\b(?:by|(?:sent|given|shared)\s+to)\s+$", st.low[: m.start()]):
            continue  # "photos taken by me", "sent to me": who took or got them, not who is in them
        if st.ctx.owner:
            st.claim(m.start(), m.end(), "atom", {"person": st.ctx.owner}, slot="person")
        elif any(t.slot in ("person", "faces") for t in st.toks):  # "me and Anna": Anna says who
            st.note(f"{ME_UNKNOWN}, so it was left out", 0.4)
            st.claim(m.start(), m.end(), "drop", text=ME_UNNAMED)
        else:  # "photos of me": someone is in them, whoever "me" is ("just me": one person)
            st.note(
                f"{ME_UNKNOWN}, so these are the photos with someone in them",
                0.4,
            )
            only = prev is not None and prev.group(0) in ("just", "only")
            st.claim(
                m.start(), m.end(), "atom", {"faces": {"min": 1, "max": 1 if only else None}}, slot="faces"
            )


_TIMES = re.compile(
    r"\b(?P<pre>(?:in|during|at|around|every|each|this)\s+(?:the\s+)?)?(?P<t>"
    + "|".join(re.escape(t) for t in sorted({*TIMES_OF_DAY, *TIME_ALIASES}, key=len, reverse=True))
    + r")s?\b"
)


def claim_times(st: ClaimState) -> None:
    """Times of day ("in the morning", "at lunchtime", "this evening": today too) → the hour atom.
    A time word that names a thing with the next word stays a concept ("morning glory", "evening
    gown"). Clock times first: "at 5pm", "after 10pm", "6 in the morning" (`query/clock_times.py`)."""
    for t in find_clock_times(st.low):
        if st.free(t.start, t.end):
            st.claim(t.start, t.end, "atom", {"hour": t.hours}, slot="hour")
    for m in _TIMES.finditer(st.low):
        if not st.free(m.start(), m.end()):
            continue
        after = st.word_after(m.end())
        if after and names_a_thing(m.group("t").split()[-1], after):
            continue
        start = m.start()
        if (m.group("pre") or "").startswith("this"):  # "this morning": today, in the morning
            today = st.now.isoformat()
            st.claim(m.start(), m.start("t"), "atom", {"date": {"from": today, "to": today}}, slot="date")
            start = m.start("t")
        st.claim(start, m.end(), "atom", {"hour": hours_of(m.group("t"))}, slot="hour")


def _birthdays(st: ClaimState) -> dict[str, date]:
    """The request's known birthdays, "me" the owner's too."""
    owner = st.ctx.owner
    bdays = dict(st.ctx.birthdays)
    if owner and owner in bdays:
        bdays.setdefault("me", bdays[owner])
    return bdays


def dates_found(st: ClaimState) -> list[DateMatch]:
    """The date expressions of the request, with birthdays (`query.dates`)."""
    return finder().find(
        st.low, st.now, years=st.ctx.years, birthdays=_birthdays(st), owner=st.ctx.owner or "me"
    )


def claim_ages(st: ClaimState) -> None:
    """How old someone was, from their birthday (`query.ages`): before the sort words read "when she
    was little" as "oldest first" and the date finder "in my 30s" as the 1930s. Someone of People
    without a birthday is said to have none; a stage of life then stays a look ("baby")."""
    known = {
        **dict.fromkeys(p.lower() for p in st.ctx.people),
        **{k.lower(): v for k, v in _birthdays(st).items()},
    }
    owner = (st.ctx.owner or "me").lower()
    for kind, pattern in AGE_PATTERNS:
        for m in pattern.finditer(st.low):
            age = find_age(kind, m, known, owner, st.now, st.text)
            if age is None or not st.free(age.start, age.end):
                continue
            for note in age.notes:
                st.note(note, 0.35 if "no birthday" in note else 0.0)
            if age.ranges:
                (lo, hi), *_ = age.ranges
                st.claim(
                    age.start,
                    age.end,
                    "atom",
                    {"date": {"from": lo.isoformat(), "to": hi.isoformat()}},
                    slot="date",
                )
            elif age.instead:
                st.claim(age.start, age.end, "atom", {"concept": age.instead}, slot="concept")
            else:  # "when i was 25" with no birthday known: the note says so
                st.claim(age.start, age.end, "drop")


def claim_dates(st: ClaimState) -> None:
    """Date expressions, with birthdays (`query.dates`)."""
    for dm in dates_found(st):
        if not st.free(dm.start, dm.end):
            continue
        for note in dm.notes:
            st.note(note, 0.35 if "no birthday" in note else 0.0)
        if not dm.ranges:
            st.claim(dm.start, dm.end, "atom", {"concept": dm.instead}, slot="concept")
            continue
        st.claim(dm.start, dm.end, "atom", dm.node(), slot="date")


#: Words that say when a photo was put in the library, not taken: "photos added today", "the photos I
#: imported last week", "recent uploads", "added to my library".
_ADDED = re.compile(
    r"\b(?:(?:newly|just|freshly)\s+)?(?:added|imported|uploaded|copied(?:\s+over)?|transferred|synced|imports|uploads|additions)"
    r"(?:\s+(?:to|into|onto)\s+(?:the\s+|my\s+|this\s+)?(?:library|catalog(?:ue)?|app|collection|computer|laptop|pc))?\b"
)
#: "new photos", "what's new": the photos added last, first.
_NEW = re.compile(r"\bwhat'?s\s+new\b|\bnew(?=\s+(?:photos?|pictures?|pics|images?|shots|ones|arrivals)\b)")
#: What may stand between the word for adding and the date it names ("added on monday").
_ADDED_GAP = re.compile(r"\s*(?:(?:on|in|during|over)\s+)?")


def claim_added(st: ClaimState) -> None:
    """When photos were added to the library: the date right after a word for adding is the day they
    were added ("photos added today", "imported since monday"); without one, and after "recently" or
    "new", the photos added last come first ("recently added", "the photos I imported")."""
    for m in _ADDED.finditer(st.low):
        if not st.free(m.start(), m.end()):
            continue
        after = min((t for t in st.toks if t.start >= m.end()), key=lambda t: t.start, default=None)
        gap = st.low[m.end() : after.start] if after else ""
        days = _days_named(after.node or {}, st.now) if after and _ADDED_GAP.fullmatch(gap) else None
        if days and st.free(m.end(), after.start):
            after.node, after.slot = {"added": days}, "added"
            st.claim(m.start(), after.start, "drop", text="<added>")
            continue
        if st.compose["sort"] in ("relevance", "date_desc"):
            st.compose["sort"] = "added_desc"
        st.claim(m.start(), m.end(), "drop", text="<added>")
    for m in _NEW.finditer(st.low):
        if st.free(m.start(), m.end()) and st.compose["sort"] == "relevance":
            st.compose["sort"] = "added_desc"
            st.claim(m.start(), m.end(), "drop", text="<added>")


def _days_named(node: dict, now: date) -> dict | None:
    """The days a date atom names, or the latest run of a month atom's months up to today ("added
    in june", "added in summer": from the latest 1 June); None for anything else (several ranges,
    months apart: "added in march or june")."""
    if set(node) == {"date"}:
        return node["date"]
    months = node.get("month") or next((n["month"] for n in node.get("or", ()) if "month" in n), None)
    if not months or ("or" in node and len(node["or"]) != 2):  # only a season and its look
        return None
    first = next(
        (f for f in months if {(f + i - 1) % 12 + 1 for i in range(len(months))} == set(months)), None
    )
    if first is None:
        return None
    lo, _ = recent_month(now, first)
    year, month = divmod(lo.year * 12 + lo.month - 1 + len(months) - 1, 12)  # the run's last month
    _, hi = month_range(year, month + 1)
    return {"from": lo.isoformat(), "to": min(hi, now).isoformat()}


#: A weekend that is a trip, not Saturday and Sunday: "a weekend in barcelona", "our weekend in rome", "a
#: long weekend", "a weekend trip", "a camping weekend"; "at the weekend in 2023" is Saturdays and Sundays.
_WEEKEND_TRIP = re.compile(
    r"(?<!\bat\s)(?<!\bon\s)(?<!\bover\s)(?<!\bduring\s)"
    r"(?<!\bat\sthe\s)(?<!\bon\sthe\s)(?<!\bover\sthe\s)(?<!\bduring\sthe\s)"
    r"\b(?:(?:a|our|the|my|that|this)\s+)?(?:long\s+)?weekend(?=\s+(?:in|to|at|trips?|breaks?|getaways?)\b)"
    r"|\blong\s+weekends?\b|\b(?P<kind>camping|ski|skiing|hiking|city|spa|girls|boys)\s+weekends?\b"
)


def claim_weekdays(st: ClaimState) -> None:
    """Days of the week: "at weekends", "on Sundays", "weekdays" → the weekday atom, in any year;
    "last Sunday" and "this Friday" → that one day (the latest such day up to today); "since Monday"
    → from it to today. A weekend that is a trip ("a long weekend in lisbon") is any day of it."""
    for m in st.unclaimed(_WEEKEND_TRIP):
        said = " ".join(m.group(0).split())
        st.note(f"“{said}” was read as a trip, on any day of the week", 0.0)
        start = m.end("kind") if m.group("kind") else m.start()  # "a camping weekend" is camping
        st.claim(start, m.end(), "drop", text="")
    for m in DAYS_RE.finditer(st.low):
        if not st.free(m.start(), m.end()):
            continue
        days = DAY_WORDS[m.group("d")]
        before = st.word_before(m.start())
        word = before.group(0) if before and not m.group("pre") and len(days) == 1 else ""
        if word in ("last", "this", "past", "since", "after"):
            back = (st.now.isoweekday() - days[0]) % 7 or (7 if word == "last" else 0)
            day = st.now - timedelta(days=back)  # the latest such day up to today, or the one before
            lo, hi = open_span(word, (day, day), st.now) if word in ("since", "after") else (day, day)
            span = {"from": lo.isoformat(), "to": hi.isoformat()}  # "since monday": to today
            st.claim(before.start(), m.end(), "atom", {"date": span}, slot="date")
            continue
        st.claim(m.start(), m.end(), "atom", {"weekday": list(days)}, slot="weekday")


#: Cities people name by a short form that is also a word ("la", "sf"): a place when written in
#: capitals, after "in", "to" or "from", or before a trip word or a year ("la trip", "sf 2019").
CITY_SHORT_FORMS = frozenset({"la", "sf", "rio"})
_YEAR_NEXT = re.compile(r"\s+(?:19|20)\d\d\b")
#: "in the us", "to the states": the country, where "us" alone is people.
_IN_THE = re.compile(r"\b(?:in|to|from|across|around|through|visiting|outside(?:\s+of)?)\s+the\s+$")
_THE_STATES = re.compile(
    r"\b(?:in|to|from|across|around|through|visiting|outside(?:\s+of)?)\s+the\s+(?P<s>states)\b"
)


def claim_places(st: ClaimState) -> None:
    """Famous sights ("the eiffel tower": where it is, and what it looks like) and areas ("europe"),
    then gazetteer places in n-grams of up to four words, where the wording makes a place likely."""
    gaz = gazetteer()
    _claim_nationality_scenery(st)
    _claim_sights_and_areas(st, gaz)
    _drop_a_direction(st, gaz)
    for m in _THE_STATES.finditer(st.low):
        if st.free(*m.span("s")):
            st.claim(*m.span("s"), "atom", {"place": "United States"}, slot="place")
    words = [(m.start(), m.end()) for m in re.finditer(r"[\w][\w'’.-]*", st.low)]
    i = 0
    while i < len(words):
        matched = False
        for n in range(min(4, len(words) - i), 0, -1):
            s, e = words[i][0], words[i + n - 1][1]
            if not st.free(s, e):
                continue
            phrase = st.low[s:e].rstrip(".")
            e = s + len(phrase)
            places = [] if phrase in lx.STOP_WORDS else gaz.lookup(phrase)
            if not places:
                continue
            orig = st.text[s:e]
            mq, within = _qualifier(st, gaz, places, e)
            if within is None and not _reads_as_a_place(st, places, phrase, orig, (s, e), n):
                continue
            qualifier = ""
            if within is not None:
                places = [p for p in places if p.kind in ("city", "county") and _lies_in(p, within)] or places
                qualifier = ", " + within.name
                e = mq.end()
            value = canonical_name(places, orig) + qualifier
            st.claim(s, e, "atom", {"place": value}, slot="place")
            i += n
            matched = True
            break
        if not matched:
            i += 1


def _claim_nationality_scenery(st: ClaimState) -> None:
    """ "spanish beaches", "the swiss alps", "a thai temple": that scenery in that place (a place atom
    and the scenery's concept), said in a note; "italian food", "an irish pub" stay one concept."""
    areas = [(start, end) for start, end, _area in find_areas(st.fold)]
    for m in st.unclaimed(nationality_scenery()):
        if any(start <= m.start("who") < end for start, end in areas):
            continue  # "the scottish highlands": an area of its own
        place = demonym_places()[m.group("who")]
        st.claim(*m.span("who"), "atom", {"place": place}, slot="place")
        st.note(f"“{m.group(0)}” was read as {m.group('what')} in {place}", 0.0)


def _claim_sights_and_areas(st: ClaimState, gaz) -> None:
    """Famous sights (a place or their look), a distance from a place (dropped: the place reaches its
    towns), and areas ("europe", "the middle east", "new england"; with their look, if any)."""
    for start, end, sight in find_landmarks(st.fold):
        if st.free(start, end) and sight.alike:  # "lake como": a lake is no proof of it
            st.claim(start, end, "atom", {"place": sight.name}, slot="place")
        elif st.free(start, end):
            looks = sight.looks or place_key(re.sub(r"^the\s+", "", st.low[start:end]))  # "mt" is "mount"
            st.claim(start, end, "atom", {"or": [{"place": sight.name}, {"concept": looks}]}, slot="place")
    for m in st.unclaimed(_WITHIN):  # "within 10 km of paris"
        st.claim(m.start(), m.end(), "drop", text="")
        st.note(f"“{m.group(0).strip()}” was read as in or near the place", 0.0)
    for start, end, found in find_areas(st.fold):
        before = st.word_before(start)
        if before and before.end() + 1 == start and gaz.lookup(st.low[before.start() : end]):
            continue  # "south africa", "central african republic": a country of its own
        if _a_thing_of(st, start, end, found) or _qualified_elsewhere(st, gaz, end, found):
            continue  # "madeira cake": a thing named after the place; "cornwall, ontario": a town
        if st.free(start, end):
            node = {"place": found.name}
            st.claim(
                start,
                end,
                "atom",
                {"or": [node, {"concept": found.looks}]} if found.looks else node,
                slot="place",
            )


#: A distance from a place: "within 10 km of paris", "less than 5 miles from the hotel".
_WITHIN = re.compile(
    r"\b(?:within|less\s+than|under|up\s+to)\s+(?:a\s+)?\d*\.?\d+\s*(?:km|kms|kilomet(?:er|re)s?|mi|miles?)\s+(?:of|from)\s+"
)
#: A part of a place by its direction: "the south of france", "northern italy", "eastern europe".
_DIRECTION = re.compile(
    r"\b(?:(?:the\s+)?(?:north|south|east|west)(?:-?(?:east|west))?\s+of|(?:north|south|east|west)(?:-?(?:east|west))?ern"
    r"|central|upstate|(?:north|south|east|west)(?:-?(?:east|west))?)\s+(?P<rest>[a-z]+(?:\s+[a-z]+){0,2})"
)


def _drop_a_direction(st: ClaimState, gaz) -> None:
    """A direction before a country, region or area is the whole of it ("the south of france" is
    France, was a place "South"), said in a note; not where the words name a place themselves
    ("western australia", "south africa", "north carolina")."""
    for m in _DIRECTION.finditer(st.low):
        said = m.group(0)[: m.start("rest") - m.start()].strip()
        if not st.free(m.start(), m.start("rest")) or gaz.lookup(st.low[m.start() : m.end()]):
            continue
        rest = m.group("rest").split()
        for n in range(len(rest), 0, -1):
            phrase = " ".join(rest[:n])
            if gaz.lookup(f"{said} {phrase}"):
                break  # "south africa", "north carolina": a place of its own
            places = gaz.lookup(phrase)
            if area(phrase) is not None or places and places[0].kind in ("country", "region"):
                st.claim(m.start(), m.start("rest"), "drop", text="")
                st.note(f"“{said} {phrase}” was read as all of {phrase.title()}", 0.0)
                break


#: What follows a town's name and a comma ("kingston, ontario in 2019": "ontario").
_AFTER_A_COMMA = re.compile(
    r",\s*([\w][\w .'-]*?)(?=$|[,;]|\s+(?:and|or|with|not|but|in|at|on|from|last|this)\b)"
)
#: What follows an area's name, with or without a comma: one or two words to the end of the request
#: or a comma ("cornwall, ontario"), else the next word ("tenerife spain 2019").
_AFTER_AN_AREA = re.compile(r",?\s*([a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\s*(?:$|[,;])")
_WORD_AFTER_AN_AREA = re.compile(r",?\s*([a-z][\w'-]*)")


def _country_or_region(gaz, m: re.Match | None) -> Place | None:
    """The country or region a match's first group names, or None."""
    found = gaz.lookup(m.group(1)) if m else []
    return found[0] if found and found[0].kind in ("country", "region") else None


def _qualifier(st: ClaimState, gaz, places: list[Place], end: int) -> tuple[re.Match | None, Place | None]:
    """The country or region after a town's or county's name, where one of that name lies in it:
    after a comma ("kingston, ontario", "cornwall, ontario": a town, even where the name alone is no
    place), or right after the name ("austin texas", "charlotte north carolina": the town, not
    someone called Austin; not a name of the library's people)."""
    mq = _AFTER_A_COMMA.match(st.low, end)
    within = _the_region_a_town_lies_in(st, gaz, mq, places, after_comma=True)
    if within is None and not _names_someone(st, end):
        for mq in (m for m in (rx.match(st.low, end) for rx in _RIGHT_AFTER_A_TOWN) if m):
            if not st.free(*mq.span(1)):
                continue  # "paris last summer": a date was read there
            within = _the_region_a_town_lies_in(st, gaz, mq, places, after_comma=False)
            if within is not None:
                break
    return (mq, within) if within is not None else (None, None)


#: One to three words right after a town's name, longest first ("north carolina", "texas").
_RIGHT_AFTER_A_TOWN = tuple(
    re.compile(r"\s+([a-z][\w'-]*" + r"\s+[a-z][\w'-]*" * (n - 1) + r")\b") for n in (3, 2, 1)
)


def _the_region_a_town_lies_in(
    st: ClaimState, gaz, m: re.Match | None, places: list[Place], *, after_comma: bool
) -> Place | None:
    """The country or region a match's first group names, by its name or its code, in which one of
    the towns lies ("atlanta, georgia": the state, not the country; "austin tx", "Portland OR")."""
    if m is None:
        return None
    regions = [p for p in gaz.lookup(m.group(1)) if p.kind in ("country", "region")]
    written = st.text[m.start(1) : m.end(1)]
    last = not st.low[m.end(1) :].strip(" .!?")
    codes = region_names(m.group(1), written=written, after_comma=after_comma, last=last)
    for cc, name in () if regions else codes:
        regions += [p for p in gaz.lookup(name) if p.kind == "region" and p.cc == cc]
    towns = [p for p in places if p.kind in ("city", "county")]
    return next((r for r in regions if any(_lies_in(t, r) for t in towns)), None)


def _names_someone(st: ClaimState, end: int) -> bool:
    """Whether the word before `end` is the name of one of the library's people ("Austin" there)."""
    names, firsts = _people_by_name(st.ctx)
    return st.low[st.low.rfind(" ", 0, end) + 1 : end] in names.keys() | firsts.keys()


def _lies_in(town: Place, within: Place) -> bool:
    """Whether a town lies in a country, or in a region, of the gazetteer."""
    return town.cc == within.cc and (within.kind == "country" or fold(town.admin1) == fold(within.admin1))


def _qualified_elsewhere(st: ClaimState, gaz, end: int, found) -> bool:
    """Whether a country or region the area is not in follows its name ("cornwall, ontario")."""
    m = _AFTER_AN_AREA.match(st.low, end) or _WORD_AFTER_AN_AREA.match(st.low, end)
    place = _country_or_region(gaz, m)
    return place is not None and place.cc not in found.country_codes


def _a_thing_of(st: ClaimState, start: int, end: int, found) -> bool:
    """Whether the name and the word after it are one WordNet noun, a thing named after the place
    ("madeira cake"), or one the area lists ("black forest cake", `Area.things`); not said after
    "in", "to" or "from" ("cake in madeira")."""
    from photosearch.query.expansion import shared_wordnet

    prev = st.low[:start].split()[-1:] or [""]
    after, wn = st.word_after(end), shared_wordnet()
    if not after or prev[0] in lx.PLACE_PREPS or wn is None:
        return False
    following = " ".join(st.low[end:].split()[:2])
    return bool(wn.senses(f"{st.fold[start:end]} {after}")) or any(
        following == thing or following.startswith(thing + " ") for thing in found.things
    )


def _before_a_word(st: ClaimState, end: int) -> bool:
    """Whether a content word follows, which the name may describe ("california nebula", "brandenburg
    gate": things named after the place, not photos taken there); a scene is seen there ("cornwall
    beaches", "tuscany sunset")."""
    after = st.word_after(end)
    return (
        bool(after)
        and not _claimed_after(st, end)  # "scotland last summer": a time, which names no thing
        and after not in lx.STOP_WORDS
        and after not in lx.SEPARATORS
        and after not in lx.AND_WORDS
        and after not in lx.OR_WORDS
        and not _before_a_scene(st, end)
        and not _before_what_one_does_there(st, end)
    )


#: WordNet's lexicographer files of what one does or visits at a place: acts ("skiing"), events
#: ("wedding"), times ("honeymoon") and locations ("national parks").
_DONE_AT_A_PLACE = frozenset({4, 11, 15, 28})


def _before_what_one_does_there(st: ClaimState, end: int) -> bool:
    """Whether a trip, an activity, an event or a place to visit follows ("texas road trip", "colorado
    skiing", "hawaii honeymoon", "utah national parks"): photos taken there, no thing named after it."""
    from photosearch.query.expansion import first_lexfile

    following = st.low[end:].split()[:2]
    if any(w in TRIP_WORDS for w in following):
        return True
    if len(following) == 2 and (pair := first_lexfile(f"{following[0]} {lx.singular(following[1])}")):
        return pair in _DONE_AT_A_PLACE  # "national parks": a place to visit, whatever "national" is
    return bool(following) and first_lexfile(lx.singular(following[0])) in _DONE_AT_A_PLACE


def _claimed_after(st: ClaimState, end: int) -> bool:
    """Whether the word right after `end` was read already (a date, a time, a person)."""
    span = st.word_after_span(end)
    return span is not None and not st.free(*span)


def _before_a_scene(st: ClaimState, end: int) -> bool:
    """Whether a landscape seen at a place follows ("cornwall beaches", "tuscany sunset"); not a
    thing named after it ("california nebula") nor a street or park of that name ("hyde park")."""
    return lx.singular(st.word_after(end)) in _LANDSCAPES


#: Landscapes a place is photographed for, after its name.
_LANDSCAPES = frozenset(
    {"beach", "coast", "coastline", "shore", "sea", "ocean", "bay", "harbour", "harbor", "cliff", "island"}
    | {"sunset", "sunrise", "mountain", "hill", "valley", "lake", "river", "waterfall", "forest"}
    | {"countryside", "desert", "dune", "snow", "skyline", "landscape", "scenery", "vineyard"}
    | {"pier", "seafront", "promenade", "boardwalk", "marina", "lighthouse", "castle", "cathedral"}
)


def _no_other_word(phrase: str) -> bool:
    """Whether neither WordNet nor the English word list knows the name as anything ("santorini")."""
    from photosearch.query import spelling

    return " " not in phrase and spelling.unknown(phrase)


def _reads_as_a_place(
    st: ClaimState, places: list, phrase: str, orig: str, span: tuple[int, int], n: int
) -> bool:
    """Whether the wording makes a gazetteer match a place: a country by its name, a famous city, a
    region WordNet reads first as a place, a capitalised name, a name after "in"... (`claim_places`)."""
    s, e = span
    prev = st.low[:s].split()[-1:] or [""]
    after_prep = prev[0] in lx.PLACE_PREPS
    capital = orig[:1].isupper() and not sentence_start(st.text, s)
    is_country = places[0].kind == "country"
    county = any(p.kind == "county" for p in places)  # "devon": also towns in Alberta and Pennsylvania
    before = st.low[:s].split()[-2:]
    after_prep_the = len(before) == 2 and before[0] in lx.PLACE_PREPS and before[1] == "the"
    common = phrase in lx.COMMON_WORDS or phrase in lx.SEPARATORS or phrase in lx.AND_WORDS
    ok = False
    if is_country and any(fold(alias) == phrase for alias in COUNTRIES.get(places[0].cc, ())):
        ok = phrase not in AMBIGUOUS_COUNTRY_WORDS or capital or after_prep
        if not ok and (
            not prev[0] or prev[0] in lx.STOP_WORDS or prev[0] in lx.AND_WORDS
        ):  # not "roast turkey"
            ok = (
                bool(_YEAR_NEXT.match(st.low, e)) or st.word_after(e) in TRIP_WORDS
            )  # "turkey 2019", "turkey trip"
        if phrase == "us" and not orig.isupper():  # "us" is people, "in the us" the country
            ok = bool(_IN_THE.search(st.low, 0, s))
    elif (
        phrase in FAMOUS_CITIES
        and not common
        or (
            orig[:1].isupper()
            and sentence_start(st.text, s)
            and places[0].kind in ("region", "country")
            and not common
            and len(phrase) >= 4
        )
    ):
        ok = True
    elif (
        not common
        and len(phrase) >= 4
        and (
            places[0].kind in ("region", "county")
            and first_a_place(phrase)
            or _before_a_scene(st, e)  # "cornwall beaches", "santorini sunset"
            and (first_a_place(phrase) or _no_other_word(phrase))
        )
        and not _before_a_word(st, e)
    ):
        ok = True  # "scotland", "tuscany in autumn", "cornwall beaches": WordNet reads it first as a place
    elif (
        places[0].kind == "city"
        and not common
        and len(phrase) >= 4
        and first_a_place(phrase)
        and not _before_a_word(st, e)
        and not _ends_a_name(st, s, phrase)
    ):
        ok = True  # "denver", "new orleans", "san diego": a city WordNet reads first as a place
    elif (
        places[0].kind == "city"
        and n > 1
        and _named_as_towns_are(phrase)
        and lx.singular(st.word_after(e)) not in _NAMED_AFTER_A_SAINT
        and not _before_a_word(st, e)
        and not _ends_a_name(st, s, phrase)
    ):
        ok = True  # "santa monica", "st ives", "ft lauderdale": a town's name of several words, as towns are named
    elif county and n > 1 and not common and (after_prep or not _before_a_word(st, e)):
        ok = True  # "orange county", "walks in north yorkshire": a county's name of several words
    elif (
        county
        and (after_prep or after_prep_the)
        and not common
        and len(phrase) >= 4
        and _no_thing_first(phrase)
    ):
        ok = True  # "in kent", "in dorset", "in the dordogne"; not "in fife" (WordNet's flute first)
    elif capital and (n > 1 or not common or after_prep):
        ok = len(phrase) >= 3 and (not _looks_like_name(orig) or after_prep)
    elif (
        after_prep
        and not common
        and len(phrase) >= 4
        and n >= 1
        and (
            places[0].kind not in ("city", "county")
            or phrase in st.ctx.places
            or first_a_place(phrase)
            or _no_other_word(phrase)
        )
        or after_prep
        and phrase in FAMOUS_CITIES
    ):
        ok = True  # "in marrakech", "in sintra"; not "in bed"
    elif phrase in st.ctx.places and not common and len(phrase) >= 4:
        ok = first_a_place(phrase) or _no_other_word(phrase)  # "sintra": a town of the library's photos
    elif phrase in CITY_SHORT_FORMS:  # "LA", "la trip", "in sf": the city's short form
        ok = orig.isupper() or after_prep or st.word_after(e) in TRIP_WORDS or _YEAR_NEXT.match(st.low, e)
    return bool(ok)


def _ends_a_name(st: ClaimState, start: int, phrase: str) -> bool:
    """Whether the words before the place and the place are one WordNet noun ("hanging gardens of
    babylon")."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    before = st.low[:start].split()[-4:]
    return wn is not None and any(wn.base_forms(" ".join([*before[i:], phrase])) for i in range(len(before)))


def first_a_place(phrase: str) -> bool:
    """Whether WordNet's first sense of the phrase, as written, is a place (not "jersey" the shirt,
    "champagne" the wine, "victoria" the queen)."""
    from photosearch.query.expansion import LOCATION, shared_wordnet

    wn = shared_wordnet()
    senses = wn.lookup(phrase.replace(" ", "_")) if wn is not None else ()
    return bool(senses) and wn.synset(senses[0]).lexfile == LOCATION


#: The first words of towns' names ("san diego", "st ives", "fort worth"); not "mount" (a "mount
#: rainier" is the mountain more often than the town in Maryland) nor an article ("la playa" is a beach).
TOWN_FIRST_WORDS = frozenset(
    {"saint", "st", "st.", "sainte", "ste", "san", "santa", "santo", "sao", "fort", "ft", "port", "puerto"}
    | {"porto", "cabo"}
)


#: What is named after a saint as often as a town is: "st paul's cathedral" is in London, not in
#: Saint Pauls, North Carolina.
_NAMED_AFTER_A_SAINT = frozenset(
    {"cathedral", "church", "basilica", "chapel", "abbey", "priory", "minster", "monastery", "square"}
    | {"park", "hospital", "college", "school", "university", "station", "bridge", "gate", "market"}
)


def _named_as_towns_are(phrase: str) -> bool:
    """Whether a name of several words begins as towns' names do, and WordNet reads it, written out
    or short, first as a place or not at all ("st louis": "St. Louis" is first the city; "santa
    claus", "saint nicholas" are first saints)."""
    from photosearch.query.expansion import LOCATION, shared_wordnet

    if phrase.split(" ", 1)[0] not in TOWN_FIRST_WORDS:
        return False
    wn = shared_wordnet()
    if wn is None:
        return True
    full = place_key(phrase)
    forms = {phrase, full} | ({"st. " + full.removeprefix("saint ")} if full.startswith("saint ") else set())
    firsts = [senses[0] for senses in (wn.lookup(f.replace(" ", "_")) for f in forms) if senses]
    return not firsts or any(wn.synset(o).lexfile == LOCATION for o in firsts)


def _no_thing_first(phrase: str) -> bool:
    """Whether WordNet knows the phrase (or its singular) first as a place ("kent"), or not at all
    ("dorset"), not as anything else ("powys", a writer; "fife", a flute; "hills", a landform)."""
    from photosearch.query.expansion import LOCATION, shared_wordnet

    wn = shared_wordnet()
    senses = wn.senses(phrase) if wn is not None else ()
    return not senses or wn.synset(senses[0]).lexfile == LOCATION


def _birthday_of(name: str, ctx: PlanContext) -> date | None:
    folded = fold(name)
    return next((d for n, d in ctx.birthdays.items() if fold(n) == folded), None)


def _looks_like_name(word: str) -> bool:
    return word[:1].isupper() and word[1:].islower() and len(word) <= 8 and word.lower() not in FAMOUS_CITIES
