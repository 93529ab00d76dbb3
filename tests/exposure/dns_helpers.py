"""Recorded DNS answers, in the JSON shape DoH resolvers send, and a DoH double serving them."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

from exposure.dns_records import DnsAnswer, RecordType, parse_answer
from tests.support.site_server import Reply, Site, SiteRequest, serve_site

type Zone = Mapping[tuple[str, str], dict[str, object]]


def quoted(text: str) -> str:
    """TXT data as Cloudflare prints it: quoted 255-byte character-strings."""
    chunks = [text[i : i + 255] for i in range(0, len(text), 255)] or [""]
    return " ".join('"' + chunk.replace("\\", "\\\\").replace('"', '\\"') + '"' for chunk in chunks)


def body(
    name: str, rtype: RecordType, *data: str, status: int = 0, ad: bool = False
) -> dict[str, object]:
    return {
        "Status": status,
        "TC": False,
        "RD": True,
        "RA": True,
        "AD": ad,
        "CD": False,
        "Question": [{"name": name + ".", "type": int(rtype)}],
        "Answer": [
            {"name": name + ".", "type": int(rtype), "TTL": 300, "data": item} for item in data
        ],
    }


def txt(name: str, *texts: str, status: int = 0) -> DnsAnswer:
    return parse_answer(
        name,
        RecordType.TXT,
        json.dumps(body(name, RecordType.TXT, *map(quoted, texts), status=status)).encode(),
    )


def txt_zone(zone: Mapping[str, tuple[str, ...]]) -> dict[str, DnsAnswer]:
    """TXT answers by name; a name absent from `zone` has not been asked yet."""
    return {name: txt(name, *texts) for name, texts in zone.items()}


@contextmanager
def doh_double(zone: Zone) -> Iterator[Site]:
    """A DoH JSON resolver on 127.0.0.1: `zone[(name, TYPE)]` answers, NXDOMAIN otherwise."""

    def resolve(request: SiteRequest) -> Reply:
        query = parse_qs(urlsplit(request.path).query)
        if request.headers.get("accept") != "application/dns-json":
            return Reply(415, b"", {"content-type": "text/plain"})
        key = (query["name"][0], query["type"][0])
        rtype = RecordType[key[1]]
        answer = zone.get(key) or body(key[0], rtype, status=3)
        return Reply(200, json.dumps(answer).encode(), {"content-type": "application/dns-json"})

    with serve_site({"/dns-query": resolve}) as site:
        yield site
