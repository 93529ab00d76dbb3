"""crawl.scope_rules, crawl.url_policy and crawl.pacing as tables: which hosts are the site, which
parameters a URL loses, and how fast a host may be asked."""

from __future__ import annotations

import pytest

from crawl.pacing import HostPacer, capped_limits, effective_rate
from crawl.robots import RobotsRules
from crawl.scope_rules import SiteRule, strip_url
from crawl.url_policy import Decision, UrlPolicy
from crawl.window import RETRY_WINDOW_LIMITS, WINDOW_LIMITS

START = "https://www.example.co.uk/"


@pytest.mark.parametrize(
    ("url", "default", "with_subdomains"),
    [
        ("https://www.example.co.uk/a", True, True),
        ("https://example.co.uk/a", True, True),  # the www twin: always the site
        ("http://www.example.co.uk/a", True, True),  # the other scheme on default ports
        ("https://blog.example.co.uk/a", False, True),
        ("https://a.b.example.co.uk/a", False, True),
        ("http://blog.example.co.uk/a", False, True),
        ("https://blog.example.co.uk:8443/a", False, False),  # another port: another site
        ("https://other.co.uk/a", False, False),  # the same public suffix is not a domain
        ("https://example.com/a", False, False),
        ("https://co.uk/a", False, False),
    ],
)
def test_which_hosts_are_the_site(url: str, default: bool, with_subdomains: bool) -> None:
    assert SiteRule.of(START).covers_url(url) is default
    assert SiteRule.of(START, subdomains=True).covers_url(url) is with_subdomains
    off = Decision.OFF_SITE
    assert (UrlPolicy(START).decide(url, 1) is not off) is default
    assert (UrlPolicy(START, subdomains=True).decide(url, 1) is not off) is with_subdomains


def test_a_start_host_without_a_registrable_domain_keeps_the_default_rule() -> None:
    rule = SiteRule.of("http://127.0.0.1:8000/", subdomains=True)
    assert rule.covers_url("http://127.0.0.1:8000/x")
    assert not rule.covers_url("http://127.0.0.2:8000/x")


@pytest.mark.parametrize(
    ("url", "patterns", "stripped"),
    [
        ("https://e.com/a?sessionid=1&b=2", ["sessionid"], "https://e.com/a?b=2"),
        ("https://e.com/a?b=2&sessionid=1", ["sessionid"], "https://e.com/a?b=2"),
        ("https://e.com/a?utm_source=x&utm_medium=y", ["utm_*"], "https://e.com/a"),
        ("https://e.com/a?utm_source=x&id=3&utm_x", ["utm_*"], "https://e.com/a?id=3"),
        ("https://e.com/a?SessionID=1", ["sessionid"], "https://e.com/a?SessionID=1"),  # case
        ("https://e.com/a?session%69d=1", ["sessionid"], "https://e.com/a"),  # decoded name
        ("https://e.com/a?z=1&y=2&x=3", ["y"], "https://e.com/a?z=1&x=3"),  # order kept
        ("https://e.com/a?", ["x"], "https://e.com/a?"),  # nothing to strip: as written
        ("https://e.com/a?x", ["x"], "https://e.com/a"),  # a name without a value
        ("https://e.com/a?x=1", [], "https://e.com/a?x=1"),  # default: none stripped
        ("https://e.com/a?ab=1&b=2", ["b"], "https://e.com/a?ab=1"),  # whole names only
    ],
)
def test_which_parameters_a_url_loses(url: str, patterns: list[str], stripped: str) -> None:
    assert strip_url(url, patterns) == stripped
    assert UrlPolicy("https://e.com/", strip_params=tuple(patterns)).stripped(url) == stripped


def test_another_hosts_robots_txt_applies_to_that_host_only() -> None:
    blocked = RobotsRules.from_text("User-agent: *\nDisallow: /private/\n")
    policy = UrlPolicy(
        START,
        subdomains=True,
        robots=RobotsRules(),
        host_robots={"https://blog.example.co.uk": blocked},
    )
    assert policy.decide("https://blog.example.co.uk/private/x", 1) is Decision.ROBOTS_DISALLOWED
    assert policy.decide("https://www.example.co.uk/private/x", 1) is Decision.ALLOWED
    assert policy.needs_host_robots("https://shop.example.co.uk/") == "https://shop.example.co.uk"
    assert policy.needs_host_robots("https://blog.example.co.uk/") is None
    assert policy.needs_host_robots("https://www.example.co.uk/") is None


@pytest.mark.parametrize(
    ("user", "crawl_delay", "verified", "rate"),
    [
        (None, None, False, None),  # the window alone paces, as before
        (2.0, None, False, 2.0),  # a user may lower the pace
        (None, 4.0, False, 0.25),  # robots.txt's Crawl-delay holds by default
        (2.0, 4.0, False, 0.25),  # ... and a user cannot raise the rate above it
        (0.1, 4.0, False, 0.1),  # ... only lower it
        (2.0, 4.0, True, 2.0),  # a verified owner may raise it (issue 28, item 2)
        (None, 4.0, True, 0.25),  # ... and without a rate of their own the delay holds
        (3.0, 0.0, False, 3.0),  # Crawl-delay: 0 sets no rate
    ],
)
def test_the_effective_rate(
    user: float | None, crawl_delay: float | None, verified: bool, rate: float | None
) -> None:
    assert effective_rate(user, crawl_delay, verified=verified) == rate


@pytest.mark.parametrize(
    ("events", "url", "now", "wait"),
    [
        ([], "https://a.test/x", 0.0, 0.0),
        ([("https://a.test/1", 0.0)], "https://a.test/2", 0.0, 0.5),
        ([("https://a.test/1", 0.0)], "https://a.test/2", 0.2, 0.3),
        ([("https://a.test/1", 0.0)], "https://a.test/2", 0.5, 0.0),
        ([("https://a.test/1", 0.0)], "https://b.test/2", 0.0, 0.0),  # per host
        ([("https://a.test/1", 0.0), ("https://a.test/2", 0.5)], "https://a.test/3", 0.6, 0.4),
        # Stamped at launch (0.0) and again when the fetch really went (0.1): the later counts.
        ([("https://a.test/1", 0.0), ("https://a.test/1", 0.1)], "https://a.test/2", 0.5, 0.1),
        # ... and an earlier stamp never brings the next turn forward.
        ([("https://a.test/1", 0.1), ("https://a.test/1", 0.0)], "https://a.test/2", 0.5, 0.1),
    ],
)
def test_the_pacer_spaces_requests_to_one_host(
    events: list[tuple[str, float]], url: str, now: float, wait: float
) -> None:
    pacer = HostPacer(2.0)
    for started, at in events:
        pacer.started(started, at)
    assert pacer.wait_s(url, now) == pytest.approx(wait)
    assert HostPacer(None).wait_s(url, now) == 0.0


@pytest.mark.parametrize(
    ("concurrency", "initial", "minimum", "maximum"),
    [(None, 10, 5, 40), (40, 10, 5, 40), (12, 10, 5, 12), (6, 6, 5, 6), (3, 3, 3, 3), (1, 1, 1, 1)],
)
def test_concurrency_caps_the_window(
    concurrency: int | None, initial: int, minimum: int, maximum: int
) -> None:
    limits = capped_limits(WINDOW_LIMITS, concurrency)
    assert (limits.initial, limits.minimum, limits.maximum) == (initial, minimum, maximum)
    assert capped_limits(RETRY_WINDOW_LIMITS, concurrency).maximum <= (concurrency or 40)
