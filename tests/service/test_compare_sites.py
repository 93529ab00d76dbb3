"""Comparing audits of two different sites answers with a warning, never an error (issue 27)."""

from __future__ import annotations

import pytest

from auditdb import repository
from auditdb.records import AuditRecord
from local_platform.runtime import LocalPlatform
from service.compare import compare_audits, different_sites_warning

NOW = "2026-12-01T00:00:00.000Z"

# (before start_url, before final_url, after start_url, after final_url, warned?)
SITES = [
    ("https://a.test/", None, "https://a.test/", None, False),
    ("https://a.test/", None, "https://a.test/blog/", None, False),
    ("https://a.test/", None, "https://www.a.test/", None, False),
    ("http://a.test/", "https://a.test/", "https://a.test/", None, False),
    ("http://a.test/", None, "https://A.test/", None, False),
    ("https://a.test/", None, "https://b.test/", None, True),
    ("https://a.test/", None, "https://shop.a.test/", None, True),
    ("http://127.0.0.1:8001/", None, "http://127.0.0.1:8002/", None, True),
    ("https://old.test/", "https://new.test/", "https://new.test/", None, False),
]


def audit(audit_id: str, start: str, final: str | None) -> AuditRecord:
    return AuditRecord(audit_id, start, NOW, final_url=final)


@pytest.mark.parametrize(("start_a", "final_a", "start_b", "final_b", "warned"), SITES)
def test_a_warning_exactly_when_the_sites_differ(
    start_a: str, final_a: str | None, start_b: str, final_b: str | None, warned: bool
) -> None:
    warning = different_sites_warning(audit("a", start_a, final_a), audit("b", start_b, final_b))

    assert (warning is not None) == warned
    if warning is not None:
        assert "different sites" in warning and (final_a or start_a) in warning


async def test_the_comparison_of_two_sites_carries_the_warning(platform: LocalPlatform) -> None:
    for record in (audit("a", "https://a.test/", None), audit("b", "https://b.test/", None)):
        await repository.insert_audit(platform.env.DB, record)

    status, body = await platform.request("GET", "/api/audits/a/compare/b")
    same = await compare_audits(platform.core_env, "local", "a", "a")

    assert status == 200
    assert body["comparison"]["warning"] == different_sites_warning(
        audit("a", "https://a.test/", None), audit("b", "https://b.test/", None)
    )
    assert same.warning is None
