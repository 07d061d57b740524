"""Re-embed a photo's facts after they change (analysis, learned knowledge, user tags)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from photosearch.catalog.models import Fact
from photosearch.catalog.store import Store
from photosearch.vision.analyzer import FactsAnalyzer


def refresh_facts_text(store: Store, s: Session, photo_ids: Sequence[int], analyzer: FactsAnalyzer) -> int:
    """Run a facts analyzer over the photos' current facts (every writer's: analyzers, user, enrichment).

    Must run inside the caller's session so it sees facts written but not yet committed.
    Returns how many photos were re-embedded.
    """
    ids = sorted(set(photo_ids))
    if not ids:
        return 0
    s.flush()
    facts: dict[int, list[Fact]] = defaultdict(list)
    for fact in s.scalars(select(Fact).where(Fact.photo_id.in_(ids))):
        facts[fact.photo_id].append(fact)
    results = analyzer.analyze_facts_batch([facts[pid] for pid in ids])
    for pid, result in zip(ids, results, strict=True):
        store.write_analysis(s, pid, analyzer.name, analyzer.version, result)
    return len(ids)
