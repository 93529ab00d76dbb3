"""auditdb.scope.ScopeOptions: what each field accepts and refuses (a sentence naming it), and that
the record crosses every boundary whole (a workflow step's parameters, the audits row)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditdb.records import AuditOptions, AuditRecord
from auditdb.scope import MAX_CONCURRENCY, MAX_LIST_URLS, AuditMode, ScopeOptions
from crawl.window import WINDOW_LIMITS
from workflow.params import AuditParams

ACCEPTED: list[dict[str, Any]] = [
    {},
    {"user_agent": "Mozilla/5.0 (compatible; StagingBot/1.0; +https://example.com/bot)"},
    {"user_agent": "a"},
    {"rate_per_s": 0.5},
    {"rate_per_s": 100.0},
    {"concurrency": 1},
    {"concurrency": MAX_CONCURRENCY},
    {"strip_params": ["sessionid", "utm_*", "ref?", "x[12]"]},
    {"subdomains": True},
    {"mode": AuditMode.LIST, "urls": ["https://example.com/a"]},
    {"mode": AuditMode.LIST, "sitemap_url": "https://example.com/sitemap.xml"},
]

REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"user_agent": ""}, "user_agent must be a valid HTTP field value"),
    ({"user_agent": " leading"}, "no space at either end"),
    ({"user_agent": "two\r\nlines"}, "no line breaks"),
    ({"user_agent": "caf\u00e9"}, "visible ASCII"),
    ({"user_agent": "x" * 513}, "at most 512 characters"),
    ({"rate_per_s": 0.0}, "rate_per_s must be more than 0"),
    ({"rate_per_s": -1.0}, "rate_per_s must be more than 0"),
    ({"rate_per_s": 101.0}, "at most 100 requests a second"),
    ({"concurrency": 0}, "concurrency must be between 1 and 40"),
    ({"concurrency": MAX_CONCURRENCY + 1}, "concurrency must be between 1 and 40"),
    ({"strip_params": ["a=b"]}, "is not a query parameter name or glob"),
    ({"strip_params": ["has space"]}, "is not a query parameter name or glob"),
    ({"strip_params": [""]}, "is not a query parameter name or glob"),
    ({"strip_params": ["p"] * 51}, "at most 50 names"),
    ({"urls": ["https://example.com/"]}, 'urls and sitemap_url are for mode "list"'),
    ({"sitemap_url": "https://example.com/s.xml"}, 'urls and sitemap_url are for mode "list"'),
    ({"mode": AuditMode.LIST}, "either urls (a non-empty list) or sitemap_url"),
    (
        {"mode": AuditMode.LIST, "urls": ["https://e.com/"], "sitemap_url": "https://e.com/s"},
        "either urls (a non-empty list) or sitemap_url",
    ),
    (
        {"mode": AuditMode.LIST, "urls": ["https://e.com/"] * (MAX_LIST_URLS + 1)},
        "at most 2000 URLs",
    ),
    ({"mode": AuditMode.LIST, "urls": ["https://e.com/" + "a" * 2100]}, "at most 2048"),
]


@pytest.mark.parametrize("fields", ACCEPTED)
def test_accepted(fields: dict[str, Any]) -> None:
    assert ScopeOptions(**fields).to_dict() == {**ScopeOptions().to_dict(), **fields}


@pytest.mark.parametrize(("fields", "sentence"), REFUSED)
def test_refused_with_a_sentence(fields: dict[str, Any], sentence: str) -> None:
    with pytest.raises(ValueError, match=None) as refused:
        ScopeOptions(**fields)
    assert sentence in str(refused.value)


def test_the_concurrency_bound_is_the_fetch_windows_maximum() -> None:
    assert WINDOW_LIMITS.maximum == MAX_CONCURRENCY


scopes = st.builds(
    ScopeOptions,
    user_agent=st.none() | st.from_regex(r"[!-~]([ !-~]{0,30}[!-~])?", fullmatch=True),
    rate_per_s=st.none() | st.floats(0.01, 100),
    concurrency=st.none() | st.integers(1, MAX_CONCURRENCY),
    strip_params=st.lists(st.from_regex(r"[a-z_*]{1,10}", fullmatch=True), max_size=3),
    subdomains=st.booleans(),
)


@given(scopes)
def test_the_scope_crosses_a_step_and_the_audits_row_whole(scope: ScopeOptions) -> None:
    options = AuditOptions(scope=scope)
    params = AuditParams("a1", "https://example.com/", options)
    assert AuditParams.from_dict(json.loads(json.dumps(params.to_dict()))) == params
    record = AuditRecord(id="a1", start_url="https://example.com/", created_at="t", options=options)
    row = {**record.to_dict(), "options_json": json.dumps(options.to_dict())}
    del row["options"]
    assert AuditRecord.from_row(row).options.scope == scope


def test_a_list_scope_round_trips() -> None:
    scope = ScopeOptions(mode=AuditMode.LIST, urls=["https://example.com/a", "https://e.com/b"])
    assert ScopeOptions.from_dict(json.loads(json.dumps(scope.to_dict()))) == scope


def test_an_options_row_written_before_the_scope_existed_reads_as_the_defaults() -> None:
    assert AuditOptions.from_dict({"max_pages": 10}).scope == ScopeOptions()
