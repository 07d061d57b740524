"""Write an evaluation run as JSON and as one self-contained HTML file (images inlined)."""

from __future__ import annotations

import base64
import io
import json
from html import escape
from pathlib import Path

from PIL import Image

from photosearch.evaluate import plots

THUMB_SIDE = 112
CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums}.plots img{max-width:100%;margin:6px}
.thumbs{display:flex;flex-wrap:wrap;gap:4px}.thumb{font-size:10px;width:116px;word-break:break-all}
.thumb img{display:block;border:3px solid #ccc;max-width:112px;max-height:112px}
.hit img{border-color:#2e8b57}.miss img{border-color:#c0392b}.fp img{border-color:#e69f00}
.err{color:#c0392b}.up{color:#2e8b57}.down{color:#c0392b}code{font-size:12px}
"""


def data_uri(png_or_jpeg: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(png_or_jpeg).decode('ascii')}"


class Thumbs:
    """Small JPEG data URIs of gallery photos, made once per path."""

    def __init__(self, gallery: Path):
        self.gallery = gallery
        self._cache: dict[str, str | None] = {}

    def uri(self, rel: str) -> str | None:
        if rel not in self._cache:
            p = Path(rel)
            p = p if p.is_absolute() else self.gallery / p
            try:
                with Image.open(p) as im:
                    im.draft("RGB", (THUMB_SIDE * 2, THUMB_SIDE * 2))
                    im = im.convert("RGB")
                    im.thumbnail((THUMB_SIDE, THUMB_SIDE))
                    buf = io.BytesIO()
                    im.save(buf, "JPEG", quality=75)
                self._cache[rel] = data_uri(buf.getvalue(), "image/jpeg")
            except Exception:  # a photo gone since the run: show its name only
                self._cache[rel] = None
        return self._cache[rel]


def fmt(v, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return escape(str(v))


def _plan_text(plan) -> str:
    if not isinstance(plan, dict):
        return "–"
    try:
        from photosearch.query.plan import plan_to_text, validate_plan

        return escape(plan_to_text(validate_plan({"version": 1, **plan} if "version" not in plan else plan)))
    except Exception:
        return escape(json.dumps(plan.get("where", plan), ensure_ascii=False))


def thumbs_html(paths: list[str], css: str, thumbs: Thumbs, grades: dict | None = None) -> str:
    cells = []
    for p in paths:
        uri = thumbs.uri(p)
        img = f'<img src="{uri}" alt="{escape(p)}">' if uri else ""
        grade = f" (g{fmt(grades[p], 0)})" if grades and p in grades else ""
        cells.append(f'<div class="thumb {css}" title="{escape(p)}">{img}{escape(p)}{grade}</div>')
    return f'<div class="thumbs">{"".join(cells)}</div>' if cells else "–"


def summary_table(summary: dict, ks: list[int]) -> str:
    keys = [f"{m}@{k}" for m in ("P", "R", "nDCG", "hit") for k in ks] + [
        "MRR",
        "mAP",
        "empty_result_rate",
        "above_cutoff_precision",
        "absent_fp_rate",
        "plan_exact_match",
        "atom_f1",
        "latency_ms_p50",
        "latency_ms_p95",
    ]
    head = "".join(f"<th>{escape(k)}</th>" for k in ["queries", *keys])
    vals = "".join(
        f'<td class="num">{fmt(summary.get(k), 1 if k.startswith("latency") else 3)}</td>' for k in keys
    )
    return (
        f'<table id="summary"><tr>{head}</tr><tr><td class="num">{summary["queries"]}</td>{vals}</tr></table>'
    )


def abstention_line(s: dict) -> str:
    """The two abstention figures in words: are confident results right, do absent things stay out."""
    parts = []
    if s.get("above_cutoff_precision") is not None:
        parts.append(
            f"above the cut-off, {s['above_cutoff_precision']:.3f} of the results are relevant "
            f"(over {s.get('above_cutoff_queries', 0)} queries that returned any)"
        )
    if s.get("absent_queries"):
        parts.append(
            f"{s['absent_fp_rate']:.3f} of the {s['absent_queries']} requests for things no photo shows "
            "got a result above the cut-off"
        )
    return "; ".join(parts)


def query_table(rows: list[dict], ks: list[int], thumbs: Thumbs) -> str:
    kp, kr = plots.headline_ks(ks)
    cols = [f"P@{kp}", f"R@{kr}", f"nDCG@{kr}", "MRR", "AP"]
    head = (
        "<tr><th>query</th><th>plan (got / expected)</th>"
        + "".join(f"<th>{c}</th>" for c in cols)
        + "<th>ms</th><th>hits</th><th>misses (relevant, not in top k)</th><th>false positives</th></tr>"
    )
    out = [f'<table id="queries">{head}']
    for r in rows:
        req = escape(r["request"] or "(plan only)")
        err = f'<div class="err">{escape(r["error"])}</div>' if r.get("error") else ""
        plan = _plan_text(r.get("plan"))
        if r.get("expected_plan") is not None:
            pl = r.get("planner", {})
            plan += f"<br>expected: {_plan_text(r['expected_plan'])}<br>exact: {fmt(pl.get('exact'))}, atom F1 {fmt(pl.get('atom_f1'))}"
        nums = "".join(f'<td class="num">{fmt(r["metrics"].get(c))}</td>' for c in cols)
        lat = r["latency_ms"]
        ms = fmt(sorted(lat)[len(lat) // 2], 1) if lat else "–"
        out.append(
            f'<tr class="query" data-id="{escape(r["id"])}"><td><b>{escape(r["id"])}</b><br>{req}{err}</td>'
            f'<td><code>{plan}</code></td>{nums}<td class="num">{ms}</td>'
            f"<td>{thumbs_html(r['hits'], 'hit', thumbs, r['relevant'])}</td>"
            f"<td>{thumbs_html(r['misses'], 'miss', thumbs, r['relevant'])}</td>"
            f"<td>{thumbs_html(r['false_positives'], 'fp', thumbs)}</td></tr>"
        )
    out.append("</table>")
    return "".join(out)


def run_plots(run: dict) -> dict[str, bytes]:
    rows, s = run["queries"], run["summary"]
    lat = [x for r in rows for x in r["latency_ms"]]
    return {
        "per_query_metrics": plots.per_query_bars(rows, run["k"]),
        "latency_histogram": plots.latency_histogram(lat, s["latency_ms_p50"], s["latency_ms_p95"]),
        "precision_recall": plots.pr_curves(rows),
    }


def _write_plots(out_dir: Path, figures: dict[str, bytes]) -> dict[str, str]:
    plot_dir = out_dir / "plots"
    plot_dir.mkdir(parents=True, exist_ok=True)
    for name, png in figures.items():
        (plot_dir / f"{name}.png").write_bytes(png)
    return {name: data_uri(png) for name, png in figures.items()}


def render_run_html(run: dict, figures: dict[str, str]) -> str:
    s = run["summary"]
    thumbs = Thumbs(Path(run["gallery"]))
    idx = run.get("index") or {}
    index_line = (
        "catalog reused"
        if idx.get("reused")
        else f"indexed {idx.get('photos', '?')} photos in {fmt(idx.get('elapsed_s'), 1)} s "
        f"({fmt(idx.get('photos_per_s'), 2)} photos/s; analyzers: {escape(', '.join(idx.get('analyzers', [])) or 'none')})"
    )
    not_named = (idx.get("people") or {}).get("not_named") or {}
    if not_named:  # the golden set names a face that was not found: its people queries cannot score
        index_line += " · <b>not named</b>: " + "; ".join(
            f"{escape(path)} ({escape(why)})" for path, why in not_named.items()
        )
    imgs = "".join(f'<img class="plot" id="plot-{n}" alt="{n}" src="{u}">' for n, u in figures.items())
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>PhotoSearch eval: {escape(run['name'])}</title>"
        f"<style>{CSS}</style></head><body>"
        f"<h1>PhotoSearch evaluation: {escape(run['name'])} — {escape(run['label'])}</h1>"
        f"<p>{escape(run['created_at'])} · gallery <code>{escape(run['gallery'])}</code> · search "
        f"<b>{escape(run['environment']['search'])}</b> on {escape(run['environment']['catalog'])} · {index_line} · "
        f"{s['queries']} queries ({s['failed_queries']} failed)</p>"
        f"<h2>Summary</h2>{summary_table(s, run['k'])}<p>{escape(abstention_line(s))}</p>"
        f"<h2>Plots</h2><div class='plots'>{imgs}</div>"
        f"<h2>Per query</h2><p>Green: relevant photos found in the top k; red: relevant photos missed; "
        f"orange: returned but not relevant. g = relevance grade.</p>{query_table(run['queries'], run['k'], thumbs)}"
        "</body></html>"
    )


def write_run(run: dict, out_dir: Path | str) -> dict[str, Path]:
    """OUT/eval.json, OUT/report.html, OUT/plots/*.png."""
    out = Path(out_dir).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "eval.json"
    json_path.write_text(json.dumps(run, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    figures = _write_plots(out, run_plots(run))
    html_path = out / "report.html"
    html_path.write_text(render_run_html(run, figures), encoding="utf-8")
    return {"json": json_path, "html": html_path, "plots": out / "plots"}


def load_run(path: Path | str) -> dict:
    """Read a run written by `write_run` (the JSON file, or the folder holding eval.json)."""
    from photosearch.errors import PhotoSearchError
    from photosearch.evaluate.runner import RUN_FORMAT

    p = Path(path).expanduser()
    if p.is_dir():
        p = p / "eval.json"
    try:
        run = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PhotoSearchError(f"cannot read evaluation run {p}: {exc}") from None
    if not isinstance(run, dict) or run.get("format") != RUN_FORMAT:
        raise PhotoSearchError(f"{p} is not a PhotoSearch evaluation run (format {RUN_FORMAT})")
    return run
