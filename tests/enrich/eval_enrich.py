"""Evaluate the web Chain of Search on the shipped test web (tests/enrich/evalweb/corpus.json).

    PYTHONPATH=. python -m tests.enrich.eval_enrich [--modes pages,snippets] [--llm none,bundled] [--json OUT]

For each mode (pages reachable / snippets only) and LLM setting it builds a fresh catalog of the
corpus photos (generated ones with product names, real ones from scikit-image / scikit-learn),
runs `enrich` against the loopback SearxNG-style engine (reachable only with
`allow_private_addresses`, as for an intranet), scores the learned searches (`search` top 3 holds
the photo: hit@3) and asks each photo's question (correct: the answer holds an expected fact and
cites no spam or homonym page). Printed: the scores, seconds per photo and per stage, queries,
fetches, snippets used, evidence filtered, LLM calls and how many outputs were accepted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from photosearch.catalog import Store
from photosearch.catalog.models import Face, Person
from photosearch.config import Settings
from photosearch.records import FactRecord
from tests.enrich.evalweb.web import MODES, EvalWeb, load_corpus
from tests.enrich.helpers import add_photo, put_facts


# ---- the photos -------------------------------------------------------------------------------
def _image(spec: dict) -> np.ndarray:
    src = spec.get("image")
    if src and src.startswith("skimage:"):
        import skimage.data

        return np.asarray(getattr(skimage.data, src.split(":", 1)[1])())[..., :3]
    if src and src.startswith("sklearn:"):
        from sklearn.datasets import load_sample_image

        return load_sample_image(src.split(":", 1)[1])
    img = Image.new("RGB", (640, 400), (245, 245, 240))
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=64)
    except TypeError:
        font = ImageFont.load_default()
    d.rounded_rectangle([30, 60, 610, 380], 30, fill=tuple(spec.get("color", [90, 90, 90])))
    d.rectangle([64, 120, 512, 200], fill=(250, 250, 250))
    d.text((80, 125), spec["text"], fill=(10, 10, 10), font=font)
    return np.asarray(img)


def build_library(store: Store, corpus: dict, folder: Path) -> dict[str, int]:
    """The corpus photos in the catalog with their analyzer facts (and named faces); key -> photo id."""
    ids: dict[str, int] = {}
    for spec in corpus["photos"]:
        path = folder / f"{spec['key']}.jpg"
        Image.fromarray(_image(spec)).save(path, quality=90)
        pid = ids[spec["key"]] = add_photo(store, path)
        by: dict[str, list[FactRecord]] = {}
        for f in spec["facts"]:
            analyzer = {"object": "detector", "tag": "tagger", "text": "ocr"}[f["kind"]]
            by.setdefault(analyzer, []).append(
                FactRecord(f["kind"], f["label"], f["score"], f.get("box"), f.get("data", {}))
            )
        for analyzer, facts in by.items():
            put_facts(store, pid, analyzer, facts)
        if spec.get("person"):
            with store.session() as s:
                person = Person(name=spec["person"])
                s.add(person)
                s.flush()
                s.add(
                    Face(
                        photo_id=pid, analyzer="faces", box=spec["face_box"], score=0.99, person_id=person.id
                    )
                )
    return ids


# ---- one run ----------------------------------------------------------------------------------
def _settings(root: Path, web: EvalWeb) -> Settings:
    s = Settings(data_dir=root / "data")
    s.web_enabled = True
    s.search_url = web.base
    s.allow_private_addresses = True  # the loopback engine is an "intranet": reachable only this way
    s.ensure_dirs()
    return s


def _hit3(store, settings, query: str, pid: int, embedder) -> bool:
    from photosearch.query.search import search

    out = search(store, settings, query, limit=3, text_embedder=embedder)
    return pid in [r["id"] for r in out["results"][:3]]


def _correct(answer: dict, expect: list[str], bad: set[str]) -> bool:
    """The answer holds an expected fact, cites no spam or homonym page and repeats no fragment."""
    from photosearch.enrich.answering import repeats

    text = answer["answer"].lower()
    cited_bad = any(s["cited"] and s["url"] in bad for s in answer["sources"])
    return any(e.lower() in text for e in expect) and not cited_bad and not repeats(text)


def run(mode: str, use_llm: bool, corpus: dict, *, log=print) -> dict:
    """One evaluation: enrich every candidate, score learned searches, ask every question."""
    from photosearch.enrich.assistant import Assistant
    from photosearch.enrich.backends import make_backend
    from photosearch.enrich.fetch import Fetcher
    from photosearch.enrich.knowledge import enrich
    from photosearch.enrich.stats import Meter
    from photosearch.enrich.textutil import get_embedder
    from photosearch.models.llm import get_llm

    web = EvalWeb(corpus, mode)
    with tempfile.TemporaryDirectory(prefix="ps-eval-enrich-") as tmp:
        root = Path(tmp)
        settings = _settings(root, web)
        store = Store(settings.database_url)
        (root / "photos").mkdir()
        ids = build_library(store, corpus, root / "photos")
        embedder = get_embedder(settings)
        llm = None
        if use_llm:
            models = Settings(data_dir=Path.home() / ".cache" / "photosearch-test-models")
            models.ensure_dirs()
            llm = get_llm(models)
            if llm is None:
                raise SystemExit("the bundled LLM (llama-cpp-python + gemma3-270m GGUF) is not installed")
        fetcher = Fetcher.from_settings(settings)
        backend = make_backend(settings, "searxng", fetcher=fetcher)
        assistant = Assistant(store, backend, llm=llm, embedder=embedder, fetcher=fetcher)

        t0 = time.monotonic()
        report = enrich(store, assistant, embedder=embedder, settings=settings)
        enrich_s = time.monotonic() - t0
        learned = {item["photo_id"] for item in report.learned}
        searches = [(spec["key"], q) for spec in corpus["photos"] for q in spec.get("learned_searches", [])]
        hits = {f"{key}: {q}": _hit3(store, settings, q, ids[key], embedder) for key, q in searches}

        asks, ask_meter = {}, Meter()
        bad = web.bad_urls()
        for spec in corpus["photos"]:
            if not spec.get("question"):
                continue
            meter = Meter()
            t1 = time.monotonic()
            res = assistant.ask(ids[spec["key"]], spec["question"], meter=meter)
            data = res.to_json()
            ask_meter.add(meter)
            asks[spec["key"]] = {
                "question": spec["question"],
                "answer": data["answer"],
                "correct": _correct(data, spec["expect"], bad),
                "method": data["answer_method"],
                "seconds": round(time.monotonic() - t1, 2),
                "stage_seconds": data["stats"]["stage_seconds"],
            }
        store.close()
    web.close()
    n_enriched = max(1, len(report.photos))
    return {
        "mode": mode,
        "llm": getattr(llm, "name", None),
        "enrich": {
            "candidates": report.candidates,
            "learned_photos": len(learned),
            "seconds": round(enrich_s, 2),
            "seconds_per_photo": round(enrich_s / n_enriched, 2),
            "photos": report.photos,
            "totals": report.totals,
        },
        "hit_at_3": {"score": sum(hits.values()), "of": len(hits), "searches": hits},
        "answers": {
            "correct": sum(a["correct"] for a in asks.values()),
            "of": len(asks),
            "asks": asks,
            "seconds_per_question": round(sum(a["seconds"] for a in asks.values()) / max(1, len(asks)), 2),
            "totals": ask_meter.to_json(),
        },
    }


# ---- printing ---------------------------------------------------------------------------------
def _stages(t: dict) -> str:
    roles = ", ".join(f"{r} {d['accepted']}/{d['calls']}" for r, d in sorted(t.get("llm_roles", {}).items()))
    return (
        f"queries {t['queries']} ({t['query_seconds']:.1f}s), fetches {t['fetches']} "
        f"({t['fetch_failures']} failed, {t['fetch_seconds']:.1f}s), snippets used {t['snippets']}, "
        f"evidence filtered {t['filtered']}, LLM calls {t['llm_calls']} ({t['llm_seconds']:.1f}s, "
        f"accepted {t['llm_accepted']}, skipped {t['llm_skipped']})" + (f" [{roles}]" if roles else "")
    )


def summary(r: dict) -> str:
    e, h, a = r["enrich"], r["hit_at_3"], r["answers"]
    stage_sum: dict[str, float] = {}
    for p in e["photos"]:
        for k, v in p["stage_seconds"].items():
            stage_sum[k] = stage_sum.get(k, 0.0) + v
    per_stage = ", ".join(f"{k} {v / max(1, len(e['photos'])):.1f}s" for k, v in stage_sum.items())
    lines = [
        f"== mode {r['mode']}, LLM {r['llm'] or 'none'}",
        f"learned-search hit@3: {h['score']}/{h['of']}   answers correct: {a['correct']}/{a['of']}",
        f"enrich: {e['candidates']} photos, {e['learned_photos']} learned, {e['seconds']:.1f}s "
        f"({e['seconds_per_photo']:.1f}s per photo; per stage per photo: {per_stage})",
        "  " + _stages(e["totals"]),
        f"ask: {a['seconds_per_question']:.1f}s per question",
        "  " + _stages(a["totals"]),
    ]
    for key, ok in h["searches"].items():
        lines.append(f"  search {'HIT ' if ok else 'MISS'} {key}")
    for key, x in a["asks"].items():
        lines.append(
            f"  ask {'OK  ' if x['correct'] else 'FAIL'} {key}: {x['question']} -> {x['answer'][:160]}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.enrich.eval_enrich", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("--modes", default=",".join(MODES), help="pages,snippets (default both)")
    ap.add_argument("--llm", default="none,bundled", help="none,bundled (default both)")
    ap.add_argument("--json", help="write all figures to this file")
    args = ap.parse_args(argv)
    corpus = load_corpus()
    results = []
    for use in [x.strip() for x in args.llm.split(",") if x.strip()]:
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            r = run(mode, use == "bundled", corpus)
            results.append(r)
            print(summary(r), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
