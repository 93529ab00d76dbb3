"""The badseo site answers as designed: the fixture data is consistent, every route serves its
status, headers and links, robots.txt and sitemap.xml say what the fixtures say, golden.json is in
sync. Whether the audit then reports exactly the golden set is the end-to-end test's question."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from xml.etree import ElementTree

import httpx
import pytest

from a11y.rule_ids import RuleId
from audit.catalogue import CATALOGUE, HTML_MAX_BYTES, SLOW_RESPONSE_MS, IssueType, Severity
from audit.rules_a11y import ISSUE_OF_RULE
from audit.rules_grade import ISSUE_OF_TEST
from audit.text import js_length
from common.fetch_class import classify_fetch
from crawl.robots import RobotsRules
from exposure.findings import ISSUE_OF_CHECK, Check
from lighthouse.vitals import LIGHTHOUSE_ISSUE_TYPES
from parse.extractor import PageExtractor
from tests.badseo import golden
from tests.badseo.a11y_pages import PASS_ONLY
from tests.badseo.failing_sites import STOPS_ANSWERING_FIXTURES
from tests.badseo.pages import SECURITY_HEADERS, Html, RateLimited, Redirect, Resource
from tests.badseo.site import (
    BROKEN_LINK_TARGETS,
    CLEAN_PATHS,
    DEAD_NAME_FIXTURES,
    DEEP_CHAIN,
    DEEP_TREASURE,
    EXTERNAL_BUDGET_FIXTURES,
    FIXTURES,
    LONG_DESCRIPTION,
    LONG_TITLE,
    NO_DNS_FIXTURES,
    RATE_LIMIT_STOP_FIXTURES,
    REDIRECT_HEADS,
    ROBOTS_DISALLOWED,
    ROBOTS_OTHERS_ONLY,
    SHORT_DESCRIPTION,
    SHORT_TITLE,
    SLOW_DELAY_S,
    SLOW_SITE_FIXTURES,
    UNCOVERED,
    BadSeoSite,
    Fixture,
    expected_issues,
    fixture_for,
    serve_badseo,
    serve_rate_limit_stop,
    sitemap_paths,
)
from tests.badseo.test_client_rendered_rules import ALL_ROUTES, expected_types
from tests.badseo.vitals_site import VITALS_ISSUE_TYPES

Getter = Callable[[str], httpx.Response]
ALL_PATHS = [path for fixture in FIXTURES for path in fixture.paths]
HTML_FIXTURES = [f for f in FIXTURES if isinstance(f.handler, Html)]
REDIRECTS = [f for f in FIXTURES if isinstance(f.handler, Redirect)]
DEFAULT_CLEAN_PAGES = [  # clean pages that keep the default headers
    f
    for f in FIXTURES
    if isinstance(f.handler, Html) and not f.expected and not f.handler.spec.headers
]
DEEP_STEPS = list(zip(DEEP_CHAIN, (*DEEP_CHAIN[1:], DEEP_TREASURE), strict=True))


def _ids(fixture: Fixture) -> str:
    return fixture.path


@pytest.fixture(scope="module")
def site() -> Iterator[BadSeoSite]:
    with serve_badseo() as served:
        yield served


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with httpx.Client(follow_redirects=False, timeout=10) as http:
        yield http


@pytest.fixture(scope="module")
def get(site: BadSeoSite, client: httpx.Client) -> Getter:
    """Each path fetched once per module: the slow page costs its delay once, and the stateful
    429 route answers every test with its first response."""
    return functools.cache(lambda path: client.get(site.url(path)))


def _links(site: BadSeoSite, get: Getter, path: str) -> set[str]:
    """Same-origin link paths of a page, as the project's extractor reads them."""
    response = get(path)
    extractor = PageExtractor(site.url(path), content_type=response.headers["content-type"])
    extractor.feed(response.content)
    urls = [link.href.url for link in extractor.close().links if link.href.url]
    return {url.removeprefix(site.origin) for url in urls if url.startswith(site.origin)}


