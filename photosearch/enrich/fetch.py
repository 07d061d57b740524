"""Safe page fetching: only text, bounded in time and size, no private addresses.

* http/https only; no proxies from the environment (`trust_env=False`).
* The host is resolved ONCE; every address is checked; the connection goes to the checked
  address (the URL is rewritten to the IP, Host header and TLS SNI/verification keep the name),
  so a DNS answer that changes between check and connect cannot reach a private address.
* Redirects are followed by hand (limited); each hop is re-checked.
* Connect/read timeouts plus a whole-fetch deadline, enforced by a watchdog that shuts the
  connection's sockets down (a server trickling headers or body cannot hold a fetch open); the body
  is streamed and cut at a size cap; content types are allow-listed; scripts and styles are
  stripped and never run.
"""

from __future__ import annotations

import http.client
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Iterable
from urllib.parse import urljoin, urlsplit, urlunsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from photosearch.enrich.cache import DiskCache
from photosearch.enrich.clean import to_text
from photosearch.enrich.types import EnrichError, Page
from photosearch.errors import PhotoSearchError

log = logging.getLogger(__name__)

USER_AGENT = "PhotoSearch/0.1 (+offline-first photo search; text-only fetch)"
TEXT_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "text/markdown", "application/json")
# Cloud metadata endpoints: refused even when private addresses are allowed.
METADATA = {
    ipaddress.ip_address("169.254.169.254"),
    ipaddress.ip_address("fd00:ec2::254"),
    ipaddress.ip_address("100.100.100.200"),
}


class FetchRefused(EnrichError, PhotoSearchError):
    """The URL is not allowed (scheme, address, type) — never retried."""


class FetchFailed(EnrichError, PhotoSearchError):
    """The fetch did not work (timeout, HTTP error, too many redirects)."""


PRIVATE_REFUSAL = "a private, loopback, link-local or reserved address"


