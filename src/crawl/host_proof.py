"""Proof that an owner controls a host: where each method looks for the token, and what it found.

Theory of operation
-------------------
A verification names a host as a URL authority (`example.com`, `example.com:8443`:
`verification_host`) and a method (auditdb.verifications.VerificationMethod). One check asks the
one place its method names and returns a `CheckResult`:

* file: `https://<host>/.well-known/siteaudit-verification.txt` (RFC 8615 well-known URIs) must
  hold the token alone on a line. Google Search Console's HTML-file method and Let's Encrypt's
  HTTP-01 challenge (RFC 8555 §8.3, also under /.well-known/) prove control the same way.
* meta: the start page, `https://<host>/`, must carry `<meta name="siteaudit-verification"
  content="<token>">` (Search Console's HTML-tag method).
* dns: a TXT record `siteaudit-verification=<token>` at `<host>` or `_siteaudit.<host>`, asked over
  DNS-over-HTTPS (the JSON API, exposure.doh) of the deployment's resolver (VERIFICATION_DOH_URL).
  An underscored label keeps the record out of the apex's TXT set, as RFC 8552 names attribute
  leaves (`_dmarc`, `_acme-challenge`).

The fetches obey the address policy of the deployment (a private host only where it allows one),
follow at most `MAX_PROOF_HOPS` redirects and only on the same host (a proof served from another
host proves nothing about this one), and read at most a bounded body. https is asked first; as for
a start URL typed without a scheme (crawl.start_verdict.falls_back), plain http only when https
could not connect at all.

Three outcomes, never more: PASSED (the token is there), FAILED (an answer came back without it)
and UNCHECKED (no usable answer: the resolver failed, the site did not answer or answered 5xx or
429). "Could not check" is not "failed": a resolver outage must not be mistaken for a removed proof.
"""

from __future__ import annotations

from html.parser import HTMLParser

from auditdb.verifications import CheckOutcome, CheckResult, VerificationMethod
from common import ports, settings
from common.settings import KIB
from crawl.redirects import FollowedFetch, fetch_following, hop_refusal
from crawl.start_verdict import falls_back
from exposure import doh
from exposure.dns_records import DnsAnswer, RecordType, txt_strings
from urls.normalise import split_url
from urls.private_hosts import PrivateHosts, parse_ip

__all__ = [
    "DNS_LABEL",
    "META_NAME",
    "TXT_PREFIX",
    "WELL_KNOWN_PATH",
    "authority_of",
    "check_proof",
    "file_holds",
    "hostname_of",
    "meta_tokens",
    "txt_holds",
    "verification_host",
]

WELL_KNOWN_PATH = "/.well-known/siteaudit-verification.txt"
META_NAME = "siteaudit-verification"
TXT_PREFIX = "siteaudit-verification="
DNS_LABEL = "_siteaudit"
# A few redirects (http -> https, a trailing slash, a language prefix), never another host.
MAX_PROOF_HOPS = 3
PROOF_TIMEOUT_S = 10.0
# The file holds one token (~43 characters); a meta tag sits in <head>, near the page's start.
FILE_MAX_BYTES = 64 * KIB
PAGE_MAX_BYTES = 512 * KIB


def verification_host(raw: str) -> str:
    """The authority a verification names, normalised as the crawl normalises URLs (lowercase,
    IDNA, a default port dropped): `Example.COM` -> `example.com`, `https://a.test:8443/x` ->
    `a.test:8443`. ValueError for anything that is not a host with an optional port."""
    text = raw.strip()
    url = text if "://" in text else f"https://{text}"
    parts = split_url(url)
    if parts is None or not parts.host or parts.userinfo is not None:
        raise ValueError(f"not a host name: {raw!r}")
    if "://" not in text and any(mark in text for mark in "/?#"):
        raise ValueError(f"a host, not a URL path: {raw!r}")
    return _authority(parts.host, parts.port)


def authority_of(url: str) -> str | None:
    """The authority of an http(s) URL, in `verification_host`'s form; None if not one."""
    parts = split_url(url)
    return None if parts is None else _authority(parts.host, parts.port)


def hostname_of(authority: str) -> str:
    """The host of an authority, without its port (`[::1]:8080` -> `[::1]`)."""
    if authority.startswith("["):
        return authority[: authority.index("]") + 1]
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


def _authority(host: str, port: int | None) -> str:
    return host if port is None else f"{host}:{port}"


# -- what counts as the token (pure) -------------------------------------------------------------


def file_holds(body: bytes, token: str) -> bool:
    """The token alone on a line (surrounding spaces and a BOM forgiven)."""
    text = body.decode("utf-8", "replace").removeprefix("\ufeff")
    return any(line.strip() == token for line in text.splitlines())


