"""WAI-ARIA 1.2 roles and attributes and HTML elements' ARIA semantics, as axe-core 4.14.1
encodes them (data/aria.json, built by scripts/build_aria_data.py; data/README.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Final, TypedDict, cast

DATA_PATH: Final = Path(__file__).parent / "data" / "aria.json"


class RoleSpec(TypedDict, total=False):
    type: str
    requiredContext: list[str]
    requiredOwned: list[str]
    requiredAttrs: list[str]
    allowedAttrs: list[str]
    prohibitedAttrs: list[str]
    nameFromContent: bool
    childrenPresentational: bool
    accessibleNameRequired: bool
    deprecated: bool
    superclassRole: list[str]


class AttrSpec(TypedDict, total=False):
    type: str
    values: list[str]
    allowEmpty: bool
    global_: bool
    deprecated: bool
    unsupported: bool
    minValue: int


class RuleMeta(TypedDict):
    impact: str
    wcag: list[str]
    level: str
    help: str


# The element entries keep axe-core's shape (variants with `matches` conditions), read by
# a11y.roles; a TypedDict of every key would only restate the JSON.
ElementSpec = dict[str, object]


class AriaData:
    """The parsed data file."""

    def __init__(self, raw: dict[str, object]) -> None:
        self.source = cast(str, raw["source"])
        self.roles = cast(dict[str, RoleSpec], raw["roles"])
        self.attributes = cast(dict[str, dict[str, object]], raw["attributes"])
        self.elements = cast(dict[str, ElementSpec], raw["elements"])
        self.implicit_roles = cast(dict[str, object], raw["implicitRoles"])
        self.languages = frozenset(cast(list[str], raw["languages"]))
        self.autocomplete = cast(dict[str, list[str]], raw["autocomplete"])
        self.rules = cast(dict[str, RuleMeta], raw["rules"])
        self.global_attributes = frozenset(
            name for name, spec in self.attributes.items() if spec.get("global")
        )


@cache
def aria() -> AriaData:
    """The data, read once per process."""
    return AriaData(json.loads(DATA_PATH.read_text(encoding="utf-8")))


def role_spec(role: str) -> RoleSpec | None:
    return aria().roles.get(role)
