"""service.verification and workflow.robots_step on the local platform: the dns method through
the API and a DoH double, "could not check" never failing a verification, and a verified host
that cannot lend its proof to the host its start URL redirects to."""

from __future__ import annotations

import pytest

from auditdb.verifications import (
    VERIFIED_MAX_RATE,
    RobotsDecision,
    VerificationMethod,
    max_rate_for,
)
from exposure.dns_records import RecordType
from local_platform.runtime import LocalPlatform
from tests.badseo.robots_closed import WELL_KNOWN, serve_closed
from tests.badseo.test_end_to_end import MAX_PAGES
from tests.exposure.dns_helpers import body, doh_double, quoted
from tests.support.site_server import Reply, serve_site
from workflow.robots_step import holds_for, redirected_elsewhere


async def create(platform: LocalPlatform, host: str, method: str) -> dict[str, object]:
    status, answer = await platform.request(
        "POST", "/api/verifications", {"host": host, "method": method}
    )
    assert status == 201, answer
    verification: dict[str, object] = answer["verification"]
    return verification


async def check(platform: LocalPlatform, verification_id: object) -> dict[str, object]:
    status, answer = await platform.request("POST", f"/api/verifications/{verification_id}/check")
    assert status == 200, answer
    checked: dict[str, object] = answer["verification"]
    return checked


async def test_the_dns_method_verifies_through_the_deployment_s_resolver(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = await create(platform, "Owned.Example", "dns")
    assert made["host"] == "owned.example"
    proof = made["proof"]
    assert isinstance(proof, dict)
    assert proof["where"] == "_siteaudit.owned.example"
    assert proof["value"] == f"siteaudit-verification={made['token']}"
    zone = {
        ("_siteaudit.owned.example", "TXT"): body(
            "_siteaudit.owned.example", RecordType.TXT, quoted(str(proof["value"]))
        )
    }
    with doh_double(zone) as doh:
        monkeypatch.setattr(platform.env, "VERIFICATION_DOH_URL", doh.url("/dns-query"), False)
        checked = await check(platform, made["id"])
    assert checked["status"] == "verified"
    assert checked["reason"] == (
        f'the TXT record "siteaudit-verification={made["token"]}" is at _siteaudit.owned.example'
    )
    assert checked["verified_at"] == checked["checked_at"]


async def test_a_resolver_that_fails_leaves_the_verification_as_it_was(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = await create(platform, "owned.example", "dns")
    with serve_site({"/dns-query": Reply(502, b"bad gateway")}) as down:
        monkeypatch.setattr(platform.env, "VERIFICATION_DOH_URL", down.url("/dns-query"), False)
        checked = await check(platform, made["id"])
    assert checked["status"] == "pending"
    reason = str(checked["reason"])
    assert reason.startswith("could not check: the DNS-over-HTTPS resolver ")
    assert "resolver answered HTTP 502" in reason


async def test_asking_again_keeps_the_token_and_a_new_method_is_pending_again(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as site:
        made = await create(platform, site.host, "file")
        site.publish("file", str(made["token"]))
        assert (await check(platform, made["id"]))["status"] == "verified"
        same = await create(platform, site.host, "file")
        assert (same["id"], same["token"], same["status"]) == (
            made["id"],
            made["token"],
            "verified",
        )
        moved = await create(platform, site.host, "meta")
        assert (moved["token"], moved["method"], moved["status"]) == (
            made["token"],
            "meta",
            "pending",
        )


async def test_a_verified_host_cannot_lend_its_proof_to_the_host_it_redirects_to(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as closed:
        routes = {"/": Reply(302, b"", {"location": closed.start_url})}
        with serve_site(routes) as redirector:
            host = redirector.origin.removeprefix("http://")
            made = await create(platform, host, "file")
            routes[WELL_KNOWN] = Reply(200, str(made["token"]).encode())
            assert (await check(platform, made["id"]))["status"] == "verified"
            request = {"url": redirector.url("/"), "max_pages": MAX_PAGES, "ignore_robots": True}
            status, answer = await platform.request("POST", "/api/audits", request)
            assert status == 201, answer
            audit_id = answer["audit"]["id"]
            await platform.wait_for_workflow(audit_id, timeout_s=120)
            _, answer = await platform.request("GET", f"/api/audits/{audit_id}")
            requested = set(closed.requested_paths())

    audit = answer["audit"]
    assert (audit["status"], audit["error_code"]) == ("failed", "start_robots_disallowed")
    assert audit["robots_override"] == {
        "ignored": False,
        "note": "robots.txt was obeyed, not ignored as asked: the start URL redirects to "
        f"{closed.host}, and only {host} is verified",
        "host": host,
        "method": None,
        "verified_at": None,
        "verified": False,
    }
    assert requested <= {"/", "/robots.txt"}


@pytest.mark.parametrize(
    ("decision", "final_url", "holds"),
    [
        (None, "https://a.test/", False),
        (RobotsDecision(True, "", "a.test", VerificationMethod.DNS, "t"), "https://a.test/x", True),
        (RobotsDecision(True, "", "a.test"), "http://a.test:80/", True),
        (RobotsDecision(True, "", "a.test"), "https://www.a.test/", False),
        (RobotsDecision(True, "", "a.test"), "https://a.test:8443/", False),
        (RobotsDecision(False, "", "a.test"), "https://a.test/", False),
    ],
)
def test_a_decision_holds_only_for_its_own_host(
    decision: RobotsDecision | None, final_url: str, holds: bool
) -> None:
    assert holds_for(decision, final_url) is holds


def test_a_decision_redirected_elsewhere_is_obeyed_and_says_where() -> None:
    decision = redirected_elsewhere(RobotsDecision(True, "", "a.test"), "https://b.test/")
    assert not decision.ignored and "redirects to b.test" in decision.note


def test_only_a_verified_owner_may_raise_the_rate_to_its_ceiling() -> None:
    assert max_rate_for(False, 2.0) == 2.0
    assert max_rate_for(True, 2.0) == VERIFIED_MAX_RATE
    assert RobotsDecision(True, "", "a.test", verified=True).rate_ceiling(2.0) == VERIFIED_MAX_RATE
    private = RobotsDecision(True, "robots.txt was ignored (127.0.0.1 is a private host ...)", "h")
    assert private.rate_ceiling(2.0) == 2.0
