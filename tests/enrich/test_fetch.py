"""The fetcher's guard and limits, against the loopback test web and stubbed name resolution."""

from __future__ import annotations

import socket

import pytest

from photosearch.enrich.fetch import AddressPolicy, Fetcher, FetchFailed, FetchRefused
from tests.enrich.helpers import silent_server

LOOPBACK = ["127.0.0.0/8"]


@pytest.fixture
def fake_dns(monkeypatch):
    """Stub name resolution for *.example hosts; count lookups; pass IP literals through."""
    real = socket.getaddrinfo
    table: dict[str, list[str]] = {}
    calls: dict[str, int] = {}

    def fake(host, port, *args, **kw):
        if host in table:
            calls[host] = calls.get(host, 0) + 1
            answers = table[host]
            ips = answers if not callable(answers) else answers(calls[host])
            return [
                (
                    socket.AF_INET6 if ":" in ip else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (ip, port, 0, 0) if ":" in ip else (ip, port),
                )
                for ip in ips
            ]
        if isinstance(host, str) and host.endswith(".example"):
            raise socket.gaierror("unknown test host")
        return real(host, port, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return table, calls


@pytest.mark.parametrize(
    "ip",
    [
        "10.1.2.3",
        "192.168.0.7",
        "172.16.5.5",
        "127.0.0.1",
        "169.254.10.10",
        "169.254.169.254",
        "fd00:ec2::254",
        "::1",
        "fe80::1",
        "224.0.0.1",
        "0.0.0.0",
        "100.64.0.1",
        "::ffff:10.0.0.1",
        "240.0.0.1",
    ],
)
def test_private_addresses_are_refused_before_any_connect(fake_dns, loopback_only, ip):
    table, _ = fake_dns
    table["target.example"] = [ip]
    f = Fetcher()
    with pytest.raises(FetchRefused, match="refused"):
        f.get("http://target.example/page")
    assert loopback_only == []  # the guard stopped it; nothing tried to connect
    assert f.requests_sent == []


def test_one_private_address_among_public_ones_refuses(fake_dns, loopback_only):
    table, _ = fake_dns
    table["mixed.example"] = ["93.184.216.34", "192.168.1.5"]
    with pytest.raises(FetchRefused, match="192.168.1.5"):
        Fetcher().get("http://mixed.example/")
    assert loopback_only == []


def test_metadata_refused_even_when_private_allowed(fake_dns, loopback_only):
    table, _ = fake_dns
    table["meta.example"] = ["169.254.169.254"]
    table["meta6.example"] = ["fd00:ec2::254"]
    f = Fetcher(allow_private=True)
    for host in ("meta.example", "meta6.example"):
        with pytest.raises(FetchRefused, match="metadata"):
            f.get(f"http://{host}/latest/meta-data/")
    assert loopback_only == []


def test_public_address_passes_the_policy():
    p = AddressPolicy(False)
    assert p.refusal("93.184.216.34") is None
    assert p.refusal("2606:4700::1111") is None
    assert p.refusal("127.0.0.1") is not None
    assert AddressPolicy(LOOPBACK).refusal("127.0.0.1") is None
    assert AddressPolicy(LOOPBACK).refusal("10.0.0.1") is not None


def test_bad_schemes_and_credentials_refused():
    f = Fetcher(allow_private=True)
    for url in ("file:///etc/passwd", "ftp://x.org/", "gopher://x/", "http://user:pw@127.0.0.1/"):
        with pytest.raises(FetchRefused):
            f.get(url)


def test_loopback_refused_by_default_and_allowed_explicitly(web):
    url = web.page("/hello", "Hello from the loopback web, a page about bicycles.")
    with pytest.raises(FetchRefused, match="private"):
        Fetcher().fetch(url)
    assert web.requests == []
    page = Fetcher(allow_private=LOOPBACK).fetch(url)
    assert "loopback web" in page.text


def test_dns_rebinding_connects_to_the_checked_address(web, fake_dns, loopback_only):
    """A name resolves once; the connection goes to that address even if a later lookup would differ."""
    table, calls = fake_dns
    table["rebind.example"] = lambda n: ["127.0.0.1"] if n == 1 else ["10.9.9.9"]
    web.page("/rebind", "Rebinding target page with some text.")
    page = Fetcher(allow_private=LOOPBACK).fetch(f"http://rebind.example:{web.port}/rebind")
    assert "Rebinding target" in page.text
    assert calls["rebind.example"] == 1
    assert loopback_only == []
    assert web.requests[-1]["host"] == f"rebind.example:{web.port}"  # Host header keeps the name


def test_redirect_to_metadata_or_private_refused(test_web, loopback_only):
    f = Fetcher(allow_private=LOOPBACK)
    with pytest.raises(FetchRefused, match="169.254.169.254"):
        f.fetch(test_web.url("/hostile/to-metadata"))
    with pytest.raises(FetchRefused, match="10.20.30.40"):
        f.fetch(test_web.url("/hostile/to-private"))
    assert loopback_only == []


def test_redirect_loop_and_hop_limit(test_web):
    with pytest.raises(FetchFailed, match="redirect loop|too many redirects"):
        Fetcher(allow_private=LOOPBACK).fetch(test_web.url("/hostile/loop-a"))
    page = Fetcher(allow_private=LOOPBACK).fetch(test_web.url("/hostile/to-ok"))
    assert "visible sentence" in page.text
    with pytest.raises(FetchFailed, match="too many redirects"):
        Fetcher(allow_private=LOOPBACK, max_redirects=0).fetch(test_web.url("/hostile/to-ok"))


def test_huge_page_is_cut_at_the_cap(test_web):
    page = Fetcher(allow_private=LOOPBACK, max_bytes=50_000).fetch(test_web.url("/hostile/huge"))
    assert 0 < page.bytes <= 50_000
    assert "filler words" in page.text


def test_declared_huge_refused_without_reading(test_web):
    with pytest.raises(FetchRefused, match="too large"):
        Fetcher(allow_private=LOOPBACK, max_bytes=10_000).fetch(test_web.url("/hostile/declared-huge"))


def test_slow_page_times_out(test_web):
    f = Fetcher(allow_private=LOOPBACK, read_timeout=0.5, max_seconds=1.0)
    with pytest.raises(FetchFailed):
        f.fetch(test_web.url("/hostile/slow"))


def test_scripts_and_styles_stripped(test_web):
    page = Fetcher(allow_private=LOOPBACK).fetch(test_web.url("/hostile/scripty"))
    assert "visible sentence about bicycles" in page.text
    for bad in ("SECRET_JS_PAYLOAD", "STYLE_TEXT", "NOSCRIPT_TEXT", "IFRAME_TEXT", "color:red"):
        assert bad not in page.text
    assert page.title == "Scripty"


@pytest.mark.parametrize("path", ["/hostile/binary", "/hostile/png"])
def test_wrong_content_type_refused(test_web, path):
    with pytest.raises(FetchRefused, match="content type"):
        Fetcher(allow_private=LOOPBACK).fetch(test_web.url(path))


def test_broken_encoding_still_yields_text(test_web):
    page = Fetcher(allow_private=LOOPBACK).fetch(test_web.url("/hostile/broken-encoding"))
    assert "Voltaro readable words" in page.text
    assert "\ufffd" in page.text


def test_pages_are_cached_with_expiry(web, settings):
    from photosearch.enrich.cache import DiskCache

    url = web.page("/cached", "A cached page about e-bikes.")
    f = Fetcher(allow_private=LOOPBACK, cache=DiskCache(settings.cache_dir / "t"))
    f.fetch(url)
    f.fetch(url)
    assert sum(r["path"] == "/cached" for r in web.requests) == 1
    stale = Fetcher(allow_private=LOOPBACK, cache=DiskCache(settings.cache_dir / "t", ttl_seconds=-1))
    stale.fetch(url)
    assert sum(r["path"] == "/cached" for r in web.requests) == 2


# ---- review fixes: deadline watchdog, wrapped IPv4, malformed URLs, 3xx without Location --------
class _Trickler:
    """A loopback server that sends a response one small piece every `gap` seconds, counting what it
    managed to send before the client hung up (bounded: at most `pieces` pieces)."""

    def __init__(self, mode: str, gap: float = 0.3, pieces: int = 100):
        import threading

        self.mode, self.gap, self.pieces = mode, gap, pieces
        self.sent = 0
        self.stop = threading.Event()
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(4)
        self.port = self.srv.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        try:
            conn, _ = self.srv.accept()
        except OSError:
            return
        with conn:
            try:
                conn.settimeout(5)
                req = b""
                while b"\r\n\r\n" not in req:
                    data = conn.recv(4096)
                    if not data:
                        return
                    req += data
                if self.mode == "headers":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
                    piece = b"X-Slow: yes\r\n"
                else:
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 500\r\n\r\n")
                    piece = b"a"
                for _ in range(self.pieces):
                    if self.stop.wait(self.gap):
                        return
                    conn.sendall(piece)
                    self.sent += 1
            except OSError:
                return  # the client hung up

    def close(self):
        self.stop.set()
        self.srv.close()
        self.thread.join(5)


@pytest.mark.parametrize("mode", ["headers", "body"])
def test_trickling_server_is_cut_at_the_deadline(mode):
    """Every read gets a byte well within the read timeout, yet the whole fetch ends at its deadline:
    the watchdog shuts the connection down (before the fix it stayed open ~30 s, 100 pieces)."""
    srv = _Trickler(mode)
    try:
        f = Fetcher(allow_private=LOOPBACK, read_timeout=5.0, max_seconds=1.5)
        with pytest.raises(FetchFailed, match="took too long"):
            f.get(f"http://127.0.0.1:{srv.port}/")
        srv.thread.join(5)  # the server notices the hang-up on its next send
        # 1.5 s at one piece per 0.3 s is ~5 pieces; 10 (= 3 s) leaves room for a loaded machine
        assert srv.sent <= 10, srv.sent
        assert not srv.thread.is_alive()
    finally:
        srv.close()


def test_deadline_already_passed_before_a_redirect_hop(test_web):
    f = Fetcher(allow_private=LOOPBACK, max_seconds=0.0)
    with pytest.raises(FetchFailed, match="took too long"):
        f.get(test_web.url("/hostile/to-ok"))
    assert f.requests_sent == []


@pytest.mark.parametrize(
    "ip, why",
    [
        ("2002:a00:1::1", "private"),  # 6to4 wrapping 10.0.0.1
        ("2002:7f00:1::", "private"),  # 6to4 wrapping 127.0.0.1
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "private"),  # Teredo, client 10.0.0.1
    ],
)
def test_ipv6_wrapped_private_ipv4_refused(fake_dns, loopback_only, ip, why):
    table, _ = fake_dns
    table["wrapped.example"] = [ip]
    f = Fetcher()
    with pytest.raises(FetchRefused, match=why):
        f.get("http://wrapped.example/")
    assert loopback_only == [] and f.requests_sent == []


