"""A page's links as the crawl gathers them: the extractor's streams into one `PageLinks`."""

from __future__ import annotations

from crawl.page_links import PageLinks
from crawl.url_policy import UrlPolicy
from durable.records import LeasedUrl
from parse.extractor import PageExtractor
from urls.private_hosts import PrivateHosts


def page_links(html: bytes, page_url: str, *, check_external: bool = False) -> PageLinks:
    """The `PageLinks` of `html` served at `page_url` (its site: the page's origin)."""
    policy = UrlPolicy(page_url, private_hosts=PrivateHosts.ALLOW)
    links = PageLinks(policy, LeasedUrl(page_url, 0, False), check_external=check_external)
    extractor = PageExtractor(
        page_url,
        content_type="text/html",
        on_links=links.add_links,
        on_references=links.add_references,
    )
    extractor.feed(html)
    extractor.close()
    return links
