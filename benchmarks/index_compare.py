"""Indexing before and after a change, in one run, on the same photos: camera-sized photos or a gallery.

    python -m benchmarks.suite index --megapixels 12,48 [--count 60] [--before REF]
    python -m benchmarks.suite index --gallery DIR --before [REF]

Each run is `photosearch index` (bundled analyzers, gates, post steps) into a new catalog, in a process
of its own (`benchmarks/index_run.py`), so CPU seconds and peak RSS are that run's. "before" is the
app as it was at REF (default: `BEFORE_REF`, the pipeline before issue 25), unpacked from git into a
temp dir; "after" is this checkout. Photos/s is photos over the run's wall time (`report.elapsed_s`);
CPU-s per photo (user + system, every thread) is less sensitive to other jobs on a shared machine than
wall time, so it is printed beside it, with the load average at the start and end of each run.

Recall: faces, text lines (OCR), tags (the tagger's own labels) and objects found per photo, before
beside after, with what one found that the other did not.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from benchmarks.stats import stage_rows

ROOT = Path(__file__).resolve().parents[1]
#: The indexing pipeline before issue 25 (one decode size for every model, threads as they were).
BEFORE_REF = "4c5f1532b0e46584f4d9f61cd1220e513929c25c"
RUNNER = ROOT / "benchmarks" / "index_run.py"
#: Where the camera-like sets are kept (deterministic, so a second run reuses them).
CAMERA_SETS = Path(tempfile.gettempdir()) / "ps-camera-sets"
FINDINGS = ("faces", "text", "tags", "objects")


def unpack(ref: str, dest: Path) -> Path:
    """The app's code, manifests and resources at git REF, under `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    archive = dest / "tree.tar"
    with open(archive, "wb") as fh:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "photosearch", "models", "resources"],
            stdout=fh,
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    return dest


def _env(tree: Path, pycache: Path) -> dict[str, str]:
    """Import the app from `tree`, with bytecode cached (as an installed app has it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(tree), "PYTHONPYCACHEPREFIX": str(pycache)}


def compile_tree(tree: Path, pycache: Path) -> None:
    """Byte-compile the app once, so neither run pays for compiling its modules."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(tree / "photosearch")],
        env=_env(tree, pycache),
        check=True,
        capture_output=True,
    )


