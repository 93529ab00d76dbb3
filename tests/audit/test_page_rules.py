"""Per-page rules: each table row is one page and the exact issue types it must produce, in order.

The baseline page built by `observe()` is clean; every row changes one thing (or the few things a
short-circuit needs) so it reads as a specification of one rule at its boundary.
"""

import pytest

from audit.catalogue import IssueType
from audit.page_rules import field_page_issues, original_page_issues, run_page_rules
from common.fetch_class import FetchClass
from parse.facts import Heading, Image, JsonLd, MixedContent, Script, UrlRef
from tests.audit.audit_builders import URL, link, observe

T = IssueType


def types(issues) -> list[str]:
    return [issue.issue_type.value for issue in issues]


def test_the_baseline_page_is_clean():
    assert run_page_rules(observe()) == []


# --------------------------------------------------------------------------- steps 1-8

BAD_CONTENT = {"titles": (), "meta_descriptions": (), "headings": (), "word_count": 3}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        # each status step stops the evaluation, even on a slow page with bad content
        ({"fetch_class": FetchClass.BLOCKED, "status_code": 403}, ["blocked-page"]),
        ({"fetch_class": FetchClass.BLOCKED, "status_code": 200}, ["blocked-page"]),
        ({"fetch_class": FetchClass.RATE_LIMITED, "status_code": 429}, ["rate-limited-page"]),
        ({"fetch_class": FetchClass.ERROR, "status_code": 0}, []),
        ({"status_code": 500}, ["server-error"]),
        ({"status_code": 599}, ["server-error"]),
        ({"status_code": 499}, ["broken-page"]),
        ({"status_code": 400}, ["broken-page"]),
        ({"status_code": 301, "redirect_url": "https://example.com/x"}, []),
        ({"status_code": 399}, []),
    ],
)
def test_fetch_outcome_short_circuits(changes, expected):
    obs = observe(BAD_CONTENT, response_time_ms=9000, **changes)
    assert types(run_page_rules(obs)) == expected


def test_status_details_carry_the_status_code():
    [issue] = run_page_rules(observe(status_code=404))
    assert issue.details == {"statusCode": 404} and issue.page_url == URL


@pytest.mark.parametrize("ms", [1500, 1501, 60_000, None])
def test_the_crawls_response_time_flags_nothing_by_itself(ms):
    """A time measured while crawling is only a reason to measure again after the crawl
    (audit.timing, workflow.timing_step): no page rule judges it."""
    assert types(run_page_rules(observe(response_time_ms=ms))) == []


@pytest.mark.parametrize(
    "changes",
    [
        {"is_html": False, "content_type": "application/pdf"},
        {"facts": None},  # HTML that was not analysed has no content to check
    ],
)
def test_pages_without_analysed_html_get_no_content_checks(changes):
    obs = observe(BAD_CONTENT, **changes)
    assert types(original_page_issues(obs)) == []


# --------------------------------------------------------------------------- steps 9-13


@pytest.mark.parametrize(
    ("changes", "facts_changes", "expected"),
    [
        ({}, {"meta_robots": ("NoIndex, follow",)}, ["noindex-page"]),
        ({}, {"meta_robots": ("index", "noindex")}, ["noindex-page"]),  # tags combine
        ({"x_robots_tag": "googlebot: NOINDEX"}, {}, ["noindex-page"]),
        ({}, {"meta_robots": ("index, follow",)}, []),
        # a noindex page is not thin and needs no outgoing links: it chose not to rank
        (
            {"x_robots_tag": "noindex"},
            {"word_count": 10, "links": (), "links_seen": 0},
            ["noindex-page"],
        ),
    ],
)
def test_noindex(changes, facts_changes, expected):
    assert types(original_page_issues(observe(facts_changes, **changes))) == expected


def test_noindex_details():
    [issue] = run_page_rules(observe({"meta_robots": ("noindex",)}, x_robots_tag="none"))
    assert issue.details == {"robotsMeta": "noindex", "xRobotsTag": "none"}


def canonical(url: str | None, raw: str | None = None) -> dict:
    return {"canonicals": (UrlRef(raw or url or "", url),)}


