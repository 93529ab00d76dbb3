"""Hosts an audit must never fetch, in every spelling that reaches the same address."""

import pytest

from urls.private_hosts import PrivateHosts, host_refused, is_blocked_host, parse_ip


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
