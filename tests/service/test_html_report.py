"""The HTML report of one audit: a document that parses, loads nothing, escapes what the crawled
site wrote (in the markup and in the page table's data island), carries a CSP matching its own
inline code, charts the right bars, caps its rows, is accessible, and, for a monitor's run, shows
the run history and what changed since the previous run (tests/service/test_html_history.py)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any
from xml.etree.ElementTree import Element

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.catalogue import CATALOGUE, IssueType, Severity, doc_url
from audit.verdict import Tally, TypeTally, judge
from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from auditdb.summary import IssueCounts
from common.wire import JsonValue
from local_platform.runtime import LocalPlatform
from service import html_style, page_table
from service.audits import LOCAL_OWNER
from service.html_report import (
    FIX_FIRST,
    PAGES_PER_TYPE,
    PageStats,
    export_html,
    html_chunks,
    score_band,
    time_bucket,
    verdict_section,
)
from service.html_style import csp_hash
from service.issue_locating import locating_detail
from service.page_table import LINK_REL, TABLE_ROWS, status_class
from service.svg_charts import Tone
from service.verdict import AuditVerdict
from tests.service.html_doc import parse
from tests.support.elements import attr, find, text

SITE = "https://shop.test/"
HOSTILE_TITLE = "<script>alert('title')</script>"
HOSTILE_URL = 'https://shop.test/x?"><script>alert(1)</script>'
HOSTILE_DETAIL = "<img src=x onerror=alert(2)>"


def page(n: int, status: int = 200, depth: int | None = 1, ms: int | None = 100, **kw: Any):
    return PageRecord(
        f"p{n:05d}",
        "a1",
        kw.pop("url", f"{SITE}{n:05d}"),
        "2026-12-01T00:00:00.000Z",
        status_code=status,
        crawl_depth=depth,
        response_time_ms=ms,
        **kw,
    )


def issue(n: int, url: str, issue_type: str = "missing-title", severity: str = "critical", **kw):
    return IssueRecord(f"i{n:05d}", "a1", url, issue_type, severity, None, **kw)


async def render(
    platform: LocalPlatform, pages: list[PageRecord], issues: list[IssueRecord]
) -> str:
    env = platform.core_env
    audit = AuditRecord(
        "a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER, status=AuditStatus.COMPLETED
    )
    await repository.insert_audit(env.DB, audit)
    await repository.write_crawled_pages(env.DB, pages, issues)
    export = await export_html(env, LOCAL_OWNER, "a1")
    assert export.file_name == "siteaudit-a1.html"
    return b"".join([chunk async for chunk in export.chunks]).decode()


def executable(root: Element) -> list[Element]:
    """The script elements a browser runs (a JSON data block is not one)."""
    return [s for s in root.iter("script") if s.get("type") is None]


def island(root: Element) -> list[list[Any]]:
    """The page table's data island, parsed as the report's script parses it."""
    (data,) = [s for s in root.iter("script") if s.get("type") == "application/json"]
    assert data.get("id") == "page-data"
    return json.loads(text(data))["rows"]


# Statuses, depths and response times of the seeded audit, and the bars they must make (with the
# hostile page besides: 200, depth 1, 100 ms).
SEEDED = [
    (200, 0, 90),
    (200, 1, 250),
    (200, 1, 700),
    (301, 1, 1500),
    (404, 2, 4000),
    (404, 12, None),
    (0, None, None),
]
EXPECTED_BARS = {
    "status": {"2xx": 4, "3xx": 1, "4xx": 2, "no response": 1},
    "depth": {"0": 1, "1": 4, "2": 1, "10+": 1, "not linked": 1},
    "time": {
        "< 200 ms": 2,
        "200-599 ms": 1,
        "600-999 ms": 1,
        "1-3 s": 1,
        ">= 3 s": 1,
        "not timed": 2,
    },
    "types": {CATALOGUE[IssueType.MISSING_TITLE].title: 3, "a-type-from-a-newer-catalogue": 1},
}


@pytest.fixture
async def seeded(platform: LocalPlatform) -> tuple[str, Element]:
    pages = [page(n, s, d, ms) for n, (s, d, ms) in enumerate(SEEDED)]
    pages.append(page(90, title=HOSTILE_TITLE, url=HOSTILE_URL))
    issues = [
        issue(1, pages[0].url, details={"words": 3}),
        issue(2, HOSTILE_URL, details={"title": HOSTILE_DETAIL}),
        issue(3, "javascript:alert(3)"),
        issue(4, pages[1].url, "a-type-from-a-newer-catalogue", "info"),
    ]
    text = await render(platform, pages, issues)
    return text, parse(text)


def charts(root: Element) -> dict[str, dict[str, int]]:
    """Each chart's bars read from its fallback table, checked against its SVG."""
    found = {}
    for figure in root.iter("figure"):
        chart = attr(figure, "aria-labelledby").removesuffix("-caption")
        svg = find(figure, "svg")
        assert svg.get("role") == "img" and find(svg, "title").text
        rows = {
            text(find(row, "th")): int(text(find(row, "td")).replace(",", ""))
            for row in find(figure, ".//tbody").iter("tr")
        }
        assert len([r for r in svg.iter("rect") if "bar" in attr(r, "class")]) == len(rows)
        assert all(f"{label}: {n}" in attr(svg, "aria-label") for label, n in rows.items())
        found[chart] = rows
    return found


