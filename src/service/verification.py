"""Owners' verifications of hosts, and the rule that `ignore_robots` needs one (docs/manual/verify.md).

An owner asks to verify a host by a method and gets a token (random, one per owner and host, kept
while the verification lives: asking again returns the same token, with the method changed if a
new one is named). The owner publishes it, then asks for a check; every check goes through
workflow.robots_step.check_and_record, the one place a proof is looked for and its outcome stored.

`require_robots_override` is what creating an audit or a monitor with `ignore_robots` asks: the
owner's verification of the start URL's host must be `verified` (or the host private and the
deployment's ROBOTS_OVERRIDE_PRIVATE_HOSTS on). The audit checks the proof again before it crawls
(workflow.robots_step), so a proof removed after this answer is still caught.

`verified_for` answers "is this owner verified for this host" for other options that a verified
owner may raise (the crawl rate: `max_rate_for`, up to `VERIFIED_MAX_RATE`, both from
auditdb.verifications, where the run's `RobotsDecision.rate_ceiling` reads them too).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from auditdb import verifications
from auditdb.verifications import (
    VERIFIED_MAX_RATE,
    HostVerification,
    VerificationMethod,
    VerificationStatus,
    max_rate_for,
)
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.wire import JsonObject, JsonRecord
from crawl.host_proof import (
    DNS_LABEL,
    META_NAME,
    TXT_PREFIX,
    WELL_KNOWN_PATH,
    authority_of,
    hostname_of,
    verification_host,
)
from service.errors import (
    HostNotVerified,
    InvalidTarget,
    InvalidVerification,
    TargetProblem,
    VerificationNotFound,
)
from urls.private_hosts import PrivateHosts, host_refused
from workflow.robots_step import check_and_record, private_host_override

__all__ = [
    "TOKEN_BYTES",
    "VERIFIED_MAX_RATE",
    "Proof",
    "ProofView",
    "RequestVerification",
    "check_verification",
    "delete_verification",
    "list_verifications",
    "max_rate_for",
    "request_verification",
    "require_robots_override",
    "verification_view",
    "verified_for",
]

# 24 random bytes, 32 URL-safe characters: unguessable, and short enough to paste into a DNS TXT
# record (255 bytes a character-string, RFC 1035 §3.3.14) with its prefix.
TOKEN_BYTES = 24


@dataclass(frozen=True, slots=True)
class RequestVerification:
    host: str  # a host, a host:port, or a URL whose authority is meant
    method: VerificationMethod


async def request_verification(
    env: Env, owner: str, request: RequestVerification
) -> HostVerification:
    """The owner's verification of the host: a new one with a new token, or the existing one
    (same token) with the method changed to the one asked for."""
    host = _checked_host(env, request.host)
    draft = HostVerification(
        id=f"ver_{secrets.token_hex(8)}",
        owner=owner,
        host=host,
        method=request.method,
        token=secrets.token_urlsafe(TOKEN_BYTES),
        created_at=ports.iso_now(),
    )
    stored = await verifications.insert_verification(env.DB, draft)
    return await verifications.set_method(env.DB, stored, request.method)


def _checked_host(env: Env, raw: str) -> str:
    try:
        host = verification_host(raw)
    except ValueError as exc:
        raise InvalidVerification(
            f"host must be a host name, optionally with a port (example.com, "
            f"staging.example.com:8443): {exc}"
        ) from exc
    policy = PrivateHosts(DeploymentVars.from_env(env).private_hosts)
    if host_refused(hostname_of(host), policy):
        raise InvalidTarget(
            TargetProblem.BLOCKED,
            f"{host} is a private or reserved address, which this deployment does not reach",
        )
    return host


async def check_verification(env: Env, owner: str, verification_id: str) -> HostVerification:
    """Look for the proof now; the verification as the check left it."""
    row = await _owned(env, owner, verification_id)
    deployment = DeploymentVars.from_env(env)
    checked, _ = await check_and_record(
        env.DB,
        row,
        private_hosts=PrivateHosts(deployment.private_hosts),
        doh_url=deployment.verification_doh_url,
    )
    return checked


async def list_verifications(env: Env, owner: str) -> list[HostVerification]:
    return await verifications.list_owned(env.DB, owner)


async def get_verification(env: Env, owner: str, verification_id: str) -> HostVerification:
    return await _owned(env, owner, verification_id)


async def delete_verification(env: Env, owner: str, verification_id: str) -> None:
    """Forget the verification: later audits that ask to ignore robots.txt obey it instead."""
    if not await verifications.delete_owned(env.DB, owner, verification_id):
        raise VerificationNotFound(verification_id)


async def _owned(env: Env, owner: str, verification_id: str) -> HostVerification:
    row = await verifications.get_owned(env.DB, owner, verification_id)
    if row is None:
        raise VerificationNotFound(verification_id)
    return row


# -- what a verification allows -------------------------------------------------------------------


async def verified_for(env: Env, owner: str, url: str) -> HostVerification | None:
    """The owner's verified verification of `url`'s host; None when there is none (another
    owner's never counts)."""
    host = authority_of(url)
    if host is None:
        return None
    row = await verifications.find_for_host(env.DB, owner, host)
    return row if row is not None and row.status is VerificationStatus.VERIFIED else None


async def require_robots_override(env: Env, owner: str, start_url: str) -> None:
    """`HostNotVerified`, with the way to verify, unless the owner may ignore robots.txt on
    `start_url`'s host."""
    if _private_override(env, start_url):
        return
    if await verified_for(env, owner, start_url) is not None:
        return
    host = authority_of(start_url) or start_url
    row = await verifications.find_for_host(env.DB, owner, host)
    raise HostNotVerified(host, _not_verified(host, row))


def _private_override(env: Env, start_url: str) -> bool:
    policy = PrivateHosts(DeploymentVars.from_env(env).private_hosts)
    return private_host_override(env, start_url, policy)


def _not_verified(host: str, row: HostVerification | None) -> str:
    how = (
        f'verify it first: POST /api/verifications {{"host": "{host}", "method": "file"}} '
        "(or dns, or meta), publish the token it returns, then POST "
        "/api/verifications/<id>/check (docs/manual/verify.md)"
    )
    if row is None:
        state = f"{host} is not verified by this API key's owner"
    elif row.status is VerificationStatus.PENDING:
        state = f"the verification of {host} ({row.id}) has not passed a check yet"
        how = f"publish its token, then POST /api/verifications/{row.id}/check"
    else:
        state = f"the verification of {host} ({row.id}) failed its last check: {row.reason}"
        how = f"publish its token again, then POST /api/verifications/{row.id}/check"
    return f"ignore_robots needs a verified host, and {state}; {how}."


# -- how a verification is shown ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Proof(JsonRecord):
    """Where the token goes for the verification's method, and what goes there."""

    where: str  # the file's URL, the TXT record's name, or the page's URL
    value: str  # the file's line, the TXT record's text, or the meta tag
    instructions: str


@dataclass(frozen=True, slots=True)
class ProofView(JsonRecord):
    """What a view of a verification adds to its record (api.openapi documents it)."""

    proof: Proof


# A verification's owner is the caller: never shown.
VIEW_DROPPED = frozenset({"owner"})


def verification_view(row: HostVerification) -> JsonObject:
    """The verification as the API, the MCP tools and the CLI show it: its record, and where to
    put its token for its method."""
    view = row.to_dict()
    for name in VIEW_DROPPED:
        view.pop(name, None)
    view.update(ProofView(proof_of(row)).to_dict())
    return view


def proof_of(row: HostVerification) -> Proof:
    host = row.host
    if row.method is VerificationMethod.FILE:
        url = f"https://{host}{WELL_KNOWN_PATH}"
        return Proof(
            url,
            row.token,
            f"Serve a text file at {url} (over http where the site has no https) holding the "
            "token on a line of its own.",
        )
    if row.method is VerificationMethod.DNS:
        name = hostname_of(host)
        record = f"{TXT_PREFIX}{row.token}"
        return Proof(
            f"{DNS_LABEL}.{name}",
            record,
            f"Add a TXT record {record} at {DNS_LABEL}.{name} (or at {name} itself).",
        )
    tag = f'<meta name="{META_NAME}" content="{row.token}">'
    url = f"https://{host}/"
    return Proof(url, tag, f"Put {tag} in the <head> of the page at {url}.")
