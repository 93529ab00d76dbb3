"""Which pages the scores are computed over (audit.score.is_scored)."""

from dataclasses import dataclass

import pytest

from audit.score import is_scored


@dataclass(frozen=True)
class Row:
    url: str
    status_code: int = 200
    fetch_class: str = "ok"
    is_html: bool = True


@pytest.mark.parametrize(
    ("row", "scored"),
    [
        (Row("a"), True),  # 2xx HTML
        (Row("a", is_html=False), False),  # asset: cannot inflate the score
        (Row("a", 301, is_html=False), False),  # redirect hop
        (Row("a", 399), False),
        (Row("a", 404, is_html=False), True),  # error responses are bad pages
        (Row("a", 500, is_html=False), True),
        (Row("a", 403, "blocked", False), True),  # blocked-page is critical
        (Row("a", 429, "rate_limited", False), False),  # no verdict about the page
        (Row("a", 0, "error", False), False),
    ],
)
def test_which_pages_are_scored(row, scored):
    assert is_scored(row) is scored
