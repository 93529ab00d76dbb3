"""The local fetch checks the address it connects to, so DNS cannot lead it to a private network.

Production Workers run with `global_fetch_strictly_public`: whatever a name resolves to, fetch
never connects to a private address. The local platform imitates that from ALLOW_PRIVATE_HOSTS.
Names are pinned by patching the loop's resolver, so nothing here sends a packet anywhere but
127.0.0.1 (a refused address is refused before any connection is tried).
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from common.net_failure import NetFailure, classify_net_failure
from local_platform.fetch import FetchError, aclose_shared_client, fetch, restrict_addresses
from local_platform.runtime import LocalPlatform
from urls.private_hosts import PrivateHosts


class _Ok(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"ok")


@pytest.fixture
def port() -> Iterator[int]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()
    thread.join()


# Names and the addresses the patched resolver gives them; only 127.0.0.1 is ever connected to.
RESOLVES = {
    "loopback.test": ["127.0.0.1"],
    "private.test": ["10.1.2.3"],
    "metadata.test": ["169.254.169.254"],
    "mixed.test": ["10.1.2.3", "127.0.0.1"],
    # IPv6 answers that embed a private IPv4 (issue 26): NAT64 (RFC 6052) to the metadata
    # address, an IPv4-translated (RFC 6145) and an IPv4-compatible (RFC 4291) loopback.
    "nat64-metadata.test": ["64:ff9b::a9fe:a9fe"],
    "translated-loopback.test": ["::ffff:0:7f00:1"],
    "compatible-loopback.test": ["::7f00:1"],
}


@pytest.fixture
async def resolver(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[str]]:
    loop = asyncio.get_running_loop()
    real = loop.getaddrinfo
    asked: list[str] = []

    async def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        asked.append(host)
        if host not in RESOLVES:
            return await real(host, port, *args, **kwargs)
        return [_answer(address, port) for address in RESOLVES[host]]

    monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(asyncio, "open_connection", _loopback_only(asyncio.open_connection))
    yield asked
    await aclose_shared_client()


def _loopback_only(open_connection: Any) -> Any:
    """`asyncio.open_connection` that refuses any address but 127.0.0.1: should the policy let a
    pinned answer through, the test fails here instead of sending a packet to it."""

    async def guarded(host: str, port: int, **kwargs: Any) -> Any:
        if host != "127.0.0.1":
            raise OSError(f"the test refuses to connect to {host}")
        return await open_connection(host, port, **kwargs)

    return guarded


def _answer(address: str, port: Any) -> tuple[Any, ...]:
    if ":" in address:
        return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))


@pytest.fixture
def policy() -> Iterator[None]:
    previous = restrict_addresses(PrivateHosts.ALLOW)
    yield
    restrict_addresses(previous)


@pytest.mark.usefixtures("policy")
@pytest.mark.parametrize(
    ("setting", "host", "allowed"),
    [
        (PrivateHosts.DENY, "loopback.test", False),
        (PrivateHosts.DENY, "private.test", False),
        (PrivateHosts.DENY, "127.0.0.1", False),
        (PrivateHosts.LOOPBACK, "loopback.test", True),
        (PrivateHosts.LOOPBACK, "127.0.0.1", True),
        (PrivateHosts.LOOPBACK, "private.test", False),
        (PrivateHosts.LOOPBACK, "metadata.test", False),
        (PrivateHosts.LOOPBACK, "mixed.test", True),  # connects to the allowed address only
        (PrivateHosts.ALLOW, "loopback.test", True),
        (PrivateHosts.DENY, "nat64-metadata.test", False),
        (PrivateHosts.DENY, "translated-loopback.test", False),
        (PrivateHosts.DENY, "compatible-loopback.test", False),
        (PrivateHosts.LOOPBACK, "nat64-metadata.test", False),
        (PrivateHosts.LOOPBACK, "translated-loopback.test", False),  # not this host's loopback
    ],
)
async def test_the_resolved_address_is_checked_before_connecting(
    resolver: list[str], port: int, setting: PrivateHosts, host: str, allowed: bool
) -> None:
    restrict_addresses(setting)
    url = f"http://{host}:{port}/"
    if allowed:
        response = await fetch(url)
        assert (response.status, await response.text()) == (200, "ok")
    else:
        with pytest.raises(FetchError, match=r"refused to connect to .*non-public addresses"):
            await fetch(url)


@pytest.mark.usefixtures("policy")
async def test_an_address_written_as_the_host_is_not_resolved(
    resolver: list[str], port: int
) -> None:
    restrict_addresses(PrivateHosts.LOOPBACK)
    response = await fetch(f"http://127.0.0.1:{port}/")

    assert (response.status, await response.text()) == (200, "ok")
    assert resolver == []


async def test_a_platform_applies_allow_private_hosts_and_restores_on_close(
    tmp_path: Path, resolver: list[str], port: int
) -> None:
    # wrangler.toml sets global_fetch_strictly_public and ALLOW_PRIVATE_HOSTS = "false".
    strict = LocalPlatform(tmp_path / "strict")
    try:
        with pytest.raises(FetchError, match="non-public addresses"):
            await fetch(f"http://loopback.test:{port}/")
    finally:
        await strict.close()
    local = LocalPlatform(tmp_path / "local", var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"})
    try:
        assert (await fetch(f"http://loopback.test:{port}/")).status == 200
        with pytest.raises(FetchError, match="non-public addresses"):
            await fetch(f"http://private.test:{port}/")
    finally:
        await local.close()
    assert (await fetch(f"http://loopback.test:{port}/")).status == 200  # unrestricted again


@pytest.mark.usefixtures("policy")
@pytest.mark.parametrize("url", ["http://./", "http://foo.09../", "http://a..b/"])
async def test_a_valid_url_whose_host_names_nothing_fails_to_resolve(
    resolver: list[str], url: str
) -> None:
    # Valid URLs (the URL Standard accepts these hosts); the stdlib's IDNA codec refuses their
    # empty labels before any DNS query is sent, and that is a resolution failure like any other.
    restrict_addresses(PrivateHosts.DENY)
    with pytest.raises(FetchError) as caught:
        await fetch(url)
    assert classify_net_failure(str(caught.value)) is NetFailure.DNS
