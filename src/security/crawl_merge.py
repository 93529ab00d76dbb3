"""The audit's grade: the start URL's Observatory grade, lowered by what the crawl saw.

The Observatory grades one scan of one URL. An audit also fetched every page of the site, so two
tests judge more than the start URL's responses (docs/security.md, "In the audit"):

* cookies: every distinct Set-Cookie a crawled response carried (its value dropped: the test reads
  only the name and attributes) is judged as a cookie jar of its own, with the scan's HSTS result;
* subresource-integrity: every crawled HTML page's scripts are judged as the Observatory judges
  the start page's, with `page_sri` adding active mixed content: a script requested over http from
  an https page counts as a script not loaded securely even when it is same-origin (the
  Observatory skips same-origin scripts).

A sighting lowers a test and never raises it: it replaces the scan's outcome only when it did not
pass and its score modifier is lower than the outcome it replaces, the lowest winning (ties keep
the earlier: the scan, then crawl order). Its outcome then carries `details["page"]`, the crawled
page where it was seen, and the score and letter are recomputed from the merged outcomes. Passing
sightings change nothing, so a page without cookies or scripts never costs the start URL a bonus.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from security.checks_cookies import cookies
from security.checks_sri import subresource_integrity
from security.grade import SecurityGrade, grade_for_score, total_score
from security.html_scan import HtmlFacts, ScriptTag
from security.observed import ObservedResponse, ObservedSite
from security.results import SriResult, TestName, TestOutcome, outcome

__all__ = ["PageSighting", "cookie_outcome", "cookie_shape", "merge_sightings", "page_sri"]

MERGED_TESTS = frozenset({TestName.COOKIES, TestName.SUBRESOURCE_INTEGRITY})


@dataclass(frozen=True, slots=True)
class PageSighting:
    """A test's outcome on what one crawled page showed."""

    page_url: str
    outcome: TestOutcome


def cookie_shape(set_cookie: str) -> str:
    """`set_cookie` with its value dropped (`sid=abc; Secure` -> `sid=; Secure`): what the cookies
    test reads, without the secret, and equal across pages that set the same cookie."""
    first, sep, attributes = set_cookie.partition(";")
    name, equals, _ = first.partition("=")
    return f"{name.strip()}{equals}{sep}{attributes}"


def cookie_outcome(page_url: str, set_cookie: str, hsts_passed: bool) -> TestOutcome:
    """The cookies test on one Set-Cookie alone: the Observatory's jar holding only it."""
    response = ObservedResponse(page_url, 200, {"set-cookie": [set_cookie]})
    return cookies(ObservedSite(host="", auto=response), hsts_passed)


def page_sri(page_url: str, scripts: Iterable[ScriptTag], site_host: str) -> TestOutcome:
    """The subresource-integrity test on one crawled HTML page, active mixed content included."""
    tags = list(scripts)
    response = ObservedResponse(page_url, 200, {"content-type": ["text/html"]})
    observed = subresource_integrity(response, HtmlFacts(scripts=tags), site_host)
    mixed = [tag for tag in tags if _over_http_from_https(page_url, tag)]
    if not mixed:
        return observed
    integrity = all(tag.integrity for tag in mixed)
    result = (
        SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY
        if integrity
        else SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY
    )
    mixed_outcome = outcome(
        TestName.SUBRESOURCE_INTEGRITY,
        result,
        False,
        {"mixedContent": [tag.src for tag in mixed if tag.src]},
    )
    return min(observed, mixed_outcome, key=lambda o: o.score_modifier)


def _over_http_from_https(page_url: str, tag: ScriptTag) -> bool:
    # Only an absolute http: URL leaves an https page over http: relative and protocol-relative
    # sources inherit https.
    src = (tag.src or "").lower()
    return src.startswith("http:") and page_url.lower().startswith("https:")


def merge_sightings(grade: SecurityGrade, sightings: Iterable[PageSighting]) -> SecurityGrade:
    """`grade` with each merged test lowered by its worst failing sighting, rescored."""
    worst: dict[TestName, PageSighting] = {}
    for sighting in sightings:
        test = sighting.outcome.test
        if test not in MERGED_TESTS or sighting.outcome.passed:
            continue
        current = worst.get(test)
        if current is None or sighting.outcome.score_modifier < current.outcome.score_modifier:
            worst[test] = sighting
    tests = [_lowered(test, worst.get(test.test)) for test in grade.tests]
    score = total_score([test.score_modifier for test in tests])
    return SecurityGrade(score, grade_for_score(score), tests, grade.algorithm_version)


def _lowered(scanned: TestOutcome, sighting: PageSighting | None) -> TestOutcome:
    if sighting is None or sighting.outcome.score_modifier >= scanned.score_modifier:
        return scanned
    seen = sighting.outcome
    return replace(seen, details={**seen.details, "page": sighting.page_url})
