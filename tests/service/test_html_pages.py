"""The report's per-URL view and site structure (service.html_pages): a section per page with its
status, depth, outlinks and issues; a link to it wherever the report shows the page's URL; the
pages and issues counted by directory, bounded whatever the site's shape."""

from __future__ import annotations

from collections import Counter
from xml.etree.ElementTree import Element

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditdb import repository, verdict
from auditdb.records import AuditRecord, AuditStatus, PageRecord
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER
from service.html_pages import (
    NOT_KEPT,
    OTHER,
    PAGE_VIEWS,
    Structure,
    breakable,
    depth_text,
    directory_of,
    structure_section,
)
from service.html_report import export_html
from service.page_links import MIN_VIEW_LINKS, VIEW_LINK_BUDGET, view_limit
from service.page_table import is_web_url, page_anchor
from tests.service.html_doc import parse
from tests.service.test_html_report import SITE, issue, page, render
from tests.support.elements import find

DEPTHS = {0: 0, 1: 1, 2: None, 3: None}  # page 2 came from the sitemap alone; page 3 from nowhere


def seeded_pages() -> list[PageRecord]:
    urls = [SITE, f"{SITE}blog/a", f"{SITE}blog/2026/b", f"{SITE}shop/c.html"]
    return [
        page(n, depth=DEPTHS[n], url=url, in_sitemap=n == 2, internal_link_count=n + 3,
             external_link_count=n)
        for n, url in enumerate(urls)
    ]  # fmt: skip


@pytest.fixture
async def report(platform: LocalPlatform) -> Element:
    pages = seeded_pages()
    issues = [
        issue(1, pages[1].url, "missing-title", "critical"),
        issue(2, pages[1].url, "missing-h1", "warning"),
        issue(3, pages[2].url, "missing-h1", "warning"),
        issue(4, pages[3].url, "thin-content", "warning"),
    ]
    return parse(await render(platform, pages, issues))


def view(root: Element, url: str) -> dict[str, str]:
    section = find(root, f".//details[@id='{page_anchor(url)}']")
    assert "".join(find(section, "summary").itertext()) == url
    dl = find(section, "dl")
    keys = ["".join(dt.itertext()) for dt in dl.iter("dt")]
    values = [" ".join("".join(dd.itertext()).split()) for dd in dl.iter("dd")]
    return dict(zip(keys, values, strict=True))


async def test_every_page_has_a_section_with_status_depth_outlinks_and_issues(report) -> None:
    pages = seeded_pages()
    sections = [d.get("id") for d in report.iter("details") if d.get("class") == "page"]
    assert sections == [page_anchor(p.url) for p in sorted(pages, key=lambda p: p.url)]
    blog = view(report, pages[1].url)
    assert blog["Status"] == "200"
    assert blog["Depth"] == "1"
    # An audit whose links were not kept (these rows have none) shows its outlink counts.
    assert blog["Outlinks"] == f"4 internal, 1 other sites ({NOT_KEPT})"
    assert blog["Issues (2)"] == "Missing titleMissing H1"  # the critical one first
    links = [
        a.get("href")
        for a in find(report, f".//details[@id='{page_anchor(pages[1].url)}']").iter("a")
    ]
    assert "#type-missing-title" in links and "#type-missing-h1" in links
    assert view(report, pages[2].url)["Depth"] == "not linked (found in the sitemap only)"
    assert view(report, pages[3].url)["Depth"] == "unknown"
    assert view(report, pages[0].url)["Issues (0)"] == "none"


async def test_every_url_the_report_shows_links_to_its_section(report) -> None:
    """Wherever a link opens a crawled page (table, issue groups), a 'page view' link follows."""
    ids = {el.get("id") for el in report.iter() if el.get("id")}
    main = find(report, ".//main")
    outward = [
        (parent, a)
        for parent in main.iter()
        for a in parent
        if a.tag == "a"
        and is_web_url(a.get("href") or "")
        and (a.get("href") or "").startswith(SITE)
    ]
    assert outward
    for parent, a in outward:
        if parent.tag == "dd":
            continue  # the audit's facts (the site) and a page's own "Open" row
        siblings = list(parent)
        views = [s for s in siblings[siblings.index(a) + 1 :] if s.get("class") == "view"]
        assert views, a.get("href")
        assert views[0].get("href") == "#" + page_anchor(a.get("href") or "")
        assert (views[0].get("href") or "")[1:] in ids


