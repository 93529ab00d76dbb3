"""The accessibility issue types: one per static rule and one per rule only axe-core decides on a
rendered page, impact and WCAG criteria as axe-core's data file has them, severity from impact,
each criterion linked to its Understanding page, the rendered-only ones marked as such."""

import pytest

from a11y.aria import aria
from a11y.rule_ids import AxeRuleId, RenderedRuleId, RuleId
from audit.a11y_catalogue import (
    RENDERED_RULE_TEXTS,
    RULE_TEXTS,
    WCAG_CRITERIA,
    issue_type_value,
    rendered_only,
    rule_of_issue_type,
    rule_text,
    understanding_url,
)
from audit.catalogue import CATALOGUE, Category, IssueType, Scope, Severity

EVERY_RULE: list[AxeRuleId] = [*RuleId, *RenderedRuleId]


def test_every_rule_has_its_text_and_catalogue_type() -> None:
    assert set(RULE_TEXTS) == set(RuleId)
    assert set(RENDERED_RULE_TEXTS) == set(RenderedRuleId)
    a11y_types = {t for t in CATALOGUE if CATALOGUE[t].category is Category.ACCESSIBILITY}
    assert a11y_types == {IssueType(issue_type_value(rule)) for rule in EVERY_RULE}


@pytest.mark.parametrize("rule", EVERY_RULE)
def test_impact_and_criteria_are_axe_cores(rule: AxeRuleId) -> None:
    meta = aria().rules[rule.value]
    text = rule_text(rule)
    assert (text.impact.value, list(text.wcag)) == (meta["impact"], meta["wcag"])
    assert all(criterion in WCAG_CRITERIA for criterion in text.wcag)


@pytest.mark.parametrize(
    ("rule", "severity"),
    [
        (RuleId.IMAGE_ALT, Severity.CRITICAL),  # axe critical
        (RuleId.LINK_NAME, Severity.WARNING),  # serious
        (RuleId.HEADING_ORDER, Severity.WARNING),  # moderate
        (RuleId.EMPTY_HEADING, Severity.INFO),  # minor
        (RenderedRuleId.VIDEO_CAPTION, Severity.CRITICAL),  # critical
        (RenderedRuleId.COLOR_CONTRAST, Severity.WARNING),  # serious
        (RenderedRuleId.NO_AUTOPLAY_AUDIO, Severity.WARNING),  # moderate
        (RenderedRuleId.ARIA_DEPRECATED_ROLE, Severity.INFO),  # minor
    ],
)
def test_severity_follows_axe_impact(rule: AxeRuleId, severity: Severity) -> None:
    assert CATALOGUE[IssueType(issue_type_value(rule))].severity is severity


@pytest.mark.parametrize(
    ("rule", "scope", "decided_where"),
    [
        (RuleId.IMAGE_ALT, Scope.PAGE, "decided from the markup"),
        (RenderedRuleId.COLOR_CONTRAST, Scope.RENDERED, "a page not rendered was not checked"),
        (RenderedRuleId.TARGET_SIZE, Scope.RENDERED, "a page not rendered was not checked"),
    ],
)
def test_a_rendered_only_type_says_it_is_decided_only_on_a_rendered_page(
    rule: AxeRuleId, scope: Scope, decided_where: str
) -> None:
    found = CATALOGUE[IssueType(issue_type_value(rule))]
    assert found.scope is scope
    assert decided_where in found.trigger
    assert rendered_only(found.id.value) is (scope is Scope.RENDERED)


def test_the_descriptor_cites_the_rule_and_the_understanding_page() -> None:
    found = CATALOGUE[IssueType.A11Y_LINK_NAME]
    assert "axe-core 4.14.1 rule link-name" in found.source
    assert understanding_url("2.4.4") in found.source
    assert understanding_url("4.1.2").endswith("/WCAG22/Understanding/name-role-value")
    assert "best practice" in CATALOGUE[IssueType.A11Y_TABINDEX].source
    contrast = CATALOGUE[IssueType.A11Y_COLOR_CONTRAST].source
    assert understanding_url("1.4.3").endswith("/contrast-minimum") and "1.4.3" in contrast


@pytest.mark.parametrize(
    ("issue_type", "rule"),
    [
        ("a11y-image-alt", RuleId.IMAGE_ALT),
        ("a11y-color-contrast", RenderedRuleId.COLOR_CONTRAST),
        ("a11y-nope", None),
        ("images-missing-alt", None),
    ],
)
def test_rule_of_issue_type(issue_type: str, rule: AxeRuleId | None) -> None:
    assert rule_of_issue_type(issue_type) is rule
