"""Fixtures shared by the badseo tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.badseo.https_site import HOST, HttpsSite, serve_https_badseo


@pytest.fixture(scope="module")
def https_badseo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpsSite]:
    """The https variant (https_site.py) for one test module, or a skip that says why not."""
    serving = serve_https_badseo(tmp_path_factory.mktemp("https-badseo"))
    try:
        site = serving.__enter__()
    except OSError as exc:  # not root, or something else holds port 80 or 443 on HOST
        pytest.skip(f"the https badseo variant needs ports 80 and 443 on {HOST}: {exc}")
    try:
        yield site
    finally:
        serving.__exit__(None, None, None)
