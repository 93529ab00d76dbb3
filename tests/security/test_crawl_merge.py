"""The audit's grade: the start URL's scan lowered by what the crawl saw (security.crawl_merge)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from security.crawl_merge import (
    PageSighting,
    cookie_outcome,
    cookie_shape,
    merge_sightings,
    page_sri,
)
from security.grade import Grade, SecurityGrade
from security.html_scan import ScriptTag
from security.results import (
    RESULTS_OF,
    CookiesResult,
    SriResult,
    TestName,
    TestOutcome,
    XFrameOptionsResult,
    outcome,
)
from tests.security.cases import BEST_HEADERS, graded, response

PAGE = "https://example.com/inner"


@pytest.mark.parametrize(
    ("header", "shape"),
    [
        ("sid=abc; Secure; HttpOnly", "sid=; Secure; HttpOnly"),
        ("sid=abc", "sid="),
        (" theme = dark ;Path=/", "theme=;Path=/"),
        ("flag", "flag"),
        ("a=b=c; SameSite=Lax", "a=; SameSite=Lax"),
    ],
)
def test_cookie_shape_drops_the_value_only(header: str, shape: str) -> None:
    assert cookie_shape(header) == shape


@pytest.mark.parametrize(
    ("header", "hsts", "result"),
    [
        ("sid=; Secure; HttpOnly; SameSite=Lax", False, CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE),
        ("theme=; Secure", False, CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS),
        ("theme=", False, CookiesResult.WITHOUT_SECURE_FLAG),
        ("theme=", True, CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS),
        ("sessionid=; HttpOnly", False, CookiesResult.SESSION_WITHOUT_SECURE_FLAG),
        ("sessionid=; Secure", False, CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG),
        ("a=; Secure; SameSite", False, CookiesResult.SAMESITE_FLAG_INVALID),
    ],
)  # fmt: skip
def test_a_crawled_cookie_is_judged_as_a_jar_of_its_own(
    header: str, hsts: bool, result: CookiesResult
) -> None:
    assert cookie_outcome(PAGE, header, hsts).result == result


def tag(src: str, integrity: str | None = None) -> ScriptTag:
    return ScriptTag(src, integrity, None)


CDN, OWN = "https://cdn.other.org/x.js", "http://example.com/app.js"
HTTP_PAGE = "http://example.com/inner"


@pytest.mark.parametrize(
    ("page", "scripts", "result"),
    [
        (PAGE, [], SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED),
        (PAGE, [tag("/app.js")], SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN),
        (PAGE, [tag(CDN, "sha384-x")], SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY),
        (PAGE, [tag(CDN)], SriResult.NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY),
        (PAGE, [tag("http://cdn.other.org/x.js")], SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY),
        # active mixed content: same-origin over http from an https page (the Observatory skips it)
        (PAGE, [tag(OWN)], SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY),
        (PAGE, [tag(OWN, "sha384-x")], SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY),
        # an http page loading its own scripts over http is not mixed content
        (HTTP_PAGE, [tag(OWN)], SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN),
    ],
)  # fmt: skip
def test_a_crawled_page_scripts(page: str, scripts: list[ScriptTag], result: SriResult) -> None:
    assert page_sri(page, scripts, "example.com").result == result


BEST = graded(response(BEST_HEADERS))  # every bonus short of preloading


def test_the_best_scan_is_an_a_plus() -> None:
    assert (BEST.score, BEST.grade) == (155, Grade.A_PLUS)


def sighting(result: CookiesResult | SriResult, page: str = PAGE) -> PageSighting:
    test = TestName.COOKIES if isinstance(result, CookiesResult) else TestName.SUBRESOURCE_INTEGRITY
    return PageSighting(page, outcome(test, result, False))


def test_passing_sightings_change_nothing() -> None:
    passing = PageSighting(
        PAGE,
        outcome(
            TestName.SUBRESOURCE_INTEGRITY, SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED, True
        ),
    )
    assert merge_sightings(BEST, [passing]) == BEST


def test_the_worst_failing_sighting_wins_and_names_its_page() -> None:
    merged = merge_sightings(
        BEST,
        [
            sighting(CookiesResult.WITHOUT_SECURE_FLAG, "https://example.com/a"),
            sighting(CookiesResult.SESSION_WITHOUT_SECURE_FLAG, "https://example.com/b"),
            sighting(CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG, "https://example.com/c"),
        ],
    )
    cookies = next(t for t in merged.tests if t.test is TestName.COOKIES)
    assert (cookies.result, cookies.details["page"]) == (
        CookiesResult.SESSION_WITHOUT_SECURE_FLAG,
        "https://example.com/b",
    )
    # -40 leaves 60 before bonuses: no extra credit
    assert (merged.score, merged.grade) == (60, Grade.C_PLUS)


def test_a_tie_keeps_the_earlier_sighting_and_the_scan_keeps_its_own_tie() -> None:
    scan = graded(response({**BEST_HEADERS, "set-cookie": "theme=1; Path=/"}))
    merged = merge_sightings(
        scan,
        [
            sighting(CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS, "https://example.com/a"),
            sighting(CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS, "https://example.com/b"),
        ],
    )  # fmt: skip
    assert merged == scan  # the scan's own -5 stands, with no page
    lower = merge_sightings(
        scan,
        [
            sighting(CookiesResult.ANTICSRF_WITHOUT_SAMESITE_FLAG, "https://example.com/a"),
            sighting(CookiesResult.WITHOUT_SECURE_FLAG, "https://example.com/b"),
        ],
    )
    cookies = next(t for t in lower.tests if t.test is TestName.COOKIES)
    assert (cookies.score_modifier, cookies.details["page"]) == (-20, "https://example.com/a")


def test_only_cookies_and_sri_are_merged() -> None:
    other = PageSighting(
        PAGE, outcome(TestName.X_FRAME_OPTIONS, XFrameOptionsResult.NOT_IMPLEMENTED, False)
    )
    assert merge_sightings(BEST, [other]) == BEST


FAILING = [
    (test, result)
    for test in (TestName.COOKIES, TestName.SUBRESOURCE_INTEGRITY)
    for result in RESULTS_OF[test]
]


@given(st.lists(st.sampled_from(FAILING), max_size=6), st.sampled_from([BEST, graded(response())]))
def test_merging_never_raises_the_score(
    picked: list[tuple[TestName, str]], scan: SecurityGrade
) -> None:
    sightings = [PageSighting(PAGE, TestOutcome(t, r, False, _modifier(r))) for t, r in picked]
    merged = merge_sightings(scan, sightings)
    assert merged.score <= scan.score
    for before, after in zip(scan.tests, merged.tests, strict=True):
        assert after.score_modifier <= before.score_modifier


def _modifier(result: str) -> int:
    return outcome(TestName.COOKIES, result, False).score_modifier  # type: ignore[arg-type]
