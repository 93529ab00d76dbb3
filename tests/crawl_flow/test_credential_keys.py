"""An audit whose credentials its deployment cannot open (common.sealing): the key gone, or
another key put without the old one kept as the previous key. The run fails at once, never
retried, never crawling without them, and the audit's error names the secret to set."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus
from crawl.credentials import seal_credentials
from local_platform.errors import NonRetryableError
from local_platform.runtime import LocalPlatform
from tests.core.test_deployment import Steps
from urls.credentials import Credentials
from workflow.params import AuditParams
from workflow.site_audit import run_site_audit

KEY, OTHER = bytes(range(32)), bytes(range(32, 64))


@pytest.mark.parametrize(
    ("key_now", "words"),
    [
        ("", "the Worker secret CREDENTIALS_KEY is not set"),
        (base64.b64encode(OTHER).decode(), "neither CREDENTIALS_KEY nor CREDENTIALS_KEY_PREVIOUS"),
    ],
)
async def test_credentials_no_key_opens_fail_the_audit_naming_the_secret(
    platform: LocalPlatform, key_now: str, words: str
) -> None:
    env: Any = platform.env
    env.CREDENTIALS_KEY = base64.b64encode(KEY).decode()
    sealed = await seal_credentials(env, Credentials(cookies={"session": "k3y-c00kie"}))
    audit = AuditRecord("audit-keyless", "http://127.0.0.1:9/", "2026-01-01T00:00:00.000Z")
    await repository.insert_audit(env.DB, audit, sealed.sealed)
    params = AuditParams(audit.id, audit.start_url, credentials_sealed=sealed.sealed)
    env.CREDENTIALS_KEY = key_now

    with pytest.raises(NonRetryableError, match=words):
        await run_site_audit({"payload": params.to_dict()}, Steps(), env, NonRetryableError)  # type: ignore[arg-type]

    failed = await repository.get_audit(env.DB, audit.id)
    assert failed is not None and failed.status is AuditStatus.FAILED
    assert words in (failed.error_detail or "")
    assert failed.pages_crawled == 0
