"""One typed settings object, persisted as JSON in the data dir, with env overrides."""

from __future__ import annotations

import json
import os
import re
import typing
from dataclasses import asdict, dataclass, field
from pathlib import Path

import platformdirs

from photosearch.errors import PhotoSearchError

APP_NAME = "PhotoSearch"
SETTINGS_FILE = "settings.json"


def default_data_dir() -> Path:
    """The platform's user data dir, or PHOTOSEARCH_DATA_DIR."""
    env = os.environ.get("PHOTOSEARCH_DATA_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class SettingsError(PhotoSearchError):
    """settings.json cannot be used as written; the message names the file and the key."""


def _accepts(kind, value) -> bool:
    """Does `value` (parsed JSON) have the declared type? Booleans only as true/false, never strings."""
    if kind is bool:
        return type(value) is bool
    if kind is int:
        return type(value) is int
    if kind is float:
        return type(value) in (int, float)
    if kind is str:
        return type(value) is str
    args = typing.get_args(kind)
    if args:  # X | None
        return any(_accepts(a, value) if a is not type(None) else value is None for a in args)
    return False


def _type_name(kind) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}
    args = typing.get_args(kind)
    if args:
        return " or ".join("null" if a is type(None) else names.get(a, str(a)) for a in args)
    return names.get(kind, str(kind))


#: Allowed range of each numeric setting (inclusive). Outside it a value is refused when settings are
#: loaded or saved, so a typo can never turn good photos into failures (thumbnail_size 0 once made
#: every photo "corrupt").
RANGES: dict[str, tuple[int, int]] = {
    "threads": (1, 256),
    "batch_size": (1, 4096),
    "decode_workers": (1, 64),
    "model_lanes": (1, 16),
    "thumbnail_size": (64, 1024),
    "analysis_max_side": (320, 8192),
    "max_image_pixels": (1_000_000, 2_000_000_000),
    "max_file_bytes": (1 << 10, 1 << 40),
}


#: Settings that take one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {
    "search_backend": ("searxng", "wikipedia", "duckduckgo", "local"),
    "sidecar_naming": ("photo.jpg.xmp", "photo.xmp"),
}


#: A point on the globe, "LAT,LON" in decimal degrees ("38.79,-9.18").
_POINT = re.compile(r"\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*")


def parse_point(text: str) -> tuple[float, float] | None:
    """(lat, lon) of a "LAT,LON" text, or None where it is no point on the globe."""
    m = _POINT.fullmatch(text or "")
    if m is None:
        return None
    lat, lon = float(m.group(1)), float(m.group(2))
    return (lat, lon) if -90 <= lat <= 90 and -180 <= lon <= 180 else None


def check_range(key: str, value, where: str) -> None:
    """Raise `SettingsError` naming `key` and its allowed range (or words) when `value` is outside."""
    if key == "home_spot" and value is not None and parse_point(value) is None:
        raise SettingsError(f"{where}: setting 'home_spot' must be \"LAT,LON\" in degrees, got {value!r}")
    choices = CHOICES.get(key)
    if choices is not None and value not in choices:
        raise SettingsError(f"{where}: setting {key!r} must be one of {', '.join(choices)}; got {value!r}")
    bounds = RANGES.get(key)
    if bounds is None or value is None or isinstance(value, bool):
        return
    low, high = bounds
    if not low <= value <= high:
        raise SettingsError(f"{where}: setting {key!r} must be between {low:,} and {high:,}, got {value!r}")


def parse_settings_file(path: Path) -> dict:
    """The typed values of settings.json: unknown keys, wrong types and bad JSON are `SettingsError`s."""
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path} is not UTF-8 text ({exc.reason}); fix or remove it") from None
    try:
        values = json.loads(raw)
    except ValueError as exc:
        raise SettingsError(
            f"{path} is not valid JSON ({exc}); fix or remove it (it was not changed)"
        ) from None
    if not isinstance(values, dict):
        raise SettingsError(f"{path} must hold a JSON object of settings, not {type(values).__name__}")
    hints = typing.get_type_hints(Settings)
    for key, value in values.items():
        if key not in FILE_KEYS:
            raise SettingsError(f"{path}: unknown setting {key!r} (known: {', '.join(sorted(FILE_KEYS))})")
        if not _accepts(hints[key], value):
            raise SettingsError(
                f"{path}: setting {key!r} must be {_type_name(hints[key])}, got {json.dumps(value)}"
            )
        check_range(key, value, str(path))
    return values


