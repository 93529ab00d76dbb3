"""How a report names an issue type, and the detail that locates an issue on its page, as one
plain sentence for the site's owner.

An issue row says which page; its `dedupe_key` and `details` (written by the rules, audit/) say
where on the page or across the site: the link target of a broken link, the other members of a
duplicate group, the hops of a redirect chain, the canonical that points nowhere. The sentence puts
those first, in the form a reader follows (a chain as `a → b → c`, a group as its size and some
members), then every other detail in words (`PHRASES`): never a Python `None`, never a field's
internal name where a phrase exists, and nothing that only the machine needs (a grade test's
severity, which checker wrote it). A detail no phrase knows is shown as `name: value`, camelCase
spelt as words, and left out when it has no value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from audit.catalogue import maybe_descriptor
from auditdb.records import IssueRecord
from common.wire import JsonValue
from security.result_words import grade_result_words, grade_test_words

HOPS_SHOWN = 8  # a longer chain keeps its first hops and its end, with the count between
LIST_SHOWN = 3  # members of any other list
LINE_LIMIT = 600  # characters; a longer line ends in "…"
# Machine-only details: the severity and the checker are the row's own columns already.
HIDDEN = frozenset({"severity", "source", "check"})
_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

type Details = Mapping[str, JsonValue]


def type_title(issue_type: str) -> str:
    """The catalogue's title, or the bare type for one this catalogue does not know."""
    d = maybe_descriptor(issue_type)
    return d.title if d else issue_type


def locating_detail(issue: IssueRecord) -> str:
    """Where the issue is, as one sentence ("" when its row says everything)."""
    written = issue.details.get("detail")
    if isinstance(written, str) and written.endswith("."):
        # The check wrote its own sentence (a note that a check could not run says why, with
        # its counts in it): the numbers beside it are for machines.
        return _cut(written)
    details = {k: v for k, v in issue.details.items() if k not in HIDDEN}
    parts = [*_structure(details), *_lead(issue.dedupe_key, details)]
    for key in _ordered(details):
        if (part := _phrase(key, details)) is not None:
            parts.append(part)
    if not parts:
        return ""
    line = "; ".join([part.rstrip(".") for part in parts[:-1]] + parts[-1:])
    return _cut(line[0].upper() + line[1:] + ("" if line.endswith((".", "…")) else "."))


def _cut(line: str) -> str:
    return line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…"


def _structure(details: dict[str, JsonValue]) -> list[str]:
    """The chain and the duplicate group, which several keys describe together."""
    parts = []
    if "hops" in details:
        parts.append(_chain(details.pop("hops")))
    if "otherUrls" in details:
        parts.append(_group(details.pop("otherUrls"), details.pop("groupSize", None)))
    return parts


def _lead(dedupe_key: str, details: Mapping[str, JsonValue]) -> list[str]:
    """The dedupe key, when it is a URL no detail already names (the link that is broken)."""
    values = {str(v) for v in details.values()}
    if dedupe_key.startswith(("http://", "https://")) and dedupe_key not in values:
        return [_target(dedupe_key, details)]
    return []


# What was found and the URLs first, in the order a reader follows them, then the other details
# by name.
LEAD = ("subject", "targetUrl", "canonicalUrl", "redirectUrl", "finalUrl", "resourceUrl", "url")


# The fix a grade test or an exposure check suggests for this very case ends the sentence.
TAIL = ("howToFix",)


def _ordered(details: Mapping[str, JsonValue]) -> list[str]:
    rest = sorted(k for k in details if k not in LEAD and k not in TAIL)
    return [*(k for k in LEAD if k in details), *rest, *(k for k in TAIL if k in details)]


def _phrase(key: str, details: Mapping[str, JsonValue]) -> str | None:
    value = details[key]
    phrase = PHRASES.get(key)
    if phrase is not None:
        return phrase(value, details)
    if value is None or value == "" or value == []:
        return None
    return f"{_words(key)}: {_value(value)}"


