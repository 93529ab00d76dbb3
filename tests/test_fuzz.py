"""Fuzzing a real `siteaudit serve` on every route of the route table and on /mcp: no request,
however malformed, gets a 5xx (issue 26, item 5). The figure of requests sent is printed.

Two passes over the server tests/test_openapi_conformance.py starts (its setup is reused):
- schemathesis, from the served document, with fewer examples per operation than the conformance
  test since the suite's time mattered (20 per operation and mode against 25) and only the one
  check that matters here, `not_a_server_error`;
- hypothesis over what a document does not describe: raw bodies (nesting, sizes, wrong types,
  unicode, NUL bytes, invalid UTF-8) and raw query strings (unknown and repeated names, huge and
  negative integers, unicode, broken percent escapes) on every route, and JSON-RPC messages
  with arbitrary tool arguments on /mcp.

Nothing leaves the machine: a generated body that would start an audit or a monitor names the
fixture site on 127.0.0.1 (`Target.prepared`, `_pointed_home`), never a made-up URL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from api.json_body import MAX_BODY_BYTES, MAX_DEPTH
from api.mcp.tools import TOOLS
from api.routes import ROUTES
from api.routing import Access, Route
from tests.support.site_server import Site
from tests.test_openapi_conformance import Target, new_key, serving

# Examples are derandomized (the same every run), so these sizes fix what the pass covers; they
# were halved when the suite's time mattered (each example is a request to a real server).
SCHEMATHESIS_EXAMPLES = 20  # per operation and generation mode (the conformance test: 25)
RAW_EXAMPLES = 30  # per route, for bodies and query strings each
MCP_EXAMPLES = 80


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )


# -- strategies ----------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
_FIELDS = [
    "url", "max_pages", "max_depth", "include", "exclude", "fetch_timeout_s", "lighthouse",
    "lighthouse_pages", "check_external", "external_budget_s", "frequency", "hour",
    "webhook_url", "webhook_secret", "alert_score_drop", "is_active", "owner", "name",
]  # fmt: skip
_WRONG_TYPED = st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=5)


def _nested(depth: int, opener: bytes) -> bytes:
    if opener == b"[":
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"{}" + b"}" * depth


_BODIES = st.one_of(
    st.binary(max_size=300),  # invalid UTF-8, NUL bytes
    st.text(max_size=200).map(str.encode),  # unicode (hypothesis leaves out surrogates)
    st.builds(_nested, st.integers(MAX_DEPTH - 2, 5_000), st.sampled_from([b"[", b"{"])),
    _WRONG_TYPED.map(lambda fields: json.dumps(fields).encode()),
    _JSON.map(lambda value: json.dumps(value).encode()),
    st.sampled_from(
        [
            b"",
            b"null",
            b'{"url": NaN}',
            b'{"url": "\\ud800"}',
            b'{"max_pages": 1e999}',
            b"\xef\xbb\xbf{}",  # a UTF-8 byte order mark
        ]
    ),
)
_BODIES |= st.sampled_from(["digits", "string", "brackets"]).map(
    lambda kind: {  # built here: in the list above, hypothesis would repr 64 KiB of each
        "digits": b'{"max_pages": ' + b"9" * 5000 + b"}",
        "string": b'{"url": "' + b"a" * (MAX_BODY_BYTES - 20) + b'"}',
        "brackets": b"[" * (MAX_BODY_BYTES // 2),
    }[kind]
)
_NAMES = st.one_of(
    st.sampled_from(["limit", "cursor", "status", "type", "url", "severity", "page_url"]),
    st.text(max_size=10),
)
_VALUES = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
    st.text(max_size=30),
    st.sampled_from(["", "4xx", "true", "%", "%ff", "%00", "1e9", "0x10", "١٢", "𝟙"]),
)
_QUERIES = st.lists(st.tuples(_NAMES, _VALUES), max_size=6).map(
    lambda pairs: "&".join(f"{quote(n, safe='%')}={quote(v, safe='%')}" for n, v in pairs)
)


def _pointed_home(body: bytes, site: Site) -> bytes:
    """A body that parses to an object naming a URL gets the fixture site's instead."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: the nesting bodies
        return body
    if not isinstance(value, dict) or not {"url", "webhook_url"} & set(value):
        return body
    if "url" in value:
        value["url"] = site.url("/")
    value.pop("webhook_url", None)
    return json.dumps(value).encode()


# -- the passes ----------------------------------------------------------------------------------


