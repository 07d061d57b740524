"""The map's geometry without Qt: Web Mercator both ways and clustering by screen distance."""

from __future__ import annotations

import math

import numpy as np
import pytest

from photosearch.gui.map_geometry import MAX_LAT, WORLD, cluster_points, project, unproject


def test_projection_round_trip_and_landmarks():
    rng = np.random.default_rng(7)
    lat = np.concatenate([rng.uniform(-MAX_LAT, MAX_LAT, 5000), [0.0, MAX_LAT, -MAX_LAT, 51.4779]])
    lon = np.concatenate([rng.uniform(-180, 180, 5000), [0.0, -180.0, 180.0, -0.0015]])
    x, y = project(lat, lon)
    back_lat, back_lon = unproject(x, y)
    assert np.max(np.abs(back_lat - lat)) < 1e-9 and np.max(np.abs(back_lon - lon)) < 1e-9
    # the corners of the Mercator square, the equator and Greenwich in the middle
    assert project(0.0, 0.0) == pytest.approx((WORLD / 2, WORLD / 2))
    assert project(MAX_LAT, -180.0) == pytest.approx((0.0, 0.0))
    assert project(-MAX_LAT, 180.0) == pytest.approx((WORLD, WORLD))
    # north is up, east is right; latitudes past the square are held at its edge
    assert project(60.0, 10.0)[1] < project(40.0, 10.0)[1] and project(0, 10)[0] > project(0, -10)[0]
    assert project(89.9, 0.0)[1] == pytest.approx(0.0)
    # Mercator keeps shapes: one degree north at 60° is twice as long as at the equator
    dy60 = project(60.0, 0.0)[1] - project(61.0, 0.0)[1]
    dy0 = project(0.0, 0.0)[1] - project(1.0, 0.0)[1]
    assert dy60 / dy0 == pytest.approx(1 / math.cos(math.radians(60.5)), rel=0.01)


def _groups(x, y, radius):
    return sorted(sorted(c.members.tolist()) for c in cluster_points(np.array(x), np.array(y), radius))


def test_clusters_merge_by_screen_distance_and_split_when_zoomed_in():
    # three places: A and B 30 map units apart, C far away
    x = np.array([100.0, 100.5, 130.0, 400.0])
    y = np.array([100.0, 100.2, 100.0, 300.0])
    # zoom 1: A, A' and B are closer than the 44 px pin radius, C alone
    assert _groups(x, y, 44) == [[0, 1, 2], [3]]
    # zoom 4: A and B are 120 px apart; the two photos at A still share a pin
    assert _groups(x * 4, y * 4, 44) == [[0, 1], [2], [3]]
    # zoom 200: every photo has its own pin
    assert _groups(x * 200, y * 200, 44) == [[0], [1], [2], [3]]


def test_clusters_hold_every_point_once_and_sit_at_their_mean():
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(200, 5, 500), rng.normal(600, 30, 300), rng.uniform(0, 1000, 200)])
    y = np.concatenate([rng.normal(200, 5, 500), rng.normal(100, 30, 300), rng.uniform(0, 1000, 200)])
    clusters = cluster_points(x, y, 40)
    members = np.concatenate([c.members for c in clusters])
    assert np.array_equal(np.sort(members), np.arange(x.size))  # each point in exactly one pin
    assert [c.count for c in clusters] == sorted((c.count for c in clusters), reverse=True)
    for c in clusters:
        assert (c.x, c.y) == pytest.approx((x[c.members].mean(), y[c.members].mean()))
        # a pin never gathers points from farther than its 3x3 cells
        assert np.max(np.hypot(x[c.members] - c.x, y[c.members] - c.y)) < 3 * 40 * math.sqrt(2)
    assert clusters[0].count >= 450  # the tight group is one pin
    # panning moves every point by whole screen pixels: the grouping stays the same
    shifted = cluster_points(x + 40 * 7, y - 40 * 3, 40)
    assert sorted(c.members.tolist() for c in shifted) == sorted(c.members.tolist() for c in clusters)


def test_no_points_no_clusters():
    assert cluster_points(np.zeros(0), np.zeros(0), 44) == []
