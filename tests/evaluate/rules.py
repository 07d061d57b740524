"""What the sets' tests share: a set's judgement rule applied to a photo described by words, and the
golden file a set wrote, read back: its queries and their relevant photos' names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import yaml

from photosearch.evaluate.heldout import Photo


def judged(queries, request: str, text: str, source: str = "test") -> bool:
    """Whether the rule `queries` (a set's QUERIES) give `request` takes a photo with this text
    (its source's words) from `source`."""
    rule = next(r for q, r, _ in queries if q == request)
    return rule(Photo("pictures/x.jpg", text, source, "test"))


def golden_queries(part_dir: Path) -> dict[str, dict]:
    """The queries of the golden file a set wrote into `part_dir` (its `test` or `dev` folder), by
    id, as the YAML has them: read, not checked, so a test sees what was written."""
    gold = yaml.safe_load((part_dir / "golden.yaml").read_text(encoding="utf-8"))
    return {q["id"]: q for q in gold["queries"]}


def relevant_stems(relevant: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Each query's relevant photos by name, without folder or extension, sorted; from the relevant
    paths by query id (the YAML's lists, or a loaded query's path -> grade mapping)."""
    return {qid: sorted(Path(r).stem for r in paths) for qid, paths in relevant.items()}
