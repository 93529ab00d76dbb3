"""One run of the audit workflow as its phases see it: the instance's parameters, the SDK's `step`,
the Worker's `env`, and the error class to raise for failures a retry cannot fix.

Every phase takes an `AuditRun` instead of threading those four values through its signature;
the shell (entry.py) builds none of it, `run_site_audit` does, once per run (and again on every
replay, since code outside steps runs again: the record holds nothing a replay could change).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditdb import repository
from auditdb.records import AuditRecord
from auditdb.verifications import RobotsDecision
from common import ports
from common.bindings import Env, WorkflowStep
from common.sealing import SealingError
from crawl.credentials import credentialed, open_credentials
from durable.client import Scratchpad
from urls.credentials import CredentialScope, Recipient
from workflow.params import AuditParams


@dataclass(frozen=True, slots=True)
class AuditRun:
    params: AuditParams
    step: WorkflowStep
    env: Env
    non_retryable: type[Exception]
    # What the check-robots-override step decided (workflow.robots_step); None: robots.txt is
    # obeyed, as in every audit that does not ask otherwise. Set from the step's result, so a
    # replay sets it the same.
    robots: RobotsDecision | None = None
    # Per host, the epoch second its next request may start, as the last step that requested it
    # left it (crawl.pacing, workflow.pace); set from that step's result, so a replay sets it the
    # same.
    pace: dict[str, float] = field(default_factory=dict)

    @property
    def audit_id(self) -> str:
        return self.params.audit_id

    def scratchpad(self) -> Scratchpad:
        return Scratchpad.for_audit(self.env, self.audit_id)

    async def still_running(self) -> bool:
        """Whether the audit is still running (`repository.is_running`): its owner may have
        cancelled or deleted it while the terminate had not reached this instance (or failed)."""
        return repository.is_running(await self._audit())

    async def require_running(self) -> None:
        """`still_running`, or `non_retryable` naming what the audit became. The failure that
        follows is recorded by a guarded write, so the cancel stands."""
        audit = await self._audit()
        if not repository.is_running(audit):
            raise self.non_retryable(_not_running(self.audit_id, audit))

    async def credentials(self) -> CredentialScope | None:
        """The audit's credentials and their origins, opened for this step only (never a step's
        result); a key that cannot open them fails the audit, naming the secret
        (common.sealing)."""
        sealed = self.params.credentials_sealed
        if sealed is None:
            return None
        try:
            credentials = await open_credentials(self.env, sealed)
        except SealingError as exc:
            raise self.non_retryable(str(exc)) from None
        return CredentialScope.of(credentials, self.params.start_url)

    async def http(self, recipient: Recipient = Recipient.SITE) -> ports.HttpClient:
        """The platform's HTTP client, sending the audit's credentials to their origins when
        `recipient` may have them (crawl.credentials)."""
        return credentialed(ports.http_client(), await self.credentials(), recipient)

    async def _audit(self) -> AuditRecord | None:
        return await repository.get_audit(self.env.DB, self.audit_id)


def _not_running(audit_id: str, audit: AuditRecord | None) -> str:
    if audit is None:
        return f"audit {audit_id} does not exist"
    return f"audit {audit_id} is {audit.status}, not running"
