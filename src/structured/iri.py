"""A URL attribute of Microdata or RDFa markup resolved against the document's base, as a browser
resolves it (URL Standard), fragment kept: `itemid="#org"` and `resource="#me"` name a thing by
the page's URL and a fragment, unlike the crawl's links (urls.resolve), which drop it."""

from __future__ import annotations

from urls.parser import InvalidUrl, UnsupportedScheme, clean, parse_url, scheme_of
from urls.resolve import parse_base

__all__ = ["resolve_iri"]


def resolve_iri(raw: str, base: str) -> str | None:
    """`raw` against `base`; None where the URL parser fails. An absolute URL of a scheme the
    parser does not model (`urn:`, `mailto:`) is kept as written."""
    text = clean(raw)
    try:
        return parse_url(text, parse_base(base)).href
    except InvalidUrl:
        return None
    except UnsupportedScheme:
        return text if scheme_of(text) is not None else None