def test_ipv6_wrapped_metadata_refused_even_when_private_allowed(fake_dns, loopback_only):
    table, _ = fake_dns
    table["meta6to4.example"] = ["2002:a9fe:a9fe::1"]  # 6to4 wrapping 169.254.169.254
    with pytest.raises(FetchRefused, match="metadata"):
        Fetcher(allow_private=True).get("http://meta6to4.example/latest/meta-data/")
    assert loopback_only == []
    # with private addresses allowed the wrapper alone would pass; a public 6to4 address passes
    assert AddressPolicy(True).refusal("2002:a00:1::1") is None
    assert AddressPolicy(False).refusal("2002:5db8:d822::1") is None  # 6to4 wrapping 93.184.216.34
    assert AddressPolicy(LOOPBACK).refusal("2002:7f00:1::") is None  # the wrapped address is allowed


@pytest.mark.parametrize("url", ["http://host.example:99999/", "http://[::1/", "http://[::1]:0x50/"])
def test_malformed_urls_are_refused_not_value_errors(url):
    f = Fetcher(allow_private=True)
    with pytest.raises(FetchRefused, match="malformed"):
        f.get(url)
    assert f.requests_sent == []


def test_redirect_to_a_malformed_location_refused(web):
    url = web.raw("/to-malformed", 302, {"Location": "http://[::1/x"}, b"")
    with pytest.raises(FetchRefused, match="malformed"):
        Fetcher(allow_private=LOOPBACK).get(url)


