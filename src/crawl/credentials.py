"""An audit's credentials on the wire: attached to each request whose URL is on an allowed origin,
scrubbed from every error text, sealed at rest.

`CredentialedHttp` wraps the platform's `ports.HttpClient`. Redirects are never followed by the
client (crawl.redirects follows them hop by hop), so every hop passes through `fetch` with its own
URL, and the rule of urls.credentials holds per hop: a hop to another origin goes without the
credentials, a later hop back to an allowed one has them again. robots.txt and sitemaps of an
allowed origin get them like its pages: a closed staging site keeps its robots.txt behind the same
wall. The checks that go elsewhere (external links, Lighthouse) get the wrapper only when the user
allowed it (`Credentials.allows`), and even then only allowed origins are sent anything.

Errors: the result's `error` text and any exception's message are scrubbed of every secret
(`Credentials.scrub`) before they leave the wrapper, and an exception is re-raised without its
cause, whose text may quote the request.

Sealing (common.sealing) under the deployment's key ring, as JSON text: `seal_credentials` where
an audit or a monitor takes them, `open_credentials` where a run needs them.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from urls.credentials import Credentials, CredentialScope, Recipient, RedactedCredentials

__all__ = [
    "SEALED_PURPOSE",
    "CredentialedFetchError",
    "CredentialedHttp",
    "SealedCredentials",
    "credentialed",
    "open_credentials",
    "seal_credentials",
]

# The associated data's purpose (common.sealing): a value sealed for another use cannot open here.
SEALED_PURPOSE = "credentials"


class CredentialedFetchError(RuntimeError):
    """A fetch that raised, its text scrubbed of the credentials."""


class CredentialedHttp:
    """`ports.HttpClient` that sends `credentials` to their allowed origins and nowhere else."""

    def __init__(self, inner: ports.HttpClient, scope: CredentialScope) -> None:
        self.inner = inner
        self.scope = scope
        self.credentials = scope.credentials

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        extra = self.scope.fields_for(request.url)
        if extra:
            request = dataclasses.replace(request, headers={**request.headers, **extra})
        try:
            result = await self.inner.fetch(request)
        except Exception as exc:
            raise CredentialedFetchError(self.credentials.scrub(str(exc))) from None
        if result.error is None:
            return result
        return dataclasses.replace(result, error=self.credentials.scrub(result.error))


def credentialed(
    inner: ports.HttpClient,
    scope: CredentialScope | None,
    recipient: Recipient = Recipient.SITE,
) -> ports.HttpClient:
    """`inner` wrapped for `recipient`: unchanged when there are no credentials, or when they
    are not for it (`Credentials.allows`)."""
    if scope is None or not scope.credentials.allows(recipient):
        return inner
    return CredentialedHttp(inner, scope)


@dataclass(frozen=True, slots=True)
class SealedCredentials:
    """Credentials as they are kept: sealed, beside the view that shows them."""

    sealed: str
    shown: RedactedCredentials


async def seal_credentials(env: Env, credentials: Credentials) -> SealedCredentials:
    """The credentials sealed under the deployment's current key; `common.sealing.KeyMissing`
    without one."""
    ring = DeploymentVars.from_env(env).key_ring()
    text = json.dumps(credentials.to_dict(), separators=(",", ":")).encode()
    sealed = await ring.seal(ports.cipher(), text, SEALED_PURPOSE)
    return SealedCredentials(sealed, credentials.redacted())


async def open_credentials(env: Env, sealed: str) -> Credentials:
    """What `seal_credentials` sealed; `common.sealing.SealingError` when no key opens it."""
    ring = DeploymentVars.from_env(env).key_ring()
    text = await ring.open(ports.cipher(), sealed, SEALED_PURPOSE)
    return Credentials.from_dict(json.loads(text.decode()))
