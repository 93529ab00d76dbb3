"""The two vocabularies of axe-core rule ids (a11y.rule_ids): apart, and together axe-core
4.14.1's WCAG 2.1 A/AA rules (plus target-size)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from a11y.aria import aria
from a11y.rule_ids import RENDERED_ONLY, STATIC_RULES, RenderedRuleId, RuleId, axe_rule_id

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.js"
_WCAG21_AA = {"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"}


def test_the_vocabularies_are_apart() -> None:
    assert not {str(r) for r in STATIC_RULES} & {str(r) for r in RENDERED_ONLY}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("image-alt", RuleId.IMAGE_ALT),
        ("color-contrast", RenderedRuleId.COLOR_CONTRAST),
        ("target-size", RenderedRuleId.TARGET_SIZE),
        ("region", None),  # a best practice siteaudit does not name
    ],
)
def test_a_rule_id_is_read_into_its_vocabulary(value: str, expected: object) -> None:
    assert axe_rule_id(value) == expected
    assert type(axe_rule_id(value)) is type(expected)


def test_the_rendered_only_rules_are_axe_core_s_wcag_rules_the_static_ones_leave() -> None:
    node = shutil.which("node")
    if node is None or not AXE.is_file():
        pytest.skip("needs node and node_modules/axe-core (npm ci)")
    script = f"console.log(JSON.stringify(require({json.dumps(str(AXE))}).getRules()))"
    rules = json.loads(
        subprocess.run([node, "-e", script], check=True, capture_output=True, text=True).stdout
    )
    wcag = {r["ruleId"] for r in rules if _WCAG21_AA & set(r["tags"])}
    static_wcag = {str(r) for r in RuleId if aria().rules[r]["level"] != "best-practice"}
    assert static_wcag <= wcag
    assert {str(r) for r in RenderedRuleId} == (wcag - static_wcag) | {"target-size"}
