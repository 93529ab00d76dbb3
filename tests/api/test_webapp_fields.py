"""The web app's advanced fields (src/api/static/index.html, template #advanced-fields) against
the API's request models (src/api/schemas.py): each control names a field the API has, in every
body that takes it, and carries the API's own limits as its min, max and maxlength, so a limit
changed in one place and not the other fails here."""

from __future__ import annotations

from xml.etree.ElementTree import Element

import annotated_types
import html5lib
import pytest
from pydantic import BaseModel

from api import webapp
from api.schemas import (
    BasicAuthBody,
    CreateAuditBody,
    CreateMonitorBody,
    CredentialsBody,
    UpdateMonitorBody,
)

# Controls that are parts of the credentials block, and the model field each fills.
CREDENTIAL_CONTROLS: dict[str, tuple[type[BaseModel], str]] = {
    "basic_user": (BasicAuthBody, "user"),
    "basic_password": (BasicAuthBody, "password"),
    **{
        name: (CredentialsBody, name)
        for name in CredentialsBody.model_fields
        if name != "basic_auth"
    },
}
# The edit form's choice for stored credentials: keep (leave them out), replace, remove (null).
UI_ONLY = {"credentials_action"}
SCOPE_BODIES = (CreateAuditBody, CreateMonitorBody, UpdateMonitorBody)
STRINGS = (str, str | None)


def _controls() -> dict[str, Element]:
    page = html5lib.parse(webapp.asset("/").body, namespaceHTMLElements=False)
    template = page.find(".//template[@id='advanced-fields']")
    assert template is not None
    found: dict[str, Element] = {}
    for tag in ("input", "textarea", "select"):
        for control in template.iter(tag):
            found.setdefault(control.get("name", ""), control)
    return found


CONTROLS = _controls()


def _field(name: str) -> list[tuple[type[BaseModel], str]]:
    if name in CREDENTIAL_CONTROLS:
        return [CREDENTIAL_CONTROLS[name]]
    return [(body, name) for body in SCOPE_BODIES]


def _limits(model: type[BaseModel], name: str) -> dict[str, str]:
    """The HTML attributes the field's constraints make: ge/gt -> min, le -> max, max_length of a
    string -> maxlength (a list's or an object's max_length counts items, which no attribute
    says)."""
    field = model.model_fields[name]
    limits: dict[str, str] = {}
    for constraint in field.metadata:
        if isinstance(constraint, annotated_types.Ge):
            limits["min"] = f"{constraint.ge:g}"
        elif isinstance(constraint, annotated_types.Gt):
            limits["min"] = f"{constraint.gt:g}"  # HTML has no exclusive minimum
        elif isinstance(constraint, annotated_types.Le):
            limits["max"] = f"{constraint.le:g}"
        elif isinstance(constraint, annotated_types.MaxLen) and field.annotation in STRINGS:
            limits["maxlength"] = str(constraint.max_length)
    return limits


def test_every_control_is_a_field_of_the_api() -> None:
    unknown = [
        name
        for name in CONTROLS
        if name not in UI_ONLY
        and not all(name in model.model_fields for model, name in _field(name))
    ]
    assert unknown == []
    assert set(CONTROLS) - UI_ONLY - set(CREDENTIAL_CONTROLS) == {
        "mode", "urls", "sitemap_url", "max_depth", "include", "exclude", "strip_params",
        "subdomains", "rate_per_s", "concurrency", "user_agent", "ignore_robots",
    }  # fmt: skip


@pytest.mark.parametrize("name", sorted(set(CONTROLS) - UI_ONLY))
def test_each_control_carries_the_apis_limits(name: str) -> None:
    control = CONTROLS[name]
    for model, field in _field(name):
        expected = _limits(model, field)
        shown = {attr: control.get(attr) for attr in expected}
        assert shown == expected, f"{name} against {model.__name__}.{field}"
