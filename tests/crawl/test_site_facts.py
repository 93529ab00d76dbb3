"""What the crawl keeps of each response for the grade and the exposure checks."""

from __future__ import annotations

import json

from common import ports
from crawl.site_facts import MAX_COOKIES_PER_PAGE, site_facts
from durable.records import SiteFact, SiteFactKind
from parse.parity import extract

PAGE = "https://example.com/shop"


def fetched(body: str = "", **headers: str) -> ports.FetchResult:
    return ports.FetchResult(PAGE, 200, headers, body.encode(), False, 1.0)


def facts_of(result: ports.FetchResult, html: bool = True) -> list[SiteFact]:
    parsed = extract(result.body, page_url=PAGE, content_type="text/html") if html else None
    return site_facts(PAGE, result, parsed, "example.com")


def test_cookies_are_kept_without_their_values_once_each() -> None:
    result = fetched(**{"set-cookie": "sid=s3cr3t; Secure, theme=dark, sid=other; Secure"})
    assert facts_of(result, html=False) == [
        SiteFact(SiteFactKind.COOKIE, "sid=; Secure", PAGE),
        SiteFact(SiteFactKind.COOKIE, "theme=", PAGE),
    ]


def test_cookies_per_page_are_capped() -> None:
    many = ", ".join(f"c{i}=1" for i in range(MAX_COOKIES_PER_PAGE + 5))
    assert len(facts_of(fetched(**{"set-cookie": many}), html=False)) == MAX_COOKIES_PER_PAGE


def test_scripts_give_the_failing_sri_result_and_every_absolute_url() -> None:
    body = (
        "<script src='/own.js'></script><script src='https://cdn.other.org/lib.js'></script>"
        "<script src='http://example.com/old.js'></script><script>inline()</script>"
    )
    found = facts_of(fetched(body))
    assert found == [
        SiteFact(
            SiteFactKind.SRI,
            "sri-not-implemented-and-external-scripts-not-loaded-securely",
            PAGE,
            json.dumps(["http://example.com/old.js"]),
        ),
        SiteFact(SiteFactKind.SCRIPT, "https://example.com/own.js", PAGE),
        SiteFact(SiteFactKind.SCRIPT, "https://cdn.other.org/lib.js", PAGE),
        SiteFact(SiteFactKind.SCRIPT, "http://example.com/old.js", PAGE),
    ]


def test_a_passing_page_keeps_only_its_script_urls() -> None:
    found = facts_of(fetched("<script src='/own.js'></script>"))
    assert [fact.kind for fact in found] == [SiteFactKind.SCRIPT]


def test_versions_in_headers_and_generator_tags_are_kept_with_their_disclosures() -> None:
    body = "<head><meta name='generator' content='WordPress 6.4.2'></head><body>x</body>"
    result = fetched(body, server="Apache/2.4.41 (Ubuntu)", **{"x-powered-by": "PHP"})
    found = facts_of(result)
    assert [fact.value for fact in found] == [
        "server: Apache/2.4.41 (Ubuntu)",
        "meta-generator: WordPress 6.4.2",
    ]
    assert json.loads(found[0].detail or "")[0]["version"] == "2.4.41"


def test_a_generator_anywhere_in_the_page_is_read_but_not_an_inert_one() -> None:
    body = (
        "<head></head><body><template><meta name=generator content='Inert 1.0'></template>"
        "<meta name=' Generator ' content=' Hugo 0.120 '></body>"
    )
    assert [fact.value for fact in facts_of(fetched(body))] == ["meta-generator: Hugo 0.120"]


def test_no_generator_facts_without_parsed_facts() -> None:
    body = "<head><meta name='generator' content='WordPress 6.4.2'></head>"
    assert facts_of(fetched(body), html=False) == []