def run_index(tree: Path, photos: Path, work: Path, pycache: Path) -> dict:
    """One indexing run of `photos` by the app in `tree`, in a new process and a new catalog."""
    work.mkdir(parents=True, exist_ok=True)
    out = work / "result.json"
    env = _env(tree, pycache)
    proc = subprocess.run(
        [sys.executable, str(RUNNER), str(photos), str(work / "data"), str(out)],
        env=env,
        cwd=work,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"index run in {tree} failed:\n{proc.stderr[-4000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


def recall(before: dict, after: dict) -> dict:
    """Totals of each finding before and after, and how many one run found on a photo that the other
    did not (faces: by count per photo; text, tags, objects: by label per photo)."""
    out = {}
    for key in FINDINGS:
        total_b = total_a = lost = gained = 0
        for name in sorted(set(before) | set(after)):
            b = before.get(name, {}).get(key, 0 if key == "faces" else [])
            a = after.get(name, {}).get(key, 0 if key == "faces" else [])
            if key == "faces":
                total_b, total_a = total_b + b, total_a + a
                lost, gained = lost + max(0, b - a), gained + max(0, a - b)
            else:
                total_b, total_a = total_b + len(b), total_a + len(a)
                lost += len(_multiset_minus(b, a))
                gained += len(_multiset_minus(a, b))
        out[key] = {"before": total_b, "after": total_a, "only_before": lost, "only_after": gained}
    return out


def _multiset_minus(a: list, b: list) -> list:
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def compare(photos: Path, before_tree: Path, work: Path, label: str, pycache: Path, rounds: int = 1) -> dict:
    """Index `photos` with the app before and after (this checkout), `rounds` times each.

    The order alternates (before, after, after, before, ...), so neither side always starts in the load
    the other left behind. Each figure is the median over a side's runs; `runs` keeps every run."""
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    trees = {"before": before_tree, "after": ROOT}
    for i in range(rounds):
        for name in ("before", "after") if i % 2 == 0 else ("after", "before"):
            print(f"  {label}: indexing with the app {name} ({trees[name]}) …", flush=True)
            runs[name].append(run_index(trees[name], photos, work / label / f"{name}{i}", pycache))
    first_b, first_a = runs["before"][0], runs["after"][0]
    return {
        "label": label,
        "photos_dir": str(photos),
        "before": median_run([_strip(r) for r in runs["before"]]),
        "after": median_run([_strip(r) for r in runs["after"]]),
        "runs": {name: [_strip(r) for r in side] for name, side in runs.items()},
        "recall": recall(first_b["found"], first_a["found"]),
        "only_before_examples": _examples(first_b["found"], first_a["found"]),
        "only_after_examples": _examples(first_a["found"], first_b["found"]),
    }


def median_run(runs: list[dict]) -> dict:
    """One run's figures, each the median over `runs` (numbers and per-stage ms); the rest from the first."""
    out = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            mid = statistics.median(r[key] for r in runs)
            out[key] = int(mid) if isinstance(value, int) and mid == int(mid) else round(mid, 3)
    stages = {k for r in runs for k in r.get("stage_ms_per_photo", {})}
    out["stage_ms_per_photo"] = {
        k: statistics.median(r.get("stage_ms_per_photo", {}).get(k, 0.0) for r in runs) for k in stages
    }
    return out


def warm_up(photos: Path, before_tree: Path, work: Path, pycache: Path) -> None:
    """Index one photo with each app first, so neither measured run builds the caches they share or
    keep per source tree (the place index, the golden library, WordNet's index) inside its figures."""
    one = work / "photo"
    one.mkdir(parents=True, exist_ok=True)
    first = min(p for p in photos.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg"))
    (one / first.name).write_bytes(first.read_bytes())
    for name, tree in (("before", before_tree), ("after", ROOT)):
        run_index(tree, one, work / name, pycache)


def _strip(run: dict) -> dict:
    return {k: v for k, v in run.items() if k != "found"}


def _examples(a: dict, b: dict, n: int = 8) -> list[str]:
    """Up to n findings of `a` that `b` lacks, as 'photo: kind label'."""
    out = []
    for name in sorted(a):
        for key in ("text", "tags", "objects"):
            out += [
                f"{name}: {key} {x!r}" for x in _multiset_minus(a[name][key], b.get(name, {}).get(key, []))
            ]
        diff = a[name]["faces"] - b.get(name, {}).get("faces", 0)
        if diff > 0:
            out.append(f"{name}: {diff} face(s)")
    return out[:n]


def print_comparison(result: dict) -> None:
    b, a = result["before"], result["after"]
    rounds = len(result["runs"]["before"])
    print(f"  {result['label']}: {a['photos']} photos ({result['photos_dir']})")
    print(
        f"  {'':30}{'before':>12}{'after':>12}" + (f"   (median of {rounds} runs each)" if rounds > 1 else "")
    )
    rows = [
        ("photos/s (photos / wall)", "photos_per_s"),
        ("wall s", "elapsed_s"),
        ("CPU-s per photo", "cpu_s_per_photo"),
        ("peak RSS MiB", "peak_rss_mib"),
        ("load average at start", "load_before"),
        ("load average at end", "load_after"),
    ]
    for text, key in rows:
        print(f"  {text:<30}{b[key]:>12}{a[key]:>12}")
    for k, sb, sa in stage_rows(b["stage_ms_per_photo"], a["stage_ms_per_photo"]):
        print(f"  {k + ' ms/photo':<30}{sb:>12.2f}{sa:>12.2f}")
    if len(result["runs"]["before"]) > 1:
        for key in ("cpu_s_per_photo", "photos_per_s"):
            each = {name: ", ".join(f"{r[key]:g}" for r in side) for name, side in result["runs"].items()}
            print(f"  {key} of each run: before {each['before']}; after {each['after']}")
    for key, row in result["recall"].items():
        print(
            f"  {key + ' found':<30}{row['before']:>12}{row['after']:>12}"
            f"   (only before {row['only_before']}, only after {row['only_after']})"
        )
    for side in ("only_before", "only_after"):
        if result[f"{side}_examples"]:
            print(f"  {side.replace('_', ' ')}: " + "; ".join(result[f"{side}_examples"]))


def bench_compare(
    megapixels: list[float],
    count: int,
    gallery: str | None,
    before_ref: str,
    data_dir: str | None,
    rounds: int = 1,
) -> dict:
    """Before beside after on camera-like sets of each size (and on `gallery` when given), `rounds`
    runs of each side."""
    from benchmarks.camera_set import write_camera_set

    with tempfile.TemporaryDirectory(prefix="ps-bench-compare-") as tmp:
        work = Path(data_dir) if data_dir else Path(tmp)
        before_tree = unpack(before_ref, Path(tmp) / "before-tree")
        pycache = Path(tmp) / "pycache"
        for tree in (before_tree, ROOT):
            compile_tree(tree, pycache)
        sets: list[tuple[str, Path]] = []
        if gallery:
            sets.append((Path(gallery).name or "gallery", Path(gallery)))
        for mp in megapixels:  # kept between runs: making 60 photos of 48 MP takes minutes
            photos = (work / "camera" if data_dir else CAMERA_SETS) / f"{mp:g}mp-{count}"
            print(f"  making {count} camera-like photos of {mp:g} MP in {photos} …", flush=True)
            write_camera_set(photos, mp, count)
            sets.append((f"{mp:g} MP", photos))
        warm_up(sets[0][1], before_tree, work / "warm-up", pycache)
        runs = []
        for label, photos in sets:
            result = compare(photos, before_tree, work / "runs", label.replace(" ", ""), pycache, rounds)
            result["label"] = label
            print_comparison(result)
            runs.append(result)
    return {"before_ref": before_ref, "count": count, "rounds": rounds, "runs": runs}
