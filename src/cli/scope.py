"""The scope and speed options of `siteaudit audit` and `siteaudit monitors add`, and list mode
(issue 28): the flags, and the request fields they become (the API's names; auditdb.scope checks
them and the API's 400 sentence is what the command prints).

    --max-depth N            clicks from the start URL followed at most
    --include PATTERN        crawl only URLs matching one (repeatable; robots.txt patterns)
    --exclude PATTERN        never crawl URLs matching one (repeatable)
    --user-agent UA          the User-Agent sent (robots.txt is still matched on `siteaudit`)
    --rate N                 at most N requests a second to one host (above a Crawl-delay only
                             for a verified host)
    --concurrency N          at most N page fetches in flight
    --strip-param NAME       remove a query parameter, or a glob of them (`utm_*`) (repeatable)
    --subdomains             also crawl other hosts under the start host's registrable domain
    --list FILE              audit exactly the URLs in FILE (`-`: stdin), one a line; blank
                             lines and lines starting with `#` are skipped
    --list-sitemap URL       audit exactly the URLs that sitemap lists
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.wire import JsonObject

__all__ = ["add_scope_arguments", "read_url_list", "scope_fields"]


def add_scope_arguments(parser: argparse.ArgumentParser, *, lists: bool = True) -> None:
    group = parser.add_argument_group("scope and speed")
    group.add_argument("--max-depth", type=int, metavar="N", help="clicks followed at most")
    group.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="PATTERN",
        help="crawl only URLs matching a robots.txt-style pattern such as /blog/ (repeatable)",
    )
    group.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="never crawl URLs matching the pattern, e.g. '/*.pdf$' (repeatable)",
    )
    group.add_argument(
        "--user-agent",
        metavar="UA",
        help="the User-Agent header to send; robots.txt is still matched on 'siteaudit'",
    )
    group.add_argument(
        "--rate",
        type=float,
        metavar="N",
        help="at most N requests a second to one host (a robots.txt Crawl-delay still holds "
        "unless you verified the host: siteaudit verify)",
    )
    group.add_argument("--concurrency", type=int, metavar="N", help="page fetches in flight")
    group.add_argument(
        "--strip-param",
        action="append",
        default=[],
        metavar="NAME",
        help="remove a query parameter from every URL, or a glob of them like 'utm_*' (repeatable)",
    )
    group.add_argument(
        "--subdomains",
        action="store_true",
        help="also crawl other hosts under the start host's registrable domain",
    )
    if not lists:
        return
    source = group.add_mutually_exclusive_group()
    source.add_argument(
        "--list",
        dest="list_file",
        metavar="FILE",
        help="audit exactly the URLs in FILE ('-' for stdin), one a line, following no link",
    )
    source.add_argument(
        "--list-sitemap", metavar="URL", help="audit exactly the URLs a sitemap lists"
    )


def read_url_list(text: str) -> list[str]:
    """One URL a line; blank lines and `#` comments are skipped."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _list_text(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    return Path(name).read_text(encoding="utf-8")


def scope_fields(args: argparse.Namespace) -> JsonObject:
    """The request fields of the flags given; a flag left out leaves its field out (the API's
    default). An unreadable list file raises OSError."""
    # A command built without these flags (`siteaudit demo`'s audit) sends none of them.
    given = vars(args)
    fields: JsonObject = {}
    optional = {
        "max_depth": given.get("max_depth"),
        "user_agent": given.get("user_agent"),
        "rate_per_s": given.get("rate"),
        "concurrency": given.get("concurrency"),
    }
    fields.update({name: value for name, value in optional.items() if value is not None})
    repeated = {
        "include": given.get("include"),
        "exclude": given.get("exclude"),
        "strip_params": given.get("strip_param"),
    }
    fields.update({name: list(value) for name, value in repeated.items() if value})
    if given.get("subdomains"):
        fields["subdomains"] = True
    list_file, sitemap = given.get("list_file"), given.get("list_sitemap")
    if list_file is not None:
        fields.update(mode="list", urls=read_url_list(_list_text(list_file)))
    elif sitemap is not None:
        fields.update(mode="list", sitemap_url=sitemap)
    return fields
