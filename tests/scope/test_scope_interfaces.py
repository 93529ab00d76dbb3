"""The scope and speed options and list mode on every interface (issue 28): the API's POST
/api/audits, the CLI's flags, the MCP tool, monitors (create, edit, GET, each run) and a re-run.
Each table row is one option; each interface must carry it to the audit's `options.scope` (or its
`options`), and refuse a bad value with a 400 and a sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.mcp.tools import TOOLS, Caller, CallerTools, run_site_audit
from cli.main import build_parser
from cli.scope import read_url_list, scope_fields
from local_platform.runtime import LocalPlatform
from tests.support.site_server import Reply, Site, html_page, serve_site

# (API field, value, where the audit keeps it)
OPTIONS: list[tuple[str, Any, str]] = [
    ("max_depth", 2, "options"),
    ("include", ["/blog/"], "options"),
    ("exclude", ["/*.pdf$"], "options"),
    ("user_agent", "StagingBot/1.0 (+https://example.com/bot)", "scope"),
    ("rate_per_s", 2.5, "scope"),
    ("concurrency", 4, "scope"),
    ("strip_params", ["sessionid", "utm_*"], "scope"),
    ("subdomains", True, "scope"),
]

_STORED_NAME = {"include": "include_patterns", "exclude": "exclude_patterns"}

# (API fields, a piece of the 400's sentence)
REFUSALS: list[tuple[dict[str, Any], str]] = [
    ({"include": ["blog"]}, "a URL pattern must start with '/' or '*'"),
    ({"exclude": ["(unclosed"]}, "a URL pattern must start with '/' or '*'"),
    ({"max_depth": -1}, "max_depth"),
    ({"rate_per_s": 0}, "rate_per_s"),
    ({"rate_per_s": -2}, "rate_per_s"),
    ({"concurrency": 41}, "concurrency"),
    ({"concurrency": 0}, "concurrency"),
    ({"user_agent": "bad\nagent"}, "user_agent must be a valid HTTP field value"),
    ({"strip_params": ["a&b"]}, "is not a query parameter name or glob"),
    ({"mode": "list"}, "either urls (a non-empty list) or sitemap_url"),
    ({"mode": "sideways"}, "mode"),
    ({"urls": ["https://example.com/"]}, 'urls and sitemap_url are for mode "list"'),
]


def _stored(audit: dict[str, Any], field: str, where: str) -> Any:
    options = audit["options"]
    return options["scope"][field] if where == "scope" else options[_STORED_NAME.get(field, field)]


@pytest.fixture
def site() -> Any:
    routes = {
        "/": Reply(body=html_page("Home of the scope site", "<a href='/about?sessionid=9'>A</a>")),
        "/about": Reply(body=html_page("About the scope site", "<a href='/'>Home</a>")),
    }
    with serve_site(routes) as served:
        yield served


async def _create(platform: LocalPlatform, body: dict[str, Any]) -> tuple[int, Any]:
    return await platform.request("POST", "/api/audits", body)


@pytest.mark.parametrize(("field", "value", "where"), OPTIONS)
async def test_the_api_keeps_each_option_and_a_rerun_keeps_it_too(
    platform: LocalPlatform, site: Site, field: str, value: Any, where: str
) -> None:
    status, body = await _create(platform, {"url": site.url("/"), field: value})
    assert status == 201, body
    audit = body["audit"]
    assert _stored(audit, field, where) == value
    await platform.wait_for_workflow(audit["id"], timeout_s=30)

    status, rerun = await platform.request("POST", f"/api/audits/{audit['id']}/rerun")

    assert status in (201, 202), rerun
    assert _stored(rerun["audit"], field, where) == value


@pytest.mark.parametrize(("fields", "sentence"), REFUSALS)
async def test_the_api_refuses_a_bad_value_with_a_sentence(
    platform: LocalPlatform, fields: dict[str, Any], sentence: str
) -> None:
    status, body = await _create(platform, {"url": "http://127.0.0.1:9/", **fields})

    assert status == 400, body
    assert sentence in body["error"]["message"]


async def test_a_listed_url_off_the_site_is_refused_naming_it(
    platform: LocalPlatform, site: Site
) -> None:
    other = "http://127.0.0.2:9/x"
    status, body = await _create(platform, {"mode": "list", "urls": [site.url("/"), other]})
    assert status == 400
    assert body["error"]["message"] == (
        f"urls[1] {other} is not on the audited site ({site.origin}); pass subdomains to "
        "include other hosts of its domain"
    )


async def test_a_listed_private_url_is_refused_by_the_address_policy(tmp_path: Path) -> None:
    public = LocalPlatform(tmp_path / "state", var_overrides={"RATE_LIMIT_AUDITS_PER_HOUR": "0"})
    try:
        status, body = await _create(
            public, {"mode": "list", "urls": ["https://example.com/", "http://10.0.0.1/"]}
        )
    finally:
        await public.close()
    assert status == 400 and "urls[1]" in body["error"]["message"]


# -- what the crawl does with them -------------------------------------------------------------


async def test_the_user_agent_is_sent_on_every_request_and_robots_still_matched(
    platform: LocalPlatform,
) -> None:
    routes = {
        "/robots.txt": Reply(
            body=b"User-agent: siteaudit\nDisallow: /about\n",
            headers={"content-type": "text/plain"},
        ),
        "/": Reply(body=html_page("Home of the agent site", "<a href='/about'>A</a>")),
        "/about": Reply(body=html_page("About the agent site")),
    }
    agent = "StagingBot/1.0 (+https://example.com/bot)"
    with serve_site(routes) as served:
        status, body = await _create(platform, {"url": served.url("/"), "user_agent": agent})
        assert status == 201, body
        await platform.wait_for_workflow(body["audit"]["id"], timeout_s=30)
        requests = served.requests
    assert requests and {r.headers.get("user-agent") for r in requests} == {agent}
    assert "/about" not in {r.path for r in requests}  # the group for `siteaudit` still applies


async def test_stripped_parameters_are_gone_before_the_frontier_dedupes(
    platform: LocalPlatform, site: Site
) -> None:
    status, body = await _create(platform, {"url": site.url("/"), "strip_params": ["session*"]})
    assert status == 201, body
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=30)

    _, pages = await platform.request("GET", f"/api/audits/{audit_id}/pages")
    _, report = await platform.request("GET", f"/api/audits/{audit_id}/report")

    assert sorted(page["url"] for page in pages["pages"]) == [site.url("/"), site.url("/about")]
    assert "Query parameters stripped before deduplication: session*." in report["scope"]["facts"]


# -- the CLI -----------------------------------------------------------------------------------

CLI_FLAGS: list[tuple[list[str], dict[str, Any]]] = [
    ([], {}),
    (["--max-depth", "2"], {"max_depth": 2}),
    (["--include", "/blog/", "--include", "/docs/"], {"include": ["/blog/", "/docs/"]}),
    (["--exclude", "/*.pdf$"], {"exclude": ["/*.pdf$"]}),
    (["--user-agent", "StagingBot/1.0"], {"user_agent": "StagingBot/1.0"}),
    (["--rate", "2.5"], {"rate_per_s": 2.5}),
    (["--concurrency", "4"], {"concurrency": 4}),
    (["--strip-param", "sid", "--strip-param", "utm_*"], {"strip_params": ["sid", "utm_*"]}),
    (["--subdomains"], {"subdomains": True}),
    (
        ["--list-sitemap", "https://e.com/sitemap.xml"],
        {"mode": "list", "sitemap_url": "https://e.com/sitemap.xml"},
    ),
]


@pytest.mark.parametrize(("flags", "fields"), CLI_FLAGS)
def test_each_cli_flag_becomes_its_request_field(flags: list[str], fields: dict[str, Any]) -> None:
    args = build_parser().parse_args(["audit", "https://e.com/", *flags])
    assert scope_fields(args) == fields
    monitor = build_parser().parse_args(["monitors", "add", "https://e.com/", *flags])
    assert scope_fields(monitor) == fields


def test_a_url_list_skips_blank_lines_and_comments(tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text("# the pages this change touched\nhttps://e.com/a\n\n  https://e.com/b  \n")
    args = build_parser().parse_args(["audit", "--list", str(listing)])
    assert args.url is None
    assert scope_fields(args) == {"mode": "list", "urls": ["https://e.com/a", "https://e.com/b"]}
    assert read_url_list("#only a comment\n\n") == []


def test_the_cli_audits_a_list_from_stdin_and_refuses_a_bad_rate(tmp_path: Path) -> None:
    from tests.support.cli_process import siteaudit

    routes = {
        f"/p/{n}": Reply(body=html_page(f"Listed page {n} of the CLI site")) for n in range(3)
    }
    with serve_site(routes) as served:
        listed = "\n".join(served.url(f"/p/{n}") for n in range(2))
        done = siteaudit(
            "audit",
            "--list",
            "-",
            "--allow-private-hosts",
            "--format",
            "json",
            state_dir=tmp_path / "state",
            stdin=listed,
        )
        bad = siteaudit(
            "audit",
            served.url("/"),
            "--rate",
            "0",
            "--allow-private-hosts",
            state_dir=tmp_path / "state",
        )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["scope"]["mode"] == "list"
    assert sorted(page["url"] for page in report["pages"]) == listed.split("\n")
    assert bad.returncode == 2 and "rate_per_s" in bad.stderr


# -- the MCP tool ------------------------------------------------------------------------------


def test_the_mcp_tool_publishes_every_option() -> None:
    properties = TOOLS["run_site_audit"].input_schema["properties"]
    assert isinstance(properties, dict)
    wanted = {field for field, _, _ in OPTIONS} | {"mode", "urls", "sitemap_url"}
    assert wanted <= set(properties)


@pytest.mark.parametrize(("field", "value", "where"), OPTIONS)
async def test_the_mcp_tool_keeps_each_option(
    platform: LocalPlatform, site: Site, field: str, value: Any, where: str
) -> None:
    caller = Caller(platform.core_env, "local", "k1")
    result = await run_site_audit(caller, {"url": site.url("/"), field: value})
    audit = result["audit"]
    assert isinstance(audit, dict)
    assert _stored(audit, field, where) == value
    await platform.wait_for_workflow(str(audit["id"]), timeout_s=30)


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        ({}, 'arguments.url is required (only mode "list" may leave it out)'),
        ({"url": "https://example.com/", "user_agent": "a\tb "}, "user_agent must be a valid"),
        ({"mode": "list"}, "either urls (a non-empty list) or sitemap_url"),
    ],
)
async def test_the_mcp_tool_refuses_with_a_sentence(
    platform: LocalPlatform, arguments: dict[str, Any], sentence: str
) -> None:
    tools = CallerTools(Caller(platform.core_env, "local", "k1"))
    result: Any = await tools.call("run_site_audit", arguments)
    assert result["isError"] is True
    assert sentence in result["content"][0]["text"]


# -- monitors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("field", "value", "where"), OPTIONS)
async def test_monitors_keep_each_option_on_create_edit_and_read(
    platform: LocalPlatform, site: Site, field: str, value: Any, where: str
) -> None:
    status, created = await platform.request("POST", "/api/monitors", {"url": site.url("/")})
    assert status == 201, created
    monitor_id = created["monitor"]["id"]

    status, edited = await platform.request("PATCH", f"/api/monitors/{monitor_id}", {field: value})
    _, read = await platform.request("GET", f"/api/monitors/{monitor_id}")

    assert status == 200, edited
    kept = read["monitor"]["scope"][field] if where == "scope" else read["monitor"][field]
    assert kept == value
    status, again = await platform.request(
        "POST", "/api/monitors", {"url": site.url("/"), field: value}
    )
    assert status == 201, again
    made = again["monitor"]["scope"][field] if where == "scope" else again["monitor"][field]
    assert made == value


@pytest.mark.parametrize(("fields", "sentence"), REFUSALS[2:])
async def test_monitors_refuse_a_bad_value_with_a_sentence(
    platform: LocalPlatform, site: Site, fields: dict[str, Any], sentence: str
) -> None:
    status, body = await platform.request("POST", "/api/monitors", {"url": site.url("/"), **fields})
    assert status == 400, body
    assert sentence in body["error"]["message"]