@pytest.mark.parametrize("status", [300, 304, 307])
def test_3xx_without_location_fails(web, status):
    url = web.raw(
        f"/no-location-{status}",
        status,
        {"Content-Type": "text/html"},
        b"" if status == 304 else b"<p>hello</p>",
    )
    with pytest.raises(FetchFailed, match=f"HTTP {status} without a redirect location"):
        Fetcher(allow_private=LOOPBACK).fetch(url)


def test_silent_server_is_cut_at_the_deadline_not_the_read_timeout():
    """A server that accepts and never answers: the watchdog ends it at max_seconds (1 s), long before
    the 30 s read timeout would."""
    with silent_server() as url:
        f = Fetcher(allow_private=LOOPBACK, read_timeout=30.0, max_seconds=1.0)
        with pytest.raises(FetchFailed, match="took too long"):
            f.get(url)


def test_gzip_bomb_is_never_inflated_past_the_cap(web):
    """Pages are asked for uncompressed; a server that sends a gzip bomb anyway is still cut at the cap
    (urllib3 >= 2.6 inflates only what is read), so memory stays bounded."""
    import gzip
    import tracemalloc

    bomb = gzip.compress(b"<html><body>" + b"a" * 200_000_000 + b"</body></html>", compresslevel=9)
    url = web.raw("/bomb", 200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}, bomb)
    tracemalloc.start()
    try:
        page = Fetcher(allow_private=LOOPBACK, max_bytes=100_000).fetch(url)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(bomb) < 300_000 and page.bytes <= 100_000
    assert peak < 40_000_000, f"fetching a {len(bomb)}-byte bomb peaked at {peak / 1e6:.0f} MB"
    assert [r["accept_encoding"] for r in web.requests if r["path"] == "/bomb"] == ["identity"]
