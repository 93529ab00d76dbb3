"""Which hosts an audit may never fetch: every non-public address, and names of local services.

This is the one SSRF decision. `host_refused` answers it for the start URL and the webhook URL at
the API (and again when an alert is delivered), for every link the crawl would follow, for every
redirect hop before it is requested, and, on the local platform, for the address a name resolved
to just before connecting (local_platform.fetch). Host spellings that reach the same address
(decimal, octal and hex IPv4; IPv6 forms that carry an IPv4) are judged as that address, so
`http://2130706433/` and `http://[::ffff:0:7f00:1]/` are as private as `http://127.0.0.1/`. No DNS
is done here: in production the Workers runtime's `global_fetch_strictly_public` flag is the
backstop for names resolving privately; locally, the connect-time check is.

The policy, as data (urls.special_purpose, urls.embedded_ipv4):
- An IPv4 address is public only outside every row of the IANA IPv4 Special-Purpose Address
  Registry and outside multicast `224.0.0.0/4`.
- An IPv6 address that carries an IPv4 address (IPv4-mapped, IPv4-translated, IPv4-compatible,
  NAT64, 6to4, Teredo) is public only if every IPv4 address it carries is; the NAT64 local-use
  prefix carries none that can be read and is refused.
- Any other IPv6 address is public only inside global unicast `2000::/3` and outside every row
  of the IANA IPv6 Special-Purpose Address Registry.

Every registry row is refused, including the few marked globally reachable (PCP and TURN anycast,
AS112, AMT, ORCHIDv2, drone identifiers, the NAT64 well-known prefix itself): each is anycast or
protocol infrastructure, never a website an audit or a webhook should reach, and a deployment
that audits one has no reason to. Embedded forms are the exception the registries leave room for
(Teredo and 6to4 are N/A there): they are judged by the IPv4 they carry.
"""

from __future__ import annotations

import ipaddress
from enum import StrEnum
from functools import lru_cache

from urls.embedded_ipv4 import carried_ipv4, embedding_of
from urls.host import InvalidHost, parse_ipv4
from urls.special_purpose import (
    IPV4_MULTICAST,
    IPV4_SPECIAL_PURPOSE,
    IPV6_GLOBAL_UNICAST,
    IPV6_SPECIAL_PURPOSE,
)

__all__ = [
    "PrivateHosts",
    "host_refused",
    "is_blocked_host",
    "is_loopback_host",
    "is_private_address",
    "is_public_address",
    "normalise_host",
    "parse_ip",
]

_BLOCKED_NAMES = frozenset(
    {"localhost", "metadata", "metadata.google.internal", "instance-data", "metadata.azure.com"}
)
_BLOCKED_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".home.arpa")
_IPV4_REFUSED = (
    *(network for row in IPV4_SPECIAL_PURPOSE for network in row.networks()),
    IPV4_MULTICAST,
)
_IPV6_REFUSED = tuple(network for row in IPV6_SPECIAL_PURPOSE for network in row.networks())


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


def is_public_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an audit may reach `address`: the policy in this module's docstring."""
    if isinstance(address, ipaddress.IPv4Address):
        return not any(address in network for network in _IPV4_REFUSED)
    form = embedding_of(address)
    if form is not None:
        carried = carried_ipv4(form, address)
        return carried is not None and all(map(is_public_address, carried))
    return address in IPV6_GLOBAL_UNICAST and not any(
        address in network for network in _IPV6_REFUSED
    )


def is_private_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Not public (`is_public_address`): private, loopback, link-local, reserved, special."""
    return not is_public_address(address)


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
    """`localhost` names and this host's loopback addresses in any spelling.

    An IPv4-mapped address of 127.0.0.0/8 counts (a dual-stack socket delivers `::ffff:127.0.0.1`
    to 127.0.0.1); the other forms that carry a loopback IPv4 do not, in the LOOPBACK setting as
    in DENY: a NAT64 gateway, a 6to4 relay or a Teredo server would deliver them to its own
    loopback, not this host's, and the IPv4-compatible and -translated forms are no way to reach
    127.0.0.1 on any current stack.
    """
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
