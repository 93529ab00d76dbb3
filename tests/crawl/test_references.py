"""Which references are crawled as pages and which are checked as resources, and how."""

from __future__ import annotations

import asyncio

import pytest

from common import ports
from crawl.references import is_page_link, is_resource
from crawl.resource_check import GET_MAX_BYTES, check_resource
from parse.facts import REFERENCES_CAP, Reference, UrlRef
from parse.facts import ReferenceKind as K
from tests.support.streamed_links import page_links

REF = UrlRef("/x", "https://a.test/x")


@pytest.mark.parametrize(
    ("kind", "rel", "page", "resource"),
    [
        (K.AREA, None, True, False),
        (K.IFRAME, None, True, False),
        (K.FRAME, None, True, False),
        (K.REFRESH, None, True, False),
        (K.IMG, None, False, True),
        (K.SRCSET, None, False, True),
        (K.POSTER, None, False, True),
        (K.SCRIPT, None, False, True),
        (K.MEDIA, None, False, True),
        (K.EMBED, None, False, True),
        (K.OBJECT, None, False, True),
        (K.FORM, None, False, False),
        (K.LINK, "stylesheet", False, True),
        (K.LINK, "alternate stylesheet", False, True),
        (K.LINK, "icon", False, True),
        (K.LINK, "search", False, True),
        (K.LINK, "next", True, False),
        (K.LINK, "prev", True, False),
        (K.LINK, "canonical", False, False),
        (K.LINK, "alternate", False, False),
        (K.LINK, "preconnect", False, False),
        (K.LINK, "dns-prefetch", False, False),
        (K.LINK, "", False, False),
    ],
)
def test_roles(kind: K, rel: str | None, page: bool, resource: bool) -> None:
    ref = Reference(kind, REF, rel)
    assert (is_page_link(ref), is_resource(ref)) == (page, resource)


def test_a_page_names_its_resources_once_each_normalised() -> None:
    html = (
        b"<link rel=stylesheet href=/s.css><img src=/i.png srcset='/i.png 1x, /I.png 2x'>"
        b"<iframe src=/frame></iframe><script src='/s.css'></script><img src='  '>"
        b"<a href=/page>p</a><link rel=next href=/2><img src='https://cdn.test/i.png'>"
    )
    links = page_links(html, "https://a.test/")
    assert [(r.url, r.kind) for r in links.resources] == [
        ("https://a.test/s.css", K.LINK),
        ("https://a.test/i.png", K.IMG),
        ("https://a.test/I.png", K.SRCSET),
    ]
    discovered = ["https://a.test/page", "https://a.test/frame", "https://a.test/2"]
    assert [d.url for d in links.discovered] == discovered
    assert [row.target_url for row in links.rows] == discovered


def test_every_reference_of_a_page_is_kept_beyond_the_facts_cap() -> None:
    count = 3 * REFERENCES_CAP
    html = "".join(f"<img src='/i/{n}.png' alt=''>" for n in range(count)).encode()
    assert len(page_links(html, "https://a.test/").resources) == count


class _Client:
    def __init__(self, answers: dict[str, int], headers: dict[str, str] | None = None) -> None:
        self.answers, self.requests = answers, list[ports.FetchRequest]()
        self.headers = headers or {}

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.requests.append(request)
        status = self.answers[request.method]
        return ports.FetchResult(request.url, status, self.headers, b"", False, 1.0)


@pytest.mark.parametrize(
    ("answers", "methods", "status", "fetch_class"),
    [
        ({"HEAD": 200}, ["HEAD"], 200, "ok"),
        ({"HEAD": 404}, ["HEAD"], 404, "ok"),
        ({"HEAD": 405, "GET": 200}, ["HEAD", "GET"], 200, "ok"),
        ({"HEAD": 501, "GET": 404}, ["HEAD", "GET"], 404, "ok"),
        ({"HEAD": 403}, ["HEAD"], 403, "blocked"),
        ({"HEAD": 0}, ["HEAD"], 0, "error"),
    ],
)
def test_head_then_a_capped_get_where_head_is_refused(
    answers: dict[str, int], methods: list[str], status: int, fetch_class: str
) -> None:
    client = _Client(answers)
    check = asyncio.run(check_resource(client, "https://a.test/x.png", 5.0))
    assert (check.status_code, check.fetch_class) == (status, fetch_class)
    assert [r.method for r in client.requests] == methods
    assert all(r.max_bytes == GET_MAX_BYTES for r in client.requests)


@pytest.mark.parametrize("content_type", ["image/png", "text/html; charset=utf-8", None])
def test_a_check_keeps_the_content_type_a_share_image_is_judged_by(
    content_type: str | None,
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    check = asyncio.run(check_resource(_Client({"HEAD": 200}, headers), "https://a.test/i", 5.0))
    assert (check.status_code, check.content_type) == (200, content_type)