class Sent:
    """The requests the test sent, and the 5xx answers among them."""

    def __init__(self) -> None:
        self.count = 0
        self.failures: list[str] = []

    def check(self, status: int, what: str) -> None:
        self.count += 1
        if status >= 500:
            self.failures.append(f"{status} {what}")


@pytest.mark.slow
# A failing example can hold a 64 KiB body; hypothesis warns that its repr is large, and that
# warning (an error under filterwarnings = error) would hide the failure it reports.
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
def test_no_request_gets_a_5xx(small_site: Site, tmp_path: Path) -> None:
    state = tmp_path / "state"
    key = new_key(state)
    sent = Sent()
    with serving(state) as base:
        target = Target(base, key, small_site)
        try:
            _schemathesis_pass(target, sent)
            print(f"\nfuzzing: schemathesis sent {sent.count} requests")
            for route in ROUTES:
                _raw_pass(route, target, sent)
            print(f"fuzzing: {sent.count} requests after the raw pass")
            _mcp_pass(target, sent)
        finally:
            target.client.close()
    print(f"\nfuzzing: {sent.count} requests sent, {len(sent.failures)} answered 5xx")
    assert sent.failures == []


def _schemathesis_pass(target: Target, sent: Sent) -> None:
    schema = schemathesis.openapi.from_url(f"{target.base}/api/openapi.json")
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @_settings(SCHEMATHESIS_EXAMPLES)
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case: Any) -> None:
                headers = target.prepared(case)
                response = case.call(base_url=target.base, headers=headers)
                sent.check(response.status_code, f"{case.method} {case.formatted_path}")
                case.validate_response(response, checks=[not_a_server_error])

            run()


def _raw_pass(route: Route, target: Target, sent: Sent) -> None:
    headers = {
        Access.KEY: target.key_headers,
        Access.ADMIN: target.admin_headers,
        Access.PUBLIC: {},
    }[route.access]
    takes_body = route.method in ("POST", "PATCH", "DELETE")

    @_settings(RAW_EXAMPLES)
    @given(query=_QUERIES, body=_BODIES, real=st.booleans())
    def run(query: str, body: bytes, real: bool) -> None:
        ids = dict.fromkeys(route.parameters, target.finished if real else "no-such-id")
        if route.method == "DELETE" and real:
            ids["audit_id"] = target.new_audit()  # a delete gets an audit of its own
        url = f"{route.template.format(**ids)}?{query}"
        content = _pointed_home(body, target.site) if takes_body else None
        response = target.client.request(
            route.method,
            url,
            headers={**headers, "content-type": "application/json"},
            content=content,
        )
        sent.check(response.status_code, f"{route.method} {url} {content!r:.200}")

    run()


def _tool_call(name: str, arguments: dict[str, Any], site: Site) -> bytes:
    if "url" in arguments:
        arguments["url"] = site.url("/")
    params = {"name": name, "arguments": arguments}
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    ).encode()


def _mcp_pass(target: Target, sent: Sent) -> None:
    headers = {
        **target.key_headers,
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
    }
    calls = st.builds(
        lambda name, arguments: (name, arguments),
        st.sampled_from(sorted(TOOLS)),
        st.dictionaries(
            st.sampled_from(
                ["url", "audit_id", "limit", "max_pages", "max_depth", "include", "severity",
                 "type", "status_code", "status_class", "indexable", "has_issue", "url_contains",
                 "check_external", "external_budget_s", "page_url_prefix"]
            ),
            _JSON,
            max_size=4,
        ),
    )  # fmt: skip

    @_settings(MCP_EXAMPLES)
    @given(body=_BODIES, call=calls, query=_QUERIES, raw=st.booleans())
    def run(body: bytes, call: tuple[str, dict[str, Any]], query: str, raw: bool) -> None:
        content = _pointed_home(body, target.site) if raw else _tool_call(*call, target.site)
        response = target.client.post(f"/mcp?{query}", headers=headers, content=content)
        sent.check(response.status_code, f"POST /mcp {content!r:.200}")

    run()


def test_a_body_pointing_elsewhere_is_pointed_home(small_site: Site) -> None:
    pointed = _pointed_home(b'{"url": "https://example.com/", "webhook_url": "x"}', small_site)
    assert json.loads(pointed) == {"url": small_site.url("/")}
    assert _pointed_home(b"[1]", small_site) == b"[1]"


def test_the_request_count_counts_and_5xx_fail() -> None:
    sent = Sent()
    sent.check(200, "GET /")
    sent.check(503, "GET /x")
    assert (sent.count, sent.failures) == (2, ["503 GET /x"])