class AddressPolicy:
    """Which resolved addresses may be contacted.

    allow_private: False (public internet only), True (also private/loopback/link-local), or an
    iterable of networks ("127.0.0.0/8") that are allowed in addition to public addresses.
    Metadata, multicast and unspecified addresses are always refused."""

    def __init__(self, allow_private: bool | Iterable[str] = False):
        if isinstance(allow_private, bool):
            self.allow_all_private = allow_private
            self.networks: list = []
        else:
            self.allow_all_private = False
            self.networks = [ipaddress.ip_network(n, strict=False) for n in allow_private]

    def refusal(self, ip: str) -> str | None:
        """Why this address is refused, or None when it may be contacted."""
        addr = ipaddress.ip_address(ip.split("%", 1)[0])
        if isinstance(addr, ipaddress.IPv6Address):
            if addr.ipv4_mapped:
                addr = addr.ipv4_mapped
            else:  # 6to4 and Teredo carry an IPv4 address: that one must pass too
                inner = addr.sixtofour or (addr.teredo[1] if addr.teredo else None)
                if inner is not None:
                    why = self._refusal(inner)
                    if why:
                        return f"{why} (wrapped in {addr})"
        return self._refusal(addr)

    def _refusal(self, addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
        if addr in METADATA:
            return "a cloud metadata address"
        if addr.is_multicast or addr.is_unspecified:
            return "a multicast or unspecified address"
        if any(addr in n for n in self.networks):
            return None
        private = (
            not addr.is_global
            or addr.is_private
            or addr.is_loopback
            or addr.is_link_local
            or addr.is_reserved
            or (isinstance(addr, ipaddress.IPv6Address) and addr.is_site_local)
        )
        if private and not self.allow_all_private:
            return PRIVATE_REFUSAL
        return None


def check_host_name(host: str) -> str:
    """The ASCII (IDNA) form of a host name, or FetchRefused: labels of 1-63 characters, 253 in all."""
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError as exc:  # a label over 63 characters, an empty label, invalid IDNA
        raise FetchRefused(f"{host[:80]!r} is not a valid host name ({exc})") from None
    labels = ascii_host.rstrip(".").split(".")
    if len(ascii_host) > 253 or any(not 0 < len(label) <= 63 for label in labels):
        raise FetchRefused(f"{host[:80]!r} is not a valid host name (labels are 1-63 characters, 253 in all)")
    return ascii_host


def resolve(host: str, port: int, timeout: float | None = None) -> list[str]:
    """All addresses of a host (one lookup), within `timeout` seconds.

    getaddrinfo cannot be interrupted, so it runs in a daemon thread: a resolver that hangs
    costs a parked thread, never the fetch's deadline."""
    ascii_host = check_host_name(host)
    box: dict = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            box["infos"] = socket.getaddrinfo(ascii_host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=lookup, name="resolve", daemon=True).start()
    if not done.wait(timeout):
        raise FetchFailed(f"cannot resolve {host}: took too long (no answer within {timeout:.1f}s)")
    error = box.get("error")
    if isinstance(error, UnicodeError):
        raise FetchRefused(f"{host[:80]!r} is not a valid host name ({error})")
    if error is not None:
        raise FetchFailed(f"cannot resolve {host}: {error}")
    addrs = list(dict.fromkeys(info[4][0] for info in box["infos"]))
    if not addrs:
        raise FetchFailed(f"cannot resolve {host}")
    return addrs


class _PinnedAdapter(HTTPAdapter):
    """Connects to the IP in the URL while TLS checks the certificate against the real host name.

    It keeps a duplicate of every socket it opens, so `abort()` (called by the deadline watchdog
    from another thread) can shut the connections down and wake a read blocked on a trickling
    server, during the TLS handshake too."""

    def __init__(self, hostname: str):
        self.hostname = hostname
        self.aborted = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        adapter = self

        class Conn(HTTPConnection):
            def _new_conn(self) -> socket.socket:
                return adapter._track(super()._new_conn())

        class TLSConn(HTTPSConnection):
            def _new_conn(self) -> socket.socket:
                return adapter._track(super()._new_conn())

        class Pool(HTTPConnectionPool):
            ConnectionCls = Conn

        class TLSPool(HTTPSConnectionPool):
            ConnectionCls = TLSConn

        self.poolmanager.pool_classes_by_scheme = {"http": Pool, "https": TLSPool}

    def _track(self, sock: socket.socket) -> socket.socket:
        # A duplicate descriptor: shutdown() acts on the connection itself, so it still works after
        # TLS has wrapped (detached) the original socket object, and the descriptor is never reused.
        dup = sock.dup()
        with self._lock:
            self._sockets.append(dup)
            late = self.aborted
        if late:  # the deadline passed while connecting
            _shutdown(dup)
        return sock

    def abort(self) -> None:
        """Shut down every connection this adapter opened (thread-safe; reads then fail at once)."""
        with self._lock:
            self.aborted = True
            socks = list(self._sockets)
        for sock in socks:
            _shutdown(sock)

    def close(self) -> None:
        super().close()
        with self._lock:
            socks, self._sockets = self._sockets, []
        for sock in socks:
            sock.close()

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        params, ctx = super().build_connection_pool_key_attributes(request, verify, cert)
        if params.get("scheme") == "https":
            ctx["server_hostname"] = self.hostname
            ctx["assert_hostname"] = self.hostname
        return params, ctx


def _shutdown(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


def _read_capped(resp: requests.Response, cap: int, deadline: float) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    for chunk in resp.iter_content(16384):
        if time.monotonic() > deadline:
            raise FetchFailed(f"{resp.url}: took too long")
        chunks.append(chunk)
        size += len(chunk)
        if size >= cap:
            return b"".join(chunks)[:cap], True
    return b"".join(chunks), False


def _decode(raw: bytes, resp: requests.Response) -> str:
    enc = None
    ct = resp.headers.get("Content-Type", "")
    if "charset=" in ct.lower():
        enc = ct.lower().split("charset=", 1)[1].split(";")[0].strip(" \"'")
    for candidate in (enc, "utf-8"):
        if not candidate:
            continue
        try:
            return raw.decode(candidate)
        except (LookupError, UnicodeDecodeError):
            continue
    return raw.decode("utf-8", errors="replace")


class Fetcher:
    """Fetch and clean one page at a time, within the limits."""

    def __init__(
        self,
        *,
        allow_private: bool | Iterable[str] = False,
        connect_timeout: float = 5.0,
        read_timeout: float = 10.0,
        max_seconds: float = 20.0,
        max_bytes: int = 1_500_000,
        max_redirects: int = 4,
        cache: DiskCache | None = None,
    ):
        self.policy = AddressPolicy(allow_private)
        self.timeout = (connect_timeout, read_timeout)
        self.max_seconds = max_seconds
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.cache = cache
        self.requests_sent: list[str] = []  # URLs contacted, for the record and tests

    @classmethod
    def from_settings(cls, settings, **kw) -> Fetcher:
        cache = DiskCache(settings.cache_dir / "enrich") if settings is not None else None
        allow = bool(getattr(settings, "allow_private_addresses", False))
        return cls(allow_private=allow, cache=cache, **kw)

    def check_url(self, url: str, deadline: float | None = None) -> tuple[str, str, int, str]:
        """(scheme, host, port, ip) for an allowed URL, else FetchRefused; name resolution ends by
        `deadline` (time.monotonic()) or FetchFailed."""
        try:
            parts = urlsplit(url)
            explicit_port = parts.port
        except ValueError as exc:  # "http://host:99999/", "http://[::1/"
            raise FetchRefused(f"{url}: malformed URL ({exc})") from exc
        if parts.scheme not in ("http", "https"):
            raise FetchRefused(f"{url}: only http and https URLs are fetched")
        host = parts.hostname
        if not host:
            raise FetchRefused(f"{url}: no host")
        if parts.username or parts.password:
            raise FetchRefused(f"{url}: credentials in URLs are not sent")
        port = explicit_port or (443 if parts.scheme == "https" else 80)
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        addrs = resolve(host, port, timeout)
        for ip in addrs:
            why = self.policy.refusal(ip)
            if why:
                # only a private address is the setting's to allow: metadata, multicast and
                # unspecified addresses are refused whatever it says
                hint = (
                    " (set allow_private_addresses in settings.json to reach local servers)"
                    if why.startswith(PRIVATE_REFUSAL)
                    else " (never fetched, whatever the settings say)"
                )
                raise FetchRefused(f"{url}: {host} resolves to {ip}, {why}; refused{hint}")
        return parts.scheme, host, port, addrs[0]

    def get(
        self,
        url: str,
        *,
        accept: tuple[str, ...] = TEXT_TYPES,
        max_bytes: int | None = None,
        max_seconds: float | None = None,
    ) -> tuple[str, str, str]:
        """(final_url, content_type, body text) — the raw text, not cleaned; within `max_seconds` (the
        caller's time left) or the fetcher's own cap, whichever is smaller."""
        cap = max_bytes or self.max_bytes
        limit = self.max_seconds if max_seconds is None else min(self.max_seconds, max_seconds)
        deadline = time.monotonic() + limit
        seen: set[str] = set()
        current = url
        for _hop in range(self.max_redirects + 1):
            if current in seen:
                raise FetchFailed(f"{url}: redirect loop")
            seen.add(current)
            if time.monotonic() >= deadline:  # spent before this hop: send nothing, resolve nothing
                raise FetchFailed(f"{current}: took too long")
            scheme, host, port, ip = self.check_url(current, deadline)
            parts = urlsplit(current)
            ip_host = f"[{ip}]" if ":" in ip else ip
            netloc = ip_host if parts.port is None else f"{ip_host}:{parts.port}"
            pinned = urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))
            host_header = host if parts.port is None else f"{host}:{parts.port}"
            left = deadline - time.monotonic()
            if left <= 0:
                raise FetchFailed(f"{current}: took too long")
            adapter = _PinnedAdapter(host)
            watchdog = threading.Timer(left, adapter.abort)
            watchdog.daemon = True
            with requests.Session() as session:
                session.trust_env = False
                session.mount(f"{scheme}://", adapter)
                self.requests_sent.append(current)
                watchdog.start()
                try:
                    result = self._exchange(session, current, pinned, host_header, accept, cap, deadline)
                except (
                    requests.RequestException,
                    OSError,
                    ValueError,
                    urllib3.exceptions.HTTPError,
                    http.client.HTTPException,
                ) as exc:
                    if adapter.aborted:
                        raise FetchFailed(f"{current}: took too long") from exc
                    raise FetchFailed(f"{current}: {type(exc).__name__}: {exc}") from exc
                except EnrichError:
                    if adapter.aborted:
                        raise FetchFailed(f"{current}: took too long") from None
                    raise
                finally:
                    watchdog.cancel()
            if adapter.aborted:  # a cut-off body can look complete (no Content-Length)
                raise FetchFailed(f"{current}: took too long")
            if isinstance(result, str):  # a redirect
                try:
                    current = urljoin(current, result)
                except ValueError as exc:
                    raise FetchRefused(f"{current}: malformed redirect location {result!r}") from exc
                continue
            return result
        raise FetchFailed(f"{url}: too many redirects")

    def _exchange(
        self,
        session: requests.Session,
        current: str,
        pinned: str,
        host_header: str,
        accept: tuple[str, ...],
        cap: int,
        deadline: float,
    ) -> tuple[str, str, str] | str:
        """One request: the redirect location (str) or (final_url, content_type, text)."""
        try:
            resp = session.get(
                pinned,
                # identity: no compressed body, so a gzip bomb never inflates before the size cap reads it
                headers={
                    "Host": host_header,
                    "User-Agent": USER_AGENT,
                    "Accept": ", ".join(accept),
                    "Accept-Encoding": "identity",
                },
                timeout=self.timeout,
                allow_redirects=False,
                stream=True,
            )
        except ValueError as exc:  # requests parses a Location it will not follow ("http://[::1/")
            if isinstance(exc, requests.RequestException):
                raise
            raise FetchRefused(f"{current}: malformed response or redirect location ({exc})") from exc
        with resp:
            if 300 <= resp.status_code < 400:
                location = resp.headers.get("Location", "")
                if not location or not resp.is_redirect:
                    raise FetchFailed(f"{current}: HTTP {resp.status_code} without a redirect location")
                return location
            if resp.status_code >= 400:
                raise FetchFailed(f"{current}: HTTP {resp.status_code}")
            ctype = resp.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if ctype not in accept:
                raise FetchRefused(f"{current}: content type {ctype or 'unknown'!r} is not fetched")
            declared = resp.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > cap * 4:
                raise FetchRefused(f"{current}: {declared} bytes is too large")
            raw, _truncated = _read_capped(resp, cap, deadline)
            return current, resp.headers.get("Content-Type", ctype), _decode(raw, resp)

    def fetch(self, url: str, *, max_bytes: int | None = None, max_seconds: float | None = None) -> Page:
        """A cleaned page (title + text), from the cache when fresh."""
        if self.cache is not None:
            hit = self.cache.get("page", url)
            if hit:
                return Page(**hit)
        final, ctype, body = self.get(url, max_bytes=max_bytes, max_seconds=max_seconds)
        title, text = to_text(body, ctype)
        page = Page(url=url, title=title[:300], text=text, bytes=len(body.encode("utf-8", "replace")))
        if self.cache is not None:
            self.cache.put("page", url, page.__dict__)
        log.debug("fetched %s (%d bytes) via %s", url, page.bytes, final)
        return page
