"""The committed ARIA data file is exactly what scripts/build_aria_data.py builds from the
axe-core in node_modules (skipped, saying why, without it)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from a11y.aria import DATA_PATH, aria
from a11y.rule_ids import RenderedRuleId, RuleId

ROOT = Path(__file__).resolve().parents[2]


def _build() -> str:
    spec = importlib.util.spec_from_file_location(
        "build_aria_data", ROOT / "scripts/build_aria_data.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built: str = module.build()
    return built


def test_committed_data_is_what_the_script_builds() -> None:
    if not (ROOT / "node_modules/axe-core/axe.js").is_file() or shutil.which("node") is None:
        pytest.skip("needs node and node_modules/axe-core (npm ci) to rebuild the data")
    assert DATA_PATH.read_text(encoding="utf-8") == _build()


def test_data_covers_every_rule_and_names_its_source() -> None:
    data = aria()
    assert data.source == "axe-core 4.14.1"
    assert set(data.rules) == {str(rule) for rule in (*RuleId, *RenderedRuleId)}
    assert data.rules["color-contrast"]["wcag"] == ["1.4.3"]
    assert data.rules["target-size"]["level"] == "wcag22aa"
    assert data.rules["image-alt"]["wcag"] == ["1.1.1"]
    assert data.rules["image-alt"]["impact"] == "critical"
    assert data.rules["heading-order"]["level"] == "best-practice"


def test_roles_and_attributes_are_wai_aria_1_2() -> None:
    data = aria()
    assert data.roles["listitem"]["requiredContext"] == ["list"]
    assert data.roles["checkbox"]["requiredAttrs"] == ["aria-checked"]
    assert data.roles["button"]["nameFromContent"] is True
    assert data.attributes["aria-hidden"]["type"] == "nmtoken"
    assert "aria-label" in data.global_attributes
    assert data.implicit_roles["ul"] == "list"
    assert "en" in data.languages and "xx" not in data.languages


def test_every_id_reference_attribute_is_an_aria_one() -> None:
    """duplicate-id-aria reads the references of the elements with an `aria-*` attribute only
    (a11y.rules_document._accessible_refs, through Document.with_aria)."""
    references = [
        name for name, spec in aria().attributes.items() if spec.get("type") in ("idref", "idrefs")
    ]
    assert references
    assert all(name.startswith("aria-") for name in references)
