"""The catalogue as data: completeness, the original's severities and thresholds, the doc."""

from pathlib import Path

import pytest

from audit import catalogue
from audit.catalogue import (
    CATALOGUE,
    IssueType,
    Scope,
    Severity,
    descriptor,
    maybe_descriptor,
    render_markdown,
)
from audit.rules_a11y import ISSUE_OF_RULE

DOCS = Path(__file__).resolve().parents[2] / "docs" / "issues.md"

# docs/original-system.md §1.5, newest registry plus the branch check we implement.
ORIGINAL = [
    ("blocked-page", "critical", "page"),
    ("server-error", "critical", "page"),
    ("broken-internal-link", "critical", "cross-page"),
    ("missing-title", "critical", "page"),
    ("javascript-rendering-suspected", "warning", "page"),
    ("rate-limited-page", "warning", "page"),
    ("crawl-rate-limited", "warning", "crawl"),
    ("broken-page", "warning", "page"),
    ("duplicate-title", "warning", "cross-page"),
    ("duplicate-meta-description", "warning", "cross-page"),
    ("duplicate-content", "warning", "cross-page"),
    ("missing-meta-description", "warning", "page"),
    ("missing-h1", "warning", "page"),
    ("multiple-h1", "warning", "page"),
    ("redirect-chain", "warning", "cross-page"),
    ("redirect-loop", "warning", "cross-page"),
    ("canonical-conflict", "warning", "page"),
    ("thin-content", "warning", "page"),
    ("images-missing-alt", "warning", "page"),
    ("orphan-page", "warning", "cross-page"),
    ("no-outgoing-links", "warning", "page"),
    ("title-too-long", "info", "page"),
    ("title-too-short", "info", "page"),
    ("meta-description-too-long", "info", "page"),
    ("meta-description-too-short", "info", "page"),
    ("heading-order-skip", "info", "page"),
    ("slow-response", "info", "cross-page"),
    ("noindex-page", "info", "page"),
    ("canonicalized-page", "info", "page"),
    ("deep-page", "info", "page"),
    ("invalid-structured-data", "warning", "page"),
]


@pytest.mark.parametrize(("issue_id", "severity", "scope"), ORIGINAL)
def test_original_issue_keeps_its_id_severity_and_scope(issue_id, severity, scope):
    d = descriptor(IssueType(issue_id))
    assert (d.severity, d.scope) == (Severity(severity), Scope(scope))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TITLE_MAX_CHARS", 60),
        ("TITLE_MIN_CHARS", 10),
        ("META_DESCRIPTION_MAX_CHARS", 160),
        ("META_DESCRIPTION_MIN_CHARS", 70),
        ("THIN_CONTENT_WORDS", 150),
        ("SLOW_RESPONSE_MS", 1500),
        ("DEEP_PAGE_DEPTH", 5),
        ("DUPLICATE_GROUP_SAMPLE", 3),
        ("HSTS_MIN_MAX_AGE_S", 15_768_000),
        ("HTML_MAX_BYTES", 2 * 1024 * 1024),
    ],
)
def test_threshold_constants_match_their_sources(name, value):
    assert getattr(catalogue, name) == value


def test_every_issue_type_has_exactly_its_own_descriptor():
    assert set(CATALOGUE) == set(IssueType)
    assert all(key is d.id for key, d in CATALOGUE.items())


def test_thresholds_cited_by_descriptors_equal_the_module_constants():
    for d in CATALOGUE.values():
        for t in d.thresholds:
            assert getattr(catalogue, t.name) == t.value, (d.id, t.name)
            assert t.unit and t.source


def test_severity_sort_order_is_critical_warning_info():
    assert sorted(Severity, key=lambda s: s.order) == [
        Severity.CRITICAL,
        Severity.WARNING,
        Severity.INFO,
    ]
    assert [s.order for s in Severity] == [0, 1, 2]


def test_unknown_ids_resolve_to_no_descriptor():
    assert maybe_descriptor("schemamap-missing") is None
    assert maybe_descriptor("missing-title") is CATALOGUE[IssueType.MISSING_TITLE]


def test_descriptor_rejects_empty_texts():
    with pytest.raises(ValueError, match="must not be empty"):
        catalogue.IssueDescriptor(
            IssueType.MISSING_TITLE,
            Severity.INFO,
            Scope.PAGE,
            "t",
            "",
            "e",
            "f",
            "s",
            category=catalogue.Category.ON_PAGE,
        )


def test_committed_docs_equal_the_generated_markdown():
    assert DOCS.read_text(encoding="utf-8") == render_markdown()


def test_markdown_has_one_row_per_issue_with_critical_first():
    rows = [line for line in render_markdown().splitlines() if line.startswith("| <a id=")]
    assert len(rows) == len(IssueType)
    severities = [row.split(" | ")[1] for row in rows]
    assert severities == sorted(severities, key=lambda s: Severity(s).order)
    assert all("<title>" not in row for row in rows)  # escaped for Markdown


@pytest.mark.parametrize("issue_type", list(IssueType))
def test_every_issue_links_to_an_anchor_on_its_own_row(issue_type):
    url = catalogue.doc_url(issue_type)
    anchor = url.partition("#")[2]

    assert url.startswith("https://") and anchor == issue_type.value
    (row,) = [line for line in render_markdown().splitlines() if f'<a id="{anchor}">' in line]
    assert row.startswith(f'| <a id="{anchor}"></a>`{issue_type}` |')


def test_cli_prints_markdown_and_rejects_other_arguments(capsys):
    assert catalogue.main(["--markdown"]) == 0
    assert capsys.readouterr().out == render_markdown()
    assert catalogue.main([]) == 2


SRC = Path(__file__).resolve().parents[2] / "src" / "audit"


@pytest.mark.parametrize(
    ("scope", "modules"),
    [
        (
            Scope.PAGE,
            [
                "rules_status.py",
                "rules_head.py",
                "rules_content.py",
                "rules_field.py",
                "rules_social.py",
                "rules_security.py",
                "rendering_rules.py",
                "rules_structured.py",
            ],
        ),
        (Scope.CROSS_PAGE, ["cross_page.py", "external_links.py", "timing.py"]),
        (Scope.LIGHTHOUSE, ["../lighthouse/vitals.py"]),
    ],
)
def test_every_catalogued_issue_has_a_rule_that_emits_it(scope, modules):
    source = "".join((SRC / name).read_text(encoding="utf-8") for name in modules)
    # The accessibility types are emitted through one table, one per rule
    # (audit.rules_a11y.ISSUE_OF_RULE; tests/audit/test_a11y_catalogue.py).
    table = set(ISSUE_OF_RULE.values())
    missing = [
        t
        for t in IssueType
        if CATALOGUE[t].scope is scope and f"IssueType.{t.name}" not in source and t not in table
    ]
    assert missing == []
