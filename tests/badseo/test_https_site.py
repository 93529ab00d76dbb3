"""The https variant of badseo answers as designed (data and servers); whether the audit reports
exactly golden_https.json is test_https_end_to_end's question."""

from __future__ import annotations

import ipaddress
import ssl
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from audit.catalogue import CATALOGUE, HSTS_MIN_MAX_AGE_S, IssueType
from audit.rules_security import hsts_max_age
from parse.extractor import PageExtractor
from tests.badseo import golden
from tests.badseo.https_site import (
    HOST,
    HSTS_MISSING_URL,
    HSTS_TOO_SHORT_URL,
    HTTP_ORIGIN,
    HTTP_PAGE_URL,
    HTTPS_FIXTURES,
    HTTPS_ORIGIN,
    MIXED_CONTENT_URL,
    MIXED_IMAGE_URL,
    HttpsFixture,
    HttpsSite,
    https_expected_issues,
)
from tests.badseo.pages import Html
from urls.normalise import same_site

T = IssueType


def _ids(fixture: HttpsFixture) -> str:
    return fixture.url


def test_golden_https_entries_are_the_expected_issues() -> None:
    entries = {(e["issue_type"], e["url"]) for e in golden.golden_https_entries()}
    assert entries == https_expected_issues()
    assert {IssueType(t) for t, _ in entries} <= set(CATALOGUE)


def test_each_https_only_type_is_on_its_own_fixture() -> None:
    assert https_expected_issues() == {
        (T.MIXED_CONTENT.value, MIXED_CONTENT_URL),
        (T.HSTS_MISSING.value, HSTS_MISSING_URL),
        (T.HSTS_TOO_SHORT.value, HSTS_TOO_SHORT_URL),
        (T.HTTP_PAGE_ON_HTTPS_SITE.value, HTTP_PAGE_URL),
        # the start URL's security grade: the http twin does not redirect / to https
        (T.SECURITY_REDIRECTION.value, HTTPS_ORIGIN + "/"),
    }


def test_all_fixtures_are_one_site_on_default_ports() -> None:
    urls = [f.url for f in HTTPS_FIXTURES]
    assert len(urls) == len(set(urls))
    assert all(same_site(HTTPS_ORIGIN + "/", url) for url in urls)
    assert {f.origin for f in HTTPS_FIXTURES} == {HTTPS_ORIGIN, HTTP_ORIGIN}
    assert ipaddress.ip_address(HOST).is_loopback and HOST != "127.0.0.1"


@pytest.mark.parametrize("fixture", HTTPS_FIXTURES, ids=_ids)
def test_hsts_is_long_enough_unless_it_is_the_defect(fixture: HttpsFixture) -> None:
    assert isinstance(fixture.handler, Html)
    header = fixture.handler.spec.response_headers(fixture.origin).get("strict-transport-security")
    max_age = hsts_max_age(header)
    if fixture.url == HSTS_MISSING_URL or fixture.origin == HTTP_ORIGIN:
        assert header is None
    elif fixture.url == HSTS_TOO_SHORT_URL:
        assert max_age is not None and max_age < HSTS_MIN_MAX_AGE_S
    else:
        assert max_age is not None and max_age >= HSTS_MIN_MAX_AGE_S


@pytest.mark.parametrize("fixture", HTTPS_FIXTURES, ids=_ids)
def test_pages_link_only_absolute_https_urls_and_load_http_only_as_the_defect(
    fixture: HttpsFixture,
) -> None:
    # Relative links on the http page would open an http copy of the whole site to the crawl.
    assert isinstance(fixture.handler, Html)
    extractor = PageExtractor(fixture.url, content_type="text/html; charset=utf-8")
    extractor.feed(fixture.handler.spec.render(fixture.origin))
    facts = extractor.close()
    links = {link.href.raw for link in facts.links}
    assert links and all(raw.startswith(("https://", HTTP_PAGE_URL)) for raw in links)
    mixed = [m.url for m in facts.mixed_content]
    assert mixed == ([MIXED_IMAGE_URL] if fixture.url == MIXED_CONTENT_URL else [])


# ------------------------------------------------------------------------------- the servers


@pytest.fixture(scope="module")
def client(https_badseo: HttpsSite) -> Iterator[httpx.Client]:
    context = ssl.create_default_context(cafile=str(https_badseo.ca_file))
    with httpx.Client(verify=context, follow_redirects=False, timeout=10) as http:
        yield http


@pytest.mark.parametrize("fixture", HTTPS_FIXTURES, ids=_ids)
def test_each_fixture_is_served_at_its_url(fixture: HttpsFixture, client: httpx.Client) -> None:
    response = client.get(fixture.url)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")


def test_the_certificate_is_refused_without_the_ca(https_badseo: HttpsSite) -> None:
    with httpx.Client(timeout=10) as plain, pytest.raises(httpx.ConnectError):
        plain.get(HTTPS_ORIGIN + "/")


def test_robots_and_sitemap_name_https_urls(https_badseo: HttpsSite, client: httpx.Client) -> None:
    robots = client.get(HTTPS_ORIGIN + "/robots.txt").text
    assert f"Sitemap: {HTTPS_ORIGIN}/sitemap.xml" in robots
    sitemap = client.get(HTTPS_ORIGIN + "/sitemap.xml").text
    listed = {f.url for f in HTTPS_FIXTURES if f.in_sitemap}
    assert all(f"<loc>{url}</loc>" in sitemap for url in listed)
    assert HTTP_ORIGIN + "/" not in sitemap


def test_the_http_twin_serves_only_its_page_and_the_image(client: httpx.Client) -> None:
    assert client.get(HTTP_PAGE_URL).status_code == 200
    assert client.get(MIXED_IMAGE_URL).headers["content-type"] == "image/png"
    assert client.get(HTTP_ORIGIN + "/").status_code == 404


def test_ca_file_is_written(https_badseo: HttpsSite) -> None:
    assert Path(https_badseo.ca_file).read_text().startswith("-----BEGIN CERTIFICATE-----")
