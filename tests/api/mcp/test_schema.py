"""The tools' input schemas: valid JSON Schema 2020-12, and `check` agrees with a full validator
on every argument object of the table."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from api.mcp.schema import InvalidArguments, check
from api.mcp.tools import TOOLS
from common.wire import JsonObject


@pytest.mark.parametrize("name", list(TOOLS))
def test_every_input_schema_is_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(TOOLS[name].input_schema)


# (tool, arguments, the argument the refusal names; None: accepted)
CASES: list[tuple[str, Any, str | None]] = [
    ("run_site_audit", {"url": "https://a.test/"}, None),
    (
        "run_site_audit",
        {"url": "https://a.test/", "max_pages": 10, "include": ["/blog/", "*.pdf$"]},
        None,
    ),
    ("run_site_audit", {"url": "https://a.test/", "max_pages": 10.0}, None),  # 10.0 is an integer
    # `url` may be left out in list mode; the tool itself refuses it missing otherwise
    # (tests/scope/test_scope_interfaces.py).
    ("run_site_audit", {"mode": "list", "urls": ["https://example.com/a"]}, None),
    ("run_site_audit", {"rate_per_s": 0}, "rate_per_s"),
    ("run_site_audit", {"concurrency": 41}, "concurrency"),
    ("run_site_audit", {"mode": "sideways"}, "mode"),
    ("run_site_audit", {"url": ""}, "url"),
    ("run_site_audit", {"url": "x" * 2049}, "url"),
    ("run_site_audit", {"url": 5}, "url"),
    ("run_site_audit", {"url": "https://a.test/", "max_pages": 0}, "max_pages"),
    ("run_site_audit", {"url": "https://a.test/", "max_pages": 100_001}, "max_pages"),
    ("run_site_audit", {"url": "https://a.test/", "max_pages": 10.5}, "max_pages"),
    ("run_site_audit", {"url": "https://a.test/", "max_pages": True}, "max_pages"),
    ("run_site_audit", {"url": "https://a.test/", "max_pages": "10"}, "max_pages"),
    ("run_site_audit", {"url": "https://a.test/", "include": ["blog"]}, "include[0]"),
    ("run_site_audit", {"url": "https://a.test/", "exclude": ["/x"] * 51}, "exclude"),
    ("run_site_audit", {"url": "https://a.test/", "include": "/blog/"}, "include"),
    ("run_site_audit", {"url": "https://a.test/", "runLighthouse": True}, "runLighthouse"),
    ("run_site_audit", {"url": "https://a.test/", "external_budget_s": 5}, None),
    ("run_site_audit", {"url": "https://a.test/", "external_budget_s": 0}, "external_budget_s"),
    ("run_site_audit", {"url": "https://a.test/", "external_budget_s": 3601}, "external_budget_s"),
    ("get_audit_status", {}, None),
    ("get_audit_status", {"audit_id": "a-1_B"}, None),
    ("get_audit_status", {"audit_id": "a/1"}, "audit_id"),
    ("get_audit_status", {"audit_id": None}, "audit_id"),
    (
        "get_audit_issues",
        {"severity": "warning", "issue_type": "missing-title", "limit": 1000},
        None,
    ),
    ("get_audit_issues", {"severity": "fatal"}, "severity"),
    ("get_audit_issues", {"issue_type": "no-such-type"}, "issue_type"),
    ("get_audit_issues", {"limit": 1001}, "limit"),
    ("get_audit_issues", {"limit": 0}, "limit"),
    ("get_audit_issues", {"limit": float("inf")}, "limit"),
    ("get_audit_issues", {"limit": 1e300}, "limit"),
    ("get_audit_issues", {"limit": 5000.0}, "limit"),
    ("get_audit_pages", {"status_code": 404, "status_class": "4xx", "indexable": False}, None),
    ("get_audit_pages", {"has_issue": "thin-content", "url_contains": "/blog/", "limit": 5}, None),
    ("get_audit_pages", {"status_code": 99}, "status_code"),
    ("get_audit_pages", {"status_class": "6xx"}, "status_class"),
    ("get_audit_pages", {"indexable": "yes"}, "indexable"),
    ("get_audit_pages", {"indexable": 1}, "indexable"),
    ("get_audit_pages", {"url_contains": ""}, "url_contains"),
    ("get_audit_pages", {"structured_type": "Product", "eligible_feature": "faq"}, None),
    ("get_audit_pages", {"structured_finding": "missing-required"}, None),
    ("get_audit_pages", {"structured_type": ""}, "structured_type"),
    ("get_audit_pages", {"eligible_feature": "rich"}, "eligible_feature"),
    ("get_audit_pages", {"structured_finding": "error"}, "structured_finding"),
    # The pages a static accessibility rule failed on: its issue type (docs/accessibility.md).
    ("get_audit_pages", {"has_issue": "a11y-image-alt"}, None),
    ("get_audit_pages", {"has_issue": "a11y-not-a-rule"}, "has_issue"),
    ("get_audit_actions", {}, None),
    ("get_audit_actions", {"audit_id": "a-1", "limit": 100}, None),
    ("get_audit_actions", {"limit": 101}, "limit"),
    ("get_audit_actions", {"limit": 0}, "limit"),
]


@pytest.mark.parametrize(("tool", "arguments", "named"), CASES)
def test_check_refuses_what_the_schema_refuses_and_names_the_argument(
    tool: str, arguments: JsonObject, named: str | None
) -> None:
    schema = TOOLS[tool].input_schema
    valid = jsonschema.Draft202012Validator(schema).is_valid(arguments)
    assert valid is (named is None)
    if named is None:
        check(schema, arguments)
        return
    with pytest.raises(InvalidArguments) as caught:
        check(schema, arguments)
    assert str(caught.value).startswith(named) or repr(named) in str(caught.value)


def test_arguments_must_be_an_object() -> None:
    with pytest.raises(InvalidArguments, match="arguments must be an object, not an array"):
        check(TOOLS["get_audit_status"].input_schema, [])