def _target(value: JsonValue, details: Details) -> str:
    status = details.get("targetStatus")
    if status is None:
        return f"links to {value}"
    if status == 0:
        return f"links to {value}, which did not answer"
    return f"links to {value}, which answers {status}"


def _header(value: JsonValue, _: Details) -> str:
    return "the header is not sent" if value is None else f"the header sent is '{value}'"


def _grade_test(value: JsonValue, details: Details) -> str:
    result = grade_result_words(str(details.get("result") or ""))
    modifier = details.get("scoreModifier")
    cost = (
        f", which costs {-modifier} of the grade's 100 points"
        if isinstance(modifier, int) and modifier < 0
        else ""
    )
    return f"the security grade's {grade_test_words(str(value))} test found: {result}{cost}"


def _headings(_: JsonValue, details: Details) -> str | None:
    start, end = details.get("from"), details.get("to")
    return f"the headings jump from h{start} to h{end}" if start and end else None


def _images(value: JsonValue, details: Details) -> str:
    total = details.get("imagesTotal")
    return f"{value} of {total} images" if total is not None else f"{value} images"


def _skip(_: JsonValue, __: Details) -> None:
    return None


def _say(template: str) -> Callable[[JsonValue, Details], str | None]:
    """A phrase that puts the value in `template`, or says nothing when there is no value."""

    def phrase(value: JsonValue, _: Details) -> str | None:
        if value is None or value == "" or value == []:
            return None
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
        return template.format(_value(shown) if isinstance(shown, list) else shown)

    return phrase


PHRASES: Mapping[str, Callable[[JsonValue, Details], str | None]] = {
    "targetUrl": _target,
    "targetStatus": _skip,  # said with targetUrl
    "canonicalUrl": _say("its canonical is {}"),
    "redirectUrl": _say("redirects to {}"),
    "finalUrl": _say("ends at {}"),
    "resourceUrl": _say("loads {}"),
    "url": _say("at {}"),
    "subject": _say("found {}"),  # what an exposure check found: a library, a header
    "statusCode": _say("answers {}"),
    "status": _say("answers {}"),
    "responseTimeMs": _say("answered in {} ms"),
    "wordCount": _say("{} words"),
    "length": _say("{} characters"),
    "maxAge": _say("max-age is {} seconds"),
    "header": _header,
    "fragment": _say("#{} is not on the page"),
    "test": _grade_test,
    "result": _skip,  # said with test
    "scoreModifier": _skip,  # said with test
    "howToFix": _say("fix: {}"),
    "from": _headings,
    "to": _skip,  # said with from
    "imagesMissingAlt": _images,
    "imagesTotal": _skip,  # said with imagesMissingAlt
    "reason": _say("{}"),
    "detail": _say("{}"),
    "identifiers": _say("known as {}"),
    "crawlDepth": _say("{} clicks from the start page"),
}


def _chain(hops: JsonValue) -> str:
    urls = [str(h) for h in hops] if isinstance(hops, list) else [str(hops)]
    if len(urls) > HOPS_SHOWN:
        hidden = len(urls) - HOPS_SHOWN
        urls = [*urls[: HOPS_SHOWN - 1], f"({hidden} more)", urls[-1]]
    return "redirects: " + " → ".join(urls)


def _group(others: JsonValue, size: JsonValue) -> str:
    urls = [str(u) for u in others] if isinstance(others, list) else [str(others)]
    shown = ", ".join(urls[:LIST_SHOWN])
    total = size if isinstance(size, int) and not isinstance(size, bool) else len(urls) + 1
    rest = total - 1 - min(len(urls), LIST_SHOWN)
    return f"one of {total} pages that share it, with {shown}" + (
        f" and {rest} more" if rest > 0 else ""
    )


def _value(value: JsonValue) -> str:
    if isinstance(value, list):
        more = " …" if len(value) > LIST_SHOWN else ""
        return ", ".join(str(v) for v in value[:LIST_SHOWN]) + more
    return str(value)


def _words(key: str) -> str:
    return _WORD.sub(" ", key).lower()
