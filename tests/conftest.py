import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.support.site_server import Reply, Site, html_page, serve_site


@pytest.fixture
def small_site() -> Iterator[Site]:
    routes = {
        "/": Reply(body=html_page("Home of the small site", "<h1>Home</h1><a href='/about'>About</a>")),
        "/about": Reply(body=html_page("About the small site", "<h1>About</h1><a href='/'>Home</a>")),
    }
    with serve_site(routes) as site:
        yield site


@pytest.fixture
async def platform(tmp_path: Path) -> AsyncIterator[object]:
    from local_platform.runtime import LocalPlatform

    local = LocalPlatform(tmp_path / "state", var_overrides={"ALLOW_PRIVATE_HOSTS": "true"})
    try:
        yield local
    finally:
        await local.close()
        await asyncio.sleep(0)