# ------------------------------------------------------------------------------- the data


def test_paths_are_unique_and_absolute() -> None:
    assert len(ALL_PATHS) == len(set(ALL_PATHS))
    assert all(path.startswith("/") for path in ALL_PATHS)


def _covered(fixtures: tuple[Fixture, ...]) -> set[IssueType]:
    return {issue_type for fixture in fixtures for issue_type in fixture.expected}


def test_every_catalogue_type_is_covered_or_explained() -> None:
    from tests.badseo.https_site import HTTPS_FIXTURES

    # The security grade's types (one per Observatory test) are covered test by test by the
    # grade sites (tests/badseo/security_sites.py, A+ to F) and tests/audit/test_rules_grade.py;
    # in these audits only the start pages carry the ones a plain-http entry point fails.
    grade = set(ISSUE_OF_TEST.values())
    # DNS and email authentication need a domain name; this site is 127.0.0.1, for which the
    # exposure step skips DNS. tests/crawl_flow/test_exposure_step.py runs them in an audit
    # against a DoH double, and tests/exposure/test_findings.py covers each finding.
    dns = {
        ISSUE_OF_CHECK[check]
        for check in Check
        if check not in (Check.VULNERABLE_JS_LIBRARY, Check.VERSION_DISCLOSED)
    }
    # The Lighthouse types need a PSI answer, not a page: the vitals site covers them
    # (tests/badseo/vitals_site.py, golden_vitals.json).
    vitals = set(VITALS_ISSUE_TYPES)
    assert vitals == set(LIGHTHOUSE_ISSUE_TYPES)
    # The raw-versus-rendered types need a browser: the client-rendered site covers them
    # (tests/badseo/client_rendered.py, audited in tests/badseo/test_rendering_end_to_end.py);
    # this site renders nothing (its app shell gets `rendering-not-done`).
    rendered = {t for route in ALL_ROUTES for t in expected_types(route)}
    # Not planted in the client-rendered site (its routes are short, keep their raw canonical and
    # robots, and log no console error): tests/audit/test_rendering_rules.py's tables cover them.
    rendered |= {
        IssueType.CONTENT_ONLY_AFTER_SCRIPT,
        IssueType.CANONICAL_CHANGED_BY_SCRIPT,
        IssueType.NOINDEX_REMOVED_BY_SCRIPT,
        IssueType.ROBOTS_CHANGED_BY_SCRIPT,
        IssueType.CONSOLE_ERROR_DURING_LOAD,
    }
    main, stop = _covered(FIXTURES), _covered(RATE_LIMIT_STOP_FIXTURES)
    stop |= _covered(EXTERNAL_BUDGET_FIXTURES) | _covered(STOPS_ANSWERING_FIXTURES)
    stop |= _covered(NO_DNS_FIXTURES) | _covered(SLOW_SITE_FIXTURES)
    stop |= _covered(DEAD_NAME_FIXTURES) - {IssueType.BROKEN_EXTERNAL_LINK}  # main has it too
    https = {issue_type for fixture in HTTPS_FIXTURES for issue_type in fixture.expected}
    # The accessibility types: the site's accessibility pages (a11y_pages.py) fail every static
    # rule but the two whose failures axe-core only asks a review of (PASS_ONLY), which pass
    # there; test_a11y_pages.py holds each page to the rule engine's own verdicts.
    static = {ISSUE_OF_RULE[rule] for rule in RuleId}
    assert static - main == {ISSUE_OF_RULE[rule] for rule in PASS_ONLY}
    a11y = set(ISSUE_OF_RULE.values())
    assert stop - grade == {
        IssueType.CRAWL_RATE_LIMITED,
        IssueType.EXTERNAL_LINKS_UNCHECKED,
        IssueType.SITE_STOPPED_RESPONDING,
        IssueType.SLOW_SITE,
    }
    assert https - grade == {
        IssueType.HTTP_PAGE_ON_HTTPS_SITE,
        IssueType.MIXED_CONTENT,
        IssueType.HSTS_MISSING,
        IssueType.HSTS_TOO_SHORT,
    }
    assert (main - grade).isdisjoint(set(UNCOVERED) | stop | https)
    assert main.isdisjoint(dns)
    assert (main | stop | https).isdisjoint(vitals)
    assert (main | stop | https).isdisjoint(rendered)
    covered = main | stop | https | grade | dns | vitals | rendered | a11y
    assert covered | set(UNCOVERED) == set(CATALOGUE)
    assert not UNCOVERED


