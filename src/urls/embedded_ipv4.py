"""IPv6 addresses that carry an IPv4 address, and the IPv4 address(es) each one carries.

An IPv6 address in one of these forms reaches, or names, the IPv4 address inside it: a dual-stack
socket connects `::ffff:10.0.0.1` to 10.0.0.1, a NAT64 gateway forwards `64:ff9b::a9fe:a9fe` to
169.254.169.254, a 6to4 relay sends `2002:7f00:1::` to 127.0.0.1. The private-host policy
(urls.private_hosts) judges such an address by what it carries.

| form | prefix | where the IPv4 sits | reference |
|---|---|---|---|
| IPv4-mapped | `::ffff:0:0/96` | last 32 bits | RFC 4291 §2.5.5.2 |
| IPv4-translated | `::ffff:0:0:0/96` | last 32 bits | RFC 2765 §2.1, RFC 6145 |
| IPv4-compatible (deprecated) | `::/96` except `::` and `::1` | last 32 bits | RFC 4291 §2.5.5.1 |
| NAT64 well-known prefix | `64:ff9b::/96` | last 32 bits | RFC 6052 §2.1, §2.2 |
| NAT64 local-use prefix | `64:ff9b:1::/48` | unknown: refused | RFC 8215 |
| 6to4 | `2002::/16` | bits 16 to 47 | RFC 3056 §2 |
| Teredo | `2001::/32` | server: bits 32 to 63; client: bits 96 to 127, inverted | RFC 4380 §4 |

`::` and `::1` are not IPv4-compatible addresses (RFC 4291 §2.5.5.1 requires a global IPv4 in
the low bits); they are judged by their own registry rows.

The local-use prefix carries no IPv4 this module can read. RFC 8215 leaves the operator to choose
a prefix of /48, /56, /64 or /96 inside it, and RFC 6052 §2.2 puts the IPv4 address at a
different place for each (split around the reserved u-octet for all but /96). Judging every
layout it could carry would refuse all real addresses anyway: an address built for one layout
reads as 0.x.x.x (the "this network" block, refused) in the others, because the bits the other
layouts use are zero. So the form is named here and refused whole, which is also what the
registry says of it (globally reachable: False): it leads into one operator's network only.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["EMBEDDINGS", "Embedding", "carried_ipv4", "embedding_of"]

_IPV4_BITS = 0xFFFF_FFFF

type Carried = Callable[[int], tuple[ipaddress.IPv4Address, ...]]


def _at(first_bit: int, *, inverted: bool = False) -> Callable[[int], ipaddress.IPv4Address]:
    """The 32 bits starting `first_bit` bits into the address (0 = its most significant bit)."""
    shift = 128 - 32 - first_bit

    def read(value: int) -> ipaddress.IPv4Address:
        bits = (value >> shift) & _IPV4_BITS
        return ipaddress.IPv4Address(bits ^ _IPV4_BITS if inverted else bits)

    return read


def _carrying(*readers: Callable[[int], ipaddress.IPv4Address]) -> Carried:
    return lambda value: tuple(read(value) for read in readers)


@dataclass(frozen=True, slots=True)
class Embedding:
    """A form of IPv6 address that carries IPv4; `carried` reads them (None: unreadable)."""

    name: str
    prefix: ipaddress.IPv6Network
    reference: str
    carried: Carried | None
    not_this_form: frozenset[ipaddress.IPv6Address] = frozenset()

    def holds(self, address: ipaddress.IPv6Address) -> bool:
        return address in self.prefix and address not in self.not_this_form


EMBEDDINGS: tuple[Embedding, ...] = (
    Embedding(
        "IPv4-mapped",
        ipaddress.IPv6Network("::ffff:0:0/96"),
        "RFC 4291 §2.5.5.2",
        _carrying(_at(96)),
    ),
    Embedding(
        "IPv4-translated",
        ipaddress.IPv6Network("::ffff:0:0:0/96"),
        "RFC 2765 §2.1; RFC 6145",
        _carrying(_at(96)),
    ),
    Embedding(
        "IPv4-compatible",
        ipaddress.IPv6Network("::/96"),
        "RFC 4291 §2.5.5.1",
        _carrying(_at(96)),
        frozenset({ipaddress.IPv6Address("::"), ipaddress.IPv6Address("::1")}),
    ),
    Embedding(
        "NAT64 well-known prefix",
        ipaddress.IPv6Network("64:ff9b::/96"),
        "RFC 6052 §2.1",
        _carrying(_at(96)),
    ),
    Embedding("NAT64 local-use prefix", ipaddress.IPv6Network("64:ff9b:1::/48"), "RFC 8215", None),
    Embedding("6to4", ipaddress.IPv6Network("2002::/16"), "RFC 3056 §2", _carrying(_at(16))),
    Embedding(
        "Teredo",
        ipaddress.IPv6Network("2001::/32"),
        "RFC 4380 §4",
        _carrying(_at(32), _at(96, inverted=True)),
    ),
)


def embedding_of(address: ipaddress.IPv6Address) -> Embedding | None:
    """The form `address` is in, if it carries IPv4 (the forms' prefixes do not overlap)."""
    return next((form for form in EMBEDDINGS if form.holds(address)), None)


def carried_ipv4(
    form: Embedding, address: ipaddress.IPv6Address
) -> tuple[ipaddress.IPv4Address, ...] | None:
    """The IPv4 address(es) `address`, in `form`, carries; None if they cannot be read."""
    return None if form.carried is None else form.carried(int(address))
