"""How old someone was, as the days it names from their birthday: "anna at 3", "when i was 25", "my
twenties", "tom as a baby", "baby photos of anna", "anna's first year", "anna's first birthday", "the
year anna turned 5".

The parser claims these before its sort words and dates (`claims.entities.claim_ages`), so "in my
30s" is never the 1930s and "when she was little" is her first years where her birthday is known. Whose age it is: a pronoun ("i", "my", "me": the owner; "she", "he": the one person of the
request whose birthday is known), a name right before ("anna at 3"), or the only such person the
request names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

from photosearch.query.dates import OPEN_START
from photosearch.query.lexicon import NUMBER_WORDS

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "sixteenth": 16,
    "eighteenth": 18,
    "twenty-first": 21,
    "twenty first": 21,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
    "sixtieth": 60,
    "seventieth": 70,
    "eightieth": 80,
}
_DECADES = {
    "teens": 10,
    "twenties": 20,
    "thirties": 30,
    "forties": 40,
    "fifties": 50,
    "sixties": 60,
    "seventies": 70,
    "eighties": 80,
    "nineties": 90,
}
#: A stage of life and the months of age it spans (from, to: the first month after it).
STAGES = {
    "newborn": (0, 2),
    "baby": (0, 24),
    "infant": (0, 12),
    "toddler": (12, 48),
    "little kid": (0, 96),
    "little girl": (0, 96),
    "little boy": (0, 96),
    "kid": (0, 156),
    "child": (0, 156),
    "teen": (156, 240),
    "teenager": (156, 240),
}
_NUMBER = r"\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_WHO = r"(?P<who>i|she|he|they|[a-z][\w.'-]*(?:\s+[a-z][\w.'-]*)?)"
#: A name's possessive, of one word or two ("anna's", "mark smith's", "the kids'").
_POSSESSIVE = r"(?:[\w.-]+\s+)?(?:[\w.-]+'s|[\w.-]+s')"
_STAGE = "|".join(sorted((re.escape(s) for s in STAGES), key=len, reverse=True))
_OWNER_WORDS = {"i", "my", "me", "myself"}
_THIRD_PERSON = {"she", "he", "they", "her", "his", "their", "him", "them"}

#: (kind, pattern): each pattern's `who` (when it has one) is whose age it is; a match's span starts
#: at group `at` where the name before it is left for the people claims ("when anna was 3").
PATTERNS: list[tuple[str, re.Pattern]] = [
    (  # "anna's 5th birthday", "my first birthday", "mum's 70th" (a numbered one needs no "birthday")
        "nth_birthday",
        re.compile(
            rf"\b(?P<who>{_POSSESSIVE}|my|his|her)\s+(?P<at>(?P<n>\d{{1,3}}(?:st|nd|rd|th)|{'|'.join(_ORDINALS)})"
            r"\s+birthday\b|(?P<bare>\d{1,3}(?:st|nd|rd|th))(?=\s*$|\s*[,;]|\s+(?:party|celebrations?|bash|dinner"
            r"|in|at|on|with|and|or|last|this|photos?|pictures?|pics?)\b))"
        ),
    ),
    (  # "my twenties", "in her early 30s", "anna's teens"
        "decade",
        re.compile(
            rf"\b(?:in\s+|during\s+)?(?P<who>{_POSSESSIVE}|my|his|her|their)\s+(?P<at>(?:(?P<part>early|mid|late)[\s-]+)?"
            rf"(?P<d>{'|'.join(_DECADES)}|[1-9]0'?s))(?![\w'])"
        ),
    ),
    (  # "anna's first year", "her first year of life"; not "my first year at university"
        "first_year",
        re.compile(
            rf"\b(?P<who>{_POSSESSIVE}|my|his|her|their)\s+(?P<at>first\s+year(?:\s+of\s+life)?)\b"
            r"(?!\s+(?:at|in|on|as|with|of|abroad)\b)"
        ),
    ),
    (  # "when i was 25", "when anna was 3 years old", "when she was a baby", "when he was little"
        "when",
        re.compile(
            rf"\bwhen\s+{_WHO}\s+(?P<at>(?:was|were)\s+(?:(?P<n>{_NUMBER})(?:\s+years?\s+old)?"
            rf"|an?\s+(?P<stage>{_STAGE})|(?P<little>little|young|small|tiny)))\b"
        ),
    ),
    (  # "anna at 3", "tom aged 5", "me at age 10", "anna at 3 years old"
        "at",
        re.compile(
            rf"(?P<at>\b(?:at|aged?)\s+(?:the\s+)?(?:age\s+(?:of\s+)?)?(?P<n>{_NUMBER})(?:\s+years?\s+old)?)"
            r"(?![\w:.]|\s*(?:am|pm|o'?clock|h\b|hours?|minutes?|mins?|%|percent|mm|km|m\b|mph|degrees?))"
        ),
    ),
    (  # "anna as a baby", "me as a toddler"
        "as",
        re.compile(rf"(?P<at>\bas\s+an?\s+(?P<stage>{_STAGE}))\b"),
    ),
    (  # "baby photos of anna", "toddler pictures of tom"
        "stage_photos",
        re.compile(
            rf"\b(?P<at>(?P<stage>{_STAGE}))\s+(?:photos?|pictures?|pics|shots|snaps)\s+of\s+(?P<who>me|my|[a-z][\w.'-]*(?:\s+[a-z][\w.'-]*)?)"
        ),
    ),
    (  # "the year anna turned 5", "the summer i turned 21", "anna turning 5"
        "turned",
        re.compile(rf"\b(?:(?:the\s+year\s+)?{_WHO}\s+)?(?P<at>(?:turned|turning)\s+(?P<n>{_NUMBER}))\b"),
    ),
    (  # "before anna was born", "since the kids were born": before (from) the birthday; no photo of
        # them is asked for, so the name is the age's own
        "born",
        re.compile(rf"\b(?P<side>before|after|since)\s+{_WHO}\s+(?:was|were|got|had\s+been)\s+born\b"),
    ),
]


@dataclass(frozen=True)
class Age:
    """An age found: its span in the request, the days it names (none: no birthday known), notes, and
    what to look for instead where no birthday is known ("baby": a baby's look; "": nothing)."""

    start: int
    end: int
    ranges: list[tuple[date, date]]
    notes: list[str]
    instead: str = ""


def find_age(
    kind: str, m: re.Match, birthdays: dict[str, date | None], owner: str, now: date, written: str = ""
) -> Age | None:
    """The age a match of `PATTERNS[kind]` names, or None where it is no one's age ("at 3" after a
    thing, "when they were little" with no one of the request's people); `birthdays` by lower-case
    name, None for someone whose birthday is unknown; `written`: the request as typed, which the note
    quotes."""
    who = _whose(m, birthdays, owner)
    if who is None:
        if kind == "born":  # "before the kids were born": no one of People, no day to go by
            said = " ".join((written or m.string)[m.start() : m.end()].split())
            return Age(m.start(), m.end(), [], [f"“{said}” was left out: no birthday is known for them"])
        return None
    name, birthday = who
    pronoun = re.sub(r"'s$", "", _group(m, "who").strip()) in (_OWNER_WORDS | _THIRD_PERSON)
    # a name is the people claims' ("when anna was 3": "was 3", "baby photos of anna": "baby"); a
    # pronoun before the age goes with it ("my twenties")
    start, end = m.start(), m.end()
    if kind == "stage_photos":
        start, end = m.span("at")
    elif _group(m, "at") and not pronoun:
        start = m.start("at")
    stage = _group(m, "stage")
    if birthday is None:
        if _group(m, "little"):  # "when she was little": her oldest photos first, as the sort words say
            return None
        said = "you" if name in _OWNER_WORDS or name == owner else name.title()
        instead = "birthday" if kind == "nth_birthday" else stage or ""
        return Age(start, end, [], [f"no birthday is known for {said}"], instead)
    span = _span(kind, m, birthday)
    if span is None:
        return None
    lo, hi = span
    ranges = [(lo, min(hi, max(lo, now)))] if lo <= now else [(lo, hi)]
    before = m.string[: m.start()].rstrip()
    who = _group(m, "who").lower()
    at_name = who.find(name.lower()) if who.endswith(("'s", "s'")) else -1  # "anna's" of "of anna's"
    begin = (
        len(before) - len(name)  # "anna at 3", not "at 3"
        if before.endswith(name)
        else m.start("who") + at_name
        if at_name >= 0
        else m.start()
    )
    phrase = " ".join((written or m.string)[begin : m.end()].split())  # as written, where given
    when = lo.isoformat() if lo == hi else f"{lo.isoformat()} to {hi.isoformat()}"
    if kind == "born":  # "before 2019-03-04, the birthday in People"
        side = "before" if lo == OPEN_START else "from"
        return Age(
            start,
            end,
            ranges,
            [f"“{phrase}” was read as {side} {birthday.isoformat()}, the birthday in People"],
        )
    return Age(start, end, ranges, [f"“{phrase}” was read as {when} (born {birthday.isoformat()})"])


def _group(m: re.Match, name: str) -> str:
    return (m.group(name) or "") if name in m.re.groupindex else ""


def _whose(m: re.Match, birthdays: dict[str, date | None], owner: str) -> tuple[str, date | None] | None:
    """Whose age a match names, with their birthday (None: not known), or None for no one."""
    text = m.string
    who = re.sub(r"'s$|s'$|'$", "", _group(m, "who").strip())
    if who and who not in birthdays:  # "summer i" of "the summer i turned 21": its last word
        who = who.split()[-1]
    if who in _OWNER_WORDS:
        return owner, birthdays.get(owner) or birthdays.get("me")
    named = [n for n in birthdays if n != "me" and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]
    if who in _THIRD_PERSON:
        return (named[0], birthdays[named[0]]) if len(named) == 1 else None
    if who:
        return (who, birthdays[who]) if who in birthdays else None
    before = text[: m.start()].rstrip()
    if re.search(r"(?<![\w-])(?:me|i|myself)$", before):
        return owner, birthdays.get(owner) or birthdays.get("me")
    for name in sorted(named, key=len, reverse=True):
        if before.endswith(name):
            return name, birthdays[name]
    return None


def _number(word: str) -> int | None:
    word = word.strip()
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)


