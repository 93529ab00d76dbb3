"""What the security grade and the exposure checks keep of one crawled response (sans-IO).

Per response, as `durable.records.SiteFact`s (the scratchpad keeps each distinct fact once, with
the first page, in URL order, it was seen on):

* every Set-Cookie, its value dropped (`security.crawl_merge.cookie_shape`);
* on an HTML page, the subresource-integrity result of its scripts when it fails (active mixed
  content included: `security.crawl_merge.page_sri`), with the offending scripts as evidence;
* on an HTML page, every absolute http(s) script URL (libraries by URL and by content);
* headers and generator meta tags (`PageFacts.generators`, wherever the page has them) that name
  a software version (`exposure.disclosure`).

The caps bound a hostile page's cost; a real page stays far below them.
"""

from __future__ import annotations

import json

from common import ports
from durable.records import SiteFact, SiteFactKind
from exposure.disclosure import Disclosure, generator_disclosures, header_disclosures
from parse.facts import PageFacts
from security.crawl_merge import cookie_shape, page_sri
from security.html_scan import ScriptTag
from security.observed import split_set_cookie

MAX_COOKIES_PER_PAGE = 20
MAX_COOKIE_CHARS = 512  # name and attributes; a longer one is cut (its flags come first)
MAX_SRI_EVIDENCE = 5

__all__ = ["site_facts"]


def site_facts(
    page_url: str, result: ports.FetchResult, facts: PageFacts | None, site_host: str
) -> list[SiteFact]:
    found = _cookies(page_url, result)
    found += _disclosures(page_url, result.headers, facts)
    if facts is not None:
        found += _scripts(page_url, facts, site_host)
    return found


def _cookies(page_url: str, result: ports.FetchResult) -> list[SiteFact]:
    joined = result.header("set-cookie")
    if not joined:
        return []
    shapes = [cookie_shape(value)[:MAX_COOKIE_CHARS] for value in split_set_cookie(joined)]
    return [
        SiteFact(SiteFactKind.COOKIE, shape, page_url)
        for shape in dict.fromkeys(shapes)
        if shape.strip()
    ][:MAX_COOKIES_PER_PAGE]


def _scripts(page_url: str, facts: PageFacts, site_host: str) -> list[SiteFact]:
    tags = [
        ScriptTag(script.src.raw.strip(), script.integrity, script.crossorigin)
        for script in facts.scripts
        if script.src is not None
    ]
    found: list[SiteFact] = []
    sri = page_sri(page_url, tags, site_host)
    if not sri.passed:
        evidence = _sri_evidence(sri.details)
        found.append(SiteFact(SiteFactKind.SRI, sri.result, page_url, json.dumps(evidence)))
    urls = (script.src.url for script in facts.scripts if script.src and script.src.url)
    found += [
        SiteFact(SiteFactKind.SCRIPT, url, page_url)
        for url in dict.fromkeys(urls)
        if url.startswith(("http://", "https://"))
    ]
    return found


def _sri_evidence(details: object) -> list[str]:
    """The scripts that failed the test: mixed content, else the foreign scripts judged."""
    if not isinstance(details, dict):
        return []
    scripts = details.get("mixedContent") or list(details.get("scripts") or {})
    return [str(src) for src in scripts][:MAX_SRI_EVIDENCE]


def _disclosures(page_url: str, headers: dict[str, str], facts: PageFacts | None) -> list[SiteFact]:
    disclosures = header_disclosures(headers)
    if facts is not None:  # the extractor kept the generator tags (parse.facts, "Generators")
        disclosures += generator_disclosures(facts.generators)
    grouped: dict[str, list[Disclosure]] = {}
    for disclosure in disclosures:
        if disclosure.discloses_version:
            key = f"{disclosure.source}: {disclosure.value}"
            grouped.setdefault(key, []).append(disclosure)
    return [
        SiteFact(
            SiteFactKind.DISCLOSURE,
            key,
            page_url,
            json.dumps([item.to_dict() for item in items]),
        )
        for key, items in grouped.items()
    ]
