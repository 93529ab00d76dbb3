"""The IANA IPv4 and IPv6 Special-Purpose Address Registries, row by row, as data.

Source: https://www.iana.org/assignments/iana-ipv4-special-registry and
https://www.iana.org/assignments/iana-ipv6-special-registry (the registries RFC 6890 created and
RFC 8190 updated), transcribed with every row and every column as published; the IPv6 registry
as of its 2025-04 row (`100:0:0:1::/64`, RFC 9780). Terms: IANA and the IETF Trust dedicate the
protocol registries to the public domain under CC0 1.0 ("Joint Statement of IANA and IETF
Concerning Copyright Rights in the Protocol Registries", 10 November 2021,
https://www.iana.org/help/licensing-terms). A registry change is a new row or a changed column
here, with its RFC; tests/urls/test_private_hosts.py checks an address inside every row.

Two blocks from other IANA registries complete the policy: IPv6 global unicast `2000::/3` (IANA
IPv6 Address Space registry, RFC 4291 §2.4), outside of which no IPv6 address is public (that is
what refuses the deprecated site-local `fec0::/10`, RFC 3879, and the rest of the reserved
space), and IPv4 multicast `224.0.0.0/4` (IANA IPv4 Multicast Address Space registry, RFC 5771).

A boolean column that the registry leaves blank (the terminated rows) or marks N/A (Teredo and
6to4, whose reachability depends on the IPv4 they carry) is None. The policy that reads these
rows is urls.private_hosts: it refuses every row, whatever its "globally reachable" column says
(see there why).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

__all__ = [
    "IPV4_MULTICAST",
    "IPV4_SPECIAL_PURPOSE",
    "IPV6_GLOBAL_UNICAST",
    "IPV6_SPECIAL_PURPOSE",
    "SpecialPurposeBlock",
]

type Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class SpecialPurposeBlock:
    """One registry row; its columns keep the registry's names and order (RFC 6890 §2.1)."""

    blocks: tuple[str, ...]  # one row names two blocks: 192.0.0.170/32 and 192.0.0.171/32
    name: str
    rfc: str
    allocated: str
    terminated: str | None
    source: bool | None
    destination: bool | None
    forwardable: bool | None
    globally_reachable: bool | None
    reserved_by_protocol: bool | None

    def networks(self) -> tuple[Network, ...]:
        return tuple(ipaddress.ip_network(block) for block in self.blocks)


def _row(
    blocks: str,
    name: str,
    rfc: str,
    allocated: str,
    terminated: str | None,
    columns: tuple[bool | None, bool | None, bool | None, bool | None, bool | None],
) -> SpecialPurposeBlock:
    source, destination, forwardable, reachable, reserved = columns
    return SpecialPurposeBlock(
        tuple(blocks.split(", ")),
        name,
        rfc,
        allocated,
        terminated,
        source,
        destination,
        forwardable,
        reachable,
        reserved,
    )


T, F, NA = True, False, None  # the registry's True, False, and its N/A or blank cells

# Columns: Source, Destination, Forwardable, Globally Reachable, Reserved-by-Protocol.
IPV4_SPECIAL_PURPOSE: tuple[SpecialPurposeBlock, ...] = (
    _row("0.0.0.0/8", '"This network"', "RFC 791 §3.2", "1981-09", None, (T, F, F, F, T)),
    _row(
        "0.0.0.0/32",
        '"This host on this network"',
        "RFC 1122 §3.2.1.3",
        "1981-09",
        None,
        (T, F, F, F, T),
    ),
    _row("10.0.0.0/8", "Private-Use", "RFC 1918", "1996-02", None, (T, T, T, F, F)),
    _row("100.64.0.0/10", "Shared Address Space", "RFC 6598", "2012-04", None, (T, T, T, F, F)),
    # Loopback's four False cells carry footnote [1]: protocols granted exceptions (RFC 8029,
    # RFC 5884).
    _row("127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3", "1981-09", None, (F, F, F, F, T)),
    _row("169.254.0.0/16", "Link Local", "RFC 3927", "2005-05", None, (T, T, F, F, T)),
    _row("172.16.0.0/12", "Private-Use", "RFC 1918", "1996-02", None, (T, T, T, F, F)),
    # Footnote [2]: "Not useable unless by virtue of a more specific reservation."
    _row(
        "192.0.0.0/24",
        "IETF Protocol Assignments",
        "RFC 6890 §2.1",
        "2010-01",
        None,
        (F, F, F, F, F),
    ),
    _row(
        "192.0.0.0/29",
        "IPv4 Service Continuity Prefix",
        "RFC 7335",
        "2011-06",
        None,
        (T, T, T, F, F),
    ),
    _row("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", "2015-03", None, (T, F, F, F, F)),
    _row(
        "192.0.0.9/32",
        "Port Control Protocol Anycast",
        "RFC 7723",
        "2015-10",
        None,
        (T, T, T, T, F),
    ),
    _row(
        "192.0.0.10/32",
        "Traversal Using Relays around NAT Anycast",
        "RFC 8155",
        "2017-02",
        None,
        (T, T, T, T, F),
    ),
    _row(
        "192.0.0.170/32, 192.0.0.171/32",
        "NAT64/DNS64 Discovery",
        "RFC 8880; RFC 7050 §2.2",
        "2013-02",
        None,
        (F, F, F, F, T),
    ),
    _row(
        "192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", "2010-01", None, (F, F, F, F, F)
    ),
    _row("192.31.196.0/24", "AS112-v4", "RFC 7535", "2014-12", None, (T, T, T, T, F)),
    _row("192.52.193.0/24", "AMT", "RFC 7450", "2014-12", None, (T, T, T, T, F)),
    _row(
        "192.88.99.0/24",
        "Deprecated (6to4 Relay Anycast)",
        "RFC 7526",
        "2001-06",
        "2015-03",
        (NA, NA, NA, NA, NA),
    ),
    _row(
        "192.88.99.2/32", "6a44-relay anycast address", "RFC 6751", "2012-10", None, (T, T, T, F, F)
    ),
    _row("192.168.0.0/16", "Private-Use", "RFC 1918", "1996-02", None, (T, T, T, F, F)),
    _row(
        "192.175.48.0/24",
        "Direct Delegation AS112 Service",
        "RFC 7534",
        "1996-01",
        None,
        (T, T, T, T, F),
    ),
    # RFC 2544 prints the range with a typo (192.18.0.0); RFC 6815 §4.2 restates 198.18.0.0/15.
    _row("198.18.0.0/15", "Benchmarking", "RFC 2544", "1999-03", None, (T, T, T, F, F)),
    _row(
        "198.51.100.0/24",
        "Documentation (TEST-NET-2)",
        "RFC 5737",
        "2010-01",
        None,
        (F, F, F, F, F),
    ),
    _row(
        "203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", "2010-01", None, (F, F, F, F, F)
    ),
    _row("240.0.0.0/4", "Reserved", "RFC 1112 §4", "1989-08", None, (F, F, F, F, T)),
    _row(
        "255.255.255.255/32",
        "Limited Broadcast",
        "RFC 8190; RFC 919 §7",
        "1984-10",
        None,
        (F, T, F, F, T),
    ),
)