class _MetaScan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.contents: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "meta":
            return
        values = {name.lower(): value or "" for name, value in attrs}
        if values.get("name", "").strip().lower() == META_NAME:
            self.contents.append(values.get("content", "").strip())


def meta_tokens(html: bytes) -> list[str]:
    """The content of every `<meta name="siteaudit-verification">` of a page, in order."""
    scan = _MetaScan()
    scan.feed(html.decode("utf-8", "replace"))
    scan.close()
    return scan.contents


def txt_holds(answer: DnsAnswer, token: str) -> bool:
    return any(
        txt_strings(data).strip() == TXT_PREFIX + token for data in answer.data_of(RecordType.TXT)
    )


# -- one check -----------------------------------------------------------------------------------


async def check_proof(
    host: str,
    method: VerificationMethod,
    token: str,
    *,
    private_hosts: PrivateHosts,
    doh_url: str,
) -> CheckResult:
    """Look once where `method` says, and say what was found."""
    if method is VerificationMethod.DNS:
        return await _check_dns(host, token, doh_url)
    if method is VerificationMethod.FILE:
        return await _check_page(host, WELL_KNOWN_PATH, token, private_hosts, FILE_MAX_BYTES)
    return await _check_page(host, "/", token, private_hosts, PAGE_MAX_BYTES)


async def _check_dns(host: str, token: str, doh_url: str) -> CheckResult:
    name = hostname_of(host)
    if name.startswith("[") or parse_ip(name) is not None:
        return _failed(
            f"{name} is an IP address, which has no DNS name to hold a TXT record: "
            "verify it with the file or meta method"
        )
    names = [name, f"{DNS_LABEL}.{name}"]
    answers = [await doh.query(each, RecordType.TXT, doh_url) for each in names]
    record = f'"{TXT_PREFIX}{token}"'
    for answer in answers:
        if txt_holds(answer, token):
            return CheckResult(CheckOutcome.PASSED, f"the TXT record {record} is at {answer.name}")
    broken = [answer for answer in answers if answer.failed]
    if broken:
        why = broken[0].error or f"DNS status {broken[0].status}"
        return _unchecked(
            f"the DNS-over-HTTPS resolver {doh_url} gave no usable answer for {broken[0].name} "
            f"({why})"
        )
    return _failed(f"no TXT record {record} at {names[0]} or {names[1]}")


async def _check_page(
    host: str, path: str, token: str, private_hosts: PrivateHosts, max_bytes: int
) -> CheckResult:
    url = f"https://{host}{path}"
    refusal = hop_refusal(url, private_hosts=private_hosts)
    if refusal is not None:
        return _failed(f"{url} may not be requested: {refusal}")
    followed = await _fetch(url, host, private_hosts, max_bytes)
    if falls_back(followed) is not None:
        url = f"http://{host}{path}"
        followed = await _fetch(url, host, private_hosts, max_bytes)
    return _judge_page(url, path, followed, token)


async def _fetch(url: str, host: str, private_hosts: PrivateHosts, max_bytes: int) -> FollowedFetch:
    return await fetch_following(
        ports.http_client(),
        url,
        private_hosts=private_hosts,
        timeout_s=PROOF_TIMEOUT_S,
        max_bytes=max_bytes,
        headers=settings.CRAWL.request_headers,
        stay_on=lambda target: authority_of(target) == host,
        max_hops=MAX_PROOF_HOPS,
    )


def _judge_page(url: str, path: str, followed: FollowedFetch, token: str) -> CheckResult:
    result = followed.result
    if followed.refused is not None:
        target = result.header("location") or "?"
        return _failed(
            f"{followed.final_url} redirects to {target}, which was not followed "
            f"({followed.refused}): the proof must be served by the host itself"
        )
    if result.status == 0:
        return _unchecked(f"{url} got no answer ({result.error or 'no response'})")
    if result.status >= 500 or result.status == 429:
        return _unchecked(f"{followed.final_url} answered {result.status}")
    if result.status != 200:
        return _failed(f"{followed.final_url} answered {result.status}, not 200")
    if path == WELL_KNOWN_PATH:
        if file_holds(result.body, token):
            return CheckResult(CheckOutcome.PASSED, f"the token is in {followed.final_url}")
        return _failed(
            f"{followed.final_url} does not hold this verification's token on a line of its own"
        )
    found = meta_tokens(result.body)
    if token in found:
        return CheckResult(CheckOutcome.PASSED, f"the meta tag is on {followed.final_url}")
    what = (
        "a siteaudit-verification meta tag with another token"
        if found
        else "no siteaudit-verification meta tag"
    )
    return _failed(f"{followed.final_url} has {what}")


def _failed(reason: str) -> CheckResult:
    return CheckResult(CheckOutcome.FAILED, reason)


def _unchecked(reason: str) -> CheckResult:
    return CheckResult(CheckOutcome.UNCHECKED, f"could not check: {reason}")