async def test_the_site_structure_counts_pages_and_issues_by_directory(report) -> None:
    section = find(report, ".//section[@aria-labelledby='structure-h']")

    def said(el: Element) -> str:
        return " ".join("".join(el.itertext()).split())

    tops = find(section, "ul").findall("li")
    heads = [
        said(find(li, "details/summary") if li.find("details") is not None else li) for li in tops
    ]
    assert heads == ["/ 1 page, 0 issues", "/blog/ 2 pages, 3 issues", "/shop/ 1 page, 1 issue"]
    inner = [said(li) for li in find(tops[1], "details/ul").findall("li")]
    assert inner == ["/blog/ itself 1 page, 2 issues", "/blog/2026/ 1 page, 1 issue"]


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://a.test/", ()),
        ("https://a.test/index.html", ()),
        ("https://a.test/blog/", ("blog",)),
        ("https://a.test/blog/post", ("blog",)),
        ("https://a.test/blog/2026/12/post", ("blog", "2026")),
        ("https://a.test//x//y/", ("x", "y")),
        ("https://[::1/x/y", ()),  # urlsplit refuses it: counted at the root, never a failure
    ],
)
def test_directory_of(url: str, key: tuple[str, ...]) -> None:
    assert directory_of(url) == key


@given(st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=4), max_size=200))
def test_the_structure_stays_bounded_and_counts_every_page(paths: list[list[str]]) -> None:
    structure = Structure(limit=6)
    rows = [
        page(n, url="https://a.test/" + "".join(f"{s}/" for s in path) + "p")
        for n, path in enumerate(paths)
    ]
    structure.add_pages(rows)
    assert len(structure.pages) <= 6 + 1  # and "other"
    assert sum(structure.pages.values()) == len(rows)
    assert all(key == (OTHER,) or len(key) <= 2 for key in structure.pages)
    tree = parse(f"<!DOCTYPE html><title>t</title>{structure_section(structure)}")
    assert tree.find(".//ul[@class='tree']") is not None


@pytest.mark.parametrize(
    ("depth", "in_sitemap", "text"),
    [
        (0, False, "0"),
        (3, True, "3"),
        (None, True, "not linked (found in the sitemap only)"),
        (None, False, "unknown"),
    ],
)
def test_depth_text(depth: int | None, in_sitemap: bool, text: str) -> None:
    assert depth_text(page(1, depth=depth, in_sitemap=in_sitemap)) == text


def test_the_per_url_view_covers_the_pages_the_data_island_holds() -> None:
    from service.page_table import DATA_ROWS

    assert PAGE_VIEWS == DATA_ROWS
    assert (
        Counter(page_anchor(f"https://a.test/{n}") for n in range(2000)).most_common(1)[0][1] == 1
    )


@pytest.mark.parametrize(
    ("pages_in_view", "listed"),
    [(0, 10), (1, 10), (5_000, 10), (5_001, 9), (6_250, 8), (10_000, 5), (100_000, 5)],
)
def test_the_views_lists_shorten_past_5000_pages_and_never_under_5(
    pages_in_view: int, listed: int
) -> None:
    assert view_limit(pages_in_view) == listed
    assert pages_in_view * 2 * listed <= VIEW_LINK_BUDGET or listed == MIN_VIEW_LINKS


async def test_a_page_links_a_merged_type_to_the_finding_that_shows_it(platform) -> None:
    """The start page's grade fails on its CSP and a page lacks one: one finding (one fix), shown
    under the lead type; the page's issue link must still land on a section of the report."""
    pages = seeded_pages()
    issues = [
        issue(1, SITE, "security-csp", "warning"),
        issue(2, pages[1].url, "csp-missing", "warning"),
    ]
    env = platform.core_env
    audit = AuditRecord(
        "a1", SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER, status=AuditStatus.COMPLETED
    )
    await repository.insert_audit(env.DB, audit)
    await repository.write_crawled_pages(env.DB, pages, issues)
    tally = await verdict.tally(env.DB, "a1", security_score=40)  # as finalize stores it
    await (
        env.DB.prepare("UPDATE audits SET verdict = ? WHERE id = ?")
        .bind(verdict.to_column(tally), "a1")
        .run()
    )
    export = await export_html(env, LOCAL_OWNER, "a1")
    root = parse(b"".join([chunk async for chunk in export.chunks]).decode())
    assert "One fix with: No Content-Security-Policy" in "".join(root.itertext())
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    section = find(root, f".//details[@id='{page_anchor(pages[1].url)}']")
    hrefs = [a.get("href") or "" for a in section.iter("a")]
    assert [h for h in hrefs if h.startswith("#type-")] == ["#type-security-csp"]
    assert all(h[1:] in ids for h in hrefs if h.startswith("#"))


@pytest.mark.parametrize(
    ("url", "html"),
    [
        ("https://shop.test/", "https://shop.test/<wbr>"),
        ("https://shop.test/a/b?q=1&r=2", "https://shop.test/<wbr>a/<wbr>b?q=1&amp;r=2"),
        ("https://a-very-long-host.example/", "https://a-very-long-host.example/<wbr>"),
        ("mailto:x@y.test", "mailto:x@y.test"),
    ],
)
def test_a_url_breaks_after_its_path_slashes_only(url: str, html: str) -> None:
    assert breakable(url) == html
