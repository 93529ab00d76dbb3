"""Hosts an audit must never fetch, in every spelling that reaches the same address."""

import ipaddress
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from urls.embedded_ipv4 import EMBEDDINGS
from urls.private_hosts import (
    PrivateHosts,
    host_refused,
    is_blocked_host,
    is_public_address,
    parse_ip,
)
from urls.special_purpose import IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, SpecialPurposeBlock


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "LOCALHOST.",
        "app.localhost",
        "printer.local",
        "db.internal",
        "router.home.arpa",
        "metadata.google.internal",
        "metadata",
        "127.0.0.1",
        "127.1",
        "2130706433",
        "0x7f000001",
        "0177.0.0.1",
        "0x7f.1",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "100.100.100.200",
        "0.0.0.0",
        "198.18.0.1",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "[::1]",
        "::",
        "fc00::1",
        "fd12::1",
        "fe80::1%eth0",
        "[fe80::1]",
        "::ffff:127.0.0.1",
        "::ffff:7f00:1",
        "::ffff:10.0.0.1",
        "2002:7f00:1::",
        "0x",
        "",
    ],
)
def test_private_and_special_hosts_are_blocked(host: str) -> None:
    assert is_blocked_host(host)


@pytest.mark.parametrize(
    "host",
    [
        "example.com",
        "www.example.co.uk",
        "93.184.216.34",
        "1.1.1.1",
        "2606:4700::1111",
        "::ffff:93.184.216.34",
        "localhost.example.com",
        "internal.example.com",
    ],
)
def test_public_hosts_are_allowed(host: str) -> None:
    assert not is_blocked_host(host)


@pytest.mark.parametrize("host", [".", ".."])
def test_the_dns_root_is_no_private_address(host: str) -> None:
    # `http://./` is a valid URL; its fetch fails to resolve, which is the error it gets.
    assert not host_refused(host, PrivateHosts.DENY)