@pytest.mark.parametrize(
    ("facts_changes", "header", "expected"),
    [
        (canonical(URL), None, []),
        (canonical("https://EXAMPLE.com/page#top"), None, []),  # normalised before comparing
        (canonical("https://example.com/other"), None, ["canonicalized-page"]),
        ({}, "https://example.com/other", ["canonicalized-page"]),
        ({}, "/page", []),  # header canonical resolved against the page URL
        (canonical(URL), URL, []),
        # the badseo fixture: HTML ?via=html vs header ?via=header
        (
            canonical(URL + "?via=html"),
            URL + "?via=header",
            ["canonical-conflict", "canonicalized-page"],
        ),
        # conflict, yet the effective (HTML) canonical is the page itself
        (canonical(URL), URL + "?via=header", ["canonical-conflict"]),
    ],
)
def test_canonical_rules(facts_changes, header, expected):
    obs = observe(facts_changes, header_canonical=header)
    assert types(original_page_issues(obs)) == expected


@pytest.mark.parametrize(("depth", "expected"), [(4, []), (5, ["deep-page"]), (None, [])])
def test_deep_page_boundary(depth, expected):
    assert types(run_page_rules(observe(crawl_depth=depth))) == expected


SHELL = {
    "titles": (),
    "headings": (),
    "links": (),
    "links_seen": 0,
    "word_count": 19,
    "scripts": (Script(UrlRef("/app.js", "https://example.com/app.js"), "module", None, None),),
}


@pytest.mark.parametrize(
    ("facts_changes", "expected"),
    [
        (SHELL, ["javascript-rendering-suspected"]),  # and no title/H1/thin/links checks
        (
            {**SHELL, "word_count": 20},
            ["missing-title", "missing-h1", "thin-content", "no-outgoing-links"],
        ),
        (
            {**SHELL, "scripts": (Script(None, "application/ld+json", None, None),)},
            ["missing-title", "missing-h1", "thin-content", "no-outgoing-links"],
        ),
        (
            {**SHELL, "scripts": (Script(None, None, None, None),)},
            ["javascript-rendering-suspected"],
        ),  # an inline classic script executes too
    ],
)
def test_javascript_shell_stops_content_checks(facts_changes, expected):
    assert types(original_page_issues(observe(facts_changes))) == expected


def test_shell_still_gets_head_and_header_field_checks():
    obs = observe({**SHELL, "viewports": ()}, x_content_type_options=None)
    assert types(run_page_rules(obs)) == [
        "javascript-rendering-suspected",
        "missing-viewport",
        "content-type-options-missing",
    ]


# --------------------------------------------------------------------------- steps 14-17


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("", ["missing-title"]),
        ("  \n ", ["missing-title"]),
        ("x" * 60, []),
        ("x" * 61, ["title-too-long"]),
        ("x" * 10, []),
        ("x" * 9, ["title-too-short"]),
        ("\ufeff" + "x" * 10 + "\u3000", []),  # JS trim() removes BOM and ideographic space
        ("\U0001f600" * 30, []),  # 60 UTF-16 code units
        ("\U0001f600" * 31, ["title-too-long"]),  # 62 code units although len() is 31
        ("\U0001f600" * 4 + "x", ["title-too-short"]),  # 9 code units
    ],
)
def test_title_length_boundaries(title, expected):
    assert types(run_page_rules(observe({"titles": (title,)}))) == expected


def test_absent_title_is_missing_and_only_the_first_title_counts():
    assert types(original_page_issues(observe({"titles": ()}))) == ["missing-title"]
    obs = observe({"titles": ("x" * 30, "y")})
    assert types(original_page_issues(obs)) == []


def test_length_details():
    [issue] = run_page_rules(observe({"titles": ("\U0001f600" * 31,)}))
    assert issue.details == {"length": 62}


@pytest.mark.parametrize(
    ("descriptions", "expected"),
    [
        ((), ["missing-meta-description"]),
        (("   ",), ["missing-meta-description"]),
        (("d" * 160,), []),
        (("d" * 161,), ["meta-description-too-long"]),
        (("d" * 70,), []),
        (("d" * 69,), ["meta-description-too-short"]),
        ((" " + "d" * 70 + " ",), []),  # trimmed before measuring
    ],
)
def test_meta_description_boundaries(descriptions, expected):
    obs = observe({"meta_descriptions": descriptions})
    assert types(original_page_issues(obs)) == expected


@pytest.mark.parametrize(
    ("headings", "expected"),
    [
        ((), ["missing-h1"]),
        ((Heading(1, ""),), ["missing-h1"]),  # an empty <h1></h1> counts as missing
        ((Heading(1, " "), Heading(1, "Main")), []),
        ((Heading(1, "A"), Heading(1, "B")), ["multiple-h1"]),
        ((Heading(2, "Only h2"),), ["missing-h1"]),
    ],
)
def test_h1_rules(headings, expected):
    assert types(original_page_issues(observe({"headings": headings}))) == expected


