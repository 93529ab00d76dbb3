"""axe-core's results on a rendered page, as the audit keeps them (issue 31 item 2).

Sans-IO: a renderer that can run script in the page (local_platform.chromium_renderer) evaluates
axe-core's `axe.min.js` there, then `AXE_RUN` with `axe_run_arguments()`, and hands the JSON it
answers to `from_axe`. What comes back is axe-core's own result object (axe-core's
doc/API.md, "Results Object"): `violations`, `passes`, `incomplete` and `inapplicable`, a rule
each, each with its `nodes`; asked for `resultTypes: ['violations']`, axe-core lists every
violating node and at most one node of the other kinds, which is all this needs.

Each violating node becomes a `Finding` marked `Source.RENDERED`, named by axe-core's rule id
(a11y.rule_ids: a static rule's id, or one only a rendered page decides), its impact and WCAG
criteria as axe-core tags them, its selector axe-core's `target` and its snippet axe-core's
`html`. `decided` lists the rules axe-core ran and decided on every element it applied them to
(a rule with a node it left for review, `incomplete`, is not decided), which a11y.merge uses to
let axe-core's verdict stand over the static rule's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from a11y.findings import SNIPPET_CHARS, Finding, Impact, Source
from a11y.result import MAX_FINDINGS
from a11y.rule_ids import AxeRuleId, RenderedRuleId, axe_rule_id
from common.wire import JsonRecord

__all__ = [
    "AXE_RUN",
    "AXE_TAGS",
    "AXE_TIME_S",
    "AxeResult",
    "axe_run_arguments",
    "from_axe",
]

# WCAG 2.0 and 2.1, levels A and AA: axe-core's doc/API.md, "Axe-core Tags".
AXE_TAGS: Final = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
# Enabled by id beside the tags: target-size is tagged wcag22aa only, and issue 31 asks for it.
AXE_EXTRA_RULES: Final = (RenderedRuleId.TARGET_SIZE,)
# What one page's axe-core run may take, on top of the render's own budget: half the render's
# 20 s (render.records.RenderBudget), so a render step of 8 pages two at a time stays well
# inside its 5-minute timeout (workflow.step_configs.RENDER_STEP). A page that takes longer (tens
# of thousands of elements) is given up rather than stall the step.
AXE_TIME_S: Final = 10.0

# Runs in the page after axe.min.js; answers axe-core's result object as plain JSON, or
# {"error": ...} when the time ran out or axe-core threw.
AXE_RUN: Final = """async ([tags, extra, timeoutMs]) => {
  if (typeof window.axe !== 'object') return { error: 'axe-core is not loaded in the page' };
  const rules = Object.fromEntries(extra.map((id) => [id, { enabled: true }]));
  const run = axe.run(document, {
    runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'], iframes: false,
  });
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ error: `axe-core ran out of its ${timeoutMs} ms` }),
                       timeoutMs);
  });
  try {
    const result = await Promise.race([run, late]);
    return JSON.parse(JSON.stringify(result));
  } catch (e) {
    return { error: 'axe-core failed: ' + String(e) };
  } finally {
    clearTimeout(timer);
  }
}"""

# A success criterion's tag: wcag111 is 1.1.1, wcag1412 is 1.4.12 (levels are wcag2a, wcag21aa).
_CRITERION = re.compile(r"^wcag(\d)(\d)(\d+)$")


def axe_run_arguments(time_s: float = AXE_TIME_S) -> list[object]:
    """The argument `AXE_RUN` takes."""
    return [list(AXE_TAGS), [str(rule) for rule in AXE_EXTRA_RULES], int(time_s * 1000)]


@dataclass(frozen=True, slots=True)
class AxeResult(JsonRecord):
    """What axe-core decided on one rendered page; `error` says why it decided nothing."""

    findings: tuple[Finding, ...]  # violating nodes, rule by rule, the first MAX_FINDINGS
    findings_seen: int  # before the MAX_FINDINGS cut
    decided: tuple[AxeRuleId, ...]  # rules decided on every element they apply to
    engine: str = ""  # "axe-core 4.14.1"
    error: str | None = None

    @classmethod
    def failed(cls, error: str) -> AxeResult:
        return cls(findings=(), findings_seen=0, decided=(), error=error)


def from_axe(raw: Mapping[str, object]) -> AxeResult:
    """axe-core's result object (or AXE_RUN's `{"error": ...}`) as the audit keeps it.

    A rule id siteaudit does not name (a newer axe-core's) is left out; a result that is not
    axe-core's shape raises ValueError (the renderer records it as the run's error)."""
    error = raw.get("error")
    if error is not None:
        return AxeResult.failed(str(error))
    findings = [
        finding
        for violation in _rules(raw, "violations")
        if (rule := axe_rule_id(_text(violation, "id"))) is not None
        for finding in _findings(rule, violation)
    ]
    review = {_text(rule, "id") for rule in _rules(raw, "incomplete")}
    ran = [
        _text(rule, "id")
        for kind in ("violations", "passes", "inapplicable")
        for rule in _rules(raw, kind)
    ]
    decided = tuple(
        dict.fromkeys(
            rule for rule in map(axe_rule_id, ran) if rule is not None and rule not in review
        )
    )
    return AxeResult(
        findings=tuple(findings[:MAX_FINDINGS]),
        findings_seen=len(findings),
        decided=decided,
        engine=_engine(raw),
    )


def _findings(rule: AxeRuleId, violation: Mapping[str, object]) -> list[Finding]:
    tags = [str(tag) for tag in _list(violation, "tags")]
    wcag = tuple(
        ".".join(match.groups()) for tag in tags if (match := _CRITERION.match(tag)) is not None
    )
    return [
        Finding(
            rule=rule,
            impact=Impact(_impact(node, violation)),
            wcag=wcag,
            selector=_selector(node),
            snippet=_snippet(_text(node, "html")),
            source=Source.RENDERED,
        )
        for node in map(_mapping, _list(violation, "nodes"))
    ]


def _impact(node: Mapping[str, object], violation: Mapping[str, object]) -> str:
    # A node's impact is its own failing checks' worst; the rule's is its nodes' worst.
    impact = node.get("impact") or violation.get("impact")
    if impact not in set(Impact):
        raise ValueError(f"axe-core result: impact {impact!r} is not one of axe-core's")
    return str(impact)


def _selector(node: Mapping[str, object]) -> str:
    # `target`: one selector per frame on the way to the element (one here: iframes are not
    # entered); a part inside shadow DOM is itself a list, host first.
    parts = _list(node, "target")
    return " ".join(
        " >>> ".join(map(str, part)) if isinstance(part, list) else str(part) for part in parts
    )


def _snippet(html: str) -> str:
    return html if len(html) <= SNIPPET_CHARS else html[: SNIPPET_CHARS - 1] + "…"


def _engine(raw: Mapping[str, object]) -> str:
    engine = raw.get("testEngine")
    if not isinstance(engine, Mapping):
        return ""
    return f"{engine.get('name', 'axe-core')} {engine.get('version', '')}".strip()


def _rules(raw: Mapping[str, object], kind: str) -> list[Mapping[str, object]]:
    return [_mapping(rule) for rule in _list(raw, kind)]


def _list(record: Mapping[str, object], key: str) -> list[object]:
    value = record.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"axe-core result: {key} is not a list")
    return value


def _mapping(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ValueError(f"axe-core result: {value!r} is not an object")
    return value


def _text(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        raise ValueError(f"axe-core result: {key} is not a string")
    return value
