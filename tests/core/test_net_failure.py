"""Reading why a fetch got no answer from its error text (common.net_failure)."""

from __future__ import annotations

import pytest

from common.net_failure import NetFailure, classify_net_failure


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        # local_platform.http_client, as the fetch wraps it
        (
            "fetch to http://nx.invalid/ failed: cannot resolve nx.invalid: "
            "[Errno -2] Name or service not known",
            NetFailure.DNS,
        ),
        ("cannot resolve a.test: [Errno -3] Temporary failure in name resolution", NetFailure.DNS),
        (
            "fetch to http://127.0.0.1:9/ failed: cannot connect to 127.0.0.1:9: "
            "[Errno 111] Connect call failed ('127.0.0.1', 9)",
            NetFailure.REFUSED,
        ),
        (
            "cannot connect to 127.0.0.1:8001: [SSL: WRONG_VERSION_NUMBER] wrong version number "
            "(_ssl.c:1000)",
            NetFailure.TLS,
        ),
        (
            "cannot connect to self.test:443: [SSL: CERTIFICATE_VERIFY_FAILED] certificate "
            "verify failed: self-signed certificate (_ssl.c:1000)",
            NetFailure.TLS,
        ),
        (
            "refused to connect to evil.test:80: it resolves only to non-public addresses "
            "(10.0.0.1); set ALLOW_PRIVATE_HOSTS to reach them",
            NetFailure.PRIVATE,
        ),
        ("the server closed the connection without a response", NetFailure.OTHER),
        # The URL in the text is not the failure: its words do not count.
        (
            "fetch to https://doh.test/dns-query?name=a.test failed: cannot connect to "
            "doh.test:443: [Errno 111] Connect call failed",
            NetFailure.REFUSED,
        ),
        ("fetch to https://a.test/timeout/resolve failed: reset by gremlins", NetFailure.OTHER),
        ("could not resolve host a.test", NetFailure.DNS),
        ("resolver answered HTTP 503", NetFailure.OTHER),
        # entry.WorkersHttpClient and the Workers runtime
        ("timed out after 15 s", NetFailure.TIMEOUT),
        ("Network connection lost.", NetFailure.REFUSED),
        ("getaddrinfo ENOTFOUND nx.invalid", NetFailure.DNS),
        ("connect ECONNREFUSED 10.1.1.1:443", NetFailure.REFUSED),
        # security.observe's shorthand
        ("tls", NetFailure.TLS),
        ("", NetFailure.OTHER),
        (None, NetFailure.OTHER),
    ],
)
def test_each_client_text_reads_as_its_kind(error: str | None, kind: NetFailure) -> None:
    assert classify_net_failure(error) is kind


def test_every_kind_has_a_plain_description() -> None:
    for kind in NetFailure:
        assert kind.description and "None" not in kind.description