@pytest.mark.parametrize("fixture", [f for f in FIXTURES if f.support], ids=_ids)
def test_support_pages_carry_info_issues_only(fixture: Fixture) -> None:
    assert all(CATALOGUE[t].severity is Severity.INFO for t in fixture.expected)


@pytest.mark.parametrize("path", ["/privacy", "/catalog"])
def test_site_pages_are_clean(path: str) -> None:
    assert path in CLEAN_PATHS


def test_the_home_page_carries_only_the_plain_http_grade_issues() -> None:
    (home,) = [f for f in FIXTURES if "/" in f.paths]
    assert set(home.expected) == {IssueType.SECURITY_REDIRECTION, IssueType.SECURITY_HSTS}


def test_clean_paths_are_the_fixtures_without_expected_issues() -> None:
    assert {p for f in FIXTURES if not f.expected for p in f.paths} == CLEAN_PATHS


@pytest.mark.parametrize(
    ("text", "length"),
    [(LONG_TITLE, 110), (SHORT_TITLE, 2), (LONG_DESCRIPTION, 215), (SHORT_DESCRIPTION, 43)],
)
def test_length_fixture_texts(text: str, length: int) -> None:
    assert js_length(text) == length


def test_golden_file_is_in_sync() -> None:
    assert golden.GOLDEN_PATH.read_text(encoding="utf-8") == golden.render()
    assert golden.GOLDEN_HTTPS_PATH.read_text(encoding="utf-8") == golden.render_https()
    assert golden.GOLDEN_VITALS_PATH.read_text(encoding="utf-8") == golden.render_vitals()


def test_expected_issues_are_the_golden_entries_at_an_origin() -> None:
    origin = "http://127.0.0.1:8"
    entries = {(e["issue_type"], origin + e["path"]) for e in golden.golden_entries()}
    assert expected_issues(origin) == entries


def test_golden_issue_types_are_catalogued() -> None:
    assert {IssueType(e["issue_type"]) for e in golden.golden_entries()} <= set(CATALOGUE)


# ------------------------------------------------------------------------------- routes


@pytest.mark.parametrize("path", ALL_PATHS)
def test_route_answers_its_status(get: Getter, path: str) -> None:
    response = get(path)
    assert response.status_code == fixture_for(path).handler.status
    assert response.http_version == "HTTP/1.1"


def test_unknown_path_is_404(get: Getter) -> None:
    assert get("/no/such/page").status_code == 404


@pytest.mark.parametrize("fixture", REDIRECTS, ids=_ids)
def test_redirect_location(get: Getter, fixture: Fixture) -> None:
    assert isinstance(fixture.handler, Redirect)
    response = get(fixture.path)
    assert response.headers["location"] == fixture.handler.location
    assert fixture.handler.location in ALL_PATHS  # every hop is a fixture of its own


def test_trailing_slash_trap_resolves_to_a_page(site: BadSeoSite, client: httpx.Client) -> None:
    response = client.get(site.url("/redirect/trailing-slash"), follow_redirects=True)
    assert response.status_code == 200
    assert response.url.path == "/redirect/trailing-slash/"