IPV6_SPECIAL_PURPOSE: tuple[SpecialPurposeBlock, ...] = (
    _row("::1/128", "Loopback Address", "RFC 4291", "2006-02", None, (F, F, F, F, T)),
    _row("::/128", "Unspecified Address", "RFC 4291", "2006-02", None, (T, F, F, F, T)),
    _row("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", "2006-02", None, (F, F, F, F, T)),
    _row("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", "2010-10", None, (T, T, T, T, F)),
    _row("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", "2017-06", None, (T, T, T, F, F)),
    _row("100::/64", "Discard-Only Address Block", "RFC 6666", "2012-06", None, (T, T, T, F, F)),
    _row("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", "2025-04", None, (T, F, F, F, F)),
    # Footnote [1] on the four False cells: "Unless allowed by a more specific allocation."
    _row("2001::/23", "IETF Protocol Assignments", "RFC 2928", "2000-09", None, (F, F, F, F, F)),
    # Globally Reachable N/A, footnote [2]: "See Section 5 of [RFC4380] for details."
    _row("2001::/32", "TEREDO", "RFC 4380; RFC 8190", "2006-01", None, (T, T, T, NA, F)),
    _row(
        "2001:1::1/128",
        "Port Control Protocol Anycast",
        "RFC 7723",
        "2015-10",
        None,
        (T, T, T, T, F),
    ),
    _row(
        "2001:1::2/128",
        "Traversal Using Relays around NAT Anycast",
        "RFC 8155",
        "2017-02",
        None,
        (T, T, T, T, F),
    ),
    _row(
        "2001:1::3/128",
        "DNS-SD Service Registration Protocol Anycast",
        "RFC 9665",
        "2024-04",
        None,
        (T, T, T, T, F),
    ),
    _row(
        "2001:2::/48",
        "Benchmarking",
        "RFC 5180; RFC Errata 1752",
        "2008-04",
        None,
        (T, T, T, F, F),
    ),
    _row("2001:3::/32", "AMT", "RFC 7450", "2014-12", None, (T, T, T, T, F)),
    _row("2001:4:112::/48", "AS112-v6", "RFC 7535", "2014-12", None, (T, T, T, T, F)),
    _row(
        "2001:10::/28",
        "Deprecated (previously ORCHID)",
        "RFC 4843",
        "2007-03",
        "2014-03",
        (NA, NA, NA, NA, NA),
    ),
    _row("2001:20::/28", "ORCHIDv2", "RFC 7343", "2014-07", None, (T, T, T, T, F)),
    _row(
        "2001:30::/28",
        "Drone Remote ID Protocol Entity Tags (DETs) Prefix",
        "RFC 9374",
        "2022-12",
        None,
        (T, T, T, T, F),
    ),
    _row("2001:db8::/32", "Documentation", "RFC 3849", "2004-07", None, (F, F, F, F, F)),
    # Globally Reachable N/A, footnote [3]: "See [RFC3056] for details."
    _row("2002::/16", "6to4", "RFC 3056", "2001-02", None, (T, T, T, NA, F)),
    _row(
        "2620:4f:8000::/48",
        "Direct Delegation AS112 Service",
        "RFC 7534",
        "2011-05",
        None,
        (T, T, T, T, F),
    ),
    _row("3fff::/20", "Documentation", "RFC 9637", "2024-07", None, (F, F, F, F, F)),
    _row("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", "2024-04", None, (T, T, T, F, F)),
    # Footnote [4]: drawn from global unicast space, "but is specified as not globally routed".
    _row("fc00::/7", "Unique-Local", "RFC 4193; RFC 8190", "2005-10", None, (T, T, T, F, F)),
    _row("fe80::/10", "Link-Local Unicast", "RFC 4291", "2006-02", None, (T, T, F, F, T)),
)

IPV6_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")  # IANA IPv6 Address Space; RFC 4291 §2.4
IPV4_MULTICAST = ipaddress.IPv4Network("224.0.0.0/4")  # IANA IPv4 Multicast Address Space; RFC 5771
