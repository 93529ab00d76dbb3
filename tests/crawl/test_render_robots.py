"""robots.txt for the requests a rendered page makes (crawl.render_robots): the crawl's own rules
for the audited site's hosts, as a callback for the local renderer and as Browser Rendering's
`rejectRequestPattern` regexes, which decide exactly as the rules do."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import ports
from crawl.host_robots import HostRobots
from crawl.render_robots import RenderRobots, rejected_patterns
from crawl.robots import RobotsRules
from crawl.url_policy import UrlPolicy
from render.browser_rendering import PRIVATE_REQUEST_PATTERNS, BrowserRenderingApi
from render.cloudflare import BrowserRenderingRenderer
from render.records import RenderBudget
from urls.normalise import normalise_request_target

ROBOTS = """\
User-agent: *
Disallow: /private-api/
Allow: /private-api/public/
Disallow: /*.json$
Disallow: /search?q=
"""
SUB_ROBOTS = "User-agent: *\nDisallow: /cdn-locked/\n"


def gate(*, ignore: bool = False, subdomains: bool = False) -> tuple[RenderRobots, list[str]]:
    """The gate of an audit of https://shop.example/, and the origins whose robots.txt it read."""
    robots = None if ignore else RobotsRules.from_text(ROBOTS)
    policy = UrlPolicy("https://shop.example/", robots=robots, subdomains=subdomains)
    read: list[str] = []

    async def read_robots(origin: str) -> str:
        read.append(origin)
        return SUB_ROBOTS

    return RenderRobots(policy, HostRobots(policy, read_robots)), read


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://shop.example/private-api/reviews.js", False),
        ("https://www.shop.example/private-api/reviews.js", False),  # the www twin: same rules
        ("http://shop.example/private-api/reviews.js", False),  # the other scheme: same site
        ("https://shop.example/private-api/public/app.js", True),  # the longer Allow wins
        ("https://shop.example/data/items.json", False),
        ("https://shop.example/data/items.json?v=2", True),  # `$`: the end of path and query
        ("https://shop.example/search?q=shoes", False),
        ("https://shop.example/app.js", True),
        ("https://shop.example/robots.txt", True),
        # Another site's robots.txt is not the audit's to apply (not read either).
        ("https://cdn.other.example/private-api/x.js", True),
        ("https://shop.example:8443/private-api/x.js", True),  # another origin: not the site
    ],
)
async def test_the_gate_applies_the_start_hosts_rules_to_the_site_only(
    url: str, allowed: bool
) -> None:
    robots, read = gate()
    assert await robots.allows(url) is allowed
    assert read == []


async def test_an_audit_that_ignores_robots_txt_refuses_nothing() -> None:
    robots, _ = gate(ignore=True)
    assert await robots.allows("https://shop.example/private-api/reviews.js")
    assert robots.rejected_patterns() == []


async def test_a_subdomain_is_judged_by_its_own_robots_txt_read_once() -> None:
    robots, read = gate(subdomains=True)
    assert not await robots.allows("https://static.shop.example/cdn-locked/a.js")
    assert await robots.allows("https://static.shop.example/private-api/a.js")  # not its rule
    assert not await robots.allows("https://static.shop.example/cdn-locked/b.css")
    assert read == ["https://static.shop.example"]
    # Once read, its rules go to Browser Rendering too.
    patterns = robots.rejected_patterns()
    assert any(re.search(p, "https://static.shop.example/cdn-locked/a.js") for p in patterns)


@pytest.mark.parametrize(
    ("url", "rejected"),
    [
        ("https://shop.example/private-api/reviews.js", True),
        ("https://www.shop.example/private-api/reviews.js", True),
        ("http://user@shop.example/private-api/reviews.js", True),
        ("https://shop.example/private-api/public/app.js", False),
        ("https://shop.example/data/items.json", True),
        ("https://shop.example/data/items.json?v=2", False),
        ("https://shop.example/app.js", False),
        ("https://shop.example.evil/private-api/x.js", False),  # not the host, only its prefix
        ("https://cdn.other.example/private-api/x.js", False),
    ],
)
def test_the_patterns_reject_what_the_rules_disallow(url: str, rejected: bool) -> None:
    robots, _ = gate()
    assert any(re.search(p, url) for p in robots.rejected_patterns()) is rejected


_PATH = st.text(alphabet="/ab.-~?=", max_size=8).map(lambda s: "/" + s)
_PATTERN = st.builds(
    lambda body, star, end: "/" + body.replace("!", "*") + ("*" if star else "") + end,
    st.text(alphabet="/ab.!?=", max_size=6),
    st.booleans(),
    st.sampled_from(["", "$"]),
)


@given(
    st.lists(st.tuples(st.booleans(), _PATTERN), min_size=1, max_size=5),
    st.lists(_PATH, min_size=1, max_size=10),
)
def test_the_patterns_decide_as_the_rules_do(
    rules: list[tuple[bool, str]], targets: list[str]
) -> None:
    text = "User-agent: *\n" + "".join(
        f"{'Allow' if allow else 'Disallow'}: {pattern}\n" for allow, pattern in rules
    )
    robots = RobotsRules.from_text(text)
    patterns = rejected_patterns(r"^https://site\.example", robots)
    for target in map(normalise_request_target, targets):
        rejected = any(re.search(p, "https://site.example" + target) for p in patterns)
        assert rejected is not robots.allows_target(target), (text, target, patterns)


def test_browser_rendering_is_asked_to_reject_them_with_the_private_hosts() -> None:
    robots, _ = gate()
    api = BrowserRenderingApi("acc", "tok")
    request = api.content_request(
        "https://shop.example/", RenderBudget(), robots.rejected_patterns()
    )
    assert request.body is not None
    sent = json.loads(request.body)["rejectRequestPattern"]
    assert sent == [*PRIVATE_REQUEST_PATTERNS, *robots.rejected_patterns()]
    assert len(robots.rejected_patterns()) == 3  # one per Disallow rule


async def test_the_browser_rendering_renderer_sends_the_audits_robots_patterns() -> None:
    bodies: list[bytes] = []

    class Api:
        async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
            bodies.append(request.body or b"")
            answer = json.dumps({"success": True, "result": "<html></html>"}).encode()
            return ports.FetchResult(request.url, 200, {}, answer, False, 1.0)

    robots, _ = gate()
    renderer = BrowserRenderingRenderer(BrowserRenderingApi("acc", "tok"), Api(), robots=robots)
    page = await renderer.render("https://shop.example/", RenderBudget())
    assert page.ok and page.blocked == []  # the endpoint does not say what it rejected
    sent = json.loads(bodies[0])["rejectRequestPattern"]
    assert sent[len(PRIVATE_REQUEST_PATTERNS) :] == robots.rejected_patterns()