async def test_the_charts_have_one_bar_per_class_depth_bucket_and_type(seeded) -> None:
    assert charts(seeded[1]) == EXPECTED_BARS


async def test_the_document_loads_nothing_and_links_only_with_rel_nofollow(seeded) -> None:
    _, root = seeded
    assert not [el.tag for el in root.iter() if el.get("src") is not None]
    assert not {"link", "img", "iframe", "object", "embed", "form", "base"} & {
        el.tag for el in root.iter()
    }
    hrefs = [el for el in root.iter() if el.get("href") is not None]
    linked = [el for el in hrefs if not el.get("href").startswith("#")]
    # In-document links (to a page's view, an issue group) land on an element of the report.
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    assert {el.get("href")[1:] for el in hrefs if el not in linked} <= ids
    assert {el.tag for el in linked} == {"a"}
    assert {el.get("rel") for el in linked} == {LINK_REL}
    assert {el.get("target") for el in linked} == {"_blank"}  # never the web app's frame
    allowed = {SITE, HOSTILE_URL, doc_url(IssueType.MISSING_TITLE)}
    assert {el.get("href") for el in linked} - {f"{SITE}{n:05d}" for n in range(99)} <= allowed


async def test_hostile_titles_urls_and_details_stay_text(seeded) -> None:
    text, root = seeded
    assert len(executable(root)) == 1  # the report's own
    assert not [(el.tag, name) for el in root.iter() for name in el.attrib if name.startswith("on")]
    cells = ["".join(td.itertext()).removesuffix(" page view") for td in root.iter("td")]
    assert HOSTILE_TITLE in cells and HOSTILE_URL in cells
    assert any(HOSTILE_DETAIL in "".join(li.itertext()) for li in root.iter("li"))
    assert "javascript:" not in {el.get("href", "")[:11] for el in root.iter("a")}
    assert any("".join(li.itertext()).strip() == "javascript:alert(3)" for li in root.iter("li"))
    assert "<script>alert" not in text
    titles = {row[4] for row in island(root)}
    assert HOSTILE_TITLE in titles and HOSTILE_URL in {row[0] for row in island(root)}


async def test_the_csp_forbids_everything_but_its_own_hashed_style_and_script(seeded) -> None:
    _, root = seeded
    head = root.find("head")
    (meta,) = [m for m in head.iter("meta") if m.get("http-equiv") == "Content-Security-Policy"]
    policy = dict(d.strip().split(" ", 1) for d in meta.get("content").split(";"))
    assert policy["default-src"] == "'none'" and policy["base-uri"] == "'none'"
    styles, scripts = list(root.iter("style")), executable(root)
    order = list(root.iter())
    assert order.index(meta) < min(order.index(el) for el in styles + scripts)  # policy first
    assert policy["style-src"].split() == [csp_hash(s.text) for s in styles]
    assert policy["script-src"].split() == [csp_hash(text(s)) for s in scripts]
    assert not [el.tag for el in root.iter() if el.get("style") is not None]


