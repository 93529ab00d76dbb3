"""Raw versus rendered: what a page's script changes, and what went wrong while it loaded (issue 30).

Theory of operation
-------------------
A rendered page is audited twice over: the same per-page rules run on its rendered facts (the
caller's business), and this module compares it with the raw HTML the crawler fetched. Input: the
raw page's `PageObservation`, the rendered page's (the same response facts, the rendered DOM's
`PageFacts`) and what the browser saw while it loaded (`RenderedLoad`, which
`render.records.RenderedPage` is; `render/` sits above `audit/`, so the record is described here
by the fields the rules read instead of imported).

Every rule states a fact about the site or stays silent: where the two pages do not allow a
decision (the render failed, the script took the browser to another URL, a page's facts were cut
at a cap) there is no finding. The rules follow Google Search Central's "Understand the
JavaScript SEO basics" (developers.google.com/search/docs/crawling-indexing/javascript/
javascript-seo-basics), cited as "JavaScript SEO basics":

* Google renders pages before indexing them, but later than it crawls them, and other crawlers
  (link previews, most other search and AI crawlers) read the raw HTML only: links, content,
  titles and descriptions that only script builds reach them late or never.
* Canonicals: Google reads the canonical of the raw HTML when it crawls and again after
  rendering. A canonical only script adds is picked up when Google renders (supported, not
  recommended); a raw canonical that script changes or removes gives two conflicting signals, and
  Google may choose either.
* noindex: when Google meets `noindex` in the raw HTML it may skip rendering and running script,
  so a raw `noindex` is final: script cannot remove it. A `noindex` only script adds may or may
  not be honoured, since it is seen only if Google renders the page.
* Soft 404s in single-page apps: a "not found" view answered with 200 should instead redirect
  (by script) to a URL that answers 404, or carry a `noindex` added by script; a view that does
  the latter is not reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Protocol

from audit.catalogue import (
    CONTENT_AFTER_SCRIPT_MAX_RAW_PERCENT,
    DUPLICATE_GROUP_SAMPLE,
    JS_SHELL_MAX_WORDS,
    SCRIPT_LINK_SAMPLE,
    THIN_CONTENT_WORDS,
    IssueType,
)
from audit.issues import DetectedIssue
from audit.page import PageObservation
from audit.text import js_trim
from common.wire import JsonValue
from urls.normalise import normalise_url, same_site

__all__ = [
    "ROBOTS_TXT_BLOCK",
    "SOFT_404_PHRASES",
    "BlockedLoad",
    "RenderNotDoneReason",
    "RenderedLoad",
    "rendered_page_issues",
    "rendering_not_done_issue",
]

# `render.records.BlockReason.ROBOTS_TXT`: spelled here because audit/ may not import render/;
# tests/audit/test_rendering_rules.py holds the two equal.
ROBOTS_TXT_BLOCK = "robots-txt"
# A console error or exception message kept in an issue's details is cut to this many characters:
# enough for the message and the start of its location, bounded for the stored row.
_MESSAGE_CAP = 300


class BlockedLoad(Protocol):
    """One request the renderer refused (`render.records.BlockedRequest`)."""

    @property
    def url(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def resource_type(self) -> str: ...


class RenderedLoad(Protocol):
    """What the browser saw while the page loaded (`render.records.RenderedPage`)."""

    @property
    def url(self) -> str: ...
    @property
    def final_url(self) -> str: ...
    @property
    def status(self) -> int | None: ...
    @property
    def console_errors(self) -> Sequence[str]: ...
    @property
    def exceptions(self) -> Sequence[str]: ...
    @property
    def blocked(self) -> Sequence[BlockedLoad]: ...
    @property
    def ok(self) -> bool: ...


class RenderNotDoneReason(StrEnum):
    """Why a page that looked like it needed rendering was not rendered."""

    MODE_NEVER = "render-never"  # the audit's render option said never
    NOT_CONFIGURED = "no-renderer"  # the deployment has none; the detail says what is missing
    RENDER_FAILED = "render-failed"  # a render was tried and produced no DOM; the detail says why


def rendering_not_done_issue(
    raw: PageObservation, reason: RenderNotDoneReason, detail: str
) -> DetectedIssue:
    """`rendering-not-done` on a page whose raw HTML looked like it needed rendering (the caller
    decides that), with why it was not rendered in the owner's words (`detail`)."""
    details = {"reason": reason.value, "detail": detail, "rawWordCount": raw.word_count}
    return DetectedIssue(IssueType.RENDERING_NOT_DONE, raw.url, details)


