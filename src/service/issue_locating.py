"""How the HTML report names an issue type, and the detail that locates an issue on its page, as
one short line of text.

An issue row says which page; its `dedupe_key` and `details` (written by the rules, audit/) say
where on the page or across the site: the link target of a broken link, the other members of a
duplicate group, the hops of a redirect chain, the canonical that points nowhere. The line puts
those first, in the form a reader follows (a chain as `a → b → c`, a group as its size and some
members), then every other detail as `name: value`, camelCase names spelt as words.
"""

from __future__ import annotations

import re

from audit.catalogue import maybe_descriptor
from auditdb.records import IssueRecord
from common.wire import JsonValue

HOPS_SHOWN = 8  # a longer chain keeps its first hops and its end, with the count between
LIST_SHOWN = 3  # members of any other list
LINE_LIMIT = 600  # characters; a longer line ends in "…"
LEAD = ("targetUrl", "canonicalUrl", "redirectUrl", "finalUrl")  # the URLs, before other details
_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def type_title(issue_type: str) -> str:
    """The catalogue's title, or the bare type for one this catalogue does not know."""
    d = maybe_descriptor(issue_type)
    return d.title if d else issue_type


def locating_detail(issue: IssueRecord) -> str:
    details = dict(issue.details)
    parts = [_chain(details.pop("hops"))] if "hops" in details else []
    if "otherUrls" in details:
        parts.append(_group(details.pop("otherUrls"), details.pop("groupSize", None)))
    values = {str(v) for v in details.values()}
    if issue.dedupe_key and issue.dedupe_key not in values:
        parts.insert(0, f"→ {issue.dedupe_key}")
    keys = [*(k for k in LEAD if k in details), *sorted(k for k in details if k not in LEAD)]
    parts.extend(f"{_words(key)}: {_value(details[key])}" for key in keys)
    line = "; ".join(parts)
    return line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…"


def _chain(hops: JsonValue) -> str:
    urls = [str(h) for h in hops] if isinstance(hops, list) else [str(hops)]
    if len(urls) > HOPS_SHOWN:
        hidden = len(urls) - HOPS_SHOWN
        urls = [*urls[: HOPS_SHOWN - 1], f"({hidden} more)", urls[-1]]
    return "chain: " + " → ".join(urls)


def _group(others: JsonValue, size: JsonValue) -> str:
    urls = [str(u) for u in others] if isinstance(others, list) else [str(others)]
    shown = ", ".join(urls[:LIST_SHOWN])
    total = size if isinstance(size, int) and not isinstance(size, bool) else len(urls) + 1
    rest = total - 1 - min(len(urls), LIST_SHOWN)
    return f"duplicate group of {total}, with {shown}" + (f" and {rest} more" if rest > 0 else "")


def _value(value: JsonValue) -> str:
    if isinstance(value, list):
        more = " …" if len(value) > LIST_SHOWN else ""
        return ", ".join(str(v) for v in value[:LIST_SHOWN]) + more
    return str(value)


def _words(key: str) -> str:
    return _WORD.sub(" ", key).lower()
