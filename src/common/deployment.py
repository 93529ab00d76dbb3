"""The deployment's settings: every wrangler.toml `[vars]` value and secret the code reads,
parsed and checked in one place.

    ALLOW_PRIVATE_HOSTS             false | loopback | true    which non-public hosts audits reach
    MAX_PAGES_LIMIT                 1 .. CRAWL.max_max_pages   the ceiling on an audit's max_pages
    CORS_ORIGINS                    origin,origin,...          browser origins allowed (CORS)
    RATE_LIMIT_REQUESTS_PER_MINUTE  0 ..  (0: off)             per API key
    RATE_LIMIT_AUDITS_PER_HOUR      0 ..  (0: off)             per API key
    MAX_RUNNING_AUDITS_PER_OWNER    0 ..  (0: off)
    MAX_MONITORS_PER_OWNER          0 ..  (0: off)
    AUDIT_RETENTION_DAYS            1 ..                       finished ad-hoc audits
    MONITOR_RUN_RETENTION_DAYS      0 ..  (0: keep every run)
    MONITOR_RUN_CLEANUP_MAX_RUNS    0 ..  (0: keep every run)  runs looked at per daily cleanup
    PSI_API_KEY        (secret)     any                        without it Lighthouse is skipped
    PSI_ENDPOINT                    an http(s) URL             PageSpeed Insights (a test double)
    BROWSER_RENDERING_ACCOUNT_ID    any                        with the token: pages are rendered
    BROWSER_RENDERING_API_TOKEN (secret) any                   by Browser Rendering (docs/rendering.md)
    BROWSER_RENDERING_ENDPOINT      an http(s) URL             Cloudflare's API (a test double)
    BROWSER_RENDERING_REQUESTS_PER_MINUTE 1 ..                 the account's REST rate (Free: 6)
    ADMIN_TOKEN        (secret)     no surrounding spaces      without it /api/keys does not exist
    VERIFICATION_DOH_URL            an http(s) URL             DoH JSON resolver for dns proofs
    ROBOTS_OVERRIDE_PRIVATE_HOSTS   false | true               ignore_robots unverified on private
                                                               hosts (the CLI's --ignore-robots)
    CREDENTIALS_KEY    (secret)     base64 of 32 bytes         seals audit credentials (common.sealing)
    CREDENTIALS_KEY_PREVIOUS (secret) base64 of 32 bytes       still opens them during a rotation

A value that is absent, or empty (blank), takes the default beside its field below; any other value
must parse, or `DeploymentVarError` names the variable, the value and what was expected: a typo
never turns a limit off or a policy open in silence.

Where "at start" is. A Worker sees `env` only inside a handler, so the Workers shells parse it first
thing in `fetch`, `scheduled` and `queue` (entry.py), the audit workflow at the top of its run
(inside the part that records a failure, so the audit fails with the message), and the local
platform when it is built (the CLI's `--var`). Core code then reads values through
`DeploymentVars.from_env(env)` where it needs them rather than receiving the record through every
signature: `env` is already what each of them is given, parsing is pure and takes microseconds, and
a deployment's vars do not change under a running isolate (changing one deploys a new version), so
every read sees what the handler checked. No cache: the local platform's tests change vars on a
live `env`, which a cache keyed by the object would hide.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from common.bindings import Env
from common.sealing import KeyRing, parse_key
from common.settings import CRAWL


class DeploymentVarError(ValueError):
    """A `[vars]` value or secret that does not parse: the deployment is misconfigured."""

    def __init__(self, name: str, value: object, expected: str) -> None:
        super().__init__(f"wrangler var {name}={value!r} is not valid: expected {expected}")
        self.name = name


# The spellings ALLOW_PRIVATE_HOSTS accepts (case-insensitive): the booleans wrangler users write,
# and the policy's own names, which the local platform writes back (`allow_private_hosts`). Each
# maps to a value of `urls.private_hosts.PrivateHosts`, which `urls` (above this layer) defines.
_PRIVATE_HOSTS_SPELLINGS = {
    **dict.fromkeys(("false", "0", "no", "deny"), "deny"),
    "loopback": "loopback",
    **dict.fromkeys(("true", "1", "yes", "allow"), "allow"),
}
# A serialised origin (RFC 6454 §6.2, what browsers send in `Origin`): scheme, host, port only.
_ORIGIN = re.compile(r"https?://[^\s/?#@]+")
_HTTP_URL = re.compile(r"https?://[^\s/?#@]+(/\S*)?")


@dataclass(frozen=True, slots=True)
class DeploymentVars:
    """What the deployment chose; the defaults are wrangler.toml's, which states their reasons."""

    # Production never audits private, loopback or link-local hosts (SSRF). A value of
    # `urls.private_hosts.PrivateHosts`: callers read it as `PrivateHosts(vars.private_hosts)`.
    private_hosts: str = "deny"
    # By default an audit may be as large as a crawl can be (common.settings.CRAWL).
    max_pages_limit: int = CRAWL.max_max_pages
    # No browser origin: no CORS headers at all.
    cors_origins: frozenset[str] = frozenset()
    # Rate limits (service.limits): what one key or owner of a shared deployment may use.
    requests_per_minute: int = 120
    audits_per_hour: int = 20
    running_audits_per_owner: int = 3
    # Monitors are not charged to the limits above; this cap bounds their load instead.
    monitors_per_owner: int = 20
    # Retention (docs/scaling.md): three months of ad-hoc audits, a year of monitor history,
    # and a daily cleanup that stays short whatever the backlog.
    audit_retention_days: int = 90
    run_retention_days: int = 365
    run_cleanup_max_runs: int = 1000
    # Lighthouse (docs/lighthouse.md): skipped without a key; Google's endpoint by default.
    psi_api_key: str | None = None
    psi_endpoint: str = "https://www.googleapis.com/pagespeedonline/v5/runPagespeed"
    # Rendering (issue 30, docs/rendering.md): Browser Rendering's REST API when both the account
    # id and the API token are set, else no renderer; the paid plan's rate (10 a second) by default.
    browser_rendering_account_id: str | None = None
    browser_rendering_api_token: str | None = field(default=None, repr=False)
    browser_rendering_endpoint: str = "https://api.cloudflare.com/client/v4"
    browser_rendering_requests_per_minute: int = 600
    # Without the secret the admin routes do not exist (api.auth).
    admin_token: str | None = None
    # -- host verification and the robots.txt override (issue 28, item 2; docs/manual/verify.md) --
    # The DNS-over-HTTPS resolver (RFC 8484, its JSON API) a `dns` proof is looked up with:
    # Cloudflare's, which answers `application/dns-json` (developers.cloudflare.com/1.1.1.1/
    # encryption/dns-over-https/make-api-requests/dns-json/); tests point it at a local double.
    verification_doh_url: str = "https://cloudflare-dns.com/dns-query"
    # Whether `ignore_robots` needs no verification for a private host the deployment audits
    # (ALLOW_PRIVATE_HOSTS): off on a Worker; the CLI turns it on for `--ignore-robots
    # --allow-private-hosts`, a person's own machine or network, which has no public owner to
    # verify.
    robots_override_private_hosts: bool = False
    # -- credentials (issue 28): the keys that seal an audit's credentials at rest
    # (common.sealing); without the current one, credentials are refused, never stored in clear.
    credentials_key: bytes | None = field(default=None, repr=False)
    credentials_key_previous: bytes | None = field(default=None, repr=False)

    def key_ring(self) -> KeyRing:
        return KeyRing(self.credentials_key, self.credentials_key_previous)

    @classmethod
    def from_env(cls, env: Env) -> DeploymentVars:
        """The deployment's settings; `DeploymentVarError` for the first value that does not
        parse."""
        values: dict[str, Any] = {}  # Any: each parser returns its own field's type
        for var in _VARS:
            raw = getattr(env, var.name, None)  # a var not set is absent from `env`
            if raw is not None and str(raw).strip():
                values[var.field] = var.parse(var.name, raw)
        return cls(**values)


