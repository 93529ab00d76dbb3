"""The web app marks the rules only axe-core decides on a rendered page ("rendered page" beside
them in the report's accessibility disclosure) from its own list, src/api/static/app.js's
`A11Y_RENDERED_ONLY`: it must be a11y.rule_ids.RenderedRuleId, so a rule added to one and not the
other fails here."""

from __future__ import annotations

import re
from pathlib import Path

from a11y.rule_ids import RenderedRuleId

APP_JS = Path(__file__).resolve().parents[2] / "src" / "api" / "static" / "app.js"
_LIST = re.compile(r"const A11Y_RENDERED_ONLY = new Set\(\[(?P<ids>[^\]]*)\]\);")


def test_the_app_s_rendered_only_rules_are_the_vocabulary() -> None:
    found = _LIST.search(APP_JS.read_text(encoding="utf-8"))
    assert found is not None, "app.js has no A11Y_RENDERED_ONLY list"
    ids = re.findall(r'"([a-z0-9-]+)"', found["ids"])
    assert len(ids) == len(set(ids))
    assert set(ids) == {rule.value for rule in RenderedRuleId}
