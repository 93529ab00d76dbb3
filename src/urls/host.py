"""The WHATWG URL host parser for special schemes: domains, IPv4 and IPv6 addresses.

Theory of operation
-------------------
`parse_host` takes the host text between the authority's userinfo and port and returns its
serialisation, or raises `InvalidHost` (the spec's "failure"). Bracketed text is an IPv6 address
(URL Standard §3.5 "IPv6 parser", serialised by §3.6 with the first longest run of zero pieces
compressed). Other text is percent-decoded, run through UTS #46 "domain to ASCII" with the URL
Standard's flags (non-transitional, CheckHyphens and VerifyDnsLength off, CheckBidi and
CheckJoiners on), checked for forbidden domain code points, and read as IPv4 when its last label
"ends in a number" (so `0x7f.1` and `2130706433` are `127.0.0.1`, and `1.2.3.256` is invalid).

ASCII domains take the spec's fast path (lowercasing is all UTS #46 does to them); only labels with
non-ASCII text or an `xn--` prefix reach the `idna` package. The stdlib's codec implements IDNA
2003, which maps `ß` to `ss` where browsers keep it, hence the package.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote_to_bytes

import idna
from idna import core as idna_core

__all__ = ["InvalidHost", "ends_in_a_number", "parse_host", "parse_ipv4", "parse_ipv6"]

_FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
_FORBIDDEN_DOMAIN = _FORBIDDEN_HOST | frozenset(map(chr, range(0x20))) | {"%", "\x7f"}
_PLAIN_ASCII_DOMAIN = re.compile(r"[A-Za-z0-9\-_.]+")  # no forbidden code point, no percent
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_RTL_CLASSES = frozenset({"R", "AL", "AN"})  # RFC 5893 §1.4: what makes a Bidi domain name


class InvalidHost(ValueError):
    """The host text is not a valid host of a special URL (the URL Standard's "failure")."""


def parse_host(text: str) -> str:
    """The serialised host of a special URL whose authority holds `text` as its host."""
    if text.startswith("["):
        if not text.endswith("]"):
            raise InvalidHost("unclosed IPv6 address")
        return "[" + serialise_ipv6(parse_ipv6(text[1:-1])) + "]"
    if _PLAIN_ASCII_DOMAIN.fullmatch(text) and "xn--" not in text.lower():
        domain = text.lower()  # the spec's ASCII fast path, without a decode round trip
    else:
        domain = _domain_to_ascii(_percent_decode(text))
        if not domain:
            raise InvalidHost("empty host")
        if not _FORBIDDEN_DOMAIN.isdisjoint(domain):
            raise InvalidHost(f"forbidden code point in {domain!r}")
    if ends_in_a_number(domain):
        return serialise_ipv4(parse_ipv4(domain))
    return domain


def _percent_decode(text: str) -> str:
    if "%" not in text:
        return text
    # "UTF-8 decode without BOM": invalid sequences become U+FFFD, which UTS #46 then refuses.
    return unquote_to_bytes(text).decode("utf-8", "replace")


def _domain_to_ascii(domain: str) -> str:
    """UTS #46 ToASCII with the URL Standard's flags; raises InvalidHost on any error."""
    try:
        mapped = idna.uts46_remap(domain, std3_rules=False, transitional=False)
    except idna.IDNAError as exc:
        raise InvalidHost(str(exc)) from None
    labels = mapped.split(".")
    unicode_labels = [_label_to_unicode(label) for label in labels]
    _check_bidi_domain(unicode_labels)
    return ".".join(_label_to_ascii(label) for label in labels)


def _label_to_unicode(label: str) -> str:
    """UTS #46 §4 Processing, step 4: the label decoded from punycode when it is an A-label, and
    checked against the validity criteria (§4.1) when it is not plain ASCII."""
    if label[:4].lower() == "xn--":
        if not label.isascii():
            raise InvalidHost(f"{label!r} is punycode with non-ASCII code points")
        unicode = _decode_punycode(label[4:])
        _check_label(unicode)
        return unicode
    if not label.isascii():
        _check_label(label)
    return label


def _label_to_ascii(label: str) -> str:
    if label.isascii():
        return label  # ASCII as written, or an A-label that `_label_to_unicode` checked
    return "xn--" + label.encode("punycode").decode("ascii")


def _decode_punycode(encoded: str) -> str:
    try:
        decoded = encoded.encode("ascii").decode("punycode")
    except UnicodeError:
        raise InvalidHost(f"invalid punycode xn--{encoded}") from None
    if not decoded or decoded.isascii():
        raise InvalidHost(f"xn--{encoded} does not encode a non-ASCII label")
    # Validity criteria 4 to 6 (UTS #46 §4.1): no "xn--" prefix and no "." in the decoded label,
    # and only code points whose status is valid or deviation (mapping leaves them unchanged).
    if decoded[:4].lower() == "xn--" or "." in decoded:
        raise InvalidHost(f"xn--{encoded} decodes to {decoded!r}, not a label")
    try:
        remapped = idna.uts46_remap(decoded, std3_rules=False, transitional=False)
    except idna.IDNAError as exc:
        raise InvalidHost(f"xn--{encoded}: {exc}") from None
    if remapped != decoded:
        raise InvalidHost(f"xn--{encoded} decodes to a label that is not in mapped form")
    return decoded


def _check_label(label: str) -> None:
    """UTS #46 §4.1 validity criteria, with CheckHyphens off and CheckJoiners on (CheckBidi is
    a property of the whole domain: `_check_bidi_domain`)."""
    if unicodedata.normalize("NFC", label) != label:
        raise InvalidHost(f"{label!r} is not in NFC")
    if unicodedata.category(label[0]).startswith("M"):
        raise InvalidHost(f"{label!r} begins with a combining mark")
    try:
        for position in range(len(label)):
            if ord(label[position]) in (0x200C, 0x200D) and not idna_core.valid_contextj(
                label, position
            ):
                raise InvalidHost(f"joiner not allowed in {label!r}")
    except idna.IDNAError as exc:
        raise InvalidHost(str(exc)) from None


def _check_bidi_domain(labels: list[str]) -> None:
    """UTS #46 §4.1 CheckBidi: in a Bidi domain name (one with a character of bidi class R, AL or
    AN anywhere, RFC 5893 §1.4), every label must satisfy RFC 5893 §2, the left-to-right ones
    too: `\u05d0.1a` is refused for its "1a", which begins with a European number."""
    if all(label.isascii() for label in labels):
        return  # ASCII has no R, AL or AN character: not a Bidi domain name
    if not any(
        _RTL_CLASSES.intersection(map(unicodedata.bidirectional, label)) for label in labels
    ):
        return
    try:
        for label in labels:
            if label:
                idna_core.check_bidi(label, check_ltr=True)
    except idna.IDNAError as exc:
        raise InvalidHost(str(exc)) from None


# -- IPv4 ---------------------------------------------------------------------------------------


def ends_in_a_number(domain: str) -> bool:
    """URL Standard "ends in a number checker": such a domain is an IPv4 address or invalid."""
    parts = domain.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if not "0" <= last[:1] <= "9":
        return False  # every IPv4 number (decimal, 0x hex, 0 octal) starts with a digit
    if last.isascii() and last.isdigit():
        return True
    return _ipv4_number(last) is not None


def parse_ipv4(domain: str) -> int:
    """URL Standard "IPv4 parser": the address as a 32-bit number."""
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        raise InvalidHost(f"{domain!r} has more than four IPv4 parts")
    numbers = [_ipv4_number(part) for part in parts]
    if None in numbers:
        raise InvalidHost(f"{domain!r} is not an IPv4 address")
    *head, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise InvalidHost(f"{domain!r} is out of the IPv4 range")
    address = last
    for index, number in enumerate(head):
        address += number * 256 ** (3 - index)
    return address


def _ipv4_number(part: str) -> int | None:
    if not part or not part.isascii():
        return None
    radix = 10
    if part[:2] in ("0x", "0X"):
        part, radix = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, radix = part[1:], 8
    if part == "":
        return 0
    if radix == 16 and not _HEX_DIGITS.issuperset(part):
        return None
    if radix != 16 and not part.isdigit():
        return None
    try:
        return int(part, radix)
    except ValueError:  # an 8 or 9 in an octal part
        return None


def serialise_ipv4(address: int) -> str:
    return ".".join(str(address >> shift & 255) for shift in (24, 16, 8, 0))


# -- IPv6 ---------------------------------------------------------------------------------------


def parse_ipv6(text: str) -> list[int]:
    """URL Standard "IPv6 parser", written over the text's pieces rather than a code point loop:
    the eight 16-bit pieces, with an optional trailing dotted IPv4 address."""
    if not text or not text.isascii():
        raise InvalidHost(f"invalid IPv6 address {text!r}")
    head_text, compressed, tail_text = text.partition("::")
    if "::" in tail_text:
        raise InvalidHost("more than one '::' in an IPv6 address")
    head = _ipv6_pieces(head_text, ipv4_allowed=not compressed)
    tail = _ipv6_pieces(tail_text, ipv4_allowed=True) if compressed else []
    missing = 8 - len(head) - len(tail)
    if (compressed and missing < 1) or (not compressed and missing != 0):
        raise InvalidHost(f"wrong number of pieces in IPv6 address {text!r}")
    return head + [0] * missing + tail


def _ipv6_pieces(text: str, *, ipv4_allowed: bool) -> list[int]:
    if text == "":
        return []
    fields = text.split(":")
    pieces: list[int] = []
    for index, field in enumerate(fields):
        if "." in field and ipv4_allowed and index == len(fields) - 1:
            address = _ipv4_in_ipv6(field)
            pieces += [address >> 16, address & 0xFFFF]
        elif 1 <= len(field) <= 4 and _HEX_DIGITS.issuperset(field):
            pieces.append(int(field, 16))
        else:
            raise InvalidHost(f"invalid IPv6 piece {field!r}")
    return pieces


def _ipv4_in_ipv6(text: str) -> int:
    """The IPv6 parser's dotted-decimal tail: exactly four decimal parts, no leading zeros."""
    parts = text.split(".")
    if len(parts) != 4:
        raise InvalidHost(f"invalid IPv4 part {text!r} of an IPv6 address")
    address = 0
    for part in parts:
        if not part.isdigit() or (len(part) > 1 and part[0] == "0") or int(part) > 255:
            raise InvalidHost(f"invalid IPv4 part {text!r} of an IPv6 address")
        address = address * 256 + int(part)
    return address


def serialise_ipv6(pieces: list[int]) -> str:
    """URL Standard §3.6: lowercase hex, the first longest run of two or more zeros as `::`."""
    start, length = _longest_zero_run(pieces)
    if length < 2:
        return ":".join(f"{piece:x}" for piece in pieces)
    head = ":".join(f"{piece:x}" for piece in pieces[:start])
    tail = ":".join(f"{piece:x}" for piece in pieces[start + length :])
    return f"{head}::{tail}"


def _longest_zero_run(pieces: list[int]) -> tuple[int, int]:
    best_start, best_length, run_start = 0, 0, -1
    for index, piece in enumerate([*pieces, 1]):
        if piece == 0 and run_start < 0:
            run_start = index
        elif piece != 0 and run_start >= 0:
            if index - run_start > best_length:
                best_start, best_length = run_start, index - run_start
            run_start = -1
    return best_start, best_length