async def test_issues_are_grouped_by_severity_with_catalogue_texts(seeded) -> None:
    _, root = seeded
    issues = find(root, ".//section[@aria-labelledby='issues-h']")
    severities = ["".join(h.itertext()).split(" ")[0] for h in issues.iter("h3")]
    assert severities == ["Critical", "Info"]
    d = CATALOGUE[IssueType.MISSING_TITLE]
    article = root.find(".//article[@id='type-missing-title']")
    body = "".join(article.itertext())
    assert d.title in body and d.explanation in body and d.how_to_fix in body
    links = [li.find("a") for li in article.iter("li")]
    assert [a.get("href") for a in links[:2]] == [f"{SITE}00000", HOSTILE_URL]
    assert links[2] is None  # javascript:alert(3), as text
    unknown = "".join(root.find(".//article[@id='type-a-type-from-a-newer-catalogue']").itertext())
    assert "does not describe" in unknown and "and 1 more" in unknown
    assert "siteaudit report a1 --format csv" in unknown


async def test_the_caps_hold_for_a_large_audit(platform: LocalPlatform) -> None:
    size = TABLE_ROWS + 30
    pages = [page(n) for n in range(size)]
    issues = [issue(n, p.url) for n, p in enumerate(pages)]
    text = await render(platform, pages, issues)
    root = parse(text)

    rows = find(root, ".//table[@id='pages']/tbody").findall("tr")
    assert len(rows) == TABLE_ROWS
    assert find(rows[0], "td/a").text == f"{SITE}00000"  # by URL
    assert [row[0] for row in island(root)] == [p.url for p in pages]  # under DATA_ROWS: all
    assert f"The first {TABLE_ROWS} of {size} pages by URL" in text
    assert "/api/audits/a1/pages.csv" not in text  # only named when the island is capped
    article = find(root, ".//article[@id='type-missing-title']")
    assert len(article.findall(".//li")) == PAGES_PER_TYPE
    assert f"and {size - PAGES_PER_TYPE} more" in "".join(article.itertext())


async def test_an_audit_without_pages_or_issues_still_renders(platform: LocalPlatform) -> None:
    root = parse(await render(platform, [], []))
    assert "No issues found." in "".join(root.itertext())
    assert find(root, ".//table[@id='pages']/tbody").findall("tr") == []
    assert island(root) == []


@pytest.mark.parametrize(
    ("code", "label"),
    [
        (0, "no response"),
        (99, "no response"),
        (200, "2xx"),
        (304, "3xx"),
        (599, "5xx"),
        (600, "no response"),
    ],
)
def test_status_classes(code: int, label: str) -> None:
    assert status_class(code) == label


@pytest.mark.parametrize(
    ("ms", "label"),
    [
        (None, "not timed"),
        (0, "< 200 ms"),
        (199, "< 200 ms"),
        (200, "200-599 ms"),
        (999, "600-999 ms"),
        (2999, "1-3 s"),
        (3000, ">= 3 s"),
    ],
)
def test_response_time_buckets(ms: int | None, label: str) -> None:
    assert time_bucket(ms) == label


HOPS = [f"https://a.test/{n}" for n in range(10)]


@pytest.mark.parametrize(
    ("key", "details", "line"),
    [
        ("", {}, ""),
        ("https://a.test/gone", {"status": 404}, "Links to https://a.test/gone; answers 404."),
        # A broken link: its target is the dedupe key and a detail; said once, URL first.
        (
            "https://a.test/gone",
            {"targetUrl": "https://a.test/gone", "targetStatus": 404},
            "Links to https://a.test/gone, which answers 404.",
        ),
        (
            "https://a.test/down",
            {"targetStatus": 0},
            "Links to https://a.test/down, which did not answer.",
        ),
        (
            "",
            {"hops": HOPS[:3], "finalUrl": HOPS[2]},
            f"Redirects: {' → '.join(HOPS[:3])}; ends at {HOPS[2]}.",
        ),
        ("", {"hops": HOPS}, f"Redirects: {' → '.join(HOPS[:7])} → (2 more) → {HOPS[9]}."),
        ("", {"groupSize": 2, "otherUrls": ["b"]}, "One of 2 pages that share it, with b."),
        (
            "",
            {"groupSize": 9, "otherUrls": ["b", "c", "d", "e"]},
            "One of 9 pages that share it, with b, c, d and 5 more.",
        ),
        ("", {"duplicates": ["a", "b", "c", "d"]}, "Duplicates: a, b, c …"),
        ("", {"long": "x" * 700}, "Long: " + "x" * 593 + "…"),
        # Never a Python None, never an internal name where a phrase exists.
        ("", {"header": None}, "The header is not sent."),
        ("", {"header": "sniff"}, "The header sent is 'sniff'."),
        ("", {"responseTimeMs": 1886}, "Answered in 1,886 ms."),
        ("", {"from": 1, "to": 3}, "The headings jump from h1 to h3."),
        ("", {"nothing": None, "empty": ""}, ""),
        (
            "",
            {
                "test": "content-security-policy",
                "result": "csp-not-implemented",
                "scoreModifier": -25,
                "severity": "critical",
                "source": "security",
                "howToFix": "Send a Content-Security-Policy.",
            },
            "The security grade's Content-Security-Policy test found: no "
            "Content-Security-Policy header, which costs 25 of the grade's 100 points; fix: "
            "Send a Content-Security-Policy.",
        ),
    ],
)
def test_the_locating_detail(key: str, details: dict, line: str) -> None:
    row = IssueRecord("i", "a1", "https://a.test/", "broken-internal-link", "critical", None,
                      details, key)  # fmt: skip
    assert locating_detail(row) == line