# -- parsing one value -------------------------------------------------------------------------


def _count(minimum: int, maximum: Callable[[], int] | None = None) -> Callable[[str, object], int]:
    """A whole number in [minimum, maximum()]; wrangler hands vars over as strings, and a var
    written unquoted in wrangler.toml arrives as a number."""

    def parse(name: str, raw: object) -> int:
        top = None if maximum is None else maximum()
        text = str(raw).strip()
        number = int(text) if text.isascii() and text.isdigit() else None
        if number is None or number < minimum or (top is not None and number > top):
            span = f"from {minimum}" + ("" if top is None else f" to {top}")
            raise DeploymentVarError(name, raw, f"a whole number {span}")
        return number

    return parse


def _private_hosts(name: str, raw: object) -> str:
    policy = _PRIVATE_HOSTS_SPELLINGS.get(str(raw).strip().lower())
    if policy is None:
        raise DeploymentVarError(name, raw, f"one of {', '.join(_PRIVATE_HOSTS_SPELLINGS)}")
    return policy


def _origins(name: str, raw: object) -> frozenset[str]:
    # A trailing slash is forgiven: browsers never send one, but a pasted URL often has it.
    origins = {o.strip().rstrip("/") for o in str(raw).split(",") if o.strip()}
    if bad := sorted(o for o in origins if not _ORIGIN.fullmatch(o)):
        raise DeploymentVarError(name, raw, f"comma-separated http(s) origins, not {bad[0]!r}")
    return frozenset(origins)


