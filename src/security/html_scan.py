"""The parts of an HTML document the tests read: meta policies and script tags.

The Observatory reads `<meta http-equiv="content-security-policy">` (every one) and
`<meta name="referrer">` (the last one) as if they were headers (mdn/mdn-http-observatory
`src/retriever/utils.js`, parseHttpEquivHeaders), only when the response declares HTML
(`src/retriever/retriever.js`), and every `<script>` element for the subresource-integrity test
(which parses the body unless another type is declared). The stdlib tokenizer accepts any text, as HTML parsers must.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

# MIME types the Observatory treats as HTML (src/types.js HTML_TYPES).
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def declared_html(content_type: str | None) -> bool:
    """Whether the Content-Type names HTML. Like the retriever, the part before ";" is compared
    as sent (no trimming, no case folding), and a missing Content-Type is not HTML."""
    return (content_type or "").split(";")[0] in HTML_TYPES


@dataclass(frozen=True, slots=True)
class ScriptTag:
    src: str | None  # the attribute as written (trimmed); None without one
    integrity: str | None
    crossorigin: str | None


@dataclass(frozen=True, slots=True)
class HtmlFacts:
    csp_meta: list[str] = field(default_factory=list)
    referrer_meta: str | None = None
    scripts: list[ScriptTag] = field(default_factory=list)


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.csp_meta: list[str] = []
        self.referrer_meta: str | None = None
        self.scripts: list[ScriptTag] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(reversed(attrs))  # the first of a name wins
        if tag == "meta":
            self._meta(values)
        elif tag == "script":
            src = values.get("src")
            self.scripts.append(
                ScriptTag(
                    None if src is None else src.strip(),
                    values.get("integrity"),
                    values.get("crossorigin"),
                )
            )

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def _meta(self, values: dict[str, str | None]) -> None:
        content = values.get("content")
        equiv = values.get("http-equiv")
        if equiv is not None and content is not None:
            if equiv.strip().lower() == "content-security-policy":
                self.csp_meta.append(content)
        elif (values.get("name") or "").strip().lower() == "referrer" and content is not None:
            self.referrer_meta = content


def scan_html(html: str | None) -> HtmlFacts:
    """The meta policies and scripts of `html` (nothing for None)."""
    if not html:
        return HtmlFacts()
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return HtmlFacts(scanner.csp_meta, scanner.referrer_meta, scanner.scripts)
