"""The crawl scope: one reason per URL, checked in a fixed order (see crawl/url_policy.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crawl.robots import RobotsRules
from crawl.url_policy import Decision, UrlPolicy
from tests.support.counted_calls import counted_calls
from urls.private_hosts import PrivateHosts

START = "https://www.example.com/"
ROBOTS = RobotsRules.from_text(
    "User-agent: *\nDisallow: /\n\nUser-agent: siteaudit\nDisallow: /admin/\nDisallow: /*.pdf$\n"
)
POLICY = UrlPolicy(
    start_url=START,
    include=("/",),
    exclude=("/tmp/", "/*?sessionid=", "/*.zip$"),
    max_depth=3,
    robots=ROBOTS,
)


@pytest.mark.parametrize(
    ("url", "depth", "decision"),
    [
        ("https://www.example.com/", 0, Decision.ALLOWED),
        ("https://example.com/about", 1, Decision.ALLOWED),  # apex of a www start URL
        ("http://www.example.com/about", 1, Decision.ALLOWED),  # scheme upgrade, default ports
        ("https://www.example.com/a/b/c", None, Decision.ALLOWED),  # unknown depth
        ("mailto:info@example.com", 1, Decision.NOT_HTTP),
        ("javascript:void(0)", 1, Decision.NOT_HTTP),
        ("ftp://www.example.com/file", 1, Decision.NOT_HTTP),
        ("/relative/path", 1, Decision.NOT_HTTP),  # decide takes absolute URLs
        ("https://www.example.com:99999/", 1, Decision.MALFORMED),
        ("https://exa mple.com/", 1, Decision.MALFORMED),
        ("http://localhost/", 1, Decision.BLOCKED_HOST),
        ("http://169.254.169.254/latest/meta-data/", 1, Decision.BLOCKED_HOST),
        ("http://2130706433/", 1, Decision.BLOCKED_HOST),
        ("http://[::1]/", 1, Decision.BLOCKED_HOST),
        ("https://db.internal/", 1, Decision.BLOCKED_HOST),
        ("https://other.example.org/", 1, Decision.OFF_SITE),
        ("https://blog.example.com/", 1, Decision.OFF_SITE),
        ("https://www.example.com:8443/", 1, Decision.OFF_SITE),
        ("https://www.example.com/cdn-cgi/l/email-protection", 1, Decision.RESERVED_PATH),
        ("https://www.example.com/cdn-cgi", 1, Decision.RESERVED_PATH),
        ("https://www.example.com/cdn-cgi-docs/", 1, Decision.ALLOWED),
        ("https://www.example.com/tmp/x", 1, Decision.EXCLUDED),
        ("https://www.example.com/cart?sessionid=1", 1, Decision.EXCLUDED),
        ("https://www.example.com/cart?a=1&sessionid=1", 1, Decision.ALLOWED),  # "?sessionid=" only
        ("https://www.example.com/files/a.zip", 1, Decision.EXCLUDED),
        ("https://www.example.com/files/a.zip?v=2", 1, Decision.ALLOWED),
        ("https://www.example.com/deep", 3, Decision.ALLOWED),
        ("https://www.example.com/deeper", 4, Decision.TOO_DEEP),
        ("https://www.example.com/admin/", 1, Decision.ROBOTS_DISALLOWED),  # our group, not "*"
        ("https://www.example.com/docs/a.pdf", 1, Decision.ROBOTS_DISALLOWED),
        ("https://www.example.com/robots.txt", 1, Decision.ALLOWED),
    ],
)
def test_decisions(url: str, depth: int | None, decision: Decision) -> None:
    assert POLICY.decide(url, depth) is decision


@pytest.mark.parametrize(
    ("url", "depth", "decision"),
    [
        # blocked host beats off-site: an SSRF attempt is counted as one.
        ("http://127.0.0.1/cdn-cgi/x", 9, Decision.BLOCKED_HOST),
        # off-site beats everything below it.
        ("https://other.example/tmp/a.zip", 9, Decision.OFF_SITE),
        # the reserved path beats the user's patterns and robots.
        ("https://www.example.com/cdn-cgi/tmp/", 9, Decision.RESERVED_PATH),
        # exclusion beats depth and robots.
        ("https://www.example.com/tmp/admin/", 9, Decision.EXCLUDED),
        # depth beats robots.
        ("https://www.example.com/admin/", 9, Decision.TOO_DEEP),
    ],
)
def test_the_first_failing_check_names_the_reason(url: str, depth: int, decision: Decision) -> None:
    assert POLICY.decide(url, depth) is decision


@pytest.mark.parametrize(
    ("include", "exclude", "path", "decision"),
    [
        ((), (), "/anything", Decision.ALLOWED),  # no include patterns: everything included
        (("/blog/",), (), "/blog/", Decision.ALLOWED),
        (("/blog/",), (), "/blog/post?page=2", Decision.ALLOWED),
        (("/blog/",), (), "/blog", Decision.NOT_INCLUDED),  # prefix of the path, not of the pattern
        (("/blog/",), (), "/Blog/", Decision.NOT_INCLUDED),  # case-sensitive, like robots.txt
        (("/blog/", "/news/"), (), "/news/1", Decision.ALLOWED),
        (("/blog/*",), (), "/blog/x", Decision.ALLOWED),
        (("*/amp/",), (), "/2024/amp/post", Decision.ALLOWED),
        (("/$",), (), "/", Decision.ALLOWED),
        (("/$",), (), "/about", Decision.NOT_INCLUDED),
        (("/blog/",), ("/blog/drafts/",), "/blog/drafts/x", Decision.EXCLUDED),  # exclude wins
        ((), ("/*.pdf$",), "/a/b.pdf", Decision.EXCLUDED),
        ((), ("/*.pdf$",), "/a/b.pdf?download=1", Decision.ALLOWED),
        ((), ("/*?",), "/search?q=x", Decision.EXCLUDED),  # every URL with a query
        ((), ("/*?",), "/search", Decision.ALLOWED),
        ((), ("/caf%C3%A9/",), "/café/menu", Decision.EXCLUDED),  # percent-encoding normalised
        ((), ("/café/",), "/caf%c3%a9/menu", Decision.EXCLUDED),
        ((), ("/%7Euser/",), "/~user/x", Decision.EXCLUDED),
    ],
)
def test_include_and_exclude_patterns(
    include: tuple[str, ...], exclude: tuple[str, ...], path: str, decision: Decision
) -> None:
    policy = UrlPolicy(start_url=START, include=include, exclude=exclude)
    assert policy.decide("https://www.example.com" + path, 1) is decision


@pytest.mark.parametrize(
    ("max_depth", "depth", "decision"),
    [
        (None, 10_000, Decision.ALLOWED),
        (0, 0, Decision.ALLOWED),
        (0, 1, Decision.TOO_DEEP),
        (2, 2, Decision.ALLOWED),
        (2, 3, Decision.TOO_DEEP),
        (2, None, Decision.ALLOWED),
    ],
)
def test_max_depth(max_depth: int | None, depth: int | None, decision: Decision) -> None:
    policy = UrlPolicy(start_url=START, max_depth=max_depth)
    assert policy.decide("https://www.example.com/x", depth) is decision


@pytest.mark.parametrize(
    ("allow_private", "start", "url", "decision"),
    [
        (False, "http://127.0.0.1:8000/", "http://127.0.0.1:8000/page", Decision.BLOCKED_HOST),
        (True, "http://127.0.0.1:8000/", "http://127.0.0.1:8000/page", Decision.ALLOWED),
        (True, "http://127.0.0.1:8000/", "http://127.0.0.1:9000/page", Decision.OFF_SITE),
        (True, "http://localhost:8000/", "http://localhost:8000/cdn-cgi/x", Decision.RESERVED_PATH),
    ],
)
def test_private_hosts_only_when_allowed(
    allow_private: bool, start: str, url: str, decision: Decision
) -> None:
    policy = UrlPolicy(
        start_url=start, private_hosts=PrivateHosts.ALLOW if allow_private else PrivateHosts.DENY
    )
    assert policy.decide(url, 1) is decision


def test_the_origin_is_anchored_on_the_final_start_url() -> None:
    """Start redirects (apex -> www, .net -> .com) decide the site (original system §4.1)."""
    policy = UrlPolicy(start_url="https://example.com/")
    assert policy.decide("https://www.example.com/x", 1) is Decision.ALLOWED
    assert policy.decide("https://example.net/x", 1) is Decision.OFF_SITE
    assert UrlPolicy(start_url="HTTPS://Example.com").start_url == "https://example.com/"


def test_without_robots_rules_everything_is_allowed_by_robots() -> None:
    policy = UrlPolicy(start_url=START)
    assert policy.decide("https://www.example.com/admin/", 1) is Decision.ALLOWED


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"start_url": "mailto:x@example.com"}, ValueError),
        ({"start_url": "not a url"}, ValueError),
        ({"start_url": START, "include": ("blog/",)}, ValueError),
        ({"start_url": START, "exclude": ("",)}, ValueError),
        ({"start_url": START, "exclude": "/tmp/"}, TypeError),
        ({"start_url": START, "max_depth": -1}, ValueError),
    ],
)
def test_invalid_configuration_is_refused(
    kwargs: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        UrlPolicy(**kwargs)  # type: ignore[arg-type]


def test_the_vocabulary_is_closed() -> None:
    assert sorted(Decision) == sorted(
        [
            "allowed",
            "not_http",
            "malformed",
            "blocked_host",
            "off_site",
            "reserved_path",
            "excluded",
            "not_included",
            "too_deep",
            "robots_disallowed",
        ]
    )


@given(st.text(max_size=60), st.one_of(st.none(), st.integers(-5, 10)))
def test_decide_never_raises(url: str, depth: int | None) -> None:
    assert POLICY.decide(url, depth) in set(Decision)


# -- decided once per distinct URL (issue 29) ------------------------------------------------------

_URLS = st.sampled_from(
    [
        "https://www.example.com/",
        "https://www.example.com/admin/x",
        "https://www.example.com/docs/a.pdf",
        "https://www.example.com/tmp/y",
        "https://other.example.org/",
        "http://localhost/",
        "mailto:a@example.com",
        "https://www.example.com/deep/page",
    ]
)


@given(st.lists(st.tuples(_URLS, st.one_of(st.none(), st.integers(0, 6))), max_size=30))
def test_a_remembered_decision_is_the_one_a_fresh_policy_makes(
    asked: list[tuple[str, int | None]],
) -> None:
    """The same URL at another depth: the depth check is never remembered with the URL."""
    policy = UrlPolicy(START, exclude=("/tmp/",), max_depth=3, robots=ROBOTS)
    for url, depth in asked:
        fresh = UrlPolicy(START, exclude=("/tmp/",), max_depth=3, robots=ROBOTS)
        assert policy.decide(url, depth) is fresh.decide(url, depth)


def test_robots_txt_is_matched_once_per_distinct_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """A site's navigation repeats on every page: its targets are matched against robots.txt
    once each, not once per page that links them (issue 29: ~1,600 matches a page)."""
    matched = counted_calls(monkeypatch, RobotsRules, "allows_target")
    policy = UrlPolicy(START, robots=ROBOTS)
    navigation = [f"https://www.example.com/p/{i}.html" for i in range(50)]
    for depth in range(1, 11):  # ten pages, each linking the same fifty
        assert {policy.decide(url, depth) for url in navigation} == {Decision.ALLOWED}
    assert sorted(matched) == sorted(target.removeprefix(START[:-1]) for target in navigation)


def test_what_a_policy_remembers_is_bounded() -> None:
    from crawl.url_policy import DECIDED_URLS_CACHED

    policy = UrlPolicy(START, robots=ROBOTS)
    for i in range(DECIDED_URLS_CACHED + 100):
        policy.decide(f"https://www.example.com/p/{i}", 1)
    assert policy._checked.cache_info().currsize == DECIDED_URLS_CACHED  # type: ignore[attr-defined]


# -- a link's target worked out once per distinct URL (issue 29) -----------------------------------

_LINK_URLS = st.one_of(
    _URLS,
    st.builds(
        "{}://{}{}/{}{}".format,
        st.sampled_from(["http", "https", "HTTPS", "ftp"]),
        st.sampled_from(["www.example.com", "example.com", "blog.example.com", "other.org"]),
        st.sampled_from(["", ":443", ":80", ":8080"]),
        st.text("abz/.%~é", max_size=12),
        st.sampled_from(["", "?utm_source=x", "?a=1&utm_source=x&b=%7e", "?sessionid=1", "#f"]),
    ),
    st.text(max_size=30),
)


def _target_uncached(policy: UrlPolicy, url: str) -> tuple[str, bool] | None:
    """What `link_target` answers, worked out from the pieces it remembers."""
    from urls.normalise import normalise_url, split_url

    parts = split_url(url)
    if parts is None:
        return None
    return policy.stripped(normalise_url(url) or parts.unsplit()), policy.site.covers(parts)


@pytest.mark.parametrize("subdomains", [False, True])
@settings(deadline=None)  # the first example with subdomains loads the public suffix list
@given(asked=st.lists(_LINK_URLS, max_size=30))
def test_a_remembered_link_target_is_the_one_worked_out_afresh(
    subdomains: bool, asked: list[str]
) -> None:
    policy = UrlPolicy(START, subdomains=subdomains, strip_params=("utm_source",))
    for url in asked + asked:  # the second time from the memo
        assert policy.link_target(url) == _target_uncached(policy, url)


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("https://www.example.com/a?utm_source=x&b=1", ("https://www.example.com/a?b=1", True)),
        ("https://example.com:443/%7e", ("https://example.com/~", True)),
        ("https://other.example.org/", ("https://other.example.org/", False)),
        ("mailto:a@example.com", None),
    ],
)
def test_link_targets(url: str, target: tuple[str, bool] | None) -> None:
    policy = UrlPolicy(START, strip_params=("utm_source",))
    assert policy.link_target(url) == target


def test_the_link_targets_a_policy_remembers_are_bounded() -> None:
    from crawl.url_policy import DECIDED_URLS_CACHED

    policy = UrlPolicy(START)
    for i in range(DECIDED_URLS_CACHED + 100):
        policy.link_target(f"https://www.example.com/p/{i}")
    assert policy.link_target.cache_info().currsize == DECIDED_URLS_CACHED  # type: ignore[attr-defined]
