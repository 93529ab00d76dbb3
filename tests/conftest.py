import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.support.platform_vars import TEST_VARS
from tests.support.site_server import Reply, Site, html_page, serve_site


class LoopbackOnlyHttp:
    """Wraps the platform's HTTP client: records every URL and refuses any non-loopback host.

    Tests only ever talk to servers they started on 127.0.0.1; a request anywhere else is a bug
    in the crawler's SSRF policy, and it must fail the test instead of leaving the machine.

    One exception, so tests can link names that do not resolve without asking any resolver: a
    host under `.invalid`, which never resolves (RFC 6761 §6.4), gets the answer the platform's
    client gives a name that does not resolve (local_platform.http_client), at once and without
    a lookup, so no DNS query leaves the machine either.
    """

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.urls: list[str] = []

    async def fetch(self, request: object) -> object:
        from urllib.parse import urlsplit

        from common import ports
        from urls.private_hosts import is_loopback_host

        url = request.url  # type: ignore[attr-defined]
        self.urls.append(url)
        host = urlsplit(url).hostname or ""
        if host.endswith(".invalid"):
            error = f"fetch to {url} failed: cannot resolve {host}: {NO_SUCH_NAME}"
            return ports.FetchResult(url, 0, {}, b"", False, 0.0, error)
        if not is_loopback_host(host):
            raise AssertionError(f"the crawler tried to fetch a non-loopback URL: {url}")
        return await self.inner.fetch(request)  # type: ignore[attr-defined]


NO_SUCH_NAME = "[Errno -2] Name or service not known"  # getaddrinfo's EAI_NONAME on Linux


@pytest.fixture(autouse=True)
def outbound_http() -> Iterator[LoopbackOnlyHttp | None]:
    from common import ports
    from local_platform import workers_sdk

    workers_sdk.install()
    import entry  # noqa: F401  (configures the shell's HTTP client)

    inner = ports.http_client()
    spy = LoopbackOnlyHttp(inner)
    ports.configure(http=spy)
    try:
        yield spy
    finally:
        ports.configure(http=inner)


@pytest.fixture
def ports_clock() -> Iterator[list[float]]:
    """The ports' clock (`common.ports.now_ms`), held still at the value the test sets in
    `ports_clock[0]` (milliseconds; 1,000 at first)."""
    from common import ports

    saved, now = ports._PORTS.now_ms, [1_000.0]
    ports.configure(now_ms=lambda: now[0])
    try:
        yield now
    finally:
        ports.configure(now_ms=saved)


@pytest.fixture
async def fetch_pool_closed() -> AsyncIterator[None]:
    """Closes the test loop's shared fetch pool at teardown (a LocalPlatform's close does it), for
    async tests that fetch without one: no keep-alive connection outlives its event loop."""
    yield
    from local_platform.fetch import aclose_shared_client

    await aclose_shared_client()


@pytest.fixture(scope="module")
def migrated_d1(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """A local D1 database migrated as `wrangler d1 migrations apply` does, one per test module."""
    from local_platform.d1 import LocalD1Database
    from local_platform.migrations import apply_migrations

    path = tmp_path_factory.mktemp("d1") / "d1.sqlite"
    apply_migrations(path, Path(__file__).resolve().parents[1] / "migrations" / "d1")
    db = LocalD1Database(path)
    yield db
    db.close()


@pytest.fixture
def small_site() -> Iterator[Site]:
    routes = {
        "/": Reply(
            body=html_page("Home of the small site", "<h1>Home</h1><a href='/about'>About</a>")
        ),
        "/about": Reply(
            body=html_page("About the small site", "<h1>About</h1><a href='/'>Home</a>")
        ),
    }
    with serve_site(routes) as site:
        yield site


@pytest.fixture
async def platform(tmp_path: Path) -> AsyncIterator[object]:
    from local_platform.runtime import LocalPlatform

    local = LocalPlatform(tmp_path / "state", var_overrides=TEST_VARS)
    try:
        yield local
    finally:
        await local.close()
        await asyncio.sleep(0)