def rendered_page_issues(
    raw: PageObservation, rendered: PageObservation, page: RenderedLoad
) -> list[DetectedIssue]:
    """Every raw-versus-rendered finding of one page, and what went wrong while it loaded.

    `rendered` is the raw observation with the rendered DOM's facts in place of the raw HTML's
    (`dataclasses.replace(raw, facts=...)`, the DOM parsed against `page.final_url`): the response
    and its headers are the same document's.
    """
    issues = _load_issues(raw.url, page)
    if not _comparable(raw, rendered, page):
        return issues
    for rule in _COMPARISONS:
        issues += rule(raw, rendered)
    return issues + _soft_404(raw, rendered, page)


# ------------------------------------------------------------------ what happened while loading


def _load_issues(url: str, page: RenderedLoad) -> list[DetectedIssue]:
    issues = []
    if page.exceptions:
        details = _messages(page.exceptions)
        issues.append(DetectedIssue(IssueType.UNCAUGHT_EXCEPTION_DURING_LOAD, url, details))
    if page.console_errors:
        details = _messages(page.console_errors)
        issues.append(DetectedIssue(IssueType.CONSOLE_ERROR_DURING_LOAD, url, details))
    robots = [b for b in page.blocked if b.reason == ROBOTS_TXT_BLOCK]
    if robots:
        sample: list[JsonValue] = [
            {"url": b.url, "resourceType": b.resource_type} for b in robots[:SCRIPT_LINK_SAMPLE]
        ]
        details = {"count": len(robots), "sample": sample}
        issues.append(DetectedIssue(IssueType.RESOURCES_BLOCKED_BY_ROBOTS, url, details))
    return issues


def _messages(messages: Sequence[str]) -> dict[str, JsonValue]:
    sample = [message[:_MESSAGE_CAP] for message in messages[:DUPLICATE_GROUP_SAMPLE]]
    return {"count": len(messages), "sample": sample}


# ------------------------------------------------------------------ raw against rendered


def _comparable(raw: PageObservation, rendered: PageObservation, page: RenderedLoad) -> bool:
    """Both pages were read, and are the same document: a script that sent the browser to another
    URL built that URL's page, not this one's."""
    if not (page.ok and raw.is_ok_2xx_html and raw.facts and rendered.facts):
        return False
    ended_at = normalise_url(page.final_url or page.url)
    return ended_at is not None and ended_at == normalise_url(raw.final_url)


def _content_only_after_script(
    raw: PageObservation, rendered: PageObservation
) -> list[DetectedIssue]:
    """The rendered page has text (at least the shell bar's 20 words) and the raw HTML has at most
    a fifth as many words: most of what visitors read is built by script."""
    if _cut(raw) or _cut(rendered):
        return []
    raw_words, words = raw.word_count, rendered.word_count
    if words < JS_SHELL_MAX_WORDS or raw_words * 100 > words * CONTENT_AFTER_SCRIPT_MAX_RAW_PERCENT:
        return []
    details = {"rawWordCount": raw_words, "renderedWordCount": words}
    return [DetectedIssue(IssueType.CONTENT_ONLY_AFTER_SCRIPT, raw.url, details)]


def _cut(obs: PageObservation) -> bool:
    return obs.facts is not None and obs.facts.truncated


