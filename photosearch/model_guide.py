"""Optional models in words for people: what each one makes better, what it costs, where it runs,
what stays private, and which set suits this computer (`recommend`, a pure function of the models and
the hardware). The GUI's model manager shows it; no Qt here.

Figures in `BENEFITS` are only those the repository measured (benchmarks/README.md, docs/); a model
without one says what it does in words.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

GB = 1000**3
#: Free disk left after every download, so the catalog, thumbnails and the system keep room.
DISK_MARGIN = 2 * GB

#: What each shipped hub model makes better, in one line (a figure only where the repo measured one).
BENEFITS = {
    "clip-vit-b-32-openai": "Search by describing a photo in your own words (English), beyond the built-in labels.",
    "clip-vit-b-32-laion2b": "Search by describing a photo in your own words; trained on a larger, more varied photo set.",
    "siglip2-vit-b-16": "The most accurate search by description in English of these; slower on a processor.",
    "clip-xlm-roberta-large-vit-b-32": "Search by description in about 50 languages.",
    "nllb-clip-base-siglip": "Search by description in 201 languages.",
    "smolvlm-500m": "Short captions and answers about a photo, fast enough for a processor alone.",
    "moondream2": "Short captions and answers about a photo from a compact vision model.",
    "qwen2.5-vl-3b": "The best captions and answers about a photo of these that fit in 8 GB of memory.",
    "llava-1.5-7b": "General captions and answers about a photo (a large model: best with a graphics card).",
    "llava-1.6-mistral-7b": "Captions and answers that read small text and detail better (a large model).",
    "owlv2-base-patch16": (
        "Ask finds any object you name, not only 80 everyday kinds; preparing a photo for it takes "
        "about 0.45 s on a processor (benchmarks/README.md)."
    ),
    "qwen2.5-1.5b-instruct": "Understands longer, looser search requests and writes better answers than the built-in small model.",
}
ROLE_BENEFITS = {
    "clip": "Search by describing a photo in your own words.",
    "vlm": "Captions and answers about a photo.",
    "detector": "Finds the objects you name in a photo.",
    "llm": "Understands search requests and writes answers.",
    "face-traits": "Finds women, men, girls, boys, babies and children by how their faces look.",
    "faces": "Finds faces and groups them into people you can name.",
    "tagger": "Names what is in a photo: animals, plants, food and a thousand kinds of things.",
    "scenes": "Says where a photo was taken: a beach, a kitchen, a forest, a street.",
    "ocr": "Reads the words in a photo: signs, screenshots, pages.",
    "text-embedder": "Matches your words to what a photo's labels and words say.",
    "lexicon": "Knows that a tabby is a cat and a cat an animal, so either word finds it.",
}
HOSTS = {"huggingface.co": "Hugging Face"}


def benefit(name: str, role: str, description: str = "") -> str:
    """One line: what the model makes better."""
    return BENEFITS.get(name) or ROLE_BENEFITS.get(role) or description.split(";")[0].strip()


def source_words(source: dict) -> str:
    """Where a hub model is downloaded from, named for people: "Hugging Face (immich-app/ViT-B-32__openai)"."""
    if source.get("type", "hf") == "hf":
        endpoint = urlparse(source.get("endpoint") or "https://huggingface.co").hostname or "huggingface.co"
        repo = source.get("repo", "")
        return f"{HOSTS.get(endpoint, endpoint)} ({repo})" if repo else HOSTS.get(endpoint, endpoint)
    host = urlparse(source.get("base_url") or "").hostname
    return host or "its publisher's site"


def privacy_line(source: dict) -> str:
    return f"Downloaded once from {source_words(source)}; runs on this computer; your photos never leave it."


def runs_on_words(provider: str) -> str:
    """Where a model runs, for people ("processor", "graphics card"); the runtime's own name (e.g.
    `CPUExecutionProvider`) is for the Advanced section and `photosearch models list`."""
    if not provider or provider == "-":
        return "—"
    text = provider.lower()
    if "not installed" in text:
        return "cannot run here yet"
    if any(k in text for k in ("cuda", "tensorrt", "rocm", "gpu", "directml", "dml", "coreml", "metal")):
        return "graphics card"
    return "processor"


# ---- this computer -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hardware:
    """What a recommendation weighs: memory, a graphics card the models can use, free disk."""

    ram_bytes: int
    gpu: bool
    disk_free_bytes: int
    cores: int = 2
    gpu_name: str = ""  # the runtime's name for it (Advanced section only)


def detect_hardware(settings) -> Hardware:
    """This computer: physical memory, ONNX Runtime's providers with a working CUDA driver, free disk
    where models are stored."""
    from photosearch.models.runtimes.onnx import CUDA, available_providers, gpu_present

    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        ram = 0
    providers = available_providers()
    gpu = CUDA in providers and gpu_present()
    where = Path(settings.models_dir)
    while not where.exists() and where != where.parent:
        where = where.parent
    return Hardware(
        ram_bytes=int(ram),
        gpu=gpu,
        disk_free_bytes=shutil.disk_usage(where).free,
        cores=os.cpu_count() or 1,
        gpu_name=CUDA if gpu else "",
    )


# ---- the recommendation ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """A hub model as `recommend` sees it."""

    name: str
    role: str
    download_bytes: int  # 0: not listed
    installed: bool = False


@dataclass
class Recommendation:
    names: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # one sentence per choice and per model left out

    def text(self) -> str:
        return " ".join(self.reasons)


def _gb(n: int) -> str:
    return f"{n / GB:.1f} GB"


def _first(candidates: dict[str, Candidate], names: list[str]) -> Candidate | None:
    return next((candidates[n] for n in names if n in candidates), None)


def recommend(models: list[Candidate], hw: Hardware) -> Recommendation:
    """A good set for this computer, and why: a search encoder always (the largest gain), a vision
    model and the larger language model when memory allows, the open-vocabulary detector only with a
    graphics card; then, cheapest first, only what fits the free disk (keeping `DISK_MARGIN`)."""
    by = {m.name: m for m in models}
    ram = hw.ram_bytes
    rec = Recommendation()
    left_out: list[str] = []  # said after the choices
    picks: list[tuple[Candidate, str]] = []  # in priority order
    if hw.gpu and ram >= 8 * GB:
        clip = _first(by, ["siglip2-vit-b-16", "clip-vit-b-32-openai"])
        why = "it is the most accurate at search by description, and the graphics card keeps it fast"
    else:
        clip = _first(by, ["clip-vit-b-32-openai", "clip-vit-b-32-laion2b", "siglip2-vit-b-16"])
        why = "it is the smaller, faster search encoder, suited to a processor"
    if clip:
        picks.append((clip, f"{clip.name} for search by description: {why}."))
    if ram >= 16 * GB and hw.gpu:
        vlm = _first(by, ["qwen2.5-vl-3b", "smolvlm-500m"])
        vwhy = "the best answers that fit, with memory and a graphics card to spare"
    elif ram >= 8 * GB:
        vlm = _first(by, ["smolvlm-500m", "moondream2"])
        vwhy = "the vision model small enough to answer quickly on a processor"
    else:
        vlm = None
        left_out.append(f"No vision model: this computer has {_gb(ram)} of memory and they need 8 GB.")
    if vlm:
        picks.append((vlm, f"{vlm.name} for answers about a photo: {vwhy}."))
    llm = by.get("qwen2.5-1.5b-instruct")
    if llm and ram >= 8 * GB:
        picks.append((llm, f"{llm.name} to understand looser search requests: there is memory for it."))
    owl = by.get("owlv2-base-patch16")
    if owl and hw.gpu:
        picks.append((owl, f"{owl.name} so Ask finds any object you name: the graphics card keeps it quick."))
    elif owl:
        left_out.append(f"Not {owl.name}: on a processor alone it slows every answer (about 0.45 s a photo).")
    room = hw.disk_free_bytes - DISK_MARGIN
    for cand, reason in picks:
        need = 0 if cand.installed else cand.download_bytes
        if need > room:
            left_out.append(
                f"Not {cand.name}: it needs {_gb(need)} and only {_gb(max(0, room))} of disk is free to spare."
            )
            continue
        room -= need
        rec.names.append(cand.name)
        note = (
            " Already downloaded."
            if cand.installed
            else ""
            if need
            else " Its size is not listed: check your free disk."
        )
        rec.reasons.append(reason + note)
    rec.reasons += left_out
    return rec


def candidates(rows: list[dict]) -> list[Candidate]:
    """The hub models of `model_status.model_rows` as candidates."""
    from photosearch.models.manifest import parse_listed_size

    out = []
    for r in rows:
        if r["tier"] != "hub":
            continue
        size = r.get("download_bytes")
        if size is None:
            size = parse_listed_size(str(r.get("download_size", "")).removeprefix("about ")) or 0
        out.append(Candidate(r["name"], r["role"], int(size), bool(r["present"])))
    return out
