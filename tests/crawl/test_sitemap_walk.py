"""The sans-IO sitemap walk against an in-memory site: seeds, breadth-first depth budget, caps, loops."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crawl.sitemap_walk import (
    MAX_REPORTED_URL_CHARS,
    DocumentOutcome,
    DocumentResult,
    SitemapWalk,
    SitemapWalkSummary,
    SitemapWalkUsageError,
    discovered_url_cap,
    sitemap_seeds,
)
from tests.crawl.sitemap_helpers import gzip_bomb, index, urlset

ORIGIN = "https://example.com"
XML = "application/xml"


def normalise(href: str, base: str) -> str | None:
    """A stand-in for urls.normalise: resolve, http(s) only, lowercase host, drop the fragment."""
    try:
        parts = urlsplit(urljoin(base, href.strip()))
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", parts.query, ""))


def same_site(url: str) -> bool:
    return urlsplit(url).hostname == "example.com"


def u(path: str) -> str:
    return ORIGIN + path


@dataclass(frozen=True)
class Reply:
    body: bytes = b""
    status: int = 200
    content_type: str | None = XML
    final_url: str | None = None


Site = dict[str, Reply | str]  # a str is a fetch failure reason


def walk_for(**caps: int) -> SitemapWalk:
    return SitemapWalk(normalise, same_site, **caps)


def chunks(body: bytes, size: int = 5) -> Iterator[bytes]:
    return (body[i : i + size] for i in range(0, len(body), size))


def run(walk: SitemapWalk, site: Site, limit: int = 5) -> list[str]:
    """Fetch what the walk asks for, `limit` at a time, until it is done; returns the fetch order."""
    fetched: list[str] = []
    while not walk.done:
        requests = walk.next_requests(limit)
        assert requests, "a walk that is not done must have something to hand out"
        for request in requests:
            fetched.append(request.url)
            reply = site.get(request.url, Reply(b"<html>Not found</html>", 404, "text/html"))
            if isinstance(reply, str):
                walk.fail(request.url, reply)
            else:
                walk.receive(
                    request.url,
                    reply.status,
                    reply.content_type,
                    chunks(reply.body),
                    reply.final_url,
                )
    return fetched


def drain_all(walk: SitemapWalk) -> list[str]:
    urls: list[str] = []
    while batch := walk.drain_urls():
        urls += batch
    return urls


def results(walk: SitemapWalk) -> dict[str, DocumentResult]:
    return {d.url: d.result for d in walk.summary().documents}


def test_seeds_are_robots_lines_then_the_default_location() -> None:
    seeds = sitemap_seeds(ORIGIN + "/", ["https://example.com/a.xml", "/b.xml"])
    assert seeds == ["https://example.com/a.xml", "/b.xml", "https://example.com/sitemap.xml"]


def test_seeds_are_normalised_deduplicated_and_kept_on_site() -> None:
    walk = walk_for()
    walk.add_seeds(
        ["/b.xml", "https://EXAMPLE.com/b.xml#x", "https://other.example/s.xml", "ftp://x/"], ORIGIN
    )
    assert [r.url for r in walk.next_requests(10)] == [u("/b.xml")]
    assert walk.summary().seeds_dropped == 2


def test_breadth_first_within_the_depth_budget() -> None:
    site: Site = {
        u("/sitemap.xml"): Reply(index(u("/i1.xml"), u("/p1.xml"))),
        u("/i1.xml"): Reply(index(u("/i2.xml"), u("/p2.xml"))),
        u("/i2.xml"): Reply(
            index(u("/i3.xml"), u("/p3.xml"))
        ),  # depth 3: its children are not followed
        u("/p1.xml"): Reply(urlset(u("/1"))),
        u("/p2.xml"): Reply(urlset(u("/2"))),
    }
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    assert run(walk, site, limit=1) == [
        u("/sitemap.xml"),
        u("/i1.xml"),
        u("/p1.xml"),
        u("/i2.xml"),
        u("/p2.xml"),
    ]
    depths = {d.url: d.depth for d in walk.summary().documents}
    assert depths[u("/i2.xml")] == 3
    assert next(d for d in walk.summary().documents if d.url == u("/i2.xml")).beyond_depth == 2
    assert drain_all(walk) == [u("/1"), u("/2")]


@pytest.mark.parametrize("max_depth", [1, 2, 3, 4])
def test_depth_budget_bounds_the_chain(max_depth: int) -> None:
    site: Site = {u(f"/s{i}.xml"): Reply(index(u(f"/s{i + 1}.xml"))) for i in range(10)}
    walk = walk_for(max_depth=max_depth)
    walk.add_seeds([u("/s0.xml")], ORIGIN)
    assert run(walk, site) == [u(f"/s{i}.xml") for i in range(max_depth)]


def test_loops_terminate_and_each_document_is_fetched_once() -> None:
    site: Site = {
        u("/a.xml"): Reply(index(u("/b.xml"), u("/a.xml"))),
        u("/b.xml"): Reply(index(u("/a.xml"), u("/b.xml#again"))),
    }
    walk = walk_for(max_depth=10)
    walk.add_seeds([u("/a.xml"), u("/b.xml")], ORIGIN)
    assert run(walk, site) == [u("/a.xml"), u("/b.xml")]


def test_documents_budget_counts_what_is_handed_out() -> None:
    children = [u(f"/c{i}.xml") for i in range(10)]
    site: Site = {u("/sitemap.xml"): Reply(index(*children))}
    site |= {c: Reply(urlset(c.replace(".xml", ""))) for c in children}
    walk = walk_for(max_documents=4)
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    assert len(run(walk, site)) == 4
    assert walk.summary().documents_unfetched == 7
    assert drain_all(walk) == [u("/c0"), u("/c1"), u("/c2")]


def test_url_cap_stops_collecting_and_walking() -> None:
    site: Site = {
        u("/sitemap.xml"): Reply(index(u("/p1.xml"), u("/p2.xml"), u("/p3.xml"))),
        u("/p1.xml"): Reply(urlset(*(u(f"/a{i}") for i in range(6)))),
        u("/p2.xml"): Reply(urlset(*(u(f"/b{i}") for i in range(6)))),
        u("/p3.xml"): Reply(urlset(u("/c"))),
    }
    walk = walk_for(max_urls=10)
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    assert run(walk, site, limit=1) == [u("/sitemap.xml"), u("/p1.xml"), u("/p2.xml")]
    summary = walk.summary()
    assert (summary.urls_collected, summary.url_cap_reached, summary.documents_unfetched) == (
        10,
        True,
        1,
    )
    assert drain_all(walk) == [u(f"/a{i}") for i in range(6)] + [u(f"/b{i}") for i in range(4)]


@pytest.mark.parametrize(
    ("max_pages", "cap"), [(10, 500), (25, 500), (50, 1000), (2_500, 50_000), (10_000, 50_000)]
)
def test_discovered_url_cap_follows_the_original(max_pages: int, cap: int) -> None:
    assert discovered_url_cap(max_pages) == cap


def test_page_urls_are_resolved_deduplicated_and_kept_on_site() -> None:
    site: Site = {
        u("/maps/sitemap.xml"): Reply(
            urlset(
                "https://example.com/a",
                "b",
                "/c",
                "https://other.example/x",
                "mailto:x@example.com",
                "https://EXAMPLE.com/a#frag",
            )
        ),
    }
    walk = walk_for()
    walk.add_seeds([u("/maps/sitemap.xml")], ORIGIN)
    run(walk, site)
    assert drain_all(walk) == [u("/a"), u("/maps/b"), u("/c")]
    outcome = walk.summary().documents[0]
    assert (
        outcome.url_count,
        outcome.added,
        outcome.off_site_entries,
        outcome.unusable_entries,
    ) == (6, 3, 1, 1)


def test_cross_site_sitemaps_in_an_index_are_not_fetched() -> None:
    site: Site = {u("/sitemap.xml"): Reply(index("https://cdn.other.example/s.xml", u("/p.xml")))}
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    assert run(walk, site) == [u("/sitemap.xml"), u("/p.xml")]
    assert walk.summary().documents[0].off_site_entries == 1


def never_read() -> Iterator[bytes]:
    raise AssertionError("the body must not be read")
    yield b""  # pragma: no cover


@pytest.mark.parametrize(
    ("status", "final_url", "result"),
    [
        (404, None, DocumentResult.HTTP_ERROR),
        (500, None, DocumentResult.HTTP_ERROR),
        (301, None, DocumentResult.HTTP_ERROR),  # redirects are the caller's to follow
        (200, "https://other.example/sitemap.xml", DocumentResult.OFF_SITE),
    ],
)
def test_unwanted_responses_are_recorded_without_reading_the_body(
    status: int, final_url: str | None, result: DocumentResult
) -> None:
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    (request,) = walk.next_requests(5)
    outcome = walk.receive(request.url, status, XML, never_read(), final_url)
    assert (outcome.result, outcome.status, walk.done) == (result, status, True)


def test_a_same_site_redirect_target_is_not_fetched_again() -> None:
    site: Site = {
        u("/sitemap.xml"): Reply(index(u("/real.xml")), final_url=u("/sitemap_index.xml")),
        u("/other.xml"): Reply(index(u("/sitemap_index.xml"))),
    }
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml"), u("/other.xml")], ORIGIN)
    assert run(walk, site) == [u("/sitemap.xml"), u("/other.xml"), u("/real.xml")]


@pytest.mark.parametrize(
    ("reply", "result", "added"),
    [
        pytest.param(Reply(urlset(u("/a"))), DocumentResult.PARSED, 1, id="urlset"),
        pytest.param(
            Reply(urlset(u("/a")), content_type="text/html"),
            DocumentResult.PARSED,
            1,
            id="xml-as-html",
        ),
        pytest.param(
            Reply(gzip.compress(urlset(u("/a"))), content_type="application/octet-stream"),
            DocumentResult.PARSED,
            1,
            id="gzip",
        ),
        pytest.param(
            Reply(f"{u('/a')}\n".encode(), content_type="text/plain"),
            DocumentResult.PARSED,
            1,
            id="text",
        ),
        pytest.param(
            Reply(b"<!DOCTYPE html><html>Welcome</html>", content_type="text/html"),
            DocumentResult.NOT_SITEMAP,
            0,
            id="soft-404",
        ),
        pytest.param(Reply(b""), DocumentResult.NOT_SITEMAP, 0, id="empty"),
        pytest.param(
            Reply(urlset(u("/a"), u("/b"))[:-20]),
            DocumentResult.FORMAT_ERROR,
            1,
            id="truncated-xml",
        ),
        pytest.param(
            Reply(b"<!DOCTYPE urlset><urlset/>"), DocumentResult.FORMAT_ERROR, 0, id="dtd"
        ),
        pytest.param(
            Reply(urlset(*(u(f"/{i}") for i in range(500)))),
            DocumentResult.OVERSIZED,
            0,
            id="oversized",
        ),
        pytest.param("timeout", DocumentResult.FETCH_FAILED, 0, id="fetch-failed"),
    ],
)
def test_document_results(reply: Reply | str, result: DocumentResult, added: int) -> None:
    walk = walk_for(max_bytes=10_000)
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    run(walk, {u("/sitemap.xml"): reply})
    (outcome,) = walk.summary().documents
    assert (outcome.result, outcome.added, len(drain_all(walk))) == (result, added, added)


def test_a_gzip_bomb_is_read_only_to_the_cap() -> None:
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml.gz")], ORIGIN)
    (request,) = walk.next_requests(5)
    bomb = gzip_bomb(gib=1)
    outcome = walk.receive(request.url, 200, "application/gzip", bomb)
    assert (outcome.result, outcome.gzipped, outcome.added) == (DocumentResult.OVERSIZED, True, 0)
    assert sum(1 for _ in bomb) > 1000  # almost all of the gigabyte was left unread


def test_urls_leave_in_batches_in_discovery_order() -> None:
    locs = [u(f"/{i}") for i in range(4_500)]
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    run(walk, {u("/sitemap.xml"): Reply(urlset(*locs))})
    batches = [walk.drain_urls(), walk.drain_urls(), walk.drain_urls(), walk.drain_urls()]
    assert [len(b) for b in batches] == [2_000, 2_000, 500, 0]
    assert [url for b in batches for url in b] == locs


def test_responses_must_answer_a_request_in_flight() -> None:
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    with pytest.raises(SitemapWalkUsageError):
        walk.receive(u("/sitemap.xml"), 200, XML, [urlset(u("/a"))])
    (request,) = walk.next_requests(1)
    walk.fail(request.url, "timeout")
    with pytest.raises(SitemapWalkUsageError):
        walk.fail(request.url, "timeout")


def test_summary_round_trips_and_is_plain_json() -> None:
    long_path = "/" + "x" * 3000 + ".xml"
    site: Site = {
        u("/sitemap.xml"): Reply(index(u("/p.xml"), u(long_path), u("/broken.xml"))),
        u("/p.xml"): Reply(urlset(u("/a"))),
        u("/broken.xml"): Reply(b"<urlset><url>"),
    }
    walk = walk_for()
    walk.add_seeds([u("/sitemap.xml")], ORIGIN)
    run(walk, site)
    summary = walk.summary()
    plain = summary.to_dict()
    assert json.loads(json.dumps(plain)) == plain  # no tuples, enums or other non-JSON values
    assert SitemapWalkSummary.from_dict(plain) == summary
    assert max(len(d.url) for d in summary.documents) == MAX_REPORTED_URL_CHARS
    assert summary.found_sitemap


def test_no_sitemap_found() -> None:
    walk = walk_for()
    walk.add_seeds(sitemap_seeds(ORIGIN, []), ORIGIN)
    run(walk, {})
    summary = walk.summary()
    assert not summary.found_sitemap
    assert [d.result for d in summary.documents] == [DocumentResult.HTTP_ERROR]
    assert DocumentOutcome.from_dict(summary.documents[0].to_dict()) == summary.documents[0]


# A random site of sitemap indexes: document i lists the documents in links[i].
graphs = st.integers(1, 12).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n)
)


@settings(max_examples=200, deadline=None)
@given(
    links=graphs,
    max_depth=st.integers(1, 5),
    max_documents=st.integers(1, 8),
    limit=st.integers(1, 6),
)
def test_any_index_graph_terminates_within_the_budgets(
    links: list[list[int]], max_depth: int, max_documents: int, limit: int
) -> None:
    site: Site = {
        u(f"/{i}.xml"): Reply(index(*(u(f"/{j}.xml") for j in targets)))
        for i, targets in enumerate(links)
    }
    walk = walk_for(max_depth=max_depth, max_documents=max_documents)
    walk.add_seeds([u("/0.xml")], ORIGIN)
    fetched = run(walk, site, limit)
    assert len(fetched) == len(set(fetched)) <= max_documents
    assert all(d.depth <= max_depth for d in walk.summary().documents)
    assert len(walk.summary().documents) == len(fetched)
