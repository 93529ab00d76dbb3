"""What kind of network failure a fetch that got no answer met, read from its error text.

A fetch with status 0 carries only a message (`ports.FetchResult.error`), worded by whichever
client made it: the local platform's (`local_platform.http_client`: "cannot resolve HOST: ...",
"cannot connect to HOST:PORT: [Errno 111] ...", "[SSL: CERTIFICATE_VERIFY_FAILED] ...", "refused
to connect to ...: it resolves only to non-public addresses"), the Workers shell's
(`entry.WorkersHttpClient`: "timed out after N s", and the runtime's own texts), or a driver of
ours ("tls" from security.observe). Every caller that must tell *why* nothing answered (the start
URL's failure, external links, the environment check) reads it here, so the patterns live once.

The kinds are split by blame, as h11 splits its errors: DNS, REFUSED, TLS and TIMEOUT are what
the site (or the network between) did; PRIVATE is our own address policy refusing to connect, never
the site's defect. OTHER is anything else, reported with its text.
"""

from __future__ import annotations

import re
from enum import StrEnum

__all__ = ["NetFailure", "classify_net_failure"]


class NetFailure(StrEnum):
    DNS = "dns"  # the host name did not resolve
    REFUSED = "refused"  # no server accepted the connection (refused, reset, unreachable)
    TLS = "tls"  # the TLS handshake or the certificate check failed
    TIMEOUT = "timeout"  # no answer within the time allowed
    PRIVATE = "private"  # our SSRF policy would not connect to the address the name gave
    OTHER = "other"  # anything else: the error text says what

    @property
    def description(self) -> str:
        """The failure in a few plain words, for report sentences."""
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    NetFailure.DNS: "the host name does not resolve (DNS)",
    NetFailure.REFUSED: "the connection was refused",
    NetFailure.TLS: "the secure connection (TLS) could not be set up",
    NetFailure.TIMEOUT: "no answer in time (timeout)",
    NetFailure.PRIVATE: "the host resolves only to private addresses, which the audit may not "
    "request",
    NetFailure.OTHER: "the connection failed",
}

# Most specific first: "refused to connect ... non-public addresses" is PRIVATE, not REFUSED, and a
# TLS error text may also say "connect". The rules read the text with its URLs taken out (`_URL`):
# the local platform's "fetch to URL failed: ..." names the URL, and a URL's words ("/dns-query",
# "timeout.html") are not the failure's. "resolve" is a whole word: "resolver" and "resolves" are
# other words ("it resolves only to non-public addresses" is PRIVATE).
_RULES: tuple[tuple[NetFailure, re.Pattern[str]], ...] = (
    (NetFailure.PRIVATE, re.compile(r"non-public|private address", re.I)),
    (NetFailure.TIMEOUT, re.compile(r"timed? ?out|timeout|ETIMEDOUT", re.I)),
    (
        NetFailure.TLS,
        re.compile(r"\bssl\b|\[SSL|\btls\b|certificate|handshake|WRONG_VERSION_NUMBER", re.I),
    ),
    (
        NetFailure.DNS,
        re.compile(
            r"cannot resolve|\bresolve\b|getaddrinfo|name or service|nodename|ENOTFOUND|EAI_|"
            r"\bdns\b|no address associated",
            re.I,
        ),
    ),
    (
        NetFailure.REFUSED,
        re.compile(
            r"refused|ECONNREFUSED|connect call failed|connection reset|ECONNRESET|"
            r"unreachable|no route to host|network connection lost|cannot connect",
            re.I,
        ),
    ),
)


_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.I)


def classify_net_failure(error: str | None) -> NetFailure:
    """The kind of failure an error text describes (OTHER when no rule matches)."""
    text = _URL.sub(" ", error or "")
    for kind, pattern in _RULES:
        if pattern.search(text):
            return kind
    return NetFailure.OTHER
