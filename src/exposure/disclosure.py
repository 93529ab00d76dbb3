"""Software named, and versions disclosed, by response headers and generator meta tags.

A version number in `Server` (RFC 9110 §10.2.4 warns that detail there "may make the server more
vulnerable"), `X-Powered-By`, `X-AspNet-Version`, `X-AspNetMvc-Version`, `X-Generator` or
`<meta name="generator">` tells an attacker which published vulnerabilities to try; OWASP's
Secure Headers Project recommends removing or blanking them. A product without a version is
reported too, but only a version makes a finding (`findings`).

Two grammars: `Server` and `X-Powered-By` are product tokens `product[/version]` with
parenthesised comments (RFC 9110 §10.1.5, §10.2.4), e.g. `Apache/2.4.41 (Ubuntu) OpenSSL/1.1.1f`;
generators are free text whose version, if any, is the first number-like word
(`WordPress 6.4.2`, `Drupal 10 (https://www.drupal.org)`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from html.parser import HTMLParser

from common.wire import JsonRecord

__all__ = [
    "Disclosure",
    "DisclosureSource",
    "generator_disclosures",
    "header_disclosures",
    "meta_generators",
]

MAX_VALUE_CHARS = 200
# Generator tags sit in <head>; a page's first 256 KB hold it on any real site.
MAX_HTML_CHARS = 256 * 1024


class DisclosureSource(StrEnum):
    SERVER = "server"
    X_POWERED_BY = "x-powered-by"
    X_ASPNET_VERSION = "x-aspnet-version"
    X_ASPNETMVC_VERSION = "x-aspnetmvc-version"
    X_GENERATOR = "x-generator"
    META_GENERATOR = "meta-generator"


@dataclass(frozen=True, slots=True)
class Disclosure(JsonRecord):
    source: DisclosureSource
    value: str  # as sent, cut at MAX_VALUE_CHARS
    product: str | None
    version: str | None

    @property
    def discloses_version(self) -> bool:
        return self.version is not None


_COMMENT = re.compile(r"\([^()]*\)")
_DIGIT = re.compile(r"[0-9]")
_FREE_TEXT_VERSION = re.compile(
    r"(?:^|[\s/])v?(?P<version>[0-9]+(?:\.[0-9]+)*(?:[a-z0-9.\-]*[a-z0-9])?)(?=$|[\s;,()])",
    re.IGNORECASE,
)
_VERSION_ONLY = {
    DisclosureSource.X_ASPNET_VERSION: "ASP.NET",
    DisclosureSource.X_ASPNETMVC_VERSION: "ASP.NET MVC",
}


def header_disclosures(headers: Mapping[str, str]) -> list[Disclosure]:
    """What the response headers (lowercase names) disclose, in `DisclosureSource` order."""
    found: list[Disclosure] = []
    for source in DisclosureSource:
        value = headers.get(source.value, "").strip()
        if not value or source is DisclosureSource.META_GENERATOR:
            continue
        if source in (DisclosureSource.SERVER, DisclosureSource.X_POWERED_BY):
            found.extend(_product_tokens(source, value))
        elif source in _VERSION_ONLY:
            version = value if _DIGIT.search(value) else None
            found.append(
                Disclosure(source, value[:MAX_VALUE_CHARS], _VERSION_ONLY[source], version)
            )
        else:
            found.append(_free_text(source, value))
    return found


def _product_tokens(source: DisclosureSource, value: str) -> list[Disclosure]:
    shown = value[:MAX_VALUE_CHARS]
    found = []
    for token in _COMMENT.sub(" ", value).replace(",", " ").split():
        product, _, version = token.partition("/")
        if not product:
            continue
        found.append(
            Disclosure(source, shown, product, version if _DIGIT.search(version) else None)
        )
    return found or [Disclosure(source, shown, None, None)]


def _free_text(source: DisclosureSource, value: str) -> Disclosure:
    shown = value[:MAX_VALUE_CHARS]
    match = _FREE_TEXT_VERSION.search(value)
    if match is None:
        return Disclosure(source, shown, value.strip()[:MAX_VALUE_CHARS], None)
    product = value[: match.start()].strip(" -/:") or None
    return Disclosure(source, shown, product, match.group("version"))


def generator_disclosures(generators: Iterable[str]) -> list[Disclosure]:
    """Disclosures of the page's `<meta name="generator">` contents."""
    return [_free_text(DisclosureSource.META_GENERATOR, g) for g in generators if g.strip()]


class _GeneratorParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.generators: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "meta":
            return
        values = {name.lower(): value or "" for name, value in attrs}
        if values.get("name", "").strip().lower() == "generator" and "content" in values:
            self.generators.append(values["content"].strip())


def meta_generators(html: str) -> list[str]:
    """The contents of a page's generator meta tags (first `MAX_HTML_CHARS` characters)."""
    parser = _GeneratorParser()
    parser.feed(html[:MAX_HTML_CHARS])
    parser.close()
    return parser.generators