def _url(name: str, raw: object) -> str:
    url = str(raw).strip()
    if not _HTTP_URL.fullmatch(url):
        raise DeploymentVarError(name, raw, "an http(s) URL")
    return url


def _flag(name: str, raw: object) -> bool:
    value = _FLAG_SPELLINGS.get(str(raw).strip().lower())
    if value is None:
        raise DeploymentVarError(name, raw, "true or false")
    return value


_FLAG_SPELLINGS = {
    **dict.fromkeys(("false", "0", "no"), False),
    **dict.fromkeys(("true", "1", "yes"), True),
}


def _key(name: str, raw: object) -> str:
    return str(raw).strip()


def _token(name: str, raw: object) -> str:
    # Compared with the request's Bearer token, which is read stripped (api.auth.bearer_token):
    # a token with surrounding spaces could never match.
    token = str(raw)
    if token != token.strip():
        raise DeploymentVarError(name, "<secret>", "a token without surrounding whitespace")
    return token


def _sealing_key(name: str, raw: object) -> bytes:
    key = parse_key(str(raw))
    if key is None:
        # The value is a secret: never echoed.
        raise DeploymentVarError(
            name, "<secret>", "the base64 of 32 random bytes (openssl rand -base64 32)"
        )
    return key


@dataclass(frozen=True, slots=True)
class _Var:
    name: str  # as wrangler.toml and `wrangler secret put` name it
    field: str  # DeploymentVars' field
    parse: Callable[[str, object], object]


_VARS = (
    _Var("ALLOW_PRIVATE_HOSTS", "private_hosts", _private_hosts),
    _Var("MAX_PAGES_LIMIT", "max_pages_limit", _count(1, lambda: CRAWL.max_max_pages)),
    _Var("CORS_ORIGINS", "cors_origins", _origins),
    _Var("RATE_LIMIT_REQUESTS_PER_MINUTE", "requests_per_minute", _count(0)),
    _Var("RATE_LIMIT_AUDITS_PER_HOUR", "audits_per_hour", _count(0)),
    _Var("MAX_RUNNING_AUDITS_PER_OWNER", "running_audits_per_owner", _count(0)),
    _Var("MAX_MONITORS_PER_OWNER", "monitors_per_owner", _count(0)),
    _Var("AUDIT_RETENTION_DAYS", "audit_retention_days", _count(1)),
    _Var("MONITOR_RUN_RETENTION_DAYS", "run_retention_days", _count(0)),
    _Var("MONITOR_RUN_CLEANUP_MAX_RUNS", "run_cleanup_max_runs", _count(0)),
    _Var("PSI_API_KEY", "psi_api_key", _key),
    _Var("PSI_ENDPOINT", "psi_endpoint", _url),
    _Var("BROWSER_RENDERING_ACCOUNT_ID", "browser_rendering_account_id", _key),
    _Var("BROWSER_RENDERING_API_TOKEN", "browser_rendering_api_token", _key),
    _Var("BROWSER_RENDERING_ENDPOINT", "browser_rendering_endpoint", _url),
    _Var(
        "BROWSER_RENDERING_REQUESTS_PER_MINUTE", "browser_rendering_requests_per_minute", _count(1)
    ),
    _Var("ADMIN_TOKEN", "admin_token", _token),
    _Var("VERIFICATION_DOH_URL", "verification_doh_url", _url),
    _Var("ROBOTS_OVERRIDE_PRIVATE_HOSTS", "robots_override_private_hosts", _flag),
    _Var("CREDENTIALS_KEY", "credentials_key", _sealing_key),
    _Var("CREDENTIALS_KEY_PREVIOUS", "credentials_key_previous", _sealing_key),
)
VAR_NAMES = tuple(var.name for var in _VARS)
