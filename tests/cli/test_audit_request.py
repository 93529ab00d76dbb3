"""The audit `siteaudit audit` asks for (cli.audit_request): the same `CreateAudit` the API builds
from the same options sent as a body (api.schemas, which it no longer goes through), and the same
values refused, each with a sentence naming the field (service.request_shape)."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from api.errors import BadRequest
from api.schemas import parse_create_body
from cli.audit_request import audit_request
from cli.credentials import credentials_body
from cli.main import build_parser, delivery_of
from cli.scope import scope_fields
from common.wire import JsonObject
from service.audits import CreateAudit

URL = "https://example.com/"


def parsed(argv: list[str], stdin: str = "") -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args(["audit", *argv])
    args.delivery = delivery_of(parser, args)
    args.credentials = credentials_body(parser, args, io.StringIO(stdin))
    return args


def api_body(args: argparse.Namespace) -> JsonObject:
    """The body the CLI POSTed to /api/audits before it built its own request."""
    body: JsonObject = {
        "max_pages": args.max_pages,
        "lighthouse": args.lighthouse,
        "lighthouse_pages": args.lighthouse_pages,
        "check_external": args.check_external,
        "external_budget_s": args.external_budget,
        "render": args.render,
        "ignore_robots": args.ignore_robots,
        **scope_fields(args),
    }
    if args.url is not None:
        body["url"] = args.url
    if args.credentials is not None:
        body["credentials"] = args.credentials
    return body


def through_api(args: argparse.Namespace) -> CreateAudit:
    return parse_create_body(json.dumps(api_body(args)).encode())


AGREED = {
    "defaults": [URL],
    "every option": [
        URL, "--max-pages", "120", "--lighthouse", "none", "--lighthouse-pages", "3",
        "--no-check-external", "--external-budget", "30", "--render", "never",
        "--ignore-robots", "--max-depth", "4", "--include", "/docs/", "--include", "*.html$",
        "--exclude", "/docs/old/", "--user-agent", "Bot/1.0", "--rate", "2.5",
        "--concurrency", "3", "--strip-param", "utm_*", "--strip-param", "sid", "--subdomains",
    ],
    "a sitemap list without a URL": ["--list-sitemap", "https://example.com/sitemap.xml"],
    "a sitemap list with a URL": [URL, "--list-sitemap", "https://example.com/s.xml"],
    "credentials, an origin read as the API reads it": [
        URL, "--auth", "ci:secret", "--header", "X-Token: t", "--cookie", "s=1",
        "--credentials-origin", "HTTPS://API.Example.com:443", "--send-credentials-to",
        "lighthouse",
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", AGREED)
def test_the_request_is_the_one_the_api_builds(name: str) -> None:
    args = parsed(AGREED[name])
    assert audit_request(args) == through_api(args)


def test_a_url_list_file_is_read_as_the_api_reads_its_urls(tmp_path) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_text("# pages\nhttps://example.com/a\n\nhttps://example.com/b\n")
    args = parsed(["--list", str(listed)])
    request = audit_request(args)
    assert request == through_api(args)
    assert (request.url, request.scope.urls) == (
        "https://example.com/a",
        ["https://example.com/a", "https://example.com/b"],
    )


REFUSED = {
    "no URL and no list": ([], "url is required"),
    "a URL too long": (["https://example.com/" + "a" * 2048], "url: must be 1 to 2048"),
    "a depth past the limit": ([URL, "--max-depth", "1001"], "max_depth: must be between 0"),
    "a negative depth": ([URL, "--max-depth", "-1"], "max_depth: must be between 0"),
    "an include not a path": ([URL, "--include", "docs"], "include: a URL pattern must start"),
    "an exclude not a path": ([URL, "--exclude", "x"], "exclude: a URL pattern must start"),
    "too many includes": (
        [URL, *[arg for n in range(51) for arg in ("--include", f"/p{n}")]],
        "include: at most 50 patterns",
    ),
    "a rate out of range": ([URL, "--rate", "0"], "rate_per_s must be more than 0"),
    "a concurrency out of range": ([URL, "--concurrency", "0"], "concurrency must be between"),
    "a user agent with a line break": ([URL, "--user-agent", "a\nb"], "user_agent must be"),
    "a bad parameter glob": ([URL, "--strip-param", "a=b"], "strip_params: 'a=b' is not"),
    "an origin that is not one": (
        [URL, "--cookie", "s=1", "--credentials-origin", "ftp://x"],
        "origin 'ftp://x' is not an http(s) origin",
    ),
    "a header the connection owns": ([URL, "--header", "Host: x"], "header Host"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_what_the_api_refuses_the_request_refuses_naming_the_field(name: str) -> None:
    argv, sentence = REFUSED[name]
    args = parsed(argv)
    with pytest.raises(ValueError) as refused:
        audit_request(args)
    assert sentence in str(refused.value)
    with pytest.raises(BadRequest):
        through_api(args)
