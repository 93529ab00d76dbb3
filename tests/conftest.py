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
    """

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.urls: list[str] = []

    async def fetch(self, request: object) -> object:
        from urllib.parse import urlsplit

        from urls.private_hosts import is_loopback_host

        url = request.url  # type: ignore[attr-defined]
        self.urls.append(url)
        host = urlsplit(url).hostname or ""
        if not is_loopback_host(host):
            raise AssertionError(f"the crawler tried to fetch a non-loopback URL: {url}")
        return await self.inner.fetch(request)  # type: ignore[attr-defined]


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
