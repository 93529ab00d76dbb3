"""Which hosts an audit may never fetch: private, loopback, link-local, CGNAT, metadata.

Checked on the start URL and on every redirect hop before anything is fetched. Host spellings that
resolve to the same address (decimal, octal and hex IPv4, IPv4-mapped IPv6) are normalised first,
so `http://2130706433/` is as private as `http://127.0.0.1/`. No DNS is done here (the Workers
runtime's `global_fetch_strictly_public` flag is the backstop for names resolving privately).
"""

from __future__ import annotations

import ipaddress
from enum import StrEnum
from functools import lru_cache

from urls.host import InvalidHost, parse_ipv4

__all__ = [
    "PrivateHosts",
    "host_refused",
    "is_blocked_host",
    "is_loopback_host",
    "is_private_address",
    "normalise_host",
    "parse_ip",
]

_BLOCKED_NAMES = frozenset(
    {"localhost", "metadata", "metadata.google.internal", "instance-data", "metadata.azure.com"}
)
_BLOCKED_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".home.arpa")
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_BENCHMARK = ipaddress.ip_network("198.18.0.0/15")
_ALIBABA_METADATA = ipaddress.ip_address("100.100.100.200")


def normalise_host(host: str) -> str:
    """The host as the policy compares it: lowercase, no trailing dot, brackets or zone id."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host.split("%", 1)[0]  # an IPv6 zone id names an interface, not a different host


def parse_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a literal host denotes, accepting every IPv4 spelling a browser accepts
    (decimal, octal and hex parts; the URL Standard's IPv4 parser)."""
    host = normalise_host(host)
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(parse_ipv4(host))
    except InvalidHost:
        return None


def is_private_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Not a public unicast address (IPv4-mapped and 6to4 addresses judged by their IPv4)."""
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            return is_private_address(mapped)
    if isinstance(address, ipaddress.IPv4Address) and (
        address in _CGNAT or address in _BENCHMARK or address == _ALIBABA_METADATA
    ):
        return True
    return not address.is_global or address.is_multicast


class PrivateHosts(StrEnum):
    """Which non-public hosts an audit may reach: none (production), loopback only (tests and
    local sites, keeping every other private range refused), or all (`--allow-private-hosts`)."""

    DENY = "deny"
    LOOPBACK = "loopback"
    ALLOW = "allow"

    # The deployment's setting (`ALLOW_PRIVATE_HOSTS`) is parsed into one of these values by
    # common.deployment, which, below `urls`, names them as strings.


@lru_cache(maxsize=1024)
def host_refused(host: str, private_hosts: PrivateHosts) -> bool:
    """Whether the SSRF policy refuses `host` under the audit's private-host setting.

    Cached: the crawl asks about every link's host, and a site's links name few hosts; parsing
    each as an IP address (which raises for a name) cost more than the rest of the URL policy.
    The answer is a pure function of its arguments.
    """
    if private_hosts is PrivateHosts.ALLOW or not is_blocked_host(host):
        return False
    return private_hosts is PrivateHosts.DENY or not is_loopback_host(host)


def is_loopback_host(host: str) -> bool:
    """`localhost` names and loopback addresses in any spelling."""
    host = normalise_host(host)
    if host == "localhost" or host.endswith(".localhost"):
        return True
    address = parse_ip(host)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address is not None and address.is_loopback


def is_blocked_host(host: str) -> bool:
    """True when a host must not be fetched by an audit of a public site."""
    if not host.strip():
        return True
    host = normalise_host(host)
    if not host:
        # Only dots (`http://./`, a valid URL): the DNS root, which names no address of any kind;
        # its fetch fails to resolve, and says so, rather than being called private here.
        return False
    if host in _BLOCKED_NAMES or host.endswith(_BLOCKED_SUFFIXES):
        return True
    address = parse_ip(host)
    return address is not None and is_private_address(address)
