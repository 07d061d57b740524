"""Shared helpers: a catalog with photos, and the e-bike test web."""

from __future__ import annotations

import contextlib
import hashlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from photosearch.catalog import Store
from photosearch.catalog.models import Folder, Photo
from photosearch.records import AnalysisResult, FactRecord


def render_text_photo(path: Path, text: str = "VOLTARO X9", size=(640, 360)) -> np.ndarray:
    img = Image.new("RGB", size, (245, 245, 240))
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=72)
    except TypeError:  # old Pillow
        font = ImageFont.load_default()
    d.rectangle([40, 220, 600, 300], fill=(30, 90, 200))
    x = 60
    for word in text.split():  # words drawn apart so OCR keeps them apart
        d.text((x, 90), word, fill=(10, 10, 10), font=font)
        x += int(d.textlength(word, font=font)) + 70
    img.save(path, quality=92)
    return np.asarray(img)


def add_photo(store: Store, path: Path) -> int:
    data = path.read_bytes()
    with store.session() as s:
        folder = s.query(Folder).filter_by(path=str(path.parent)).one_or_none()
        if folder is None:
            folder = Folder(path=str(path.parent), online=True)
            s.add(folder)
            s.flush()
        w, h = Image.open(path).size
        p = Photo(
            folder_id=folder.id,
            path=str(path.resolve()),
            content_hash=hashlib.sha256(data).hexdigest(),
            size=len(data),
            mtime=path.stat().st_mtime,
            format="JPEG",
            width=w,
            height=h,
        )
        s.add(p)
        s.flush()
        return p.id


def put_facts(store: Store, photo_id: int, analyzer: str, facts: list[FactRecord]) -> None:
    with store.session() as s:
        store.write_analysis(s, photo_id, analyzer, 1, AnalysisResult(facts=facts))


EBIKE_PAGES = {
    "/wiki/voltaro-x9": (
        "Voltaro X9 - Voltaro Mobility",
        "The Voltaro X9 is an e-bike made by Voltaro Mobility in Rotterdam. The Voltaro X9 has a 500 Wh "
        "battery and a range of 120 km. Voltaro X9 riders can fold the frame for trains.",
    ),
    "/news/voltaro-launch": (
        "Voltaro launches the X9",
        "Voltaro Mobility launched the X9 electric bicycle in 2023. Reviewers praised the Voltaro X9 for its "
        "quiet hub motor and its low weight of 19 kg.",
    ),
    "/phones/zen-x9": (
        "Zenfone X9 review",
        "The Zenfone X9 is a smartphone with a 6.5 inch screen and a big camera.",
    ),
    "/general/bicycles": (
        "Bicycle",
        "A bicycle is a human-powered vehicle with two wheels attached to a frame.",
    ),
}


def write_ebike_web(web) -> None:
    for path, (title, text) in EBIKE_PAGES.items():
        web.page(
            path,
            f"<html><head><title>{title}</title><script>var tracker='SECRET_JS_PAYLOAD'</script></head>"
            f"<body><nav>Home | About</nav><main><h1>{title}</h1><p>{text}</p></main>"
            f"<footer>Copyright footer text</footer></body></html>",
        )


def photo_with_text(store, tmp_path: Path, settings, *, text: str = "VOLTARO X9", use_real_ocr: bool = True):
    """A photo with a product name printed on it, its text facts from the real OCR when it reads them."""
    path = tmp_path / f"{text.replace(' ', '_').lower()}.jpg"
    rgb = render_text_photo(path, text)
    pid = add_photo(store, path)
    facts = None
    if use_real_ocr:
        try:
            from photosearch.records import PhotoImage
            from photosearch.vision.ocr import OcrAnalyzer

            res = OcrAnalyzer(settings).analyze(PhotoImage(pid, str(path), rgb, rgb.shape[1], rgb.shape[0]))
            read = " ".join(f.label for f in res.facts if f.kind == "text")
            if set(text.upper().split()) <= set(read.upper().split()):
                facts = res.facts
        except Exception:
            facts = None
    if facts is None:
        facts = [FactRecord("text", text, 0.95, [0.09, 0.25, 0.8, 0.45], {"line": 0})]
    put_facts(store, pid, "ocr", facts)
    return pid, path, facts


@contextlib.contextmanager
def silent_server() -> Iterator[str]:
    """A loopback server that accepts one connection and never answers; yields its http:// URL."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    done = threading.Event()

    def hold():
        conn, _ = srv.accept()
        with conn:
            done.wait(30)

    t = threading.Thread(target=hold, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/"
    finally:
        done.set()
        srv.close()
        t.join(5)