@pytest.mark.parametrize(
    ("path", "header", "value"),
    [
        ("/index/noindex-header", "x-robots-tag", "noindex"),
        ("/index/canonicalized-header", "link", '<{origin}/>; rel="canonical"'),
        (
            "/index/canonical-conflict",
            "link",
            '<{origin}/index/canonical-conflict?via=header>; rel="canonical"',
        ),
        ("/security/missing-nosniff", "x-content-type-options", None),
        ("/security/missing-csp", "content-security-policy", None),
        ("/security/missing-frame-protection", "x-frame-options", None),
        ("/security/frame-ancestors-only", "x-frame-options", None),
        (
            "/security/frame-ancestors-only",
            "content-security-policy",
            "default-src 'self'; frame-ancestors 'self'",
        ),
        ("/status/unauthorized", "www-authenticate", 'Basic realm="badseo"'),
        ("/assets/whitepaper.pdf", "content-type", "application/pdf"),
    ],
)
def test_fixture_header(
    site: BadSeoSite, get: Getter, path: str, header: str, value: str | None
) -> None:
    response = get(path)
    expected = None if value is None else value.replace("{origin}", site.origin)
    assert response.headers.get(header) == expected


@pytest.mark.parametrize("fixture", DEFAULT_CLEAN_PAGES, ids=_ids)
def test_clean_pages_send_the_security_headers(get: Getter, fixture: Fixture) -> None:
    response = get(fixture.path)
    assert {k: response.headers.get(k) for k in SECURITY_HEADERS} == dict(SECURITY_HEADERS)


def test_slow_page_answers_after_its_delay(site: BadSeoSite, client: httpx.Client) -> None:
    # A lower bound only: the sleep guarantees it, and upper bounds belong to benchmarks.
    assert SLOW_DELAY_S * 1000 > SLOW_RESPONSE_MS
    started = time.perf_counter()
    client.get(site.url("/perf/slow-response"))
    assert time.perf_counter() - started >= SLOW_DELAY_S


def test_oversized_page_is_above_the_html_limit(get: Getter) -> None:
    response = get("/perf/html-too-large")
    assert int(response.headers["content-length"]) == len(response.content) > HTML_MAX_BYTES
    assert response.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/status/challenge-page", "blocked"),
        ("/status/challenge-503", "blocked"),
        ("/status/challenge-202", "blocked"),
        ("/status/unavailable", "ok"),
        ("/status/server-error", "ok"),
    ],
)
def test_challenge_pages_classify_as_designed(get: Getter, path: str, expected: str) -> None:
    response = get(path)
    fetch_class = classify_fetch(response.status_code, response.headers, response.text)
    assert fetch_class == expected


# ------------------------------------------------------------------------------- rate limits


def test_rate_limited_page_recovers_after_one_429() -> None:
    with serve_badseo() as fresh, httpx.Client() as http:
        first = http.get(fresh.url("/status/rate-limited"))
        second = http.get(fresh.url("/status/rate-limited"))
    assert (first.status_code, first.headers.get("retry-after")) == (429, "1")
    assert second.status_code == 200


def test_always_rate_limited_page_never_recovers_and_names_no_wait() -> None:
    with serve_badseo() as fresh, httpx.Client() as http:
        answers = [http.get(fresh.url("/status/rate-limited-always")) for _ in range(4)]
    assert [a.status_code for a in answers] == [429] * 4
    assert all("retry-after" not in a.headers for a in answers)


def test_rate_limit_stop_site_links_one_hour_cooldown() -> None:
    with serve_rate_limit_stop() as stop, httpx.Client() as http:
        links = _links(stop, lambda path: http.get(stop.url(path)), "/")
        cooldown = http.get(stop.url("/status/cooldown"))
        sitemap = http.get(stop.url("/sitemap.xml")).text
    assert links == {"/status/cooldown"}
    assert (cooldown.status_code, cooldown.headers["retry-after"]) == (429, "3600")
    assert sitemap.count("<loc>") == 1 and f"<loc>{stop.url('/')}</loc>" in sitemap