def _links_only_after_script(
    raw: PageObservation, rendered: PageObservation
) -> list[DetectedIssue]:
    """Internal links in the rendered DOM that the raw HTML does not have. Silent when the raw
    page's links were cut at the extractor's cap: a link past it may be in the raw HTML."""
    assert raw.facts is not None and rendered.facts is not None  # _comparable
    if _cut(raw) or raw.facts.links_seen > len(raw.facts.links):
        return []
    before = _internal_links(raw, raw.url)
    added = [url for url in _internal_links(rendered, raw.url) if url not in before]
    if not added:
        return []
    details: dict[str, JsonValue] = {"count": len(added), "sampleUrls": added[:SCRIPT_LINK_SAMPLE]}
    return [DetectedIssue(IssueType.LINKS_ONLY_AFTER_SCRIPT, raw.url, details)]


def _internal_links(obs: PageObservation, page_url: str) -> dict[str, None]:
    """The page's links to its own site (the original's same-site rule, as
    rules_field.internal_nofollow_links reads it), normalised, in source order (a dict keeps it)."""
    links = obs.facts.links if obs.facts else ()
    targets = (normalise_url(link.href.url) for link in links if link.href.url)
    return {url: None for url in targets if url and same_site(page_url, url)}


def _title_changed(raw: PageObservation, rendered: PageObservation) -> list[DetectedIssue]:
    return _text_changed(IssueType.TITLE_CHANGED_BY_SCRIPT, raw, raw.title, rendered.title)


def _description_changed(raw: PageObservation, rendered: PageObservation) -> list[DetectedIssue]:
    issue_type = IssueType.META_DESCRIPTION_CHANGED_BY_SCRIPT
    return _text_changed(issue_type, raw, raw.meta_description, rendered.meta_description)


def _text_changed(
    issue_type: IssueType, raw: PageObservation, before: str, after: str
) -> list[DetectedIssue]:
    """Set, changed or removed by script: the trimmed texts differ."""
    if before == after:
        return []
    return [DetectedIssue(issue_type, raw.url, {"raw": before, "rendered": after})]


def _canonical_changed(raw: PageObservation, rendered: PageObservation) -> list[DetectedIssue]:
    """The canonical a crawler reads before script against the one after it. A Link header is the
    same response in both, so the rendered page keeps the raw one's where its DOM names none."""
    before = raw.effective_canonical
    after = rendered.html_canonical or raw.normalized_header_canonical
    if before == after:
        return []
    if before is None:
        details = {"renderedCanonical": after}
        return [DetectedIssue(IssueType.CANONICAL_ADDED_BY_SCRIPT, raw.url, details)]
    details = {"rawCanonical": before, "renderedCanonical": after}
    return [DetectedIssue(IssueType.CANONICAL_CHANGED_BY_SCRIPT, raw.url, details)]


def _robots_changed(raw: PageObservation, rendered: PageObservation) -> list[DetectedIssue]:
    """Google's rules (module docstring): a raw noindex is final, a scripted one unreliable; other
    directives changed by script are reported as a change."""
    header_noindex = _header_noindex(raw)
    before, after = _meta_directives(raw), _meta_directives(rendered)
    was_noindex, is_noindex = header_noindex or _noindex(before), header_noindex or _noindex(after)
    details = {"rawDirectives": sorted(before), "renderedDirectives": sorted(after)}
    if was_noindex and not is_noindex:
        return [DetectedIssue(IssueType.NOINDEX_REMOVED_BY_SCRIPT, raw.url, details)]
    if is_noindex and not was_noindex:
        return [DetectedIssue(IssueType.NOINDEX_ADDED_BY_SCRIPT, raw.url, details)]
    if before != after:
        return [DetectedIssue(IssueType.ROBOTS_CHANGED_BY_SCRIPT, raw.url, details)]
    return []


def _meta_directives(obs: PageObservation) -> frozenset[str]:
    """The directives of `<meta name=robots>` and `<meta name=googlebot>`, lowercased (Google
    reads both, and the rules here speak of Google)."""
    if obs.facts is None:
        return frozenset()
    contents = (*obs.facts.meta_robots, *obs.facts.meta_googlebot)
    tokens = (js_trim(token).lower() for content in contents for token in content.split(","))
    return frozenset(token for token in tokens if token)


