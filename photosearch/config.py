"""One typed settings object, persisted as JSON in the data dir, with env overrides."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import platformdirs

APP_NAME = "PhotoSearch"
SETTINGS_FILE = "settings.json"


def default_data_dir() -> Path:
    """The platform's user data dir, or PHOTOSEARCH_DATA_DIR."""
    env = os.environ.get("PHOTOSEARCH_DATA_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass
class Settings:
    """Everything the core can be configured with (the GUI keeps its own window state)."""

    data_dir: Path = field(default_factory=default_data_dir)
    db_url: str | None = None
    threads: int = 2
    gpu: bool = True
    batch_size: int = 32
    decode_workers: int = 2
    thumbnail_size: int = 256
    analysis_max_side: int = 1280
    max_image_pixels: int = 200_000_000
    # Files bigger than this are recorded as too_large and never read (a multi-GB scan can't OOM a run).
    max_file_bytes: int = 1 << 30
    # Web enrichment (Chain of Search) is opt-in.
    web_enabled: bool = False
    search_url: str | None = None
    search_backend: str = "searxng"
    allow_private_addresses: bool = False
    llm_model: str | None = None
    # The person the user is ("me" in requests); a name known to the catalog.
    owner: str | None = None
    # Values that came from the command line or the environment, with what the file said:
    # save() writes the file's value back, so an override (and a password in it) never persists.
    _overrides: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def database_url(self) -> str:
        url = self.db_url or os.environ.get("PHOTOSEARCH_DB_URL")
        if url:
            return url
        return f"sqlite:///{self.data_dir / 'catalog.db'}"

    @property
    def thumbs_dir(self) -> Path:
        return self.data_dir / "thumbs"

    @property
    def vectors_dir(self) -> Path:
        return self.data_dir / "vectors"

    @property
    def models_dir(self) -> Path:
        return self.data_dir / "models"

    @property
    def cache_dir(self) -> Path:
        return self.data_dir / "cache"

    def ensure_dirs(self) -> None:
        for d in (self.data_dir, self.thumbs_dir, self.vectors_dir, self.models_dir, self.cache_dir):
            d.mkdir(parents=True, exist_ok=True)

    @classmethod
    def load(cls, data_dir: Path | str | None = None, db_url: str | None = None) -> Settings:
        """Read settings.json from the data dir; explicit arguments and env win."""
        base = Path(data_dir).expanduser() if data_dir else default_data_dir()
        values: dict = {}
        path = base / SETTINGS_FILE
        if path.is_file():
            try:
                values = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                values = {}
        known = {f.name for f in fields(cls)} - {"data_dir"}
        kwargs = {k: v for k, v in values.items() if k in known}
        settings = cls(data_dir=base, **kwargs)
        overrides = {
            "db_url": db_url or os.environ.get("PHOTOSEARCH_DB_URL"),
            "search_url": os.environ.get("PHOTOSEARCH_SEARCH_URL"),
            "threads": int(os.environ["PHOTOSEARCH_THREADS"]) if os.environ.get("PHOTOSEARCH_THREADS") else None,
        }
        for name, value in overrides.items():
            if value:
                settings._overrides[name] = (value, getattr(settings, name))
                setattr(settings, name, value)
        return settings

    def save(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        data = asdict(self)
        data.pop("data_dir")
        data.pop("_overrides")
        for name, (override, from_file) in self._overrides.items():
            if data.get(name) == override:  # unchanged since load: keep what the file said
                data[name] = from_file
        tmp = self.data_dir / (SETTINGS_FILE + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, default=str), encoding="utf-8")
        os.replace(tmp, self.data_dir / SETTINGS_FILE)
