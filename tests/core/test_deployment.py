"""The deployment's vars and secrets (common.deployment): every one parsed in one place, a bad
value a clear error naming it, absent or blank the documented default; and a bad value stops
the Worker where it starts (each handler, the workflow run, the local platform, the CLI)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, cast

import pytest

from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus
from common.bindings import Env
from common.deployment import VAR_NAMES, DeploymentVarError, DeploymentVars
from common.settings import CRAWL
from local_platform.http import Request
from local_platform.runtime import PROJECT_ROOT, LocalPlatform
from tests.support.platform_vars import TEST_VARS
from urls.private_hosts import PrivateHosts
from workflow.params import AuditParams
from workflow.site_audit import run_site_audit

DEFAULTS = DeploymentVars()


class Holder:
    """An `env` holding only the vars a test gives it."""

    def __init__(self, **variables: object) -> None:
        for name, value in variables.items():
            setattr(self, name, value)


def parsed(**variables: object) -> DeploymentVars:
    return DeploymentVars.from_env(cast(Env, Holder(**variables)))


# -- good values ------------------------------------------------------------------------------

GOOD = [
    ("ALLOW_PRIVATE_HOSTS", "false", "private_hosts", PrivateHosts.DENY),
    ("ALLOW_PRIVATE_HOSTS", "deny", "private_hosts", PrivateHosts.DENY),
    ("ALLOW_PRIVATE_HOSTS", "0", "private_hosts", PrivateHosts.DENY),
    ("ALLOW_PRIVATE_HOSTS", "loopback", "private_hosts", PrivateHosts.LOOPBACK),
    ("ALLOW_PRIVATE_HOSTS", "true", "private_hosts", PrivateHosts.ALLOW),
    ("ALLOW_PRIVATE_HOSTS", "TRUE", "private_hosts", PrivateHosts.ALLOW),
    ("ALLOW_PRIVATE_HOSTS", " yes ", "private_hosts", PrivateHosts.ALLOW),
    ("ALLOW_PRIVATE_HOSTS", "allow", "private_hosts", PrivateHosts.ALLOW),
    ("MAX_PAGES_LIMIT", "5", "max_pages_limit", 5),
    ("MAX_PAGES_LIMIT", "100000", "max_pages_limit", CRAWL.max_max_pages),
    ("MAX_PAGES_LIMIT", 250, "max_pages_limit", 250),  # written unquoted in wrangler.toml
    ("CORS_ORIGINS", "https://a.example", "cors_origins", frozenset({"https://a.example"})),
    (
        "CORS_ORIGINS",
        "https://a.example/, http://localhost:8080,,",
        "cors_origins",
        frozenset({"https://a.example", "http://localhost:8080"}),
    ),
    ("RATE_LIMIT_REQUESTS_PER_MINUTE", "0", "requests_per_minute", 0),
    ("RATE_LIMIT_REQUESTS_PER_MINUTE", "3", "requests_per_minute", 3),
    ("RATE_LIMIT_AUDITS_PER_HOUR", "2", "audits_per_hour", 2),
    ("MAX_RUNNING_AUDITS_PER_OWNER", "1", "running_audits_per_owner", 1),
    ("MAX_MONITORS_PER_OWNER", "0", "monitors_per_owner", 0),
    ("AUDIT_RETENTION_DAYS", "1", "audit_retention_days", 1),
    ("AUDIT_RETENTION_DAYS", " 30 ", "audit_retention_days", 30),
    ("MONITOR_RUN_RETENTION_DAYS", "30", "run_retention_days", 30),
    ("MONITOR_RUN_RETENTION_DAYS", "0", "run_retention_days", 0),
    ("MONITOR_RUN_CLEANUP_MAX_RUNS", "250", "run_cleanup_max_runs", 250),
    ("PSI_API_KEY", "k", "psi_api_key", "k"),
    ("PSI_API_KEY", " k ", "psi_api_key", "k"),
    ("PSI_ENDPOINT", "http://127.0.0.1:1/x", "psi_endpoint", "http://127.0.0.1:1/x"),
    ("BROWSER_RENDERING_ACCOUNT_ID", "0123abcd", "browser_rendering_account_id", "0123abcd"),
    ("BROWSER_RENDERING_API_TOKEN", " t0ken ", "browser_rendering_api_token", "t0ken"),
    (
        "BROWSER_RENDERING_ENDPOINT",
        "http://127.0.0.1:1/client/v4",
        "browser_rendering_endpoint",
        "http://127.0.0.1:1/client/v4",
    ),
    ("BROWSER_RENDERING_REQUESTS_PER_MINUTE", "6", "browser_rendering_requests_per_minute", 6),
    ("ADMIN_TOKEN", "admin-token-0123456789", "admin_token", "admin-token-0123456789"),
    (
        "VERIFICATION_DOH_URL",
        "http://127.0.0.1:1/dns-query",
        "verification_doh_url",
        "http://127.0.0.1:1/dns-query",
    ),
    ("ROBOTS_OVERRIDE_PRIVATE_HOSTS", "true", "robots_override_private_hosts", True),
    ("ROBOTS_OVERRIDE_PRIVATE_HOSTS", "No", "robots_override_private_hosts", False),
    # `openssl rand -base64 32`, and the URL-safe alphabet of the same 32 bytes
    ("CREDENTIALS_KEY", "+/" + "A" * 41 + "=", "credentials_key", b"\xfb\xf0" + bytes(30)),
    ("CREDENTIALS_KEY", "-_" + "A" * 41 + "=", "credentials_key", b"\xfb\xf0" + bytes(30)),
    ("CREDENTIALS_KEY_PREVIOUS", "A" * 43 + "=", "credentials_key_previous", bytes(32)),
]


@pytest.mark.parametrize(("name", "raw", "field", "expected"), GOOD)
def test_a_good_value_sets_its_field_and_nothing_else(
    name: str,
    raw: object,
    field: str,
    expected: Any,  # each field's own type, from the table
) -> None:
    deployment = parsed(**{name: raw})
    assert getattr(deployment, field) == expected
    assert deployment == DeploymentVars(**{field: expected})


def test_every_var_has_good_values_in_the_table() -> None:
    assert {name for name, *_ in GOOD} == set(VAR_NAMES)


def test_every_private_host_policy_has_a_spelling_and_every_spelling_is_a_policy() -> None:
    spellings = ["false", "0", "no", "deny", "loopback", "true", "1", "yes", "allow"]
    policies = {PrivateHosts(parsed(ALLOW_PRIVATE_HOSTS=s).private_hosts) for s in spellings}
    assert policies == set(PrivateHosts)


@pytest.mark.parametrize("name", VAR_NAMES)
@pytest.mark.parametrize("raw", [None, "", "   "])
def test_an_absent_or_blank_value_takes_the_default(name: str, raw: str | None) -> None:
    assert parsed(**({} if raw is None else {name: raw})) == DEFAULTS


def test_the_defaults_are_wrangler_toml_s() -> None:
    config = tomllib.loads((PROJECT_ROOT / "wrangler.toml").read_text())
    assert set(config["vars"]) <= set(VAR_NAMES)
    assert parsed(**config["vars"]) == DEFAULTS


def test_every_var_is_declared_on_the_env_protocol() -> None:
    declared = {name for name in vars(Env) if name.isupper()}
    bindings = {"DB", "AUDIT_SCRATCHPAD", "SITE_AUDIT_WORKFLOW", "REPORTS", "MONITOR_QUEUE"}
    assert declared - bindings == set(VAR_NAMES)


# -- bad values -------------------------------------------------------------------------------

BAD = [
    ("ALLOW_PRIVATE_HOSTS", "nonsense", "one of false, 0, no, deny, loopback, true"),
    ("ALLOW_PRIVATE_HOSTS", "flase", "one of false"),
    ("MAX_PAGES_LIMIT", "lots", "a whole number from 1 to 100000"),
    ("MAX_PAGES_LIMIT", "0", "a whole number from 1 to 100000"),
    ("MAX_PAGES_LIMIT", "100001", "a whole number from 1 to 100000"),
    ("MAX_PAGES_LIMIT", "1e3", "a whole number from 1"),
    ("CORS_ORIGINS", "*", "comma-separated http(s) origins, not '*'"),
    ("CORS_ORIGINS", "https://a.example,a.example", "not 'a.example'"),
    ("CORS_ORIGINS", "https://a.example/app", "not 'https://a.example/app'"),
    ("RATE_LIMIT_REQUESTS_PER_MINUTE", "-5", "a whole number from 0"),
    ("RATE_LIMIT_REQUESTS_PER_MINUTE", "12.5", "a whole number from 0"),
    ("RATE_LIMIT_AUDITS_PER_HOUR", "twenty", "a whole number from 0"),
    ("MAX_RUNNING_AUDITS_PER_OWNER", "3 audits", "a whole number from 0"),
    ("MAX_MONITORS_PER_OWNER", "-1", "a whole number from 0"),
    ("AUDIT_RETENTION_DAYS", "0", "a whole number from 1"),
    ("AUDIT_RETENTION_DAYS", "90d", "a whole number from 1"),
    ("MONITOR_RUN_RETENTION_DAYS", "a year", "a whole number from 0"),
    ("MONITOR_RUN_RETENTION_DAYS", "-5", "a whole number from 0"),
    ("MONITOR_RUN_CLEANUP_MAX_RUNS", "1,000", "a whole number from 0"),
    ("MONITOR_RUN_CLEANUP_MAX_RUNS", "²", "a whole number from 0"),  # a digit int() refuses
    ("PSI_ENDPOINT", "www.googleapis.com/pagespeedonline", "an http(s) URL"),
    ("PSI_ENDPOINT", "ftp://example.com/x", "an http(s) URL"),
    ("BROWSER_RENDERING_ENDPOINT", "api.cloudflare.com/client/v4", "an http(s) URL"),
    ("BROWSER_RENDERING_REQUESTS_PER_MINUTE", "0", "a whole number from 1"),
    ("ADMIN_TOKEN", " token-with-a-space", "a token without surrounding whitespace"),
    ("VERIFICATION_DOH_URL", "1.1.1.1", "an http(s) URL"),
    ("ROBOTS_OVERRIDE_PRIVATE_HOSTS", "loopback", "true or false"),
    ("CREDENTIALS_KEY", "A" * 22 + "==", "the base64 of 32 random bytes"),  # 16 bytes: AES-128
    ("CREDENTIALS_KEY", "not base64 at all!", "the base64 of 32 random bytes"),
    ("CREDENTIALS_KEY_PREVIOUS", "A" * 60, "openssl rand -base64 32"),
]


@pytest.mark.parametrize(("name", "raw", "expected"), BAD)
def test_a_bad_value_is_an_error_naming_the_var_and_what_it_expects(
    name: str, raw: str, expected: str
) -> None:
    with pytest.raises(DeploymentVarError) as caught:
        parsed(**{name: raw})
    assert caught.value.name == name
    assert f"wrangler var {name}=" in str(caught.value)
    assert expected in str(caught.value)


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("ADMIN_TOKEN", "s3cret "),
        ("CREDENTIALS_KEY", "s3cretAAAAAAAAAAAAAAAAAAAA=="),
        ("CREDENTIALS_KEY_PREVIOUS", "s3cret"),
    ],
)
def test_a_secret_s_bad_value_is_not_repeated_in_the_error(name: str, raw: str) -> None:
    with pytest.raises(DeploymentVarError) as caught:
        parsed(**{name: raw})
    assert "s3cret" not in str(caught.value)


def test_the_sealing_keys_are_not_in_the_record_s_repr() -> None:
    deployment = parsed(CREDENTIALS_KEY="A" * 43 + "=")
    assert deployment.credentials_key == bytes(32)
    assert "credentials_key" not in repr(deployment) and "x00" not in repr(deployment)


def test_every_var_but_the_key_can_be_bad() -> None:
    # PSI_API_KEY is any text Google hands out, and Browser Rendering's account id and token any
    # text Cloudflare hands out; blank means not set.
    any_text = {"PSI_API_KEY", "BROWSER_RENDERING_ACCOUNT_ID", "BROWSER_RENDERING_API_TOKEN"}
    assert {name for name, *_ in BAD} == set(VAR_NAMES) - any_text


# -- where the Worker starts ------------------------------------------------------------------


def test_the_local_platform_refuses_a_bad_var_when_it_is_built(tmp_path: Path) -> None:
    with pytest.raises(DeploymentVarError, match="MAX_PAGES_LIMIT"):
        LocalPlatform(tmp_path / "state", var_overrides={**TEST_VARS, "MAX_PAGES_LIMIT": "lots"})


def test_the_cli_refuses_a_bad_var_with_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.main import main

    argv = ["--state-dir", str(tmp_path), "serve", "--var", "CORS_ORIGINS:*"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "siteaudit: wrangler var CORS_ORIGINS='*' is not valid: expected comma-separated "
        "http(s) origins, not '*'\n"
    )


@pytest.fixture
async def misconfigured(platform: Any) -> Any:
    """A running platform whose deployment then gets a bad var (as a new version would)."""
    platform.env.RATE_LIMIT_REQUESTS_PER_MINUTE = "lots"
    return platform


async def test_fetch_refuses_to_start_with_a_bad_var(misconfigured: Any) -> None:
    request = Request("http://siteaudit.local/api/audits", method="GET")
    with pytest.raises(DeploymentVarError, match="RATE_LIMIT_REQUESTS_PER_MINUTE"):
        await misconfigured.fetch(request)


async def test_scheduled_refuses_to_start_with_a_bad_var(misconfigured: Any) -> None:
    with pytest.raises(DeploymentVarError, match="RATE_LIMIT_REQUESTS_PER_MINUTE"):
        await misconfigured.scheduled("*/15 * * * *")


async def test_queue_refuses_to_start_with_a_bad_var(misconfigured: Any) -> None:
    entry = misconfigured.entry.Default(None, misconfigured.env)
    with pytest.raises(DeploymentVarError, match="RATE_LIMIT_REQUESTS_PER_MINUTE"):
        await entry.queue(object(), misconfigured.env, None)


class Steps:
    """A workflow `step` that runs each body at once."""

    def do(self, name: str, config: Any = None) -> Any:
        def decorate(body: Any) -> Any:
            return body

        return decorate


async def test_the_workflow_fails_its_audit_naming_the_bad_var(misconfigured: Any) -> None:
    audit = AuditRecord("audit-misconfigured", "https://a.test/", "2026-01-01T00:00:00.000Z")
    await repository.insert_audit(misconfigured.env.DB, audit)
    event = {"payload": AuditParams(audit.id, audit.start_url).to_dict()}

    with pytest.raises(DeploymentVarError):
        await run_site_audit(event, Steps(), misconfigured.env, RuntimeError)  # type: ignore[arg-type]

    failed = await repository.get_audit(misconfigured.env.DB, audit.id)
    assert failed is not None and failed.status is AuditStatus.FAILED
    assert "RATE_LIMIT_REQUESTS_PER_MINUTE" in (failed.error_detail or "")