def _span(kind: str, m: re.Match, birthday: date) -> tuple[date, date] | None:
    """The days of an age, from the person's birthday."""

    def months(a: int, b: int) -> tuple[date, date]:
        return birthday + relativedelta(months=a), birthday + relativedelta(months=b) - timedelta(days=1)

    if kind == "nth_birthday":
        raw = m.group("n") or m.group("bare")
        n = int(re.sub(r"\D", "", raw)) if raw[0].isdigit() else _ORDINALS[raw]
        day = birthday + relativedelta(years=n)
        return (day, day) if n > 0 else None
    if kind == "first_year":
        return months(0, 12)
    if kind == "born":
        side = m.group("side")
        return (OPEN_START, birthday - timedelta(days=1)) if side == "before" else (birthday, date.max)
    if kind == "decade":
        d = m.group("d").rstrip("s").rstrip("'")
        first = _DECADES[m.group("d")] if m.group("d") in _DECADES else int(d)
        lo, hi = (13, 19) if first == 10 else (first, first + 9)
        part = _group(m, "part")
        if part:
            lo, hi = {"early": (lo, lo + 3), "mid": (lo + 3, lo + 6), "late": (hi - 2, hi)}[part]
        return months(12 * lo, 12 * (hi + 1))
    stage = _group(m, "stage")
    if stage:
        return months(*STAGES[" ".join(stage.split())])
    if _group(m, "little"):
        return months(*STAGES["little kid"])
    n = _number(_group(m, "n"))
    if n is None or n > 120:
        return None
    if kind == "turned":
        year = birthday.year + n
        return date(year, 1, 1), date(year, 12, 31)
    return months(12 * n, 12 * (n + 1))