@pytest.mark.parametrize(
    ("spelling", "address"),
    [
        ("2130706433", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("192.168.257", "192.168.1.1"),
    ],
)
def test_legacy_ipv4_spellings_parse_like_inet_aton(spelling: str, address: str) -> None:
    assert str(parse_ip(spelling)) == address


@pytest.mark.parametrize("host", ["256.1.1.1", "1.2.3.4.5", "08.1.1.1", "0x1g", "example"])
def test_non_addresses_are_not_parsed_as_ip(host: str) -> None:
    assert parse_ip(host) is None


@pytest.mark.parametrize(
    ("host", "deny", "loopback", "allow"),
    [
        ("example.com", False, False, False),
        ("127.0.0.1", True, False, False),
        ("127.9.9.9", True, False, False),
        ("localhost", True, False, False),
        ("::1", True, False, False),
        ("::ffff:127.0.0.1", True, False, False),
        ("10.0.0.1", True, True, False),
        ("169.254.169.254", True, True, False),
        ("192.168.1.1", True, True, False),
        ("metadata.google.internal", True, True, False),
    ],
)
def test_private_host_settings(host: str, deny: bool, loopback: bool, allow: bool) -> None:
    refused = [host_refused(host, setting) for setting in PrivateHosts]
    assert refused == [deny, loopback, allow]


# -- issue 26: IPv6 forms that carry a private IPv4, and the registries row by row -------------


@pytest.mark.parametrize(
    "host",
    [
        "64:ff9b::a9fe:a9fe",  # NAT64 (RFC 6052) to the metadata address 169.254.169.254
        "::127.0.0.1",  # IPv4-compatible loopback (RFC 4291 §2.5.5.1)
        "::7f00:1",  # the same, as the URL parser serialises it
        "::ffff:0:7f00:1",  # IPv4-translated loopback (RFC 6145)
        "::a9fe:a9fe",  # IPv4-compatible metadata address
        "64:ff9b::c0a8:101",  # NAT64 to 192.168.1.1
        "fec0::1",  # deprecated site-local (RFC 3879), outside global unicast 2000::/3
    ],
)
def test_the_reproductions_of_issue_26_are_refused(host: str) -> None:
    assert is_blocked_host(host)
    assert host_refused(f"[{host}]", PrivateHosts.DENY)
    assert host_refused(f"[{host}]", PrivateHosts.LOOPBACK)


def _networks(rows: tuple[SpecialPurposeBlock, ...]) -> list[tuple[str, str]]:
    return [(block, row.name) for row in rows for block in row.blocks]


ROWS = _networks(IPV4_SPECIAL_PURPOSE) + _networks(IPV6_SPECIAL_PURPOSE)
EMBEDDING_PREFIXES = [form.prefix for form in EMBEDDINGS]


@pytest.mark.parametrize(("block", "name"), ROWS, ids=[block for block, _ in ROWS])
def test_the_first_and_last_address_of_every_registry_row_is_refused(block: str, name: str) -> None:
    network = ipaddress.ip_network(block)
    assert not is_public_address(network[0])
    assert not is_public_address(network[-1])


def _is_embedding_row(network: ipaddress.IPv4Network | ipaddress.IPv6Network) -> bool:
    return any(network.subnet_of(prefix) for prefix in EMBEDDING_PREFIXES if network.version == 6)


PLAIN_ROWS = [
    (block, name) for block, name in ROWS if not _is_embedding_row(ipaddress.ip_network(block))
]


@pytest.mark.parametrize(("block", "name"), PLAIN_ROWS, ids=[block for block, _ in PLAIN_ROWS])
@given(fraction=st.fractions(min_value=0, max_value=1))
def test_every_address_inside_a_row_that_carries_no_ipv4_is_refused(
    block: str, name: str, fraction: Fraction
) -> None:
    # Rows whose prefix is a form that carries IPv4 (64:ff9b::/96, 2002::/16, Teredo, mapped)
    # are judged by that IPv4 instead (the embedding tests below), as is Teredo's /32 inside
    # 2001::/23.
    network = ipaddress.ip_network(block)
    address = network[int((network.num_addresses - 1) * fraction)]
    assume(not any(address in prefix for prefix in EMBEDDING_PREFIXES if address.version == 6))
    assert not is_public_address(address)


@pytest.mark.parametrize(
    "host",
    [
        "192.0.0.9",  # PCP anycast
        "192.0.0.10",  # TURN anycast
        "192.31.196.1",  # AS112-v4
        "192.52.193.1",  # AMT
        "192.175.48.1",  # AS112 direct delegation
        "2001:1::1",
        "2001:1::3",
        "2001:3::1",
        "2001:4:112::1",
        "2001:20::1",
        "2001:30::1",
        "2620:4f:8000::1",
    ],
)
def test_rows_marked_globally_reachable_are_refused_too(host: str) -> None:
    # Anycast and protocol infrastructure, never a website an audit should fetch.
    assert is_blocked_host(host)


@pytest.mark.parametrize(
    "host",
    [
        "fec0::1",
        "ff02::1",
        "ff0e::1",
        "4000::1",
        "1fff:ffff::1",
        "c000::1",
        "e000::1",
        "224.0.0.251",
    ],
)
def test_outside_global_unicast_and_multicast_is_refused(host: str) -> None:
    assert is_blocked_host(host)


# How each form carries an IPv4 (urls.embedded_ipv4), built from the RFCs' layouts rather than
# from that module, with free bits (subnets, interface ids, ports) drawn by the caller.
V4 = 0xFFFF_FFFF
PUBLIC_V4 = int(ipaddress.IPv4Address("93.184.216.34"))

type Embed = Callable[[int, int], ipaddress.IPv6Address]


def _v6(value: int) -> ipaddress.IPv6Address:
    return ipaddress.IPv6Address(value)


def _nat64_local(length: int) -> Embed:
    """64:ff9b:1::/48 with an operator prefix of `length` bits: RFC 6052 §2.2's layout."""
    prefix = int(ipaddress.IPv6Address("64:ff9b:1::"))

    def embed(v4: int, free: int) -> ipaddress.IPv6Address:
        operator = prefix | (free & ((1 << (length - 48)) - 1)) << (128 - length)
        if length == 96:
            return _v6(operator | v4)
        before_u = 64 - length  # IPv4 bits before the u-octet (bits 64 to 71)
        high, low = v4 >> (32 - before_u), v4 & ((1 << (32 - before_u)) - 1)
        return _v6(operator | high << 64 | low << (56 - (32 - before_u)))

    return embed


EMBEDS: dict[str, Embed] = {
    "mapped": lambda v4, free: _v6(0xFFFF << 32 | v4),
    "translated": lambda v4, free: _v6(0xFFFF << 48 | v4),
    "compatible": lambda v4, free: _v6(v4),
    "nat64": lambda v4, free: _v6(0x64FF9B << 96 | v4),
    "nat64-local/48": _nat64_local(48),
    "nat64-local/56": _nat64_local(56),
    "nat64-local/64": _nat64_local(64),
    "nat64-local/96": _nat64_local(96),
    "6to4": lambda v4, free: _v6(0x2002 << 112 | v4 << 80 | free & (1 << 80) - 1),
    "teredo-server": lambda v4, free: _v6(
        0x2001_0000 << 96 | v4 << 64 | (free & 0xFFFF_FFFF) << 32 | (PUBLIC_V4 ^ V4)
    ),
    "teredo-client": lambda v4, free: _v6(
        0x2001_0000 << 96 | PUBLIC_V4 << 64 | (free & 0xFFFF_FFFF) << 32 | (v4 ^ V4)
    ),
}


@pytest.mark.parametrize("form", EMBEDS)
@pytest.mark.parametrize(
    "private", ["127.0.0.1", "10.1.2.3", "169.254.169.254", "192.168.1.1", "100.64.0.1", "0.0.0.0"]
)
def test_a_private_ipv4_in_every_form_is_refused(form: str, private: str) -> None:
    address = EMBEDS[form](int(ipaddress.IPv4Address(private)), 0x1234_5678)
    assert not is_public_address(address), str(address)
    assert host_refused(f"[{address}]", PrivateHosts.DENY)


@pytest.mark.parametrize(
    "host",
    [
        "64:ff9b::5db8:d822",  # 93.184.216.34 through the well-known NAT64 prefix
        "64:ff9b::93.184.216.34",
        "2002:5db8:d822::1",  # its 6to4 network
        "2002:5db8:d822:1:2:3:4:5",
        "::ffff:93.184.216.34",  # IPv4-mapped
        "2001:0:5db8:d822:0:1:fefe:fefe",  # Teredo: public server, public client 1.1.1.1
    ],
)
def test_a_public_ipv4_in_a_routable_form_is_allowed(host: str) -> None:
    assert not is_blocked_host(host)


@pytest.mark.parametrize("layout", [48, 56, 64, 96])
def test_the_local_use_nat64_prefix_is_refused_whatever_it_carries(layout: int) -> None:
    # RFC 8215: the IPv4's place depends on the operator's prefix length; refused whole.
    assert not is_public_address(_nat64_local(layout)(PUBLIC_V4, 0))


PRIVATE_V4 = [
    network
    for row in IPV4_SPECIAL_PURPOSE
    for network in row.networks()
    if isinstance(network, ipaddress.IPv4Network)
] + [ipaddress.IPv4Network("224.0.0.0/4")]


@st.composite
def private_ipv4(draw: st.DrawFn) -> int:
    network = draw(st.sampled_from(PRIVATE_V4))
    return int(network[draw(st.integers(0, network.num_addresses - 1))])


@given(v4=private_ipv4(), form=st.sampled_from(sorted(EMBEDS)), free=st.integers(0, 2**80 - 1))
def test_every_embedding_of_a_private_ipv4_is_refused(v4: int, form: str, free: int) -> None:
    assert not is_public_address(ipaddress.IPv4Address(v4))
    assert not is_public_address(EMBEDS[form](v4, free))


@pytest.mark.parametrize(
    ("host", "loopback_setting_refuses"),
    [
        ("127.0.0.1", False),
        ("::1", False),
        ("::ffff:127.0.0.1", False),  # a dual-stack socket delivers it to 127.0.0.1
        ("::ffff:7f00:1", False),
        ("::7f00:1", True),  # IPv4-compatible: no current stack reaches 127.0.0.1 with it
        ("::ffff:0:7f00:1", True),  # IPv4-translated: likewise
        ("64:ff9b::7f00:1", True),  # the NAT64 gateway's own loopback, not this host's
        ("2002:7f00:1::", True),  # a 6to4 relay's
        ("2001:0:7f00:1::fefe:fefe", True),  # a Teredo server's
    ],
)
def test_only_this_hosts_loopback_spellings_pass_the_loopback_setting(
    host: str, loopback_setting_refuses: bool
) -> None:
    assert host_refused(f"[{host}]" if ":" in host else host, PrivateHosts.DENY)
    assert host_refused(host, PrivateHosts.LOOPBACK) is loopback_setting_refuses