def test_no_style_attribute_or_external_url_hides_in_the_constant_parts() -> None:
    assert not re.search(r"url\(|@import|https?://", html_style.STYLE + page_table.SCRIPT)
    assert "innerHTML" not in page_table.SCRIPT and "setAttribute('style'" not in page_table.SCRIPT


# Characters HTML cannot carry at all (NUL, lone surrogates, C0/C1 controls but tab/newline) are
# left out: the property is about markup, not about those.
TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")) | st.sampled_from("\t\n")
)
# What ends or confuses a script element's text (HTML §13.2.5.4), mixed into any text.
BREAKOUTS = st.sampled_from(["</script>", "</SCRIPT >", "<!--", "-->", "<script>", "]}", "\\u003c"])
HOSTILE = st.lists(TEXT | BREAKOUTS, max_size=4).map("".join)


async def nothing() -> Any:
    return
    yield


@settings(max_examples=50, deadline=None)
@given(title=HOSTILE, path=HOSTILE)
async def test_any_title_and_url_come_back_as_the_same_text_and_add_no_element(title, path) -> None:
    stats = PageStats()
    stats.add([page(1, title=title, url=SITE + path)])
    audit = AuditRecord("a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER)
    chunks = [c async for c in html_chunks(audit, IssueCounts(()), stats, nothing())]
    root = parse(b"".join(chunks).decode())

    (row,) = find(root, ".//table[@id='pages']/tbody")
    cells = ["".join(td.itertext()) for td in row]
    assert cells[0] == SITE + path + " page view" and cells[4] == title
    assert find(row[0], "a").get("href") == SITE + path
    assert len(executable(root)) == 1
    ((url, *_, linkable, anchor),) = island(root)  # the data island gives back the same text
    assert (url, _[3], linkable) == (SITE + path, title, 1)
    view = find(root, f".//details[@id='{anchor}']")  # and the page's own section
    assert "".join(find(view, "summary").itertext()) == SITE + path
    text = b"".join(chunks).decode()
    data = text[text.index('<script type="application/json"') :]
    assert "<" not in data[data.index(">") + 1 : data.index("</script>")]


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"security_grade": "C+", "security_score": 60}, "Security grade C+ (60/100): Mozilla"),
        ({"security_error": "https://a.test/ did not answer"}, "Not graded (https://a.test/"),
        ({}, "Not graded (not graded yet)."),
    ],
)
async def test_the_security_grade_sits_beside_the_overall_score_each_with_its_meaning(
    fields, shown
) -> None:
    audit = AuditRecord(
        "a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER, health_score=72.0, **fields
    )
    chunks = [c async for c in html_chunks(audit, IssueCounts(()), PageStats(), nothing())]
    headline = find(parse(b"".join(chunks).decode()), ".//div[@class='headline']")

    # Two cards in one grid row (same height by the stylesheet): a heading, a figure, a sentence.
    score, grade = headline.findall("div")
    assert [find(card, "h3").text for card in (score, grade)] == ["Overall score", "Security grade"]
    assert find(score, ".//svg").get("aria-label") == "Overall score: 72 out of 100"
    assert text(find(score, "p[@class='meaning']")).startswith("Needs work: the category")
    assert shown in text(find(grade, "p[@class='meaning']"))


