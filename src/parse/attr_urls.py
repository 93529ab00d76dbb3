"""URLs inside attribute values that hold more than a URL: `srcset` and a meta refresh's content.

Both follow the HTML Living Standard's parsing algorithms, which browsers implement:

* `srcset_urls`: "parse a srcset attribute". Candidates are separated by commas; a candidate's
  URL is a run of non-whitespace, from which trailing commas are removed (and then the candidate
  has no descriptors); otherwise its descriptors run to the next comma outside parentheses. A
  candidate with invalid descriptors is still a URL the page names, so every URL is returned
  (a broken one is a defect whether or not a browser would pick it).
* `refresh_url`: the "shared declarative refresh steps": a non-negative number (digits and
  dots) ending at the end, a `;`, a `,` or whitespace, then optionally `;` or `,` and
  whitespace, an optional case-insensitive `url` with `=`, and the URL, which a matching
  leading quote encloses. None where the content names
  no URL (a plain reload) or is not a valid refresh.
"""

from __future__ import annotations

import re

__all__ = ["refresh_url", "srcset_urls"]

_WS = "\t\n\f\r "
_SKIP = re.compile(rf"[{_WS},]*")
_URL = re.compile(rf"[^{_WS}]+")
_DESCRIPTORS = re.compile(r"(?:[^,(]|\([^)]*\)?)*")
_REFRESH = re.compile(
    rf"[{_WS}]*[0-9.]+(?=\Z|[;,{_WS}])[{_WS}]*[;,]?[{_WS}]*"
    rf"(?:[uU][rR][lL][{_WS}]*=[{_WS}]*)?(?P<rest>.*)",
    re.DOTALL,
)


def srcset_urls(value: str) -> list[str]:
    """The candidate URLs of a `srcset` value, in order."""
    urls: list[str] = []
    pos, end = 0, len(value)
    while True:
        pos = _SKIP.match(value, pos).end()  # type: ignore[union-attr]
        if pos >= end:
            return urls
        url = _URL.match(value, pos).group()  # type: ignore[union-attr]
        pos += len(url)
        if url.endswith(","):
            urls.append(url.rstrip(","))
            continue
        urls.append(url)
        pos = _DESCRIPTORS.match(value, pos).end()  # type: ignore[union-attr]


def refresh_url(content: str) -> str | None:
    """The URL a `<meta http-equiv=refresh content>` value navigates to, or None."""
    match = _REFRESH.match(content)
    if match is None:
        return None  # no time, or junk after it: not a refresh declaration
    rest = match["rest"]
    if not rest:
        return None
    if rest[0] in "'\"":
        quote, rest = rest[0], rest[1:]
        rest = rest.split(quote, 1)[0]
    return rest or None
