"""DNS answers as DNS-over-HTTPS JSON resolvers give them, and the record data we read.

The JSON shape is the one Cloudflare (developers.cloudflare.com/1.1.1.1/encryption/
dns-over-https/make-api-requests/dns-json/) and Google (developers.google.com/speed/public-dns/
docs/doh/json) share: `Status` (the DNS RCODE: 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN), `AD` (the
resolver validated the answer with DNSSEC), and `Answer`, a list of `{name, type, TTL, data}` with
`data` in presentation format. Two spellings differ between resolvers and both are read:

* TXT data is one or more quoted character-strings (`"v=spf1 " "-all"`, Cloudflare) or the bare
  text (Google); the strings of one record are joined without a separator (RFC 7208 §3.3).
* CAA data is `0 issue "letsencrypt.org"` (RFC 8659 §4.1.1) or, for a type the resolver does not
  know how to print, RFC 3597's generic `\\# <length> <hex>`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import IntEnum

from common.wire import JsonRecord, WireError, as_bool, as_int, as_list, as_object, as_str

__all__ = [
    "Caa",
    "DnsAnswer",
    "DnsRecord",
    "RecordType",
    "caa_of",
    "parse_answer",
    "txt_strings",
]


class RecordType(IntEnum):
    A = 1
    CNAME = 5
    MX = 15
    TXT = 16
    AAAA = 28
    CAA = 257


# RCODEs (RFC 1035 §4.1.1, RFC 6895 §2.3).
NOERROR = 0
NXDOMAIN = 3


@dataclass(frozen=True, slots=True)
class DnsRecord(JsonRecord):
    name: str
    type: int
    ttl: int
    data: str


@dataclass(frozen=True, slots=True)
class DnsAnswer(JsonRecord):
    """One question's answer; `error` set (and `status` -1) when no usable answer came back."""

    name: str
    type: int
    status: int
    authenticated: bool  # the resolver's AD flag
    records: tuple[DnsRecord, ...] = ()
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None or self.status not in (NOERROR, NXDOMAIN)

    def data_of(self, rtype: RecordType) -> list[str]:
        """The data of the records of `rtype` (answers may also hold the CNAMEs followed)."""
        return [record.data for record in self.records if record.type == rtype]


def parse_answer(name: str, rtype: RecordType, body: bytes) -> DnsAnswer:
    """A DoH JSON body as a `DnsAnswer`; a malformed body is an answer with `error` set."""
    try:
        data = as_object(json.loads(body))
        records = tuple(_record(as_object(item)) for item in as_list(data.get("Answer", [])))
        return DnsAnswer(
            name=name,
            type=int(rtype),
            status=as_int(data["Status"]),
            authenticated=as_bool(data.get("AD", False)),
            records=records,
        )
    except (ValueError, KeyError, WireError) as exc:
        return failed_answer(name, rtype, f"malformed DNS JSON: {exc}")


def failed_answer(name: str, rtype: RecordType, error: str) -> DnsAnswer:
    return DnsAnswer(name=name, type=int(rtype), status=-1, authenticated=False, error=error)


def _record(item: dict[str, object]) -> DnsRecord:
    return DnsRecord(
        name=as_str(item["name"]),
        type=as_int(item["type"]),
        ttl=as_int(item.get("TTL", 0)),
        data=as_str(item["data"]),
    )


_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_ESCAPE = re.compile(r"\\([0-9]{3}|.)", re.DOTALL)


def txt_strings(data: str) -> str:
    """A TXT record's text: its character-strings unquoted, unescaped and joined."""
    stripped = data.strip()
    if not stripped.startswith('"'):
        return stripped
    return "".join(_unescape(part) for part in _QUOTED.findall(stripped))


def _unescape(text: str) -> str:
    # RFC 1035 §5.1: \DDD is a byte in decimal, \X is X.
    def one(match: re.Match[str]) -> str:
        token = match.group(1)
        return chr(int(token)) if token.isdigit() else token

    return _ESCAPE.sub(one, text)


@dataclass(frozen=True, slots=True)
class Caa(JsonRecord):
    flags: int
    tag: str  # issue, issuewild, iodef, ... (lowercased: tags are case-insensitive)
    value: str


def caa_of(data: str) -> Caa | None:
    """A CAA record from either spelling; None when it is neither."""
    text = data.strip()
    if text.startswith("\\#"):
        return _generic_caa(text)
    parts = text.split(None, 2)
    if len(parts) != 3 or not parts[0].isdigit():
        return None
    value = parts[2]
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        value = _unescape(value[1:-1])
    return Caa(flags=int(parts[0]), tag=parts[1].lower(), value=value)


def _generic_caa(text: str) -> Caa | None:
    # RFC 3597 §5: `\# length hex...`; CAA RDATA is flags (1 byte), tag length (1), tag, value.
    fields = text.split()
    try:
        raw = bytes.fromhex("".join(fields[2:]))
    except ValueError:
        return None
    if len(raw) < 2 or len(raw) < 2 + raw[1]:
        return None
    tag_end = 2 + raw[1]
    return Caa(
        flags=raw[0],
        tag=raw[2:tag_end].decode("ascii", "replace").lower(),
        value=raw[tag_end:].decode("utf-8", "replace"),
    )
