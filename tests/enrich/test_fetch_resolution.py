"""Item 11 of issue 13: name resolution is inside the fetch deadline, and a bad host name is a
FetchRefused (not a raw UnicodeError)."""

from __future__ import annotations

import socket
import time

import pytest

from photosearch.enrich.fetch import Fetcher, FetchFailed, FetchRefused


def test_a_hanging_resolver_cannot_outlast_the_deadline(monkeypatch):
    def slow(host, port, *args, **kw):
        time.sleep(5)
        raise socket.gaierror("too late")

    monkeypatch.setattr(socket, "getaddrinfo", slow)
    fetcher = Fetcher(max_seconds=0.5)
    t0 = time.monotonic()
    with pytest.raises(FetchFailed, match="resolve"):
        fetcher.get("http://slow-dns.example/page")
    assert time.monotonic() - t0 < 2.0


@pytest.mark.parametrize("host", ["a" * 64 + ".example.com", "x." * 130 + "com", "bad..example.com"])
def test_an_invalid_host_name_is_refused(host):
    with pytest.raises(FetchRefused, match="not a valid host name"):
        Fetcher().get(f"http://{host}/")
