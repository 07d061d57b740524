"""Near-duplicates over the whole catalog: image-embedding neighbours and perceptual hashes.

A pair is a near-duplicate when its image cosine is at least `dup_cosine`, or its phash Hamming
distance at most `dup_hamming` (found exactly by pigeonhole bucketing on five 13-bit chunks), or
both are moderately close. `photosearch duplicates` lists the groups; the similar atom's "*"
(`plan.ANY_SIMILAR`: "duplicates", "near-duplicate photos") finds every photo in one, group by group.
"""

from __future__ import annotations

import numpy as np

from photosearch.query.composer import ComposeOptions, hamming
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.similar import IMAGE_SPACE
from photosearch.query.resolvers.snapshot import Snapshot


def duplicate_groups(ctx: ExecContext, opts: ComposeOptions, neighbours_k: int = 10) -> list[dict]:
    """Groups of two or more near-duplicate photos, largest first, each with up to five reasons."""
    snap = ctx.snapshot
    links = _DuplicateLinks(snap.n)
    index = ctx.index(IMAGE_SPACE)
    if index is not None and len(index) > 1:
        _link_by_embedding(links, index, snap, opts, neighbours_k)
    _link_by_phash(links, snap, opts)
    return links.groups(snap)


#: Scores of the photos of near-duplicate groups: the first group's, down to the last's (`resolve_any_duplicate`).
FIRST_GROUP, LAST_GROUP = 1.0, 0.5


def resolve_any_duplicate(atom: dict, ctx: ExecContext) -> AtomResult:
    """Every photo that has a near-duplicate, the largest group first and each group's photos side by
    side (a group's photos share a score), each saying which photos it is a near-duplicate of."""
    snap = ctx.snapshot
    key = ("duplicate_groups",)
    if key not in snap.cache:
        snap.cache[key] = duplicate_groups(ctx, ComposeOptions())
    groups = snap.cache[key]
    rows, scores, others = [], [], {}
    for rank, group in enumerate(groups):
        score = FIRST_GROUP - (FIRST_GROUP - LAST_GROUP) * rank / max(len(groups), 1)
        members = snap.rows_of(np.asarray([p["id"] for p in group["photos"]], np.int64))
        names = [p["path"].rsplit("/", 1)[-1] for p in group["photos"]]
        for row, name in zip(members.tolist(), names, strict=True):
            rows.append(row)
            scores.append(score)
            others[row] = [n for n in names if n != name]
    order = np.argsort(np.asarray(rows, np.int64), kind="stable")
    result = ScoredSet(np.asarray(rows, np.int32)[order], np.asarray(scores, np.float32)[order], graded=True)

    def explain(row: int) -> list[dict]:
        names = others.get(row, [])
        said = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        return [{"atom": "similar", "to": "*", "text": f"a near-duplicate of {said}"}]

    return AtomResult(atom, result, explain, {"groups": len(groups)})


def _chunks(h: np.ndarray, parts: int = 5) -> list[np.ndarray]:
    bits = [13, 13, 13, 13, 12][:parts]
    out, shift = [], 0
    for b in bits:
        out.append((h >> np.uint64(shift)) & np.uint64((1 << b) - 1))
        shift += b
    return out


class _DuplicateLinks:
    """Union-find over snapshot rows, with the reason each pair was linked."""

    def __init__(self, n: int):
        self.parent = list(range(n))
        self.reason: dict[tuple[int, int], str] = {}

    def find(self, a: int) -> int:
        parent = self.parent
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def link(self, a: int, b: int, why: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
        self.reason[(min(a, b), max(a, b))] = why

    def groups(self, snap: Snapshot) -> list[dict]:
        """Groups of two or more photos, largest first, each with up to five reasons."""
        members: dict[int, set[int]] = {}
        for pair in self.reason:
            for r in pair:
                members.setdefault(self.find(r), set()).add(r)
        groups = []
        for root, rs in members.items():
            if len(rs) < 2:
                continue
            why = sorted({w for (a, _b), w in self.reason.items() if self.find(a) == root})
            groups.append(
                {
                    "photos": [{"id": int(snap.ids[r]), "path": snap.paths[r]} for r in sorted(rs)],
                    "why": why[:5],
                }
            )
        groups.sort(key=lambda g: (-len(g["photos"]), g["photos"][0]["id"]))
        return groups


def _link_by_embedding(
    links: _DuplicateLinks, index, snap: Snapshot, opts: ComposeOptions, neighbours_k: int
) -> None:
    """Link each photo to its image-embedding neighbours that are close enough (cosine, or cosine + phash)."""
    keys = index.keys()
    keys = keys[np.isin(keys, snap.ids)]
    vecs = index.get_many(keys)
    k = min(neighbours_k + 1, len(index))
    for start in range(0, keys.size, 2048):
        m = index.index.search(vecs[start : start + 2048], k)
        nk, nd = np.atleast_2d(np.asarray(m.keys)), np.atleast_2d(np.asarray(m.distances))
        for qi in range(nk.shape[0]):
            a = int(snap.rows_of([keys[start + qi]])[0])
            for key, dist in zip(nk[qi].tolist(), nd[qi].tolist(), strict=True):
                cos = 1.0 - dist
                if key == keys[start + qi] or cos < opts.both_cosine:
                    continue
                rb = snap.rows_of([key])
                if rb.size:
                    _link_pair(links, snap, opts, a, int(rb[0]), cos)


def _link_pair(
    links: _DuplicateLinks, snap: Snapshot, opts: ComposeOptions, a: int, b: int, cos: float
) -> None:
    if cos >= opts.dup_cosine:
        links.link(a, b, f"image cosine {cos:.3f}")
    elif snap.has_phash[a] and snap.has_phash[b]:
        ham = int(hamming(snap.phash[a : a + 1], snap.phash[b : b + 1])[0])
        if ham <= opts.both_hamming:
            links.link(a, b, f"image cosine {cos:.3f} + phash distance {ham}")


def _link_by_phash(links: _DuplicateLinks, snap: Snapshot, opts: ComposeOptions) -> None:
    """Link photos whose perceptual hashes are within dup_hamming (exact, by bucketing on chunks)."""
    rows = np.flatnonzero(snap.has_phash)
    if rows.size < 2:
        return
    hashes = snap.phash[rows]
    for chunk in _chunks(hashes):
        order = np.argsort(chunk, kind="stable")
        bounds = np.flatnonzero(np.diff(chunk[order])) + 1
        for grp in np.split(order, bounds):
            if grp.size < 2 or grp.size > 500:
                continue
            h = hashes[grp]
            d = hamming(h[:, None], h[None, :])
            ii, jj = np.nonzero(np.triu(d <= opts.dup_hamming, 1))
            for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
                links.link(int(rows[grp[i]]), int(rows[grp[j]]), f"phash distance {int(d[i, j])}")