@pytest.mark.parametrize(
    ("levels", "skip"),
    [
        ([1, 2, 3], None),
        ([1, 3], (1, 3)),
        ([1, 4], (1, 4)),  # the badseo fixture
        ([2, 4], (2, 4)),
        ([1, 2, 1, 3], (1, 3)),
        ([3, 1, 2], None),  # the first heading may be any level; going up is fine
        ([1, 2, 3, 2, 1], None),
        ([1, 6, 1], (1, 6)),
    ],
)
def test_heading_order(levels, skip):
    headings = tuple(Heading(level, "Main" if level == 1 else "x") for level in levels)
    obs = observe({"headings": headings if 1 in levels else (Heading(1, "M"), *headings)})
    issues = [i for i in run_page_rules(obs) if i.issue_type is T.HEADING_ORDER_SKIP]
    found = [(i.details["from"], i.details["to"]) for i in issues]
    assert found == ([] if skip is None else [skip])


# --------------------------------------------------------------------------- steps 18-20, JSON-LD


@pytest.mark.parametrize(
    ("words", "expected"), [(149, ["thin-content"]), (150, []), (0, ["thin-content"])]
)
def test_thin_content_boundary(words, expected):
    assert types(original_page_issues(observe({"word_count": words}))) == expected


def img(alt: str | None, width: str | None = "10", height: str | None = "10") -> Image:
    return Image(UrlRef("/i.png", "https://example.com/i.png"), alt, width, height)


def test_images_missing_alt_counts_only_absent_attributes():
    obs = observe({"images": (img(None), img(""), img("A cat"), img(None)), "images_seen": 4})
    [issue] = original_page_issues(obs)
    assert issue.issue_type is T.IMAGES_MISSING_ALT
    assert issue.details == {"imagesMissingAlt": 2, "imagesTotal": 4}
    assert original_page_issues(observe({"images": (img(""),), "images_seen": 1})) == []


@pytest.mark.parametrize(
    ("links", "expected"),
    [
        ((), ["no-outgoing-links"]),
        ((link(None, raw="http://[bad"),), ["no-outgoing-links"]),  # unresolvable href
        ((link("https://elsewhere.org/"),), []),  # external links count
        ((link("https://example.com/a", nofollow=True),), []),  # nofollow is still a link
    ],
)
def test_no_outgoing_links(links, expected):
    obs = observe({"links": links, "links_seen": len(links)})
    assert types(original_page_issues(obs)) == expected


def test_invalid_structured_data():
    obs = observe({"json_ld": JsonLd(blocks=2, parse_errors=1, types=("Product",))})
    [issue] = original_page_issues(obs)
    assert issue.issue_type is T.INVALID_STRUCTURED_DATA
    assert issue.details == {"errorCount": 1, "blocks": 2, "types": ["Product"]}
    assert original_page_issues(observe({"json_ld": JsonLd(blocks=2)})) == []


def test_kitchen_sink_reports_in_evaluation_order():
    # the badseo /kitchen-sink fixture: 92-char title, no meta, 2xH1, H1->H4, img without alt, 1.7 s
    obs = observe(
        {
            "titles": ("k" * 92,),
            "meta_descriptions": (),
            "headings": (Heading(1, "A"), Heading(1, "B"), Heading(4, "C")),
            "images": (img(None),),
            "images_seen": 1,
        },
        response_time_ms=1700,
    )
    assert types(run_page_rules(obs)) == [
        "title-too-long",
        "missing-meta-description",
        "multiple-h1",
        "heading-order-skip",
        "images-missing-alt",
    ]


# --------------------------------------------------------------------------- field checks