@dataclass
class Settings:
    """Everything the core can be configured with (the GUI keeps its own window state)."""

    data_dir: Path = field(default_factory=default_data_dir)
    db_url: str | None = None
    threads: int = 2
    gpu: bool = True
    batch_size: int = 16
    decode_workers: int = 2
    # Analyzers that need nothing from each other run side by side on this many threads
    # (ingest/model_lanes.py): on 2 cores, OCR beside the detector, faces and tagger.
    model_lanes: int = 2
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
    # The LLM (planner, agents): a pulled hub LLM's name, a GGUF path, or "bundled"; None: a pulled hub
    # LLM, else the bundled gemma3-270m (photosearch.models.llm.resolve_llm).
    llm_model: str | None = None
    # The person the user is ("me" in requests); a name known to the catalog.
    owner: str | None = None
    # Home town, as a place name ("Lisbon"): what "abroad" and "my home town" mean. None: where most
    # photos with a place were taken (query/home.py).
    home: str | None = None
    # Home's spot, "LAT,LON" (decimal degrees), set from a photo taken there (a photo's "This was
    # taken at home"): what "kids at home" means. None: where photos were taken on the most days.
    home_spot: str | None = None
    # ---- XMP sidecar write-back (issue 23; metadata/writeback.py) ----
    # Off by default: when on, names given to people, tags added by hand, ratings and captions are
    # merged into XMP sidecars beside the photos (never into the photos themselves), named
    # "photo.jpg.xmp" (digiKam, darktable) or "photo.xmp" (Lightroom).
    sidecar_writeback: bool = False
    sidecar_naming: str = "photo.jpg.xmp"
    # ---- end of sidecar write-back ----
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
            try:
                d.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise data_dir_error(d, exc) from None

    @classmethod
    def load(cls, data_dir: Path | str | None = None, db_url: str | None = None) -> Settings:
        """Read settings.json from the data dir; explicit arguments and env win."""
        base = Path(data_dir).expanduser() if data_dir else default_data_dir()
        path = base / SETTINGS_FILE
        try:
            exists = path.is_file()
        except OSError as exc:  # an unreadable data dir (chmod 000, another user's)
            raise data_dir_error(base, exc) from None
        values = parse_settings_file(path) if exists else {}
        settings = cls(data_dir=base, **values)
        overrides = {
            "db_url": db_url or os.environ.get("PHOTOSEARCH_DB_URL"),
            "search_url": os.environ.get("PHOTOSEARCH_SEARCH_URL"),
            "threads": _env_int("PHOTOSEARCH_THREADS"),
        }
        for name, value in overrides.items():
            if value:
                check_range(name, value, "PHOTOSEARCH_THREADS" if name == "threads" else name)
                settings._overrides[name] = (value, getattr(settings, name))
                setattr(settings, name, value)
        return settings

    def check(self) -> None:
        """Every numeric setting within its range (`SettingsError` names the first that is not)."""
        for key in (*RANGES, *CHOICES):
            check_range(key, getattr(self, key), "settings")

    def save(self) -> None:
        """Write settings.json atomically; a file that does not parse is never overwritten, and
        values out of range are refused before anything is written."""
        self.check()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if (self.data_dir / SETTINGS_FILE).is_file():
            parse_settings_file(self.data_dir / SETTINGS_FILE)
        data = asdict(self)
        data.pop("data_dir")
        data.pop("_overrides")
        for name, (override, from_file) in self._overrides.items():
            if data.get(name) == override:  # unchanged since load: keep what the file said
                data[name] = from_file
        tmp = self.data_dir / (SETTINGS_FILE + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, default=str), encoding="utf-8")
        os.replace(tmp, self.data_dir / SETTINGS_FILE)


def data_dir_error(path: Path, exc: OSError) -> SettingsError:
    """The data folder (or one inside it) cannot be used: say which, why, and what to do."""
    return SettingsError(
        f"cannot use the data folder {path}: {exc.strerror or exc}; fix its permissions, or choose "
        "another with --data-dir or PHOTOSEARCH_DATA_DIR"
    )


def _env_int(name: str) -> int | None:
    value = os.environ.get(name)
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, got {value!r}") from None


# Keys settings.json may hold: every setting except where it lives and the in-memory override record.
FILE_KEYS = frozenset(
    name for name in Settings.__dataclass_fields__ if name not in ("data_dir", "_overrides")
)
