import asyncio
import os
import shutil
import tomllib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from local_platform.d1 import LocalD1Database
from local_platform.runtime import PROJECT_ROOT, LocalPlatform, migrated_d1_file
from tests.support.loopback_http import LoopbackOnlyHttp
from tests.support.platform_vars import TEST_VARS
from tests.support.site_server import Reply, Site, html_page, serve_site

# The suite's audits render nothing unless a test asks for the local Chromium renderer
# (local_platform.runtime.LOCAL_RENDERER_VAR): a render costs about a second, and an audit in
# `auto` would render its app shells and a sample of its pages. Set before any platform starts,
# so the CLI processes the tests start inherit it.
os.environ.setdefault("SITEAUDIT_LOCAL_RENDERER", "none")


# Shared set-up under pytest-xdist (`--dist loadgroup`, pyproject.toml): a module-, class- or
# package-scoped fixture is built once per worker that runs any test using it, and `load` spread a
# module's tests over both workers, so each built it (a served app, audits, a browser). A module
# whose tests use such a fixture is one xdist group: one worker runs all of it (a module already in
# a group, tests/browser/screens.py's, keeps it). The scheduler starts the groups first, largest
# first, then the other tests one at a time in collection order, where the modules that hold a
# `slow` test come first, so that no long test starts last and leaves the other worker idle.
_SHARED_SCOPES = frozenset({"class", "module", "package"})


def _shares_setup(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)  # pytest.Function's; other items have none
    if info is None:
        return False
    return any(d.scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values() for d in defs)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the machine has cores (`--maxprocesses` caps it). The
    suite waits much of its time (child processes starting, the browser drawing, served sites'
    latency): a fresh clone's CI run on 2 cores with 2 workers kept 1.17 cores busy on average
    (user and system CPU 26.5 min in 22.6 min), so a third worker fills the waits."""
    return (os.cpu_count() or 1) + 1


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_modules)  # stable: order kept within
    for item in items:
        if item.get_closest_marker("xdist_group") is None and _shares_setup(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


@pytest.fixture(autouse=True)
def outbound_http() -> Iterator[LoopbackOnlyHttp]:
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
def migrated_d1(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalD1Database]:
    """A local D1 database migrated as `wrangler d1 migrations apply` does, one per test module."""
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


@pytest.fixture(scope="session")
def migrated_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state directory holding only the D1 databases of wrangler.toml, migrated as a platform
    migrates them (`migrated_d1_file`), once per test process: `platform` starts from a copy.
    Applying the 30-odd migrations cost 0.1 s of CPU per platform, about 110 s over the suite's
    thousand; copying the files costs under a millisecond, and the platform then finds none
    pending."""
    state = tmp_path_factory.mktemp("migrated") / "state"
    config = tomllib.loads((PROJECT_ROOT / "wrangler.toml").read_text())
    for database in config.get("d1_databases", []):
        migrated_d1_file(state, PROJECT_ROOT, database)
    return state


@pytest.fixture
async def platform(tmp_path: Path, migrated_state: Path) -> AsyncIterator[LocalPlatform]:
    shutil.copytree(migrated_state, tmp_path / "state")
    local = LocalPlatform(tmp_path / "state", var_overrides=TEST_VARS)
    try:
        yield local
    finally:
        await local.close()
        await asyncio.sleep(0)
