"""The request parser's claim passes, one module per kind of thing claimed: cues (quotes, syntax,
similar, folders, cameras), compose words, filters (text, tags, kinds, quality, face counts),
entities (people, dates, places) and words (negation, connectives, content words).

Each pass takes the `ClaimState` and claims the free spans it recognises; `query.parser` runs
them in order, so an earlier pass wins a span.
"""