def _noindex(directives: frozenset[str]) -> bool:
    return "noindex" in directives or "none" in directives  # "none" = noindex, nofollow


def _header_noindex(obs: PageObservation) -> bool:
    """X-Robots-Tag noindex, read as `PageObservation.is_indexable` reads it."""
    return obs.x_robots_tag is not None and "noindex" in obs.x_robots_tag.lower()


_Comparison = Callable[[PageObservation, PageObservation], list[DetectedIssue]]

_COMPARISONS: Sequence[_Comparison] = (
    _content_only_after_script,
    _links_only_after_script,
    _title_changed,
    _description_changed,
    _canonical_changed,
    _robots_changed,
)


# ------------------------------------------------------------------ soft 404

# "Not found" as a page's title or main heading says it, by language: a bounded table (each phrase
# as sites and frameworks commonly word the view; the default 404 texts of WordPress, Next.js,
# Nuxt and Angular Material templates among them). Phrases of languages written with spaces match
# as whole words; Chinese and Japanese ones anywhere in the text.
SOFT_404_PHRASES: Mapping[str, tuple[str, ...]] = {
    "en": (
        "404",
        "not found",
        "page does not exist",
        "page doesn't exist",
        "page doesn’t exist",
        "page cannot be found",
        "page can't be found",
        "page can’t be found",
        "page could not be found",
    ),
    "de": ("nicht gefunden", "seite existiert nicht"),
    "fr": ("page introuvable", "page non trouvée", "page n'existe pas", "page n’existe pas"),
    "es": ("página no encontrada", "no se encontró la página", "página no existe"),
    "it": ("pagina non trovata", "pagina non esiste"),
    "pt": ("página não encontrada", "página não existe"),
    "nl": ("pagina niet gevonden", "niet gevonden"),
    "pl": ("nie znaleziono strony", "strona nie istnieje"),
    "sv": ("sidan hittades inte", "sidan finns inte"),
    "ru": ("страница не найдена",),
    "ja": ("ページが見つかりません",),
    "zh": ("页面不存在", "找不到页面", "頁面不存在"),
}
_UNSPACED = frozenset({"ja", "zh"})


def _phrase_pattern(phrases: Mapping[str, tuple[str, ...]]) -> re.Pattern[str]:
    spaced = [re.escape(p) for lang, ps in phrases.items() if lang not in _UNSPACED for p in ps]
    unspaced = [re.escape(p) for lang, ps in phrases.items() if lang in _UNSPACED for p in ps]
    words = rf"(?<!\w)(?:{'|'.join(spaced)})(?!\w)"
    return re.compile(f"{words}|{'|'.join(unspaced)}", re.IGNORECASE)


_NOT_FOUND = _phrase_pattern(SOFT_404_PHRASES)


def _soft_404(
    raw: PageObservation, rendered: PageObservation, page: RenderedLoad
) -> list[DetectedIssue]:
    """The rendered page is a short "not found" view (its title or first H1 says so) while the
    document answered 2xx, and it does not carry the noindex Google suggests for such views."""
    status = raw.status_code if page.status is None else page.status
    if not 200 <= status < 300 or rendered.word_count >= THIN_CONTENT_WORDS:
        return []
    if _noindex(_meta_directives(rendered)) or _header_noindex(raw):
        return []
    h1 = _first_h1(rendered)
    if not any(_NOT_FOUND.search(text) for text in (rendered.title, h1)):
        return []
    details: dict[str, JsonValue] = {"statusCode": status, "title": rendered.title, "h1": h1}
    return [DetectedIssue(IssueType.SOFT_404, raw.url, details)]


def _first_h1(obs: PageObservation) -> str:
    headings = obs.facts.headings if obs.facts else ()
    return next((heading.text for heading in headings if heading.level == 1), "")