SITE_DOWN = "https://shop.test/ answered 500 Internal Server Error: the server failed. Check it."


@pytest.mark.parametrize(
    ("fields", "banner"),
    [
        (
            {"error_code": "site_http_error", "error_detail": SITE_DOWN},
            f"The audit failed: the start URL answered with an HTTP error {SITE_DOWN}",
        ),
        ({"error_code": "oom", "error_detail": "Worker exceeded memory limit."}, None),
        ({}, None),
    ],
)
async def test_an_audit_the_site_made_fail_opens_with_a_banner_saying_why(fields, banner) -> None:
    status = AuditStatus.FAILED if fields else AuditStatus.COMPLETED
    audit = AuditRecord(
        "a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER, status=status, **fields
    )
    chunks = [c async for c in html_chunks(audit, IssueCounts(()), PageStats(), nothing())]
    main = find(parse(b"".join(chunks).decode()), ".//main")
    first = main[0]

    if banner is None:
        assert first.get("class") == "verdict"  # what to fix first, or why there is no verdict
    else:
        assert (first.tag, first.get("role"), first.get("class")) == ("section", "alert", "failure")
        assert " ".join(" ".join(first.itertext()).split()) == banner
        assert main[1].get("class") == "about"  # the banner said why: no verdict


async def test_the_scheme_of_a_url_given_without_one_is_among_the_facts() -> None:
    note = "no scheme given: https://shop.test/ did not connect (TLS failed), auditing http://shop.test/"
    audit = AuditRecord("a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER, scheme_note=note)
    chunks = [c async for c in html_chunks(audit, IssueCounts(()), PageStats(), nothing())]
    facts = find(parse(b"".join(chunks).decode()), ".//dl[@class='facts']")

    assert f"Scheme {note}" in " ".join(" ".join(facts.itertext()).split())


def _luminance(hex_colour: str) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour (#rrggbb)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def style_colours() -> list[tuple[str, str, str]]:
    """(selector, property, colour) of every colour the stylesheet sets, variables resolved."""
    from service.html_style import STYLE

    variables = dict(re.findall(r"(--[\w-]+):(#[0-9a-f]{6})", STYLE))
    found = []
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", STYLE):
        for prop, value in re.findall(r"(?:^|;)\s*(color|fill|stroke):([^;]+)", body):
            colour = variables.get(value.removeprefix("var(").removesuffix(")"), value)
            if re.fullmatch(r"#[0-9a-f]{6}", colour):
                found.append((selector.strip(), prop, colour))
    return found


BACKGROUNDS = ("#ffffff", "#f4f5f7")  # the page and the chart panels (--bg, --panel)


# Grid lines are decoration, which WCAG 2.1 SC 1.4.11 exempts.
# The gauge's track is too: the arc (3:1) and the number in the ring carry the score.
@pytest.mark.parametrize(
    ("selector", "prop", "colour"), [c for c in style_colours() if c[0] not in {".grid", ".track"}]
)
def test_every_colour_meets_wcag_contrast_on_both_backgrounds(selector, prop, colour) -> None:
    """Text 4.5:1 (WCAG 2.1 SC 1.4.3); bars, lines and points 3:1 (SC 1.4.11)."""
    least = 4.5 if prop == "color" or selector == ".axis" else 3.0
    assert min(contrast(colour, bg) for bg in BACKGROUNDS) >= least


def test_the_contrast_check_sees_the_palette() -> None:
    seen = {(s, c) for s, _, c in style_colours()}
    assert ("a", "#0b57d0") in seen and (".sev-warning", "#8a4b00") in seen
    assert any(s == "circle.series-security" for s, _ in seen)


def verdict_root(verdict: AuditVerdict | None) -> Element:
    audit = AuditRecord("a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER)
    return parse(f"<!DOCTYPE html><title>t</title>{verdict_section(audit, verdict)}")


def test_the_verdict_shows_gauges_and_what_to_fix_first_in_rank_order() -> None:
    judged = judge(
        Tally(
            10,
            10,
            300,
            None,
            (
                TypeTally("missing-viewport", Severity.WARNING, 10, 10, 300),
                TypeTally("broken-internal-link", Severity.CRITICAL, 1, 1, 30),
            ),
        )
    )
    actions = tuple(replace(a, example_pages=(HOSTILE_URL,)) for a in judged.actions)
    root = verdict_root(AuditVerdict(judged.scores, actions))

    (section,) = root.iter("section")
    assert find(section, "h2").text == "Verdict"
    # Order on screen: the two cards, the category gauges, then the fix-first list.
    order = [el.get("class") for el in section if el.tag in {"div", "ul", "ol"}]
    assert order == ["headline", "gauges", "actions"]
    gauges = find(section, "ul[@class='gauges']").findall("li")
    # Accessibility was not checked: its gauge says so, never 100.
    assert [find(li, "svg").get("aria-label") for li in gauges] == [
        f"{c.label}: {c.score:g} out of 100" for c in judged.scores.categories[:-1]
    ] + ["Accessibility: n/a"]
    items = find(section, "ol[@class='actions']").findall("li")
    assert [find(li, "a").get("href") for li in items] == [
        "#type-missing-viewport",
        "#type-broken-internal-link",
    ]
    assert find(items[0], "span[@class='gain']").text == "+5.0 points"  # 25% of 20 on-page points
    assert find(items[0], "span[@class='where']").text == "10 pages, site-wide"
    # An example page is the crawled site's text: escaped, a link only as the page table makes it.
    assert HOSTILE_URL in "".join(items[0].itertext())
    assert not list(root.iter("script"))


@given(st.integers(min_value=0, max_value=12))
def test_fix_first_shows_the_verdicts_first_actions_in_its_order(count: int) -> None:
    types = sorted(CATALOGUE)[:count]
    judged = judge(
        Tally(20, 20, 600, None, tuple(
            TypeTally(t, CATALOGUE[t].severity, n + 1, n + 1, 30 * (n + 1))
            for n, t in enumerate(types)
        ))
    )  # fmt: skip
    (section,) = verdict_root(AuditVerdict(judged.scores, judged.actions)).iter("section")
    listed = [find(li, "a").get("href") for li in section.iter("li") if li.find("a") is not None]
    ranked = [f"#type-{a.issue_type}" for a in judged.actions]
    assert listed == ranked[:FIX_FIRST]
    more = [a for a in section.iter("a") if a.get("href") == "#issues-h"]
    assert len(more) == (len(ranked) > FIX_FIRST)


def test_gauge_bands_follow_lighthouse() -> None:
    assert [score_band(v) for v in (None, 0, 49.9, 50, 89.9, 90, 100)] == [
        Tone.NEUTRAL, Tone.BAD, Tone.BAD, Tone.WARN, Tone.WARN, Tone.GOOD, Tone.GOOD,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("verdict", "text"),
    [
        (None, "no verdict"),
        (
            AuditVerdict(None, (), "The audit was cancelled: a partial crawl is no basis."),
            "The audit was cancelled: a partial crawl is no basis.",
        ),
    ],
)
def test_without_a_verdict_the_section_says_why(verdict: AuditVerdict | None, text: str) -> None:
    (section,) = verdict_root(verdict).iter("section")
    assert find(section, "p[@class='why-none']").text == text


@pytest.mark.parametrize(
    ("details", "line"),
    [
        # A note written as a sentence by its check is said as written, without its counts.
        (
            {"reason": "dns-unavailable", "checkedUrls": 0, "detail": "External links were not "
             "checked: DNS does not work where the audit ran."},
            "External links were not checked: DNS does not work where the audit ran.",
        ),
        # An empty list says nothing ("known as " with no name was a bug).
        ({"detail": "nginx 1.2", "identifiers": []}, "Nginx 1.2."),
    ],
)  # fmt: skip
def test_a_checks_own_sentence_leads_and_empty_values_say_nothing(details: dict, line: str) -> None:
    row = IssueRecord("i", "a1", "https://a.test/", "external-links-unchecked", "info", None,
                      details)  # fmt: skip
    assert locating_detail(row) == line


def test_what_an_exposure_check_found_leads_its_detail() -> None:
    details: dict[str, JsonValue] = {
        "subject": "jquery 1.12.4",
        "url": "https://a.test/js/app.js",
        "severity": "medium",
    }
    row = IssueRecord("i", "a1", "https://a.test/", "exposure-vulnerable-js-library", "warning",
                      None, details)  # fmt: skip
    assert locating_detail(row) == "Found jquery 1.12.4; at https://a.test/js/app.js."
