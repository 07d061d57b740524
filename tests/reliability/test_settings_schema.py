"""Item 10: settings.json is typed — wrong types and unknown keys are errors that name the key, web
use and private addresses turn on only with a real `true`, and a file that does not parse is never
overwritten."""

from __future__ import annotations

import json

import pytest

from photosearch.config import Settings, SettingsError
from photosearch.enrich.fetch import Fetcher
from tests.conftest import run_cli


def _write(tmp_path, text: str):
    (tmp_path / "settings.json").write_text(text, encoding="utf-8")
    return tmp_path / "settings.json"


@pytest.mark.parametrize(
    "values,key",
    [
        ({"web_enabled": "false"}, "web_enabled"),
        ({"allow_private_addresses": "no"}, "allow_private_addresses"),
        ({"allow_private_addresses": 1}, "allow_private_addresses"),
        ({"threads": "4"}, "threads"),
        ({"threads": True}, "threads"),
        ({"search_url": 5}, "search_url"),
        ({"_overrides": {"db_url": ["x", None]}}, "_overrides"),
        ({"data_dir": "/elsewhere"}, "data_dir"),
        ({"web_enabeld": True}, "web_enabeld"),
        ({"home_spot": "my house"}, "home_spot"),  # a point: "LAT,LON"
        ({"home_spot": "95,10"}, "home_spot"),  # no latitude past the pole
        ({"home_spot": [38.7, -9.1]}, "home_spot"),
    ],
)
def test_wrong_types_and_unknown_keys_name_the_key(tmp_path, values, key):
    _write(tmp_path, json.dumps(values))
    with pytest.raises(SettingsError, match=repr(key)):
        Settings.load(tmp_path)


def test_only_a_real_true_turns_web_and_private_addresses_on(tmp_path):
    _write(tmp_path, json.dumps({"web_enabled": True, "allow_private_addresses": True, "threads": 3}))
    s = Settings.load(tmp_path)
    assert s.web_enabled is True and s.allow_private_addresses is True and s.threads == 3
    assert Fetcher.from_settings(s).policy.allow_all_private is True
    _write(tmp_path, json.dumps({"web_enabled": False}))
    s = Settings.load(tmp_path)
    assert s.web_enabled is False and Fetcher.from_settings(s).policy.allow_all_private is False


def test_a_malformed_file_is_an_error_and_never_overwritten(tmp_path):
    text = '{"web_enabled": false, "search_url": "http://127.0.0.1:8888",'  # cut off mid-edit
    path = _write(tmp_path, text)
    with pytest.raises(SettingsError, match="not valid JSON"):
        Settings.load(tmp_path)
    s = Settings(data_dir=tmp_path)  # what a caller that ignored the error would save
    with pytest.raises(SettingsError):
        s.save()
    assert path.read_text(encoding="utf-8") == text
    done = run_cli(tmp_path, "status", check=False)
    assert done.returncode == 1 and "photosearch: error:" in done.stderr and "settings.json" in done.stderr
    assert "Traceback" not in done.stderr and path.read_text(encoding="utf-8") == text


def test_a_valid_file_round_trips(tmp_path):
    s = Settings.load(tmp_path)
    s.web_enabled, s.search_url = True, "http://127.0.0.1:8888"
    s.save()
    again = Settings.load(tmp_path)
    assert again.web_enabled is True and again.search_url == "http://127.0.0.1:8888"
