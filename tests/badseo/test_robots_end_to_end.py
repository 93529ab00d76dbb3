"""badseo's site closed by robots.txt (robots_closed.py), audited through the Worker's API and the
full workflow: without a verified owner it is never crawled, and the audit says robots.txt stopped
it; with one it is audited whole, and every report says robots.txt was ignored."""

from __future__ import annotations

from local_platform.runtime import LocalPlatform
from tests.badseo.robots_closed import serve_closed
from tests.badseo.test_end_to_end import audit


async def test_a_site_robots_txt_closes_is_not_audited_and_the_audit_says_why(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as site:
        report = await audit(platform, site.start_url)
        requested = set(site.requested_paths())

    record = report["audit"]
    assert (record["status"], record["error_code"]) == ("failed", "start_robots_disallowed")
    sentence = record["error_detail"]
    assert f"{site.origin}/robots.txt disallows {site.start_url}" in sentence
    assert "verify" in sentence and record["site_failure"] == sentence
    assert (record["pages_crawled"], report["pages"], report["issues"]) == (0, [], [])
    # Only robots.txt and the start URL's probe (its headers: is it there, is it HTML) were asked
    # for: no page, no sitemap.
    assert requested <= {"/", "/robots.txt"}
