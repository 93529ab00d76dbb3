"""The link graph a completed audit keeps, end to end: a fixture site crawled through the Worker's
API, then a page's inlinks and outlinks as the API, the HTML report's per-URL view and the full
report document (from R2 and rebuilt from D1) give them."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode
from xml.etree.ElementTree import Element

import pytest

import workflow.links_step as links_step
from auditdb import page_links as rows
from auditdb import repository
from auditdb.records import AuditRecord
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER
from service.html_pages import NOT_KEPT
from service.html_report import export_html
from service.page_links import VIEW_LINKS, cut
from service.page_table import page_anchor
from service.reports import ReportSource, links_in, read_report, store_report
from tests.service.html_doc import parse
from tests.service.test_reports import document
from tests.support.elements import find
from tests.support.site_server import Reply, html_page, serve_site


def page(title: str, body: str) -> Reply:
    return Reply(body=html_page(title, f"<h1>{title}</h1>{body}"))


# B is linked from A and C with different anchors; B links home with an image, A with an empty
# anchor, C nofollow, another site, and a page that is missing.
ROUTES = {
    "/": page("Home of the fixture", "<a href='/a'>Page A</a> <a href='/c'>Page C</a>"),
    "/a": page("Page A of the fixture", "<a href='/b'>Read B</a>"),
    "/c": page("Page C of the fixture", "<a href='/b'>B, from C</a>"),
    "/b": page(
        "Page B of the fixture",
        "<a href='/'><img src='/logo.png' alt='Home logo'></a> <a href='/a'></a> "
        "<a rel='nofollow' href='/c'>C again</a> <a href='https://other.test/page'>Elsewhere</a> "
        "<a href='/missing'>Broken</a>",
    ),
    "/logo.png": Reply(body=b"\x89PNG", headers={"content-type": "image/png"}),
}


async def run_audit(platform: LocalPlatform, url: str, max_pages: int = 50) -> str:
    status, body = await platform.request(
        "POST", "/api/audits", {"url": url, "max_pages": max_pages}
    )
    assert status == 201, body
    audit_id: str = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    _, audit = await platform.request("GET", f"/api/audits/{audit_id}")
    assert audit["audit"]["status"] == "completed", audit
    return audit_id


async def completed(platform: LocalPlatform, audit_id: str) -> AuditRecord:
    audit = await repository.get_audit(platform.core_env.DB, audit_id)
    assert audit is not None
    return audit


async def api_links(platform: LocalPlatform, audit_id: str, url: str, direction: str, **extra: Any):
    query = urlencode({"url": url, "direction": direction, **extra})
    status, body = await platform.request("GET", f"/api/audits/{audit_id}/pages/links?{query}")
    assert status == 200, body
    return body


def listed(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (
            link["url"],
            link["anchor"],
            link["anchor_kind"],
            link["nofollow"],
            link["external"],
            link["status_code"],
        )
        for link in body["links"]
    ]


async def html_view(platform: LocalPlatform, audit_id: str) -> Element:
    export = await export_html(platform.core_env, LOCAL_OWNER, audit_id)
    return parse(b"".join([chunk async for chunk in export.chunks]).decode())


def view_lists(root: Element, url: str) -> dict[str, list[str]]:
    """A page's section: each fact's list items as text (or the fact's text when it has none)."""
    section = find(root, f".//details[@id='{page_anchor(url)}']")
    dl = find(section, "dl")
    facts: dict[str, list[str]] = {}
    for dt, dd in zip(dl.iter("dt"), dl.iter("dd"), strict=True):
        items = [" ".join("".join(li.itertext()).split()) for li in dd.iter("li")]
        facts["".join(dt.itertext())] = items or [" ".join("".join(dd.itertext()).split())]
    return facts


async def test_a_pages_inlinks_and_outlinks_are_listed_with_their_anchors(
    platform: LocalPlatform,
) -> None:
    with serve_site(ROUTES) as site:
        audit_id = await run_audit(platform, site.url("/"))
    b, home, a, c = site.url("/b"), site.url("/"), site.url("/a"), site.url("/c")
    missing = site.url("/missing")

    inlinks = await api_links(platform, audit_id, b, "in")
    outlinks = await api_links(platform, audit_id, b, "out")

    assert (inlinks["kept"], inlinks["total"], inlinks["complete"]) == (True, 2, True)
    assert listed(inlinks) == [
        (a, "Read B", "text", False, False, None),
        (c, "B, from C", "text", False, False, None),
    ]
    assert outlinks["total"] == 5
    assert listed(outlinks) == [
        (home, "Home logo", "image", False, False, 200),
        (a, None, "none", False, False, 200),
        (c, "C again", "text", True, False, 200),
        (missing, "Broken", "text", False, False, 404),
        ("https://other.test/page", "Elsewhere", "text", False, True, None),
    ]

    view = view_lists(await html_view(platform, audit_id), b)
    assert view["Inlinks (2)"] == [f"{a} “Read B”", f"{c} “B, from C”"]
    assert view["Outlinks (5)"] == [
        f"{home} image alt “Home logo”, status 200",
        f"{a} no text, status 200",
        f"{c} “C again”, status 200, nofollow",
        f"{missing} “Broken”, status 404",
        "https://other.test/page “Elsewhere”, other site",
    ]
    section = find(await html_view(platform, audit_id), f".//details[@id='{page_anchor(b)}']")
    hrefs = [anchor.get("href") for anchor in section.iter("a")]
    assert f"#{page_anchor(a)}" in hrefs and f"#{page_anchor(c)}" in hrefs  # in view: its section

    # The full report document: rebuilt from D1, then stored in R2 and read back, the same lists.
    env = platform.core_env
    from_d1 = await read_report(env, LOCAL_OWNER, audit_id)
    assert await store_report(env, await completed(platform, audit_id)) is not None
    from_r2 = await read_report(env, LOCAL_OWNER, audit_id)
    assert (from_d1.source, from_r2.source) == (ReportSource.D1, ReportSource.R2)
    kept = await rows.read_page_links(env.DB, audit_id, b)
    assert kept is not None
    assert links_in(document(from_d1.body)) == links_in(document(from_r2.body))
    assert links_in(document(from_r2.body))[b] == cut(kept)  # type: ignore[index]


async def test_a_list_past_the_cap_shows_its_first_links_and_says_how_many_there_are(
    platform: LocalPlatform,
) -> None:
    sources = [f"/s{n:02}" for n in range(51)]
    routes = {s: page(f"Source page {s}", f"<a href='/hub'>hub from {s}</a>") for s in sources}
    routes["/"] = page("Home of the fixture", " ".join(f"<a href='{s}'>{s}</a>" for s in sources))
    routes["/hub"] = page("The hub page", "<p>Linked from every source page.</p>")
    with serve_site(routes) as site:
        audit_id = await run_audit(platform, site.url("/"), max_pages=100)
    hub = site.url("/hub")

    first = await api_links(platform, audit_id, hub, "in", limit=30)
    rest = await api_links(platform, audit_id, hub, "in", limit=30, cursor=first["next_cursor"])

    assert (first["total"], rest["total"], rest["next_cursor"]) == (51, 51, None)
    assert [link["url"] for link in first["links"] + rest["links"]] == [
        site.url(s) for s in sources[:50]
    ]
    root = await html_view(platform, audit_id)
    section = find(root, f".//details[@id='{page_anchor(hub)}']")
    assert ["".join(p.itertext()) for p in section.iter("p")] == [f"Showing {VIEW_LINKS} of 51."]
    intro = "".join(find(root, ".//section[@aria-labelledby='views-h']/p").itertext())
    route = f"GET /api/audits/{audit_id}/pages/links?url=<the page's URL>&direction=in|out"
    assert f"{route} lists the first 50 of each." in intro


async def test_a_retried_keep_links_step_writes_each_pages_row_once(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[int] = []
    real = rows.write_page_links

    async def write_then_fail_once(db: Any, audit_id: str, pages: Any) -> int:
        count = await real(db, audit_id, pages)
        written.append(count)
        if len(written) == 1:
            raise RuntimeError("injected: the step dies after its first write")
        return count

    monkeypatch.setattr(links_step, "write_page_links", write_then_fail_once)
    with serve_site(ROUTES) as site:
        audit_id = await run_audit(platform, site.url("/"))

    count = (
        await platform.core_env.DB.prepare(
            "SELECT COUNT(*) AS n, COUNT(DISTINCT page_url) AS urls FROM audit_page_links "
            "WHERE audit_id = ?"
        )
        .bind(audit_id)
        .first()
    )
    assert count is not None
    _, pages = await platform.request("GET", f"/api/audits/{audit_id}/pages?limit=100")
    assert written == [len(pages["pages"])] * 2  # the step ran twice
    assert (count["n"], count["urls"]) == (len(pages["pages"]), len(pages["pages"]))


async def test_an_audit_that_kept_no_links_says_so(platform: LocalPlatform) -> None:
    with serve_site(ROUTES) as site:
        audit_id = await run_audit(platform, site.url("/"))
    await (
        platform.core_env.DB.prepare("DELETE FROM audit_page_links WHERE audit_id = ?")
        .bind(audit_id)
        .run()
    )  # as an audit finished before links were kept

    body = await api_links(platform, audit_id, site.url("/b"), "out")
    view = view_lists(await html_view(platform, audit_id), site.url("/b"))

    assert (body["kept"], body["total"], body["links"]) == (False, None, [])
    assert view["Outlinks"] == [f"4 internal, 1 other sites ({NOT_KEPT})"]
    status, _ = await platform.request(
        "GET",
        f"/api/audits/{audit_id}/pages/links?{urlencode({'url': 'https://x.test/', 'direction': 'in'})}",
    )
    assert status == 404
