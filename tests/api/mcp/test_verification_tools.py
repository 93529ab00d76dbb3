"""The MCP tools for host verification, and run_site_audit's ignore_robots: the same rules as
/api/verifications and POST /api/audits, over badseo's site closed by robots.txt."""

from __future__ import annotations

import pytest

from local_platform.runtime import LocalPlatform
from tests.api.mcp.test_transport import structured, tool
from tests.badseo.robots_closed import serve_closed


async def test_ignore_robots_is_refused_until_the_host_is_verified(platform: LocalPlatform) -> None:
    with serve_closed() as site:
        refused = await tool(platform, "run_site_audit", url=site.start_url, ignore_robots=True)
        assert refused["isError"] is True
        assert "ignore_robots needs a verified host" in refused["content"][0]["text"]

        made = structured(await tool(platform, "verify_host", host=site.host, method="file"))
        verification = made["verification"]
        assert (verification["status"], verification["host"]) == ("pending", site.host)
        assert verification["proof"]["value"] == verification["token"]
        assert verification["proof"]["where"].endswith("/.well-known/siteaudit-verification.txt")
        assert "owner" not in verification

        checked = structured(
            await tool(platform, "check_host_verification", verification_id=verification["id"])
        )["verification"]
        assert checked["status"] == "failed" and "answered 404" in checked["reason"]

        site.publish("file", verification["token"])
        checked = structured(
            await tool(platform, "check_host_verification", verification_id=verification["id"])
        )["verification"]
        assert checked["status"] == "verified"
        listed = structured(await tool(platform, "list_host_verifications"))["verifications"]
        assert [v["id"] for v in listed] == [verification["id"]]

        started = await tool(platform, "run_site_audit", url=site.start_url, ignore_robots=True)
        audit = structured(started)["audit"]
        assert audit["options"]["ignore_robots"] is True
        await platform.wait_for_workflow(audit["id"], timeout_s=120)

        deleted = structured(
            await tool(platform, "delete_host_verification", verification_id=verification["id"])
        )
        assert deleted == {"deleted": verification["id"]}
        again = await tool(platform, "run_site_audit", url=site.start_url, ignore_robots=True)
        assert again["isError"] is True


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"host": "example.com/path", "method": "file"}, "host must be a host name"),
        ({"host": "example.com", "method": "carrier-pigeon"}, "method"),
        ({"host": "10.0.0.1", "method": "file"}, "private or reserved"),
    ],
)
async def test_a_host_or_method_that_cannot_be_verified_is_refused(
    platform: LocalPlatform, arguments: dict[str, str], words: str
) -> None:
    refused = await tool(platform, "verify_host", **arguments)
    assert refused["isError"] is True and words in refused["content"][0]["text"]
