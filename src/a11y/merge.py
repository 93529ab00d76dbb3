"""One page's accessibility from both sources: the static rules on its markup and axe-core on
the page a browser rendered (issue 31 item 2). Sans-IO.

The rendered verdict wins, per rule and element: axe-core saw the cascade, layout and what
script did, the static rules only the markup. So a static finding is dropped when axe-core
reported the same rule on the same element (same selector), and when axe-core decided the rule
on the whole page (a11y.axe.AxeResult.decided: it ran it and left no element for review), since
axe-core's silence on an element there is a pass or the rule not applying to it. A static
finding of a rule axe-core did not run (the best practices outside the WCAG tags) or left for
review stands. An axe-core run that failed decides nothing: the static record is kept whole.
"""

from __future__ import annotations

from a11y.axe import AxeResult
from a11y.findings import Finding
from a11y.result import PageAccessibility, page_accessibility

__all__ = ["merged"]


def merged(static: PageAccessibility | None, rendered: AxeResult) -> PageAccessibility:
    """`static` (None: the static rules did not run on the page) merged with `rendered`."""
    if rendered.error is not None:
        return static if static is not None else page_accessibility([])
    if static is None:
        return _cut(list(rendered.findings), rendered.findings_seen, complete=True)
    decided = set(rendered.decided)
    reported = {(finding.rule, finding.selector) for finding in rendered.findings}
    kept = [
        finding
        for finding in static.findings
        if finding.rule not in decided and (finding.rule, finding.selector) not in reported
    ]
    # The static findings past the record's cut cannot be judged again: they count as seen.
    unseen = static.findings_seen - len(static.findings)
    return _cut(
        [*rendered.findings, *kept],
        rendered.findings_seen + len(kept) + unseen,
        complete=static.complete,
    )


def _cut(findings: list[Finding], seen: int, *, complete: bool) -> PageAccessibility:
    """The record of a page axe-core decided, marked `rendered`: the rules only it decides
    (color-contrast, target-size...) were checked on this page, as on no page it did not run on."""
    record = page_accessibility(findings, complete=complete)
    return PageAccessibility(
        record.findings, max(seen, record.findings_seen), complete, rendered=True
    )
