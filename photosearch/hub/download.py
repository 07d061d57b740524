"""Fetch one file: plain HTTP(S) with Range resume, or a Hugging Face repo file via huggingface-hub.

Both write only under a staging folder; the caller verifies and renames into place.
Progress is reported as ``on_bytes(n)`` increments; ``cancel()`` returning True aborts
(the partial file stays for the next resume).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from photosearch.errors import Cancelled, PhotoSearchError

CHUNK = 1 << 16
RETRIES = 3  # reconnects within one pull after a dropped connection (each resumes with Range)
DEFAULT_ENDPOINT = "https://huggingface.co"


class DownloadError(PhotoSearchError):
    """A model file could not be fetched."""


class RemoteNotFound(DownloadError):
    """The hub answered: no such repo, revision or file."""


def hf_endpoint(source: dict | None = None) -> str:
    """The hub endpoint: the manifest's, else ``HF_ENDPOINT`` read now (not at import), else huggingface.co."""
    if source and source.get("endpoint"):
        return str(source["endpoint"]).rstrip("/")
    return os.environ.get("HF_ENDPOINT", DEFAULT_ENDPOINT).rstrip("/")


def http_download(
    url: str,
    part: Path,
    *,
    expected_size: int | None = None,
    on_bytes: Callable[[int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    timeout: float = 30.0,
    retries: int | None = None,
) -> Path:
    """Download ``url`` into ``part`` (a ``.part`` file), resuming from its current size with a Range
    request. Retries dropped connections (resuming each time; an attempt that brought bytes does not count
    against ``retries``). Returns ``part`` once complete."""
    import requests

    part.parent.mkdir(parents=True, exist_ok=True)
    retries = RETRIES if retries is None else retries
    job = _Resumable(url, part, expected_size, on_bytes, cancel, timeout)
    attempt = 0
    while True:
        have = job.resume_point()
        if expected_size is not None and have == expected_size:
            return part
        job.written = 0
        try:
            if job.fetch(have):
                return part
        except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as exc:
            attempt = 1 if job.written else attempt + 1  # bytes arrived: keep trying
            if attempt > retries:
                raise DownloadError(
                    f"cannot download {url}: {_short(exc)} (kept {part.name} to resume; check the network and "
                    "run the pull again)"
                ) from exc
            time.sleep(min(0.2 * attempt, 1.0))


@dataclass
class _Resumable:
    """One file being fetched into its ``.part`` file, request after request."""

    url: str
    part: Path
    expected_size: int | None
    on_bytes: Callable[[int], None] | None
    cancel: Callable[[], bool] | None
    timeout: float
    written: int = 0  # bytes written by the current request

    def resume_point(self) -> int:
        """Bytes already held (a part longer than the file is dropped)."""
        have = self.part.stat().st_size if self.part.exists() else 0
        if self.expected_size is not None and have > self.expected_size:
            self.part.unlink()
            return 0
        return have

    def fetch(self, have: int) -> bool:
        """One request from byte ``have``: True when the file is complete, False to start over at once.
        A connection that ends early raises ``requests.ConnectionError``."""
        import requests

        headers = {"Accept-Encoding": "identity"}
        if have:
            headers["Range"] = f"bytes={have}-"
        with requests.get(self.url, headers=headers, stream=True, timeout=self.timeout) as r:
            if r.status_code == 416 and have:
                # The server has nothing past what we hold: complete only if sizes agree.
                if _total_from_416(r) == have:
                    return True
                self.part.unlink()
                return False
            if r.status_code == 404:
                raise RemoteNotFound(f"{self.url}: not found (HTTP 404)")
            if r.status_code not in (200, 206):
                raise DownloadError(f"{self.url}: HTTP {r.status_code} {r.reason}")
            restart = bool(have) and r.status_code == 200  # the server ignored Range: start over
            if restart and self.on_bytes:
                self.on_bytes(-have)
            self._write(r, "wb" if restart else "ab")
        got = self.part.stat().st_size
        if self.expected_size is not None and got != self.expected_size:
            raise requests.ConnectionError(f"connection ended at {got} of {self.expected_size} bytes")
        return True

    def _write(self, response, mode: str) -> None:
        with open(self.part, mode) as f:
            for chunk in response.iter_content(CHUNK):
                if self.cancel and self.cancel():
                    raise Cancelled(f"download of {self.url} cancelled; run pull again to resume")
                if chunk:
                    f.write(chunk)
                    self.written += len(chunk)
                    if self.on_bytes:
                        self.on_bytes(len(chunk))


def _total_from_416(r) -> int | None:
    cr = r.headers.get("Content-Range", "")
    if "/" in cr:
        tail = cr.rsplit("/", 1)[1]
        if tail.isdigit():
            return int(tail)
    return None


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) < 300 else text[:300] + "…"


def hf_download(
    repo: str,
    remote_path: str,
    staging: Path,
    *,
    revision: str = "main",
    endpoint: str | None = None,
    on_bytes: Callable[[int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Path:
    """Fetch one repo file with ``hf_hub_download`` into ``staging`` (its ``local_dir``). huggingface-hub
    keeps an ``.incomplete`` file under ``staging/.cache`` and resumes it with a Range request."""
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    try:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import (
            EntryNotFoundError,
            HfHubHTTPError,
            LocalEntryNotFoundError,
            RepositoryNotFoundError,
            RevisionNotFoundError,
        )
    except ImportError as exc:  # pragma: no cover - hub extra missing
        raise DownloadError("pulling from Hugging Face needs `pip install huggingface-hub`") from exc

    bar_class = _callback_tqdm(on_bytes, cancel)
    ep = endpoint or hf_endpoint()
    probe_endpoint(f"{ep}/{repo}/resolve/{revision}/{remote_path}")
    try:
        path = hf_hub_download(
            repo_id=repo,
            filename=remote_path,
            revision=revision,
            local_dir=str(staging),
            endpoint=ep,
            tqdm_class=bar_class,
            etag_timeout=15,
        )
    except Cancelled:
        raise
    except LocalEntryNotFoundError as exc:
        raise DownloadError(
            f"cannot reach {ep} to fetch {repo}/{remote_path} (offline? set HF_ENDPOINT for a mirror): {_short(exc)}"
        ) from exc
    except (RepositoryNotFoundError, RevisionNotFoundError, EntryNotFoundError) as exc:
        raise RemoteNotFound(f"{repo}@{revision}: {remote_path} not found on {ep}: {_short(exc)}") from exc
    except HfHubHTTPError as exc:
        raise DownloadError(f"{ep} refused {repo}/{remote_path}: {_short(exc)}") from exc
    except OSError as exc:  # consistency check, disk full, connection dropped after retries
        raise DownloadError(
            f"download of {repo}/{remote_path} failed: {_short(exc)} (run the pull again to resume)"
        ) from exc
    except Exception as exc:  # httpx errors surface with their own types
        raise DownloadError(f"download of {repo}/{remote_path} from {ep} failed: {_short(exc)}") from exc
    return Path(path)


def hf_list_folder(
    repo: str, folder: str, *, revision: str = "main", endpoint: str | None = None
) -> list[tuple[str, int | None, str | None]]:
    """(path, size, sha256 of LFS files) of every file under `folder` of a hub repo, recursively."""
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    try:
        from huggingface_hub import HfApi
        from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, RepositoryNotFoundError
        from huggingface_hub.hf_api import RepoFile
    except ImportError as exc:  # pragma: no cover - hub extra missing
        raise DownloadError("pulling from Hugging Face needs `pip install huggingface-hub`") from exc
    ep = endpoint or hf_endpoint()
    try:
        entries = list(
            HfApi(endpoint=ep).list_repo_tree(repo, path_in_repo=folder, revision=revision, recursive=True)
        )
    except (RepositoryNotFoundError, EntryNotFoundError) as exc:
        raise RemoteNotFound(f"{repo}@{revision}: folder {folder} not found on {ep}: {_short(exc)}") from exc
    except HfHubHTTPError as exc:
        raise DownloadError(f"{ep} refused to list {repo}/{folder}: {_short(exc)}") from exc
    except Exception as exc:  # connection errors surface with the HTTP client's own types
        raise DownloadError(f"cannot list {repo}/{folder} on {ep}: {_short(exc)}") from exc
    return [(e.path, e.size, e.lfs.sha256 if e.lfs else None) for e in entries if isinstance(e, RepoFile)]


def probe_endpoint(url: str, timeout: float = 10.0) -> None:
    """Fail fast and clearly when the hub cannot be reached (huggingface-hub itself would retry with
    back-off for ~20 s before giving a generic message)."""
    import requests

    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}:
        raise DownloadError(f"HF_HUB_OFFLINE is set: not fetching {url}; unset it to pull models")
    try:
        requests.head(url, timeout=timeout, allow_redirects=False)
    except (requests.ConnectionError, requests.Timeout) as exc:
        raise DownloadError(
            f"cannot reach {url.split('/', 3)[:3][-1] or url} ({_short(exc)}); you seem to be offline — "
            "connect and run the pull again (set HF_ENDPOINT to use a mirror)"
        ) from exc


def _callback_tqdm(on_bytes: Callable[[int], None] | None, cancel: Callable[[], bool] | None):
    """A silent tqdm class that forwards byte counts to ``on_bytes`` and raises ``Cancelled`` on request."""
    from tqdm.auto import tqdm

    class _Bar(tqdm):  # type: ignore[misc]
        def __init__(self, *args, **kwargs):
            kwargs["disable"] = True
            kwargs.pop("name", None)
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            if cancel and cancel():
                raise Cancelled("download cancelled; run pull again to resume")
            if on_bytes and n:
                on_bytes(int(n))
            return super().update(n)

    return _Bar
