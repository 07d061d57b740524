"""Optional models in words for people, and the Recommended set for several kinds of computer."""

from __future__ import annotations

import pytest

from photosearch.config import Settings
from photosearch.model_guide import (
    BENEFITS,
    GB,
    Candidate,
    Hardware,
    benefit,
    candidates,
    detect_hardware,
    privacy_line,
    recommend,
    runs_on_words,
)
from photosearch.model_status import model_rows


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> list[Candidate]:
    """The shipped hub models with their listed download sizes (none pulled)."""
    return candidates(model_rows(Settings(data_dir=tmp_path_factory.mktemp("guide"))))


def test_every_shipped_hub_model_says_what_it_makes_better_in_plain_words(shipped):
    assert {c.name for c in shipped} <= set(BENEFITS), "a new hub model needs its line in BENEFITS"
    for c in shipped:
        line = benefit(c.name, c.role)
        assert line.endswith(".") and len(line) < 160, line
        assert not any(j in line for j in ("ONNX", "GGUF", "ExecutionProvider", "Q4_K", "int8")), line
    assert benefit("someone-elses-clip", "clip") == "Search by describing a photo in your own words."


def test_the_built_in_models_say_what_they_do_in_plain_words():
    """Their manifests describe networks and chip sizes; the app says what each finds."""
    rows = [r for r in model_rows(Settings()) if r["tier"] == "bundled"]
    assert {r["name"] for r in rows} >= {"faces-traits-cydral-v1", "faces-dlib-resnet-v1", "wordnet-3.0"}
    for r in rows:
        line = benefit(r["name"], r["role"], r["description"])
        assert line.endswith(".") and len(line) < 160, line
        jargon = ("ONNX", "TFLite", "dlib", "HOG", "ResNet", "SSD", "128-d", "int8", "PP-OCR", "CSAIL")
        assert not any(j in line for j in jargon), line
    faces = next(r for r in rows if r["name"] == "faces-traits-cydral-v1")
    assert benefit(faces["name"], faces["role"]) == (
        "Finds women, men, girls, boys, babies and children by how their faces look."
    )


def test_privacy_line_names_where_a_model_comes_from():
    assert privacy_line({"type": "hf", "repo": "immich-app/ViT-B-32__openai"}) == (
        "Downloaded once from Hugging Face (immich-app/ViT-B-32__openai); runs on this computer; "
        "your photos never leave it."
    )
    assert privacy_line({"type": "url", "base_url": "https://example.org/models/"}).startswith(
        "Downloaded once from example.org;"
    )
    assert [
        runs_on_words(p)
        for p in (
            "CPUExecutionProvider",
            "CUDAExecutionProvider",
            "llama.cpp GPU (all layers)",
            "llama.cpp not installed",
            "-",
        )
    ] == [
        "processor",
        "graphics card",
        "graphics card",
        "cannot run here yet",
        "—",
    ]


LAPTOP = Hardware(ram_bytes=8 * GB, gpu=False, disk_free_bytes=200 * GB)
OLD_PC = Hardware(ram_bytes=4 * GB, gpu=False, disk_free_bytes=200 * GB)
WORKSTATION = Hardware(ram_bytes=32 * GB, gpu=True, disk_free_bytes=500 * GB)
FULL_DISK = Hardware(ram_bytes=16 * GB, gpu=False, disk_free_bytes=int(2.4 * GB))


def test_a_laptop_without_a_graphics_card_gets_the_small_fast_set(shipped):
    rec = recommend(shipped, LAPTOP)
    assert rec.names == ["clip-vit-b-32-openai", "smolvlm-500m", "qwen2.5-1.5b-instruct"]
    assert "faster search encoder, suited to a processor" in rec.text()
    assert "Not owlv2-base-patch16: on a processor alone it slows every answer" in rec.text()


def test_little_memory_gets_search_only_and_says_why(shipped):
    rec = recommend(shipped, OLD_PC)
    assert rec.names == ["clip-vit-b-32-openai"]
    assert "No vision model: this computer has 4.0 GB of memory and they need 8 GB." in rec.reasons


def test_a_graphics_card_and_memory_get_the_best_set(shipped):
    rec = recommend(shipped, WORKSTATION)
    assert rec.names == ["siglip2-vit-b-16", "qwen2.5-vl-3b", "qwen2.5-1.5b-instruct", "owlv2-base-patch16"]
    assert "most accurate at search by description" in rec.text()
    assert "Its size is not listed: check your free disk." in rec.text()  # siglip2's files carry no size


def test_what_does_not_fit_the_disk_is_left_out_and_named(shipped):
    rec = recommend(shipped, FULL_DISK)
    assert "clip-vit-b-32-openai" not in rec.names
    assert any(
        r.startswith("Not clip-vit-b-32-openai: it needs 0.6 GB and only 0.4 GB") for r in rec.reasons
    ), rec.reasons
    assert "qwen2.5-1.5b-instruct" not in rec.names  # 1.1 GB does not fit either


def test_a_model_already_downloaded_needs_no_room():
    models = [Candidate("clip-vit-b-32-openai", "clip", 605 * 1000**2, installed=True)]
    rec = recommend(models, FULL_DISK.__class__(ram_bytes=8 * GB, gpu=False, disk_free_bytes=2 * GB))
    assert rec.names == ["clip-vit-b-32-openai"] and rec.reasons[0].endswith("Already downloaded.")


def test_this_computer_is_read_for_real(tmp_path):
    hw = detect_hardware(Settings(data_dir=tmp_path / "not-made-yet"))
    assert hw.ram_bytes > GB and hw.disk_free_bytes > 0 and hw.cores >= 1
    assert isinstance(hw.gpu, bool) and (hw.gpu_name == "") == (not hw.gpu)
