"""Issue 26, item 4: random requests, plans, ids, dates and paths fed to the commands' entry point
(`photosearch.cli.main`, in process, on a real catalog) give a clean result or a one-line error —
never a traceback, never the "failed unexpectedly" line that stands in for one."""

from __future__ import annotations

import json
import os
from datetime import date

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from photosearch.cli import main
from photosearch.ingest.indexer import Indexer
from tests.reliability.helpers import make_env

PROPERTY = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,  # the same cases on every run: a failure here is reproducible
)

WORDS = st.sampled_from(
    [
        "dog", "cat", "last", "next", "summer", "years", "in", "the", "not", "and", "or", "from", "to",
        "between", "since", "ago", "weeks", "Anna", "me", "only", "two", "people", "blurry", "2019",
        "0", "-1", "99999999999999999999", "1e309", "🙂", "Ж", "北京", "\u200b", '"', "'", "(", ")",
    ]
)  # fmt: skip
REQUESTS = st.one_of(st.text(max_size=60), st.lists(WORDS, max_size=12).map(" ".join))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["where", "and", "or", "not", "concept", "date", "from", "to", "compose", "limit", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
IDS = st.one_of(st.integers(-(10**30), 10**30), st.integers(-3, 12)).map(str)
PATHS = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        ["/", "/dev/null", "/proc/self/mem", ".", "~", os.fsdecode(b"/tmp/\xff\xfe.jpg"), "\x00"]
    ),
)


@pytest.fixture
def data_dir(tmp_path, gallery):
    settings_, store = make_env(tmp_path)
    store.add_folder(gallery)
    Indexer(store, settings_, []).run()
    store.close()
    return settings_.data_dir


def _run(data_dir, capsys, *argv: str) -> None:
    try:
        code = main(["--data-dir", str(data_dir), *argv])
    except SystemExit as exc:  # argparse's own usage errors: one "error:" line after the usage
        code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and err.strip().splitlines()[-1].startswith("photosearch"), err
        return
    out, err = capsys.readouterr()
    assert "failed unexpectedly" not in err and "Traceback" not in err, (argv, err)
    assert code in (0, 1), (argv, code, err)
    if code == 1:
        errors = [ln for ln in err.splitlines() if ln.startswith("photosearch: error:")]
        assert len(errors) == 1, (argv, err)


@PROPERTY
@example(request="   ", now=None)  # the probe's own cases run every time
@example(request="dog in the last 5000 years", now=None)
@example(request="dog in the last 100000000000 years", now=None)
@example(request="dog last summer", now=date(1, 1, 1))
@example(request="dog next year", now=date(9999, 12, 31))
@given(request=REQUESTS, now=st.one_of(st.none(), st.dates(date(1, 1, 1), date(9999, 12, 31))))
def test_any_request_on_any_day(data_dir, capsys, request, now):
    when = ["--now", now.isoformat()] if now else []
    _run(data_dir, capsys, "search", *when, "--", request)
    _run(data_dir, capsys, "plan", *when, "--", request)


@PROPERTY
@given(plan=JSON)
def test_any_plan_file(data_dir, capsys, tmp_path_factory, plan):
    path = tmp_path_factory.mktemp("plan") / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    _run(data_dir, capsys, "search", "--plan", str(path))


@PROPERTY
@example(ref="99999999999999999999999", other="99999999999999999999999", name="x")
@given(ref=st.one_of(IDS, PATHS), other=IDS, name=st.text(max_size=20))
def test_any_id_or_path(data_dir, capsys, ref, other, name):
    _run(data_dir, capsys, "similar", "--", ref)
    _run(data_dir, capsys, "people", "show", "--", ref)
    _run(data_dir, capsys, "people", "name", "--", ref, name)
    _run(data_dir, capsys, "people", "merge", "--", ref, other)
    _run(data_dir, capsys, "people", "split", "--", other)
    _run(data_dir, capsys, "people", "move", "--", ref, other)
