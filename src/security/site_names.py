"""Names the tests look up: Chromium's HSTS preload list and the Public Suffix List.

The Observatory checks preloading against Chromium's list (mdn/mdn-http-observatory
`src/analyzer/hsts.js`) and compares scripts' registrable domains with tldts (Public Suffix List)
in the subresource-integrity test. Here the `hstspreload` package carries Chromium's list and
`publicsuffixlist` the PSL; both are pure Python and ship their data, so they load in Pyodide.
"""

from __future__ import annotations

import ipaddress
from functools import cache

import hstspreload  # type: ignore[import-untyped]  # ships no py.typed
from publicsuffixlist import PublicSuffixList


def is_hsts_preloaded(host: str) -> bool:
    """Whether `host` (IDNA) is on Chromium's preload list, directly or by includeSubDomains."""
    if not host or _is_ip(host):
        return False
    try:
        return bool(hstspreload.in_hsts_preload(host.lower().rstrip(".")))
    except UnicodeEncodeError:
        return False  # not IDNA-encoded: no preload entry can match


@cache
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList()


def registrable_domain(host: str) -> str | None:
    """The host's registrable domain ("eTLD+1"), None for IP addresses and bare suffixes.

    tldts returns null for both, so two such hosts compare equal, as in the Observatory.
    """
    if not host or _is_ip(host):
        return None
    domain: str | None = _suffixes().privatesuffix(host.lower().rstrip("."))
    return domain


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True
