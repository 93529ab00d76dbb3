"""The SARIF log: valid against the OASIS SARIF 2.1.0 schema, one rule per catalogue entry, one
result per issue, page URLs that resolve, fingerprints that survive a re-run."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

import jsonschema
import pytest

from audit.catalogue import CATALOGUE, IssueType, doc_url
from service.sarif import IDENTITY_KEY, sarif_chunks
from tests.service.report_records import ISSUES, audit, issue, joined, pages_of

SCHEMA = json.loads(
    (Path(__file__).parents[1] / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text()
)
VALIDATOR = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


async def sarif_of(issues=ISSUES, page_size: int = 2, **audit_fields) -> dict:
    record = audit(**audit_fields)
    text = await joined(sarif_chunks(record, pages_of(issues, page_size), "0.1.0"))
    return json.loads(text)


def assert_valid(log: dict) -> None:
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


@pytest.mark.parametrize("page_size", [1, 2, 500])
@pytest.mark.parametrize("status", ["completed", "failed", "cancelled"])
async def test_the_log_is_valid_sarif_whatever_the_paging_and_outcome(status, page_size):
    log = await sarif_of(page_size=page_size, status=status, error_code="oom")

    assert_valid(log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    assert len(log["runs"][0]["results"]) == len(ISSUES)


async def test_an_audit_without_issues_is_a_valid_log_with_no_results():
    log = await sarif_of(issues=[])

    assert_valid(log)
    assert log["runs"][0]["results"] == []


async def test_the_schema_check_is_live_it_refuses_a_broken_log():
    log = await sarif_of()
    log["runs"][0]["results"][0]["level"] = "critical"
    del log["runs"][0]["tool"]["driver"]["name"]

    assert len(list(VALIDATOR.iter_errors(log))) == 2


async def test_every_catalogue_entry_is_a_rule_with_help_and_a_level():
    driver = (await sarif_of())["runs"][0]["tool"]["driver"]
    rules = {r["id"]: r for r in driver["rules"]}

    assert (driver["name"], driver["version"]) == ("siteaudit", "0.1.0")
    assert list(rules) == [t.value for t in CATALOGUE]
    missing_title = rules["missing-title"]
    d = CATALOGUE[IssueType.MISSING_TITLE]
    assert missing_title["name"] == "MissingTitle"
    assert missing_title["shortDescription"]["text"] == d.title
    assert missing_title["fullDescription"]["text"] == d.explanation
    assert f"How to fix: {d.how_to_fix}" in missing_title["help"]["text"]
    assert missing_title["helpUri"] == doc_url(IssueType.MISSING_TITLE)
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
    assert (levels["missing-title"], levels["thin-content"], levels["title-too-long"]) == (
        "error",
        "warning",
        "note",
    )


@pytest.mark.parametrize("d", list(CATALOGUE.values()), ids=str)
def test_rule_texts_fit_githubs_limits(d):
    # GitHub code scanning: descriptions at most 1024 characters.
    assert len(d.title) <= 1024 and len(d.explanation) <= 1024


async def test_results_carry_rule_level_message_and_the_page_as_location():
    run = (await sarif_of())["runs"][0]
    first, *_, unknown = run["results"]
    bases = run["originalUriBaseIds"]

    assert (first["ruleId"], first["level"], first["ruleIndex"]) == (
        "broken-internal-link",
        "error",
        list(CATALOGUE).index(IssueType.BROKEN_INTERNAL_LINK),
    )
    assert first["message"]["text"] == (
        "Broken internal link: https://www.shop.test/ -> https://www.shop.test/gone"
    )
    assert first["properties"]["details"] == {"status": 404}
    assert (unknown["ruleId"], unknown["level"], "ruleIndex" in unknown) == (
        "a-type-from-a-newer-catalogue",
        "note",
        False,
    )
    for found, source in zip(run["results"], ISSUES, strict=True):
        (location,) = found["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert not artifact["uri"].startswith(("http:", "https:"))  # GitHub refuses those
        assert urljoin(bases[artifact["uriBaseId"]]["uri"], artifact["uri"]) == source.page_url
        assert location["logicalLocations"][0]["fullyQualifiedName"] == source.page_url
        assert location["physicalLocation"]["region"] == {"startLine": 1}


async def test_the_audits_origin_is_the_site_base_and_other_origins_get_their_own():
    run = (await sarif_of())["runs"][0]

    assert run["originalUriBaseIds"] == {
        "SITE": {"uri": "https://www.shop.test/"},
        "SITE2": {"uri": "http://shop.test/"},
    }
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    ]
    assert uris[0] == "./" and uris[2] == "b?x=1&y=%3C2%3E" and uris[5] == "./e:colon"
    assert run["automationDetails"]["id"] == "siteaudit/www.shop.test/"


async def test_characters_a_uri_cannot_hold_are_percent_encoded():
    # WHATWG URL parsing leaves some of them bare in paths and queries.
    bare = issue("missing-h1", "warning", "https://www.shop.test/a|b[1]^{x}?q=a b")
    log = await sarif_of(issues=[bare])
    location = log["runs"][0]["results"][0]["locations"][0]

    assert_valid(log)
    assert (
        location["physicalLocation"]["artifactLocation"]["uri"] == "a%7Cb%5B1%5D%5E%7Bx%7D?q=a%20b"
    )
    assert location["logicalLocations"][0]["fullyQualifiedName"] == bare.page_url


async def test_fingerprints_follow_the_issue_identity_not_the_run():
    before = (await sarif_of())["runs"][0]["results"]
    again = (await sarif_of(id="a2", page_size=1))["runs"][0]["results"]
    prints = [r["partialFingerprints"][IDENTITY_KEY] for r in before]

    assert prints == [r["partialFingerprints"][IDENTITY_KEY] for r in again]
    assert len(set(prints)) == len(ISSUES)  # the two broken links differ only by their page
    assert all(
        r["partialFingerprints"]["primaryLocationLineHash"] == p
        for r, p in zip(before, prints, strict=True)
    )
    other_target = issue(
        "broken-internal-link", "critical", "https://www.shop.test/", "https://www.shop.test/x"
    )
    moved = (await sarif_of(issues=[other_target]))["runs"][0]["results"][0]
    assert moved["partialFingerprints"][IDENTITY_KEY] != prints[0]


@pytest.mark.parametrize(
    ("status", "fields", "successful", "note"),
    [
        ("completed", {}, True, None),
        (
            "failed",
            {"error_code": "oom", "failed_phase": "crawling"},
            False,
            "audit failed (oom in crawling); results are partial",
        ),
        ("cancelled", {}, False, "audit cancelled after 12 pages; results are partial"),
        (
            "failed",
            {
                "error_code": "start_not_html",
                "error_detail": "https://shop.test/a.css answered with text/css, not an HTML page.",
                "failed_phase": "discovery",
            },
            False,
            "the audit failed: the start URL is not an HTML page (start_not_html): "
            "https://shop.test/a.css answered with text/css, not an HTML page.",
        ),
    ],
)
async def test_the_invocation_says_whether_the_audit_completed(status, fields, successful, note):
    run = (await sarif_of(status=status, **fields))["runs"][0]
    (invocation,) = run["invocations"]

    assert invocation["executionSuccessful"] is successful
    notes = [n["message"]["text"] for n in invocation.get("toolExecutionNotifications", [])]
    assert notes == ([note] if note else [])
    assert run["properties"]["status"] == status
