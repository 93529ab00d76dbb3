"""crawl.host_proof: where each method looks for the token, and its three outcomes, against sites
and a DNS-over-HTTPS double on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from auditdb.verifications import CheckOutcome, VerificationMethod
from crawl.host_proof import (
    WELL_KNOWN_PATH,
    check_proof,
    file_holds,
    meta_tokens,
    txt_holds,
    verification_host,
)
from exposure.dns_records import RecordType
from tests.exposure.dns_helpers import body, doh_double, quoted, txt
from tests.support.site_server import Reply, Site, html_page, serve_site
from urls.private_hosts import PrivateHosts

pytestmark = pytest.mark.usefixtures("fetch_pool_closed")

TOKEN = "tok_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
LOOPBACK = PrivateHosts.LOOPBACK
NO_DOH = "http://127.0.0.1:9/dns-query"  # never asked by the file and meta methods


@pytest.mark.parametrize(
    ("raw", "host"),
    [
        ("example.com", "example.com"),
        ("Example.COM.", "example.com."),
        ("https://Example.com/some/page", "example.com"),
        ("http://example.com:80/", "example.com"),
        ("example.com:8443", "example.com:8443"),
        ("https://example.com:443", "example.com"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("127.0.0.1:8123", "127.0.0.1:8123"),
    ],
)
def test_a_host_is_named_by_its_normalised_authority(raw: str, host: str) -> None:
    assert verification_host(raw) == host


@pytest.mark.parametrize(
    "raw", ["", "   ", "example.com/path", "user@example.com", "http://", "a b"]
)
def test_what_is_not_a_host_is_refused(raw: str) -> None:
    with pytest.raises(ValueError):
        verification_host(raw)


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        (f"{TOKEN}\n", True),
        (f"\ufeff  {TOKEN}  \r\n", True),
        (f"# siteaudit\n{TOKEN}\nother\n", True),
        (f"siteaudit-verification={TOKEN}\n", False),
        (f"{TOKEN}x\n", False),
        (TOKEN[:-1], False),
        ("", False),
    ],
)
def test_the_file_holds_the_token_alone_on_a_line(text: str, holds: bool) -> None:
    assert file_holds(text.encode(), TOKEN) is holds


@pytest.mark.parametrize(
    ("head", "tokens"),
    [
        (f'<meta name="siteaudit-verification" content="{TOKEN}">', [TOKEN]),
        (f"<META NAME='SiteAudit-Verification' CONTENT=' {TOKEN} '>", [TOKEN]),
        ('<meta name="description" content="x">', []),
        (
            '<meta name="siteaudit-verification" content="a"><meta name="siteaudit-verification" '
            'content="b">',
            ["a", "b"],
        ),
    ],
)
def test_every_verification_meta_tag_is_read(head: str, tokens: list[str]) -> None:
    assert meta_tokens(f"<html><head>{head}</head><body></body></html>".encode()) == tokens


@pytest.mark.parametrize(
    ("records", "holds"),
    [
        ((quoted(f"siteaudit-verification={TOKEN}"),), True),
        ((f"siteaudit-verification={TOKEN}",), True),  # Google's unquoted spelling
        (('"siteaudit-verification=" "' + TOKEN + '"',), True),  # split character-strings
        ((quoted("v=spf1 -all"), quoted(f"siteaudit-verification={TOKEN}x")), False),
        ((), False),
    ],
)
def test_the_txt_record_holds_the_token(records: tuple[str, ...], holds: bool) -> None:
    answer = txt("a.test")
    answer = type(answer).from_dict(
        {
            **answer.to_dict(),
            "records": [
                {"name": "a.test.", "type": int(RecordType.TXT), "ttl": 1, "data": r}
                for r in records
            ],
        }
    )
    assert txt_holds(answer, TOKEN) is holds


# -- file and meta, against a site ----------------------------------------------------------------


@pytest.fixture
def site() -> Iterator[Site]:
    with serve_site({"/": Reply(body=html_page("Home", "<h1>Home</h1>"))}) as served:
        yield served


def host_of(site: Site) -> str:
    return site.origin.removeprefix("http://")


async def check(site: Site, method: VerificationMethod, doh: str = NO_DOH) -> tuple[str, str]:
    result = await check_proof(host_of(site), method, TOKEN, private_hosts=LOOPBACK, doh_url=doh)
    return result.outcome, result.reason


FILE, META, DNS = VerificationMethod.FILE, VerificationMethod.META, VerificationMethod.DNS


async def test_the_file_with_the_token_passes(site: Site) -> None:
    site.server.routes[WELL_KNOWN_PATH] = Reply(200, f"{TOKEN}\n".encode())
    outcome, reason = await check(site, FILE)
    assert outcome is CheckOutcome.PASSED
    assert reason == f"the token is in {site.url(WELL_KNOWN_PATH)}"


@pytest.mark.parametrize(
    ("reply", "outcome", "words"),
    [
        (None, CheckOutcome.FAILED, "answered 404, not 200"),
        (Reply(200, b"tok_someone-elses-token\n"), CheckOutcome.FAILED, "does not hold"),
        (Reply(200, b""), CheckOutcome.FAILED, "does not hold"),
        (Reply(503, b"down"), CheckOutcome.UNCHECKED, "could not check: "),
        (Reply(429, b"slow down"), CheckOutcome.UNCHECKED, "answered 429"),
    ],
)
async def test_the_file_without_the_token_fails_and_a_failing_site_is_not_checked(
    site: Site, reply: Reply | None, outcome: CheckOutcome, words: str
) -> None:
    if reply is not None:
        site.server.routes[WELL_KNOWN_PATH] = reply
    found, reason = await check(site, FILE)
    assert (found, words in reason) == (outcome, True), reason


async def test_a_same_host_redirect_is_followed(site: Site) -> None:
    site.server.routes[WELL_KNOWN_PATH] = Reply(301, b"", {"location": "/proof.txt"})
    site.server.routes["/proof.txt"] = Reply(200, TOKEN.encode())
    outcome, _ = await check(site, FILE)
    assert outcome is CheckOutcome.PASSED


async def test_a_redirect_to_another_host_fails_and_that_host_is_never_asked(site: Site) -> None:
    with serve_site({"/proof.txt": Reply(200, TOKEN.encode())}, "127.0.0.2") as other:
        site.server.routes[WELL_KNOWN_PATH] = Reply(302, b"", {"location": other.url("/proof.txt")})
        outcome, reason = await check(site, FILE)
        assert other.requests == []
    assert outcome is CheckOutcome.FAILED
    assert "the proof must be served by the host itself" in reason


async def test_too_many_redirects_fail(site: Site) -> None:
    for n in range(6):
        site.server.routes[f"/hop{n}"] = Reply(302, b"", {"location": f"/hop{n + 1}"})
    site.server.routes[WELL_KNOWN_PATH] = Reply(302, b"", {"location": "/hop0"})
    outcome, reason = await check(site, FILE)
    assert outcome is CheckOutcome.FAILED and "more than 3 redirects" in reason


async def test_a_host_the_address_policy_refuses_is_never_asked(site: Site) -> None:
    site.server.routes[WELL_KNOWN_PATH] = Reply(200, TOKEN.encode())
    result = await check_proof(
        host_of(site), FILE, TOKEN, private_hosts=PrivateHosts.DENY, doh_url=NO_DOH
    )
    assert result.outcome is CheckOutcome.FAILED and "private or reserved" in result.reason
    assert site.requests == []


async def test_a_host_that_does_not_answer_is_not_checked() -> None:
    with serve_site({}) as gone:
        host = gone.origin.removeprefix("http://")
    result = await check_proof(host, FILE, TOKEN, private_hosts=LOOPBACK, doh_url=NO_DOH)
    assert result.outcome is CheckOutcome.UNCHECKED
    assert result.reason.startswith("could not check: ")


async def test_the_meta_tag_with_the_token_passes_and_another_token_fails(site: Site) -> None:
    tag = '<meta name="siteaudit-verification" content="{}">'
    site.server.routes["/"] = Reply(body=html_page("Home", "", head=tag.format(TOKEN)))
    assert (await check(site, META))[0] is CheckOutcome.PASSED
    site.server.routes["/"] = Reply(body=html_page("Home", "", head=tag.format("tok_other")))
    outcome, reason = await check(site, META)
    assert outcome is CheckOutcome.FAILED and "with another token" in reason
    site.server.routes["/"] = Reply(body=html_page("Home", ""))
    outcome, reason = await check(site, META)
    assert outcome is CheckOutcome.FAILED and "no siteaudit-verification meta tag" in reason


# -- dns, against a DoH double ---------------------------------------------------------------------


def txt_zone(name: str, *texts: str) -> dict[tuple[str, str], dict[str, object]]:
    return {(name, "TXT"): body(name, RecordType.TXT, *map(quoted, texts))}


@pytest.mark.parametrize("name", ["owned.test", "_siteaudit.owned.test"])
async def test_the_txt_record_at_the_host_or_its_underscored_name_passes(name: str) -> None:
    zone = txt_zone(name, "v=spf1 -all", f"siteaudit-verification={TOKEN}")
    with doh_double(zone) as doh:
        result = await check_proof(
            "owned.test", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=doh.url("/dns-query")
        )
    assert result.outcome is CheckOutcome.PASSED and name in result.reason


@pytest.mark.parametrize(
    "texts", [(), ("siteaudit-verification=tok_wrong",), (f"siteaudit-verification {TOKEN}",)]
)
async def test_no_record_or_the_wrong_one_fails(texts: tuple[str, ...]) -> None:
    with doh_double(txt_zone("owned.test", *texts)) as doh:
        result = await check_proof(
            "owned.test", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=doh.url("/dns-query")
        )
    assert result.outcome is CheckOutcome.FAILED
    assert result.reason == (
        f'no TXT record "siteaudit-verification={TOKEN}" at owned.test or _siteaudit.owned.test'
    )


async def test_a_record_for_another_host_does_not_count() -> None:
    zone = txt_zone("other.test", f"siteaudit-verification={TOKEN}")
    with doh_double(zone) as doh:
        result = await check_proof(
            "owned.test", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=doh.url("/dns-query")
        )
    assert result.outcome is CheckOutcome.FAILED


@pytest.mark.parametrize(
    "zone",
    [
        {("owned.test", "TXT"): body("owned.test", RecordType.TXT, status=2)},  # SERVFAIL
        "down",  # the resolver answers 500
        "gone",  # nothing listens
    ],
    ids=["servfail", "http-500", "no-answer"],
)
async def test_a_resolver_error_is_could_not_check_never_failed(zone: object) -> None:
    if zone == "gone":
        with serve_site({}) as gone:
            url = gone.url("/dns-query")
        result = await check_proof("owned.test", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=url)
    elif zone == "down":
        with serve_site({"/dns-query": Reply(500, b"")}) as down:
            result = await check_proof(
                "owned.test", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=down.url("/dns-query")
            )
    else:
        assert isinstance(zone, dict)
        with doh_double(zone) as doh:
            result = await check_proof(
                "owned.test", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=doh.url("/dns-query")
            )
    assert result.outcome is CheckOutcome.UNCHECKED
    assert result.reason.startswith("could not check: the DNS-over-HTTPS resolver ")


async def test_an_ip_address_cannot_be_verified_by_dns() -> None:
    result = await check_proof("127.0.0.1:8000", DNS, TOKEN, private_hosts=LOOPBACK, doh_url=NO_DOH)
    assert result.outcome is CheckOutcome.FAILED and "IP address" in result.reason
