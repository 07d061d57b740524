"""Two evaluation runs side by side (A = before/baseline, B = after/candidate) with deltas."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from photosearch.evaluate import plots
from photosearch.evaluate.report import CSS, Thumbs, data_uri, fmt, thumbs_html

LOWER_IS_BETTER = ("latency_ms_p50", "latency_ms_p95", "latency_ms_max", "failed_queries")


def _delta(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return b - a
    return None


def compare_runs(a: dict, b: dict) -> dict:
    """Summary and per-query deltas (B − A); queries matched by id."""
    keys = [k for k in a["summary"] if k in b["summary"] and k != "queries"]
    summary = {
        k: {"a": a["summary"][k], "b": b["summary"][k], "delta": _delta(a["summary"][k], b["summary"][k])}
        for k in keys
    }
    qa = {q["id"]: q for q in a["queries"]}
    qb = {q["id"]: q for q in b["queries"]}
    ids = [q["id"] for q in a["queries"] if q["id"] in qb]
    per_query = []
    for qid in ids:
        ma, mb = qa[qid]["metrics"], qb[qid]["metrics"]
        metrics = {m: {"a": ma[m], "b": mb[m], "delta": mb[m] - ma[m]} for m in ma if m in mb}
        per_query.append(
            {
                "id": qid,
                "request": qb[qid].get("request"),
                "metrics": metrics,
                "newly_found": [p for p in qb[qid]["hits"] if p not in qa[qid]["hits"]],
                "newly_missed": [p for p in qa[qid]["hits"] if p not in qb[qid]["hits"]],
                "plan_a": qa[qid].get("plan"),
                "plan_b": qb[qid].get("plan"),
            }
        )
    return {
        "format": "photosearch-eval-compare/1",
        "a": {"label": a["label"], "created_at": a["created_at"], "golden": a.get("golden")},
        "b": {"label": b["label"], "created_at": b["created_at"], "golden": b.get("golden")},
        "same_golden_set": a.get("name") == b.get("name"),
        "summary": summary,
        "queries": per_query,
        "only_in_a": [q for q in qa if q not in qb],
        "only_in_b": [q for q in qb if q not in qa],
        "k": b["k"],
    }


def _delta_cell(key: str, d) -> str:
    if d is None:
        return "<td>–</td>"
    better = d < 0 if key in LOWER_IS_BETTER else d > 0
    css = "up" if better and d else ("down" if d else "")
    return f'<td class="num {css}">{d:+.3f}</td>'


def render_compare_html(cmp: dict, figures: dict[str, str], gallery: Path) -> str:
    la, lb = escape(cmp["a"]["label"]), escape(cmp["b"]["label"])
    rows = "".join(
        f"<tr><td>{escape(k)}</td><td class='num'>{fmt(v['a'])}</td><td class='num'>{fmt(v['b'])}</td>"
        f"{_delta_cell(k, v['delta'])}</tr>"
        for k, v in cmp["summary"].items()
    )
    kp, kr = plots.headline_ks(cmp["k"])
    cols = [f"P@{kp}", f"R@{kr}", f"nDCG@{kr}", "AP"]
    thumbs = Thumbs(gallery)
    qrows = []
    for q in cmp["queries"]:
        cells = "".join(
            f"<td class='num'>{fmt(q['metrics'][c]['a'])} → {fmt(q['metrics'][c]['b'])}</td>{_delta_cell(c, q['metrics'][c]['delta'])}"
            for c in cols
            if c in q["metrics"]
        )
        qrows.append(
            f"<tr class='query' data-id='{escape(q['id'])}'><td><b>{escape(q['id'])}</b><br>"
            f"{escape(q['request'] or '(plan only)')}</td>{cells}"
            f"<td>{thumbs_html(q['newly_found'], 'hit', thumbs)}</td>"
            f"<td>{thumbs_html(q['newly_missed'], 'miss', thumbs)}</td></tr>"
        )
    head = "".join(f"<th>{c} (A → B)</th><th>Δ</th>" for c in cols)
    imgs = "".join(f'<img class="plot" id="plot-{n}" alt="{n}" src="{u}">' for n, u in figures.items())
    warn = "" if cmp["same_golden_set"] else "<p class='err'>The runs used different golden sets.</p>"
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>PhotoSearch eval comparison</title>"
        f"<style>{CSS}</style></head><body><h1>Comparison: A = {la} vs B = {lb}</h1>{warn}"
        f"<p>A: {escape(cmp['a']['created_at'])} · B: {escape(cmp['b']['created_at'])}</p>"
        f"<h2>Summary</h2><table id='compare-summary'><tr><th>metric</th><th>A</th><th>B</th><th>Δ (B − A)</th></tr>"
        f"{rows}</table><h2>Plots</h2><div class='plots'>{imgs}</div>"
        f"<h2>Per query</h2><table id='compare-queries'><tr><th>query</th>{head}<th>newly found by B</th>"
        f"<th>lost by B</th></tr>{''.join(qrows)}</table></body></html>"
    )


def write_comparison(a: dict, b: dict, out_dir: Path | str) -> dict[str, Path]:
    """OUT/compare.json, OUT/compare.html (self-contained), OUT/plots/compare_*.png."""
    out = Path(out_dir).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    cmp = compare_runs(a, b)
    kp, kr = plots.headline_ks(cmp["k"])
    names = [f"P@{kp}", f"R@{kr}", f"nDCG@{kr}", "MRR", "mAP", "plan_exact_match", "atom_f1"]
    names = [n for n in names if n in cmp["summary"]]
    figures = {
        "compare_summary": plots.compare_summary(
            {n: cmp["summary"][n]["a"] for n in names},
            {n: cmp["summary"][n]["b"] for n in names},
            names,
            (cmp["a"]["label"], cmp["b"]["label"]),
        ),
        "compare_deltas": plots.compare_deltas(
            [q["id"] for q in cmp["queries"]],
            [q["metrics"].get(f"nDCG@{kr}", {}).get("delta", 0.0) for q in cmp["queries"]],
            f"nDCG@{kr}",
        ),
    }
    plot_dir = out / "plots"
    plot_dir.mkdir(parents=True, exist_ok=True)
    for name, png in figures.items():
        (plot_dir / f"{name}.png").write_bytes(png)
    json_path = out / "compare.json"
    json_path.write_text(json.dumps(cmp, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    html_path = out / "compare.html"
    html_path.write_text(
        render_compare_html(cmp, {n: data_uri(p) for n, p in figures.items()}, Path(b["gallery"])),
        encoding="utf-8",
    )
    return {"json": json_path, "html": html_path}
