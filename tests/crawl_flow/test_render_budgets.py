"""The render step's budgets (workflow.render_step.budgets): axe-core is asked of an audit's
first AXE_PAGES rendered pages, whatever its render steps claim and whichever renders fail."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workflow.render_step import AXE_PAGES, PAGES_PER_STEP, budgets


@pytest.mark.parametrize(
    ("count", "rendered_before", "asked"),
    [
        (8, 0, 8),
        (8, 8, AXE_PAGES - 8),
        (3, AXE_PAGES - 1, 1),
        (8, AXE_PAGES, 0),
        (8, AXE_PAGES + 30, 0),
        (0, 0, 0),
    ],
)
def test_the_first_pages_of_a_step_are_asked_while_the_audit_s_allowance_lasts(
    count: int, rendered_before: int, asked: int
) -> None:
    flags = [budget.accessibility for budget in budgets(count, rendered_before)]
    assert flags == [True] * asked + [False] * (count - asked)


def test_only_accessibility_differs_from_the_default_budget() -> None:
    asked, other = budgets(AXE_PAGES + 1, 0)[0], budgets(AXE_PAGES + 1, 0)[-1]
    assert (asked.time_s, asked.max_bytes, asked.load_media) == (
        other.time_s,
        other.max_bytes,
        other.load_media,
    )


# Each step: how many pages it claims, and which of its renders succeed.
_steps = st.lists(
    st.lists(st.booleans(), min_size=1, max_size=PAGES_PER_STEP), min_size=1, max_size=12
)


@given(_steps)
def test_an_audit_never_gets_more_than_axe_pages_pages_checked(steps: list[list[bool]]) -> None:
    rendered = checked = 0
    for successes in steps:
        for budget, ok in zip(budgets(len(successes), rendered), successes, strict=True):
            checked += budget.accessibility and ok
            rendered += ok
    assert checked <= AXE_PAGES
    if all(all(successes) for successes in steps):  # nothing failed: the first ones, exactly
        assert checked == min(AXE_PAGES, rendered)