@pytest.mark.parametrize(
    ("changes", "facts_changes", "expected"),
    [
        ({"url": "http://example.com/page"}, {}, ["http-page-on-https-site"]),  # no HSTS on http
        ({"url": "http://example.com/page", "site_is_https": False}, {}, []),
        ({"html_bytes": 2 * 1024 * 1024}, {}, []),
        ({"html_bytes": 2 * 1024 * 1024 + 1}, {}, ["html-too-large"]),
        ({}, {"titles": ("x" * 30, "y" * 30)}, ["multiple-titles"]),
        ({}, {"meta_descriptions": ("d" * 100, "e" * 100)}, ["multiple-meta-descriptions"]),
        ({}, {"canonicals": (UrlRef("https://example.com/page", URL),) * 2}, []),
        (
            {},
            {"canonicals": (UrlRef(URL, URL), UrlRef("/b", "https://example.com/b"))},
            ["multiple-canonicals"],
        ),
        ({}, {"canonicals": (UrlRef("/page", URL),)}, ["relative-canonical"]),
        ({}, {"canonicals": (UrlRef("//example.com/page", URL),)}, ["relative-canonical"]),
        ({}, {"refreshes": ("0; url=/x",)}, ["meta-refresh"]),
        ({}, {"html_lang": None}, ["missing-html-lang"]),
        ({}, {"html_lang": "  "}, ["missing-html-lang"]),
        ({}, {"viewports": ()}, ["missing-viewport"]),
        ({}, {"images": (img("a", width=None),), "images_seen": 1}, ["images-missing-dimensions"]),
        ({}, {"images": (img("a"),), "images_seen": 1}, []),
        (
            {},
            {"links": (link("https://www.example.com/login", nofollow=True),)},
            ["internal-nofollow-links"],
        ),
        ({}, {"links": (link("https://ads.example.org/", nofollow=True),)}, []),
        (
            {},
            {
                "mixed_content": (MixedContent("img", "http://cdn.example.com/a.png"),),
                "mixed_content_seen": 1,
            },
            ["mixed-content"],
        ),
        (
            {},
            {"forms": (UrlRef("http://example.com/login", "http://example.com/login"),)},
            ["insecure-form-action"],
        ),
        ({}, {"forms": (UrlRef("", URL),)}, []),
        # field checks need a readable 2xx HTML page
        ({"status_code": 404}, {"viewports": ()}, ["broken-page"]),
        ({"is_html": False}, {"viewports": ()}, []),
        ({"facts": None}, {}, []),
    ],
)
def test_field_checks(changes, facts_changes, expected):
    assert types(run_page_rules(observe(facts_changes, **changes))) == expected


def test_sampled_evidence_is_capped_at_three_with_the_full_count():
    links = tuple(link(f"https://example.com/n{i}", nofollow=True) for i in range(5))
    [issue] = field_page_issues(observe({"links": links, "links_seen": 5}))
    sample = [f"https://example.com/n{i}" for i in range(3)]
    assert issue.details == {"count": 5, "sampleUrls": sample}


@pytest.mark.parametrize(
    ("header", "expected", "details"),
    [
        (None, "hsts-missing", {"header": None}),
        ("max-age=abc", "hsts-missing", {"header": "max-age=abc"}),
        ("includeSubDomains", "hsts-missing", {"header": "includeSubDomains"}),
        ("max-age=15767999", "hsts-too-short", {"maxAge": 15767999}),
        ("max-age=0", "hsts-too-short", {"maxAge": 0}),
        ("max-age=15768000", None, None),
        ('MAX-AGE="31536000"; includeSubDomains; preload', None, None),
    ],
)
def test_hsts_thresholds_from_the_observatory(header, expected, details):
    issues = field_page_issues(observe(strict_transport_security=header))
    assert [(i.issue_type.value, i.details) for i in issues] == (
        [] if expected is None else [(expected, details)]
    )


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x_content_type_options": " NoSniff "}, []),
        ({"x_content_type_options": "sniff"}, ["content-type-options-missing"]),
        ({"x_content_type_options": None}, ["content-type-options-missing"]),
        ({"content_security_policy": None, "x_frame_options": "DENY"}, ["csp-missing"]),
        ({"content_security_policy": " ", "x_frame_options": "sameorigin"}, ["csp-missing"]),
        ({"content_security_policy": None}, ["csp-missing", "frame-protection-missing"]),
        ({"content_security_policy": "default-src 'self'"}, ["frame-protection-missing"]),
        ({"content_security_policy": "default-src 'self'", "x_frame_options": "ALLOW-FROM x"}, []),
        (
            {"content_security_policy": "default-src 'self'", "x_frame_options": "garbage"},
            ["frame-protection-missing"],
        ),
        ({"content_security_policy": "Frame-Ancestors 'none'"}, []),
    ],
)
def test_security_headers(headers, expected):
    assert types(field_page_issues(observe(**headers))) == expected


def test_every_issue_lands_on_the_observed_url():
    obs = observe({"titles": (), "viewports": ()}, url="http://example.com/p", crawl_depth=9)
    issues = run_page_rules(obs)
    assert issues and all(issue.page_url == "http://example.com/p" for issue in issues)
