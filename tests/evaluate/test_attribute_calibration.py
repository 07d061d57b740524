"""Thresholds are chosen on the fit part by F1 and move only when the labels say so."""

from __future__ import annotations

from photosearch.evaluate.attribute_calibration import Row, choose, report, score


def _rows(pairs, generated=False):
    return [Row(f"p{i}", "fit", generated, label, value) for i, (label, value) in enumerate(pairs)]


def test_a_threshold_moves_only_when_the_fit_labels_say_so():
    # dark holds at or under the threshold; positives at 0.30-0.34 are missed at 0.3
    rows = _rows(
        [(True, v) for v in (0.1, 0.2, 0.31, 0.33, 0.34)] + [(False, v) for v in (0.5, 0.6, 0.7, 0.8, 0.9)]
    )
    assert score(rows, "dark", 0.3).recall == 0.4
    best = choose(rows, "dark", 0.3)
    assert 0.34 < best < 0.5 and score(rows, "dark", best).f1 == 1.0
    separated = _rows(
        [(True, v) for v in (0.1, 0.12, 0.2, 0.22, 0.25)] + [(False, v) for v in (0.5, 0.6, 0.7, 0.8, 0.9)]
    )
    assert choose(separated, "dark", 0.3) == 0.3  # already best: kept


def test_too_few_real_negatives_keeps_the_threshold():
    rows = _rows([(True, 0.9)] * 6) + _rows([(False, 0.1)] * 6, generated=True)
    assert choose(rows, "bright", 0.62) is None


def test_report_counts_real_and_generated_apart():
    def m(name, part, transform, label, brightness):
        return {
            "name": name,
            "part": part,
            "transform": transform,
            "labels": {"dark": label},
            "measures": {"brightness": brightness},
        }

    measured = [m(f"r{i}", "fit", "", False, 0.6 + i / 100) for i in range(6)]
    measured += [m(f"g{i}", "fit", "underexposed", True, 0.1 + i / 100) for i in range(6)]
    measured += [m("c0", "check", "", True, 0.2), m("c1", "check", "", False, 0.25)]
    text, chosen = report(measured, attributes=("dark",))
    assert chosen == {"dark": 0.3}
    rows = {tuple(line.split()[:3]): line.split()[3:] for line in text.splitlines()[1:]}
    assert rows["dark", "fit", "current"] == ["0.3", "0+6", "6+0", "1.000", "1.000", "1.000", "0/0"]
    assert rows["dark", "check", "current"] == ["0.3", "1+0", "1+0", "0.500", "1.000", "0.667", "0/0"]
