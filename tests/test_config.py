"""Settings persist what the user chose, never a command-line or environment override."""

from photosearch.config import Settings


def test_overrides_are_not_written_back(tmp_path, monkeypatch):
    monkeypatch.setenv("PHOTOSEARCH_DB_URL", "postgresql://u:secret@db/photos")
    settings = Settings.load(tmp_path)
    assert settings.db_url == "postgresql://u:secret@db/photos"
    settings.web_enabled = True
    settings.save()
    text = (tmp_path / "settings.json").read_text()
    assert "secret" not in text
    monkeypatch.delenv("PHOTOSEARCH_DB_URL")
    again = Settings.load(tmp_path)
    assert again.db_url is None and again.web_enabled is True
    assert again.database_url == f"sqlite:///{tmp_path / 'catalog.db'}"


def test_a_value_changed_in_the_app_is_saved(tmp_path, monkeypatch):
    monkeypatch.setenv("PHOTOSEARCH_SEARCH_URL", "http://127.0.0.1:8888")
    settings = Settings.load(tmp_path)
    settings.search_url = "http://127.0.0.1:9999"
    settings.save()
    monkeypatch.delenv("PHOTOSEARCH_SEARCH_URL")
    assert Settings.load(tmp_path).search_url == "http://127.0.0.1:9999"
