"""`ask` and `enrich` stream progress lines in the CLI and end with per-stage figures."""

from __future__ import annotations

import json

from photosearch.catalog import Store
from photosearch.cli import main

from .helpers import photo_with_text, write_ebike_web


def test_ask_streams_progress_and_prints_stage_figures(capsys, settings, web, tmp_path):
    write_ebike_web(web)
    store = Store(settings.database_url)
    pid, _, _ = photo_with_text(store, tmp_path, settings, use_real_ocr=False)
    store.close()
    base = ["--data-dir", str(settings.data_dir)]
    settings.allow_private_addresses = True  # the loopback test web is reachable only this way
    settings.save()
    code = main([*base, "ask", str(pid), "how heavy is this?", "--web", "--no-llm", "--search-url", web.base])
    out, err = capsys.readouterr()
    assert code == 0, err
    steps = err.splitlines()
    assert steps[0].startswith("formulating") and any(s.startswith("searching: VOLTARO X9") for s in steps)
    assert any(s.startswith("reading ") for s in steps) and steps[-1] == "answering"
    assert "19 kg" in out and "[1]" in out
    assert "queries " in out and "fetches " in out and "LLM calls 0" in out and "total " in out

    code = main([*base, "enrich", "--web", "--no-llm", "--search-url", web.base])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err.splitlines()[0].startswith("[1/1] photo")
    assert f"photo {pid}: queries " in out and "learning " in out and "all: queries " in out


def test_ask_marks_the_sources_read_only_through_their_search_result(capsys, settings, web, tmp_path):
    write_ebike_web(web)
    web.page(  # a script-only shop page: its search result is all that can be read
        "/shop/voltaro-x9",
        "<html><head><title>Voltaro X9 folding e-bike - Voltaro shop</title><script>render()</script></head>"
        "<body><div>Please enable JavaScript to view this site.</div></body></html>",
    )
    store = Store(settings.database_url)
    pid, _, _ = photo_with_text(store, tmp_path, settings, use_real_ocr=False)
    store.close()
    settings.allow_private_addresses = True
    settings.save()
    argv = ["--data-dir", str(settings.data_dir), "ask", str(pid), "how heavy is this?", "--web", "--no-llm"]
    assert main([*argv, "--search-url", web.base, "--json"]) == 0
    sources = json.loads(capsys.readouterr().out)["sources"]
    kinds = {s["kind"] for s in sources}
    assert kinds == {"page", "snippet"}, sources
    assert main([*argv, "--search-url", web.base]) == 0
    lines = capsys.readouterr().out.splitlines()
    for s in sources:
        line = next(ln for ln in lines if ln.startswith(f"[{s['n']}] ") and s["url"] in ln)
        assert line.endswith("(search-result snippet)") == (s["kind"] == "snippet"), line