def test_rate_limit_counters_are_per_server() -> None:
    handler = fixture_for("/status/rate-limited").handler
    assert isinstance(handler, RateLimited)
    assert handler.fresh() is not handler


# ------------------------------------------------------------------------------- discovery


def test_robots_txt_applies_the_siteaudit_group(site: BadSeoSite, get: Getter) -> None:
    text = get("/robots.txt").text
    ours, others = RobotsRules.from_text(text), RobotsRules.from_text(text, "otherbot")
    assert not ours.allowed(site.url(ROBOTS_DISALLOWED))
    assert ours.allowed(site.url(ROBOTS_OTHERS_ONLY))
    assert not others.allowed(site.url(ROBOTS_OTHERS_ONLY))
    assert ours.sitemaps == (site.url("/sitemap.xml"),)


def test_robots_blocks_only_the_sitemap_blocked_fixture(site: BadSeoSite, get: Getter) -> None:
    rules = RobotsRules.from_text(get("/robots.txt").text)
    assert [p for p in ALL_PATHS if not rules.allowed(site.url(p))] == [ROBOTS_DISALLOWED]


def test_sitemap_lists_exactly_the_in_sitemap_fixtures(site: BadSeoSite, get: Getter) -> None:
    root = ElementTree.fromstring(get("/sitemap.xml").content)
    locs = [el.text for el in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == [site.url(p) for p in sitemap_paths()]
    assert set(sitemap_paths()) == {p for f in FIXTURES if f.in_sitemap for p in f.paths}


def test_catalog_links_exactly_the_catalog_fixtures(site: BadSeoSite, get: Getter) -> None:
    linked = {p for f in FIXTURES if f.linked_from_catalog for p in f.paths}
    chrome = {"/", "/catalog", "/privacy"}
    assert _links(site, get, "/catalog") == linked | chrome


def test_catalog_links_only_targets_that_keep_it_clean(site: BadSeoSite, get: Getter) -> None:
    """No redirect and no crawlable error behind a catalog link (link-to-redirect and
    broken-internal-link belong to the hubs)."""
    for path in _links(site, get, "/catalog") - {"/status/rate-limited"}:
        response = get(path)
        fetch_class = classify_fetch(response.status_code, response.headers, response.text[:4000])
        assert fetch_class != "ok" or response.status_code < 300, path


@pytest.mark.parametrize(
    ("hub", "targets"),
    [
        ("/links/broken-internal-link", set(BROKEN_LINK_TARGETS)),
        ("/links/link-to-redirect", set(REDIRECT_HEADS)),
        ("/", {"/catalog", "/privacy", DEEP_CHAIN[0]}),
        *((step, {following}) for step, following in DEEP_STEPS),
    ],
)
def test_hub_links(site: BadSeoSite, get: Getter, hub: str, targets: set[str]) -> None:
    chrome = {"/", "/catalog", "/privacy"}
    assert _links(site, get, hub) - chrome == targets - chrome


def test_link_free_fixtures_have_no_links(site: BadSeoSite, get: Getter) -> None:
    for path in ("/structure/no-outgoing-links", "/content/javascript-shell"):
        assert _links(site, get, path) == set(), path


@pytest.mark.parametrize("fixture", HTML_FIXTURES, ids=_ids)
def test_html_fixture_serves_html(get: Getter, fixture: Fixture) -> None:
    response = get(fixture.path)
    assert response.headers["content-type"] == "text/html; charset=utf-8"


def test_duplicate_paths_are_byte_identical(get: Getter) -> None:
    for fixture in (f for f in FIXTURES if f.extra_paths):
        bodies = {get(p).content for p in fixture.paths}
        assert len(bodies) == 1, fixture.path


def test_resources_are_not_html(get: Getter) -> None:
    for fixture in (f for f in FIXTURES if isinstance(f.handler, Resource)):
        assert "text/html" not in get(fixture.path).headers["content-type"]
