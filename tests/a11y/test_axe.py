"""axe-core's results as findings (a11y.axe), on results recorded from real runs of axe-core
4.14.1 in Chromium (tests/browser/capture_axe.py wrote tests/a11y/data/axe/*.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a11y.axe import AxeResult, axe_run_arguments, from_axe
from a11y.findings import SNIPPET_CHARS, Finding, Impact, Source
from a11y.result import MAX_FINDINGS
from a11y.rule_ids import RenderedRuleId, RuleId

DATA = Path(__file__).parent / "data" / "axe"


def recorded(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def _violation(rule: str, nodes: list[dict[str, object]]) -> dict[str, object]:
    return {"id": rule, "impact": "serious", "tags": ["wcag2a", "wcag111"], "nodes": nodes}


def _node(target: list[object], html: str = "<img>") -> dict[str, object]:
    return {"target": target, "html": html, "impact": "critical"}


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        (
            "low-contrast",
            [
                (RenderedRuleId.COLOR_CONTRAST, Impact.SERIOUS, ("1.4.3",), "#faint"),
                (RuleId.IMAGE_ALT, Impact.CRITICAL, ("1.1.1",), "img"),
                (
                    RenderedRuleId.TARGET_SIZE,
                    Impact.SERIOUS,
                    ("2.5.8",),
                    'button[aria-label="one"]',
                ),
                (
                    RenderedRuleId.TARGET_SIZE,
                    Impact.SERIOUS,
                    ("2.5.8",),
                    'button[aria-label="two"]',
                ),
            ],
        ),
        ("script-fixed", [(RuleId.LINK_NAME, Impact.SERIOUS, ("2.4.4", "4.1.2"), "#more")]),
        ("clean", []),
    ],
)
def test_each_violating_node_of_a_recorded_run_is_a_rendered_finding(
    fixture: str, expected: list[tuple[object, Impact, tuple[str, ...], str]]
) -> None:
    result = from_axe(recorded(fixture))
    assert [(f.rule, f.impact, f.wcag, f.selector) for f in result.findings] == expected
    assert all(f.source is Source.RENDERED for f in result.findings)
    assert result.findings_seen == len(expected)
    assert result.engine == "axe-core 4.14.1"
    assert result.error is None


def test_the_snippet_is_axe_core_s_html_of_the_element() -> None:
    contrast = from_axe(recorded("low-contrast")).findings[0]
    assert contrast.snippet.startswith('<p class="faint" id="faint">')


@pytest.mark.parametrize(
    ("fixture", "rule", "decided"),
    [
        ("low-contrast", RenderedRuleId.COLOR_CONTRAST, True),  # violated
        ("script-fixed", RuleId.IMAGE_ALT, True),  # passed: the script gave the image its alt
        ("clean", RenderedRuleId.VIDEO_CAPTION, True),  # inapplicable: no video
        ("clean", RuleId.HEADING_ORDER, False),  # a best practice: not run
    ],
)
def test_decided_lists_the_rules_axe_core_ran_to_a_verdict(
    fixture: str, rule: object, decided: bool
) -> None:
    assert (rule in from_axe(recorded(fixture)).decided) is decided


def test_a_rule_with_a_node_left_for_review_is_not_decided() -> None:
    raw = {
        "passes": [{"id": "color-contrast", "nodes": []}],
        "incomplete": [{"id": "color-contrast", "nodes": []}],
        "violations": [_violation("image-alt", [_node(["img"])])],
    }
    result = from_axe(raw)
    assert result.decided == (RuleId.IMAGE_ALT,)


def test_the_run_s_arguments_ask_for_wcag_2_1_a_and_aa_and_target_size() -> None:
    tags, extra, timeout_ms = axe_run_arguments(5.0)
    assert tags == ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
    assert extra == ["target-size"]
    assert timeout_ms == 5000


@pytest.mark.parametrize(
    ("target", "selector"),
    [
        (["#main > img"], "#main > img"),
        (["iframe", "#x"], "iframe #x"),  # a frame's element (iframes are not entered)
        ([["#host", "button"]], "#host >>> button"),  # inside a shadow root
    ],
)
def test_the_selector_is_axe_core_s_target(target: list[object], selector: str) -> None:
    raw = {"violations": [_violation("image-alt", [_node(target)])]}
    assert from_axe(raw).findings[0].selector == selector


def test_a_rule_id_siteaudit_does_not_name_is_left_out() -> None:
    raw = {"violations": [_violation("some-future-rule", [_node(["p"])])]}
    assert from_axe(raw).findings == ()


def test_findings_past_the_bound_are_counted_not_kept() -> None:
    nodes = [_node([f"img:nth-child({n})"]) for n in range(MAX_FINDINGS + 3)]
    result = from_axe({"violations": [_violation("image-alt", nodes)]})
    assert len(result.findings) == MAX_FINDINGS
    assert result.findings_seen == MAX_FINDINGS + 3


def test_a_long_html_is_cut_to_the_snippet_bound() -> None:
    raw = {"violations": [_violation("image-alt", [_node(["img"], "<img " + "x" * 400 + ">")])]}
    snippet = from_axe(raw).findings[0].snippet
    assert len(snippet) == SNIPPET_CHARS
    assert snippet.endswith("…")


def test_the_run_s_error_is_a_result_that_decides_nothing() -> None:
    result = from_axe({"error": "axe-core ran out of its 10000 ms"})
    assert result == AxeResult.failed("axe-core ran out of its 10000 ms")
    assert result.findings == () and result.decided == ()


@pytest.mark.parametrize(
    "raw",
    [
        {"violations": {"id": "image-alt"}},  # not a list
        {"violations": [{"id": 3, "nodes": []}]},  # an id that is not text
        {"violations": [{"id": "image-alt", "nodes": ["img"]}]},  # a node that is not an object
        # no impact on the node nor on the rule
        {"violations": [{"id": "image-alt", "nodes": [{"target": ["img"], "html": "<img>"}]}]},
        {
            "violations": [
                {**_violation("image-alt", [{"target": ["img"], "html": ""}]), "impact": "fatal"}
            ]
        },  # an impact axe-core does not have
    ],
)
def test_a_result_not_shaped_as_axe_core_s_is_refused(raw: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="axe-core result"):
        from_axe(raw)


@pytest.mark.parametrize("fixture", ["low-contrast", "script-fixed", "clean"])
def test_the_result_crosses_the_wire_unchanged(fixture: str) -> None:
    result = from_axe(recorded(fixture))
    assert AxeResult.from_dict(result.to_dict()) == result
    assert AxeResult.from_json_text(result.to_json_text()) == result


def test_a_finding_recorded_before_sources_existed_reads_as_static() -> None:
    old = {
        "rule": "image-alt",
        "impact": "critical",
        "wcag": ["1.1.1"],
        "selector": "img",
        "snippet": "<img>",
    }
    assert Finding.from_dict(old).source is Source.STATIC


@pytest.mark.parametrize("rule", [RuleId.IMAGE_ALT, RenderedRuleId.COLOR_CONTRAST])
@pytest.mark.parametrize("source", list(Source))
def test_a_finding_of_either_vocabulary_and_source_crosses_the_wire(
    rule: RuleId | RenderedRuleId, source: Source
) -> None:
    finding = Finding(rule, Impact.SERIOUS, ("1.4.3",), "#x", "<p>", source)
    decoded = Finding.from_dict(finding.to_dict())
    assert decoded == finding
    assert type(decoded.rule) is type(rule)
