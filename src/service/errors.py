"""What the service refuses, in domain terms; the HTTP API maps each to a status and code.

    ServiceError
    ├── InvalidTarget(problem)          the start URL is malformed or its host is refused
    ├── InvalidOptions                  crawl options outside what this deployment allows
    ├── AuditNotFound(audit_id)         no audit with that id
    ├── PageNotFound(audit_id, url)     no crawled page of the audit has that URL
    ├── NotResumable(audit_id, status)  only failed or cancelled audits resume; None: lost a race
    ├── NotCancellable(audit_id, status) only running audits can be cancelled
    ├── StillRunning(audit_id)          a running audit is not deleted: cancel it first
    ├── StateExpired(audit_id)          the audit's crawl state (its scratchpad) is gone
    ├── WorkflowUnavailable             the Workflow binding refused to create an instance
    ├── CredentialsUnavailable          credentials cannot be sealed: CREDENTIALS_KEY is not set
    ├── StorageUnavailable              R2 refused an operation the request cannot finish without
    ├── NotAuthenticated                the presented API key is malformed, unknown or revoked
    ├── InvalidKeyFields                a new key's owner or name is not acceptable
    ├── KeyNotFound(key_id)             no API key with that id
    ├── RateLimited(retry_after_s)      a rate limit refused the request; retry after the delay
    ├── MonitorNotFound(monitor_id)     no monitor with that id
    ├── MonitorLimitReached             the owner keeps as many monitors as it may
    ├── MonitorNotRunnable(monitor_id)  a paused monitor, or one whose run is starting already
    ├── HostNotVerified(host)           ignore_robots asked for a host the owner has not verified
    ├── InvalidVerification             a verification's host or method is not acceptable
    └── VerificationNotFound(id)        no verification with that id

The message (`str(exc)`) is written for the API's caller and is passed through unchanged.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the audit records bring the catalogue: not for a command that reads keys
    from auditdb.records import AuditStatus


class TargetProblem(StrEnum):
    MALFORMED = "malformed"
    BLOCKED = "blocked"  # not a public host (urls.private_hosts: the SSRF policy)


class ServiceError(Exception):
    """Base of the service's refusals; never raised itself."""


class InvalidTarget(ServiceError):
    def __init__(self, problem: TargetProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


class InvalidOptions(ServiceError):
    pass


class AuditNotFound(ServiceError):
    def __init__(self, audit_id: str) -> None:
        super().__init__(f"no audit with id {audit_id}")
        self.audit_id = audit_id


class PageNotFound(ServiceError):
    def __init__(self, audit_id: str, url: str) -> None:
        super().__init__(f"audit {audit_id} crawled no page with URL {url}")
        self.audit_id, self.url = audit_id, url


class NotResumable(ServiceError):
    def __init__(self, audit_id: str, status: AuditStatus | None) -> None:
        if status is None:  # it was resumable when read, and another resume reopened it first
            message = f"audit {audit_id} is no longer failed or cancelled"
        else:
            message = f"only failed or cancelled audits can be resumed; this one is {status}"
        super().__init__(message)
        self.audit_id = audit_id
        self.status = status


class NotCancellable(ServiceError):
    """The audit has already ended (completed, failed or cancelled): there is nothing to stop.
    Also what a cancel that loses the race with the workflow's own completion answers."""

    def __init__(self, audit_id: str, status: AuditStatus) -> None:
        super().__init__(f"only running audits can be cancelled; this one is {status}")
        self.audit_id = audit_id
        self.status = status


class StillRunning(ServiceError):
    """Deleting a running audit would throw away what its crawl is finding without a word:
    the caller cancels it first (its results stay until the delete)."""

    def __init__(self, audit_id: str) -> None:
        super().__init__(f"audit {audit_id} is running: cancel it before deleting it")
        self.audit_id = audit_id


class StateExpired(ServiceError):
    def __init__(self, audit_id: str, message: str) -> None:
        super().__init__(message)
        self.audit_id = audit_id


class WorkflowUnavailable(ServiceError):
    pass


class StorageUnavailable(ServiceError):
    pass


class CredentialsUnavailable(ServiceError):
    """The deployment cannot keep credentials (common.sealing: no key, or a key that no longer
    opens what was stored); the message names the secret."""


class NotAuthenticated(ServiceError):
    pass


class InvalidKeyFields(ServiceError):
    pass


class KeyNotFound(ServiceError):
    def __init__(self, key_id: str) -> None:
        super().__init__(f"no API key with id {key_id}")
        self.key_id = key_id


class RateLimited(ServiceError):
    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class MonitorNotFound(ServiceError):
    def __init__(self, monitor_id: str) -> None:
        super().__init__(f"no monitor with id {monitor_id}")
        self.monitor_id = monitor_id


class MonitorLimitReached(ServiceError):
    pass


class MonitorNotRunnable(ServiceError):
    def __init__(self, monitor_id: str, reason: str) -> None:
        super().__init__(f"monitor {monitor_id} cannot run now: {reason}")
        self.monitor_id = monitor_id


# -- host verification and the robots.txt override (issue 28, item 2) --------------------------


class HostNotVerified(ServiceError):
    """`ignore_robots` for a host the owner has no verified verification of (service.verification
    says how to get one)."""

    def __init__(self, host: str, message: str) -> None:
        super().__init__(message)
        self.host = host


class InvalidVerification(ServiceError):
    pass


class VerificationNotFound(ServiceError):
    def __init__(self, verification_id: str) -> None:
        super().__init__(f"no verification with id {verification_id}")
        self.verification_id = verification_id
