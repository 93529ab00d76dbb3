"""retire.js version order (`isAtOrAbove` in node/lib/retire.js), as a table."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exposure.versions import is_at_or_above, is_below


@pytest.mark.parametrize(
    ("version", "other", "at_or_above"),
    [
        ("1.2.3", "1.2.3", True),
        ("1.2.4", "1.2.3", True),
        ("1.2.3", "1.2.4", False),
        ("1.10.0", "1.9.9", True),  # parts compare as numbers, not text
        ("1.2", "1.2.0", True),  # a missing part counts as 0
        ("1.2", "1.2.1", False),
        ("1.0.0", "1.0.0-rc1", True),  # a number ranks above a string
        ("1.0.0-rc1", "1.0.0", False),
        ("1.0.0-rc2", "1.0.0-rc1", True),  # two strings compare as text
        ("1.9.0b1", "1.9.0", False),  # "0b1" is not all digits: a string below the number 0
        ("3.6.0.slim", "3.6.0", False),
        ("2.0.0", "999.999.999", False),
    ],
)
def test_order(version: str, other: str, at_or_above: bool) -> None:
    assert is_at_or_above(version, other) is at_or_above
    assert is_below(version, other) is not at_or_above


versions = st.lists(st.integers(0, 30), min_size=1, max_size=4).map(
    lambda parts: ".".join(map(str, parts))
)


@given(versions, versions)
def test_numeric_versions_are_totally_ordered(a: str, b: str) -> None:
    assert is_at_or_above(a, b) or is_at_or_above(b, a)
    assert is_at_or_above(a, a)
