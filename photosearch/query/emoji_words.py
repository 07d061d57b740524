"""Emoji in a request are the words they stand for: "🐶 on the beach" is a dog on the beach, "🎂"
a birthday cake, "❤️ photos" the favourites. Their names are the Unicode CLDR short names (the
`emoji` package); a face that shows a mood ("😀 grinning face") names nothing a photo is searched by
and is left out, an animal's face is the animal ("🐶 dog face": dog)."""

from __future__ import annotations

import re

import emoji


def emoji_as_words(text: str) -> str:
    """The request with each emoji replaced by the words it stands for, each a thing of its own (a
    comma apart), or by nothing: a mood, or what the request says in words already ("dogs 🐕")."""
    if not emoji.emoji_count(text):
        return text
    said = set(emoji.replace_emoji(text, replace=" ").lower().split())

    def replace(_chars: str, data: dict) -> str:
        words = _words(data["en"])
        if not words or words in said or f"{words}s" in said:
            return " "
        said.add(words)
        return f", {words}, "

    out = " ".join(emoji.replace_emoji(text, replace=replace).split())
    return re.sub(r"^[,\s]+|[,\s]+$", "", re.sub(r"(?:\s*,\s*)+", ", ", out))


def _words(name: str) -> str:
    """ ":dog_face:" -> "dog", ":grinning_face:" -> "", ":red_heart:" -> "favourites"."""
    words = name.strip(":").replace("_", " ").replace("-", " ").lower().split()
    if words[-1:] == ["heart"]:  # "red heart", "sparkling heart": a photo one loves
        return "favourites"
    if words[:1] == ["family"]:  # "family man woman girl": a family
        return "family"
    if "with" in words[1:]:  # "beach with umbrella": the beach
        words = words[: words.index("with")]
    if "face" in words:
        before = words[: words.index("face")]
        return " ".join(before) if before and _an_animal(before[-1]) else ""
    return " ".join(words)


def _an_animal(word: str) -> bool:
    from photosearch.query.expansion import ANIMAL, first_lexfile

    return first_lexfile(word) == ANIMAL
