"""The route table's matchers, compiled from its templates: a parameter is one id segment, a
collection's root takes a trailing slash, and a path's methods come in the table's order."""

from __future__ import annotations

import pytest

from api.routes import ROUTES
from api.routing import Access, compile_template, match


@pytest.mark.parametrize(
    ("template", "path", "args"),
    [
        ("/api/audits", "/api/audits", {}),
        ("/api/audits", "/api/audits/", {}),
        ("/api/audits/{audit_id}", "/api/audits/a-1_B", {"audit_id": "a-1_B"}),
        ("/api/audits/{audit_id}", "/api/audits/a-1/", None),
        ("/api/audits/{audit_id}", "/api/audits/a.b", None),
        ("/api/audits/{audit_id}", "/api/audits/" + "a" * 101, None),
        ("/api/audits/{audit_id}/pages.csv", "/api/audits/a/pages.csv", {"audit_id": "a"}),
        ("/api/audits/{audit_id}/pages.csv", "/api/audits/a/pagesXcsv", None),
        ("/api/openapi.json", "/api/openapi.json/", None),
        (
            "/api/audits/{audit_id}/compare/{other_id}",
            "/api/audits/a/compare/b",
            {"audit_id": "a", "other_id": "b"},
        ),
    ],
)
def test_a_template_compiles_to_its_matcher(
    template: str, path: str, args: dict[str, str] | None
) -> None:
    found = compile_template(template).fullmatch(path)

    assert (None if found is None else found.groupdict()) == args


@pytest.mark.parametrize(
    ("path", "methods"),
    [
        ("/api/audits", ["GET", "POST"]),
        ("/api/audits/a", ["GET", "DELETE"]),
        ("/api/monitors/m", ["GET", "PATCH", "DELETE"]),
        ("/api/audits/a/report.html", ["GET"]),
        ("/api/nothing", None),
    ],
)
def test_a_path_finds_every_method_of_its_template_in_table_order(
    path: str, methods: list[str] | None
) -> None:
    keyed = [route for route in ROUTES if route.access is Access.KEY]
    found = match(keyed, path)

    assert (None if found is None else list(found[0])) == methods
