"""OCR: the rendered sign's words are read, natural photos are skipped by the cheap gate."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import select

from photosearch.catalog.models import Fact
from photosearch.models.runtimes.onnx import ShrinkingSession
from photosearch.vision.ocr import (
    OcrAnalyzer,
    edge_fraction,
    ink_gaps,
    probe_tensor,
    quad_to_box,
    respace,
    text_of,
    text_regions,
    to_bgr,
)

from .helpers import add_photo, photo_image, render_sign

pytestmark = pytest.mark.slow


def gate_fact(result):
    (fact,) = [f for f in result.facts if f.kind == "ocr_gate"]
    return fact


def words(result) -> set[str]:
    return {w.strip(",.:;!").lower() for line in text_of(result) for w in line.split()}


def test_reads_the_words_of_a_rendered_sign(ocr):
    sign = render_sign(["OPEN DAILY 9 TO 5", "FRESH COFFEE"])
    result = ocr.analyze(photo_image(sign))
    assert {"open", "daily", "fresh", "coffee"} <= words(result)
    gate = gate_fact(result)
    assert gate.label == "ran" and gate.data["skipped"] is False and gate.data["lines"] >= 2
    for fact in result.facts:
        if fact.kind == "text":
            x0, y0, x1, y1 = fact.box
            assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
            assert 0.5 <= fact.score <= 1.0
    # "FRESH COFFEE" is the lower line: its box lies below the first one
    boxes = {f.label: f.box for f in result.facts if f.kind == "text"}
    top = next(b for t, b in boxes.items() if "OPEN" in t.upper())
    low = next(b for t, b in boxes.items() if "COFFEE" in t.upper())
    assert low[1] > top[1]


@pytest.mark.parametrize(
    ("lines", "size", "font_size"),
    [
        (["TOW AWAY ZONE"], (900, 400), 64),  # big capitals, loose letter spacing: no false spaces
        (["Children under 12 ride free"], (1200, 300), 22),  # small type: spaces the recogniser drops
    ],
)
def test_words_stay_separate(ocr, lines, size, font_size):
    result = ocr.analyze(photo_image(render_sign(lines, size=size, font_size=font_size)))
    assert [t.lower() for t in text_of(result)] == [line.lower() for line in lines]


def test_reads_dark_text_on_a_light_sign_inside_a_photo(ocr, astronaut):
    from PIL import Image, ImageDraw, ImageFont

    from .helpers import font_path

    img = Image.fromarray(astronaut).resize((1024, 1024))
    draw = ImageDraw.Draw(img)
    draw.rectangle((560, 40, 1000, 170), fill=(245, 240, 200))
    draw.text((585, 60), "CAFE ROMA", font=ImageFont.truetype(font_path(), 64), fill=(20, 20, 20))
    result = ocr.analyze(photo_image(np.asarray(img)))
    assert {"cafe", "roma"} <= words(result)
    (fact,) = [f for f in result.facts if f.kind == "text" and "ROMA" in f.label.upper()]
    assert fact.box[0] > 0.5 and fact.box[3] < 0.2  # top right, where the sign was drawn


@pytest.mark.parametrize("name", ["chelsea", "coffee", "astronaut"])
def test_gate_skips_natural_photos(ocr, name):
    from skimage import data

    result = ocr.analyze(photo_image(getattr(data, name)()))
    gate = gate_fact(result)
    assert gate.label == "skipped" and gate.data["skipped"] is True
    assert gate.data["reason"] in {"no_text", "flat"}
    assert text_of(result) == []


def test_gate_skips_a_flat_image_without_running_the_probe(ocr):
    flat = np.full((480, 640, 3), 128, np.uint8)
    gate = ocr.decide(to_bgr(flat))
    assert not gate.run and gate.reason == "flat" and gate.probe_px == 0


def test_gate_can_be_turned_off(model_settings, ocr):
    from skimage import data

    forced = OcrAnalyzer(model_settings, gate=False, model=ocr.model)
    gate = gate_fact(forced.analyze(photo_image(data.chelsea())))
    assert gate.label == "ran" and gate.data["reason"] == "forced"


def test_gate_runs_on_a_screenshot_with_small_text(ocr):
    from PIL import Image, ImageDraw, ImageFont

    from .helpers import font_path

    img = Image.new("RGB", (1280, 800), (245, 245, 245))
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(font_path(), 15)
    for i in range(6):
        draw.text(
            (30, 60 + i * 28), f"Invoice line {i}: delivered parcels {i * 37}", font=font, fill=(20, 20, 20)
        )
    bgr = to_bgr(np.asarray(img))
    assert ocr.decide(bgr).run


def test_sessions_use_the_configured_threads(ocr, model_settings):
    ocr.load()
    engine = ocr.model._engine
    for ort_wrapper in (engine.text_det.infer, engine.text_rec.session):
        assert isinstance(ort_wrapper.session, ShrinkingSession)  # the arena is emptied after each run
        opts = ort_wrapper.session.get_session_options()
        assert opts.intra_op_num_threads == model_settings.threads
        # idle threads sleep instead of spinning (CPU the photo decoder needs)
        assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
        assert opts.enable_cpu_mem_arena


def test_text_regions_cover_the_probes_text_with_a_margin():
    prob = np.zeros((96, 128), np.float32)
    prob[10:14, 90:120] = 0.9  # a line of text top right (probe scale: a tenth of 1280 x 960)
    ((x0, y0, x1, y1),) = text_regions(prob, (960, 1280), margin=48)
    assert x0 <= 900 - 48 and y0 <= 100 - 48 and x1 >= 1200 + 48 and y1 >= 140 + 48
    assert (x1 - x0) % 32 == 0 and (y1 - y0) % 32 == 0 and x1 <= 1280
    assert text_regions(np.zeros((96, 128), np.float32), (960, 1280)) is None  # nothing seen
    prob[20:90, 5:120] = 0.9  # text all over: read the whole photo
    assert text_regions(prob, (960, 1280)) is None
    two = np.zeros((96, 128), np.float32)
    two[10:12, 10:20] = two[14:16, 10:20] = 0.9  # two lines close together: one region
    assert len(text_regions(two, (960, 1280), margin=48)) == 1


def test_reading_only_the_probes_regions_finds_what_reading_the_whole_photo_finds(
    ocr, model_settings, astronaut
):
    from PIL import Image, ImageDraw, ImageFont

    from .helpers import font_path

    img = Image.fromarray(astronaut).resize((1280, 960))
    draw = ImageDraw.Draw(img)
    draw.rectangle((760, 40, 1240, 200), fill=(245, 240, 200))
    draw.text((785, 60), "CAFE ROMA", font=ImageFont.truetype(font_path(), 64), fill=(20, 20, 20))
    draw.text((785, 130), "OPEN 9-5", font=ImageFont.truetype(font_path(), 48), fill=(20, 20, 20))
    image = photo_image(np.asarray(img))
    decision = ocr.decide(to_bgr(np.asarray(img.resize((384, 288)))))
    regions = text_regions(decision.text_map, (960, 1280))
    assert regions and sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in regions) < 0.3 * 1280 * 960
    whole = ocr.analyze(image)  # the default reads the whole photo
    regional = OcrAnalyzer(model_settings, regions=True, model=ocr.model).analyze(image)
    assert text_of(regional) == text_of(whole) and {"cafe", "roma"} <= words(whole)


def test_text_facts_are_stored_in_the_catalog(ocr, store):
    pid = add_photo(store, "/photos/sign.png")
    result = ocr.analyze(photo_image(render_sign(["PARKING ONLY"]), pid))
    with store.session() as s:
        store.write_analysis(s, pid, ocr.name, ocr.version, result)
    with store.session() as s:
        labels = [f.label for f in s.scalars(select(Fact).where(Fact.photo_id == pid, Fact.kind == "text"))]
        gate = s.scalar(select(Fact).where(Fact.photo_id == pid, Fact.kind == "ocr_gate"))
    assert any("PARKING" in t.upper() for t in labels)
    assert gate.data["skipped"] is False and gate.analyzer == "ocr"


def test_bad_input_is_a_clear_error(ocr):
    with pytest.raises(ValueError):
        ocr.analyze(photo_image(np.zeros((0, 0, 3), np.uint8)))


def test_pure_helpers():
    quad = np.array([[10, 20], [110, 20], [110, 40], [10, 40]], np.float32)
    assert quad_to_box(quad, 200, 100) == [0.05, 0.2, 0.55, 0.4]
    x = probe_tensor(np.zeros((300, 500, 3), np.uint8), 384)
    assert x.shape[2] % 32 == 0 and x.shape[3] % 32 == 0 and x.shape[3] == 384 and x.min() == -1.0
    assert edge_fraction(np.zeros((100, 100, 3), np.uint8)) == 0.0
    stripes = np.zeros((100, 100, 3), np.uint8)
    stripes[:, ::4] = 255
    assert edge_fraction(stripes) > 0.1


def test_respace_puts_back_dropped_spaces_from_ink_gaps():
    from PIL import Image, ImageDraw, ImageFont

    from .helpers import font_path

    img = Image.new("RGB", (400, 48), (255, 255, 255))
    ImageDraw.Draw(img).text((4, 8), "ab  cd", font=ImageFont.truetype(font_path(), 28), fill=(0, 0, 0))
    crop = to_bgr(np.asarray(img))
    gaps = ink_gaps(crop)
    assert len(gaps) == 1
    mid = (gaps[0][0] + gaps[0][1]) / 2
    # four characters on a 100-column grid: two left of the gap, two right of it
    cols = [int(x / 4) for x in (10, 30, mid + 20, mid + 40)]
    info = [100, [["a", "b", "c", "d"]], [cols]]
    assert respace("abcd", info, crop) == "ab cd"
    assert respace("abcd", None, crop) == "abcd"  # no positions: unchanged
    assert (
        respace("ab cd", [100, [["a", "b", " ", "c", "d"]], [cols[:2] + [cols[2] - 1] + cols[2:]]], crop)
        == "ab cd"
    )


@pytest.mark.parametrize("shape", [(960, 1280), (1280, 720), (301, 517), (40, 40)])
def test_the_detector_input_is_rapidocrs_own_values(ocr, shape):
    """The table normalize gives RapidOCR's float32 input bit for bit, at every detector size."""
    from rapidocr_onnxruntime.ch_ppocr_det.utils import DetPreProcess

    ocr.load()
    det = ocr.model._engine.text_det
    rng = np.random.default_rng(sum(shape))
    bgr = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    ours = det.get_preprocess(max(shape))
    theirs = type(det).get_preprocess(det, max(shape))
    assert type(ours) is not DetPreProcess and isinstance(theirs, DetPreProcess)
    a, b = ours(bgr), theirs(bgr)
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
    assert np.array_equal(a, b)
