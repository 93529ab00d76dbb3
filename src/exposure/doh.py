"""DNS over HTTPS with the JSON API: one GET per question through the platform's fetch.

`GET <resolver>?name=<name>&type=<type>` with `accept: application/dns-json` (the Cloudflare and
Google JSON API; docs/exposure.md). Any failure — no response, a non-200 status, a body that is
not the expected JSON — comes back as a `DnsAnswer` with `error` set, never as an exception, so
one unreachable question cannot stop the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from urllib.parse import urlencode

from common import ports, settings
from exposure.dns_records import DnsAnswer, RecordType, failed_answer, parse_answer

__all__ = ["query", "query_all"]

ACCEPT = "application/dns-json"


async def query(name: str, rtype: RecordType, resolver_url: str | None = None) -> DnsAnswer:
    """One question to `resolver_url` (by default the exposure checks' resolver)."""
    config = settings.EXPOSURE
    resolver = resolver_url or config.doh_resolver_url
    separator = "&" if "?" in resolver else "?"
    url = resolver + separator + urlencode({"name": name, "type": rtype.name})
    request = ports.FetchRequest(
        url=url,
        timeout_s=config.doh_timeout_s,
        max_bytes=config.doh_max_bytes,
        headers={"accept": ACCEPT},
    )
    result = await ports.http_client().fetch(request)
    if result.status != 200:
        reason = result.error or f"resolver answered HTTP {result.status}"
        return failed_answer(name, rtype, reason)
    if result.truncated:
        return failed_answer(name, rtype, "resolver answer larger than the cap")
    return parse_answer(name, rtype, result.body)


async def query_all(names: Iterable[str], rtype: RecordType) -> dict[str, DnsAnswer]:
    """Answers for several names of one type, asked concurrently."""
    unique = list(dict.fromkeys(names))
    answers = await asyncio.gather(*(query(name, rtype) for name in unique))
    return dict(zip(unique, answers, strict=True))
