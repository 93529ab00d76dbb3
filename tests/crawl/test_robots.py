"""robots.txt per RFC 9309, with the RFC's and Google's documented examples as tables."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crawl.robots import MAX_ROBOTS_BYTES, PRODUCT_TOKEN, RobotsRules, pattern_matches

# RFC 9309 §5.1 "Simple Example" (the trailing "EOF" line is the RFC's and is ignored).
RFC_SIMPLE = """\
User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
"""


@pytest.mark.parametrize(
    ("token", "path", "allowed"),
    [
        ("otherbot", "/example/page.html", False),
        ("otherbot", "/publications/x", True),
        ("otherbot", "/images/a.gif", False),
        ("otherbot", "/images/a.gif?v=1", True),
        ("otherbot", "/index.html", True),
        ("foobot", "/", False),
        ("foobot", "/example/page.html", True),
        ("foobot", "/example/allowed.gif", True),
        ("foobot", "/example/other.html", False),
        ("FooBot", "/example/page.html", True),  # our token is matched case-insensitively
        ("barbot", "/example/page.html", False),
        ("barbot", "/example/other.html", True),
        ("barbot", "/a.gif", True),  # a group naming us never falls back to "*"
        ("bazbot", "/example/page.html", False),
        ("bazbot", "/publications/", True),
        ("quxbot", "/example/page.html", True),  # named with no rules: everything allowed
        ("quxbot", "/a.gif", True),
    ],
)
def test_rfc9309_simple_example(token: str, path: str, allowed: bool) -> None:
    assert RobotsRules.from_text(RFC_SIMPLE, token).allowed(path) is allowed


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/example/page/", True),
        ("/example/page/disallowed.gif", False),
        ("/example/page/other.gif", True),
        ("/example/", True),
    ],
)
def test_rfc9309_longest_match(path: str, allowed: bool) -> None:
    text = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
    assert RobotsRules.from_text(text, "foobot").allowed(path) is allowed


def test_rfc9309_groups_naming_us_are_merged() -> None:
    text = (
        "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\n"
        "user-agent: ExampleBot\ndisallow: /baz\n"
    )
    rules = RobotsRules.from_text(text, "examplebot")
    allowed = [rules.allowed(p) for p in ("/foo", "/bar", "/baz", "/qux")]
    assert allowed == [False, False, False, True]


# developers.google.com/search/docs/crawling-indexing/robots/robots_txt, "URL matching based on
# path values": (pattern, path, matches).
GOOGLE_PATH_MATCHING = [
    ("/", "/", True),
    ("/", "/any/thing", True),
    ("/*", "/", True),
    ("/*", "/any/thing", True),
    ("/$", "/", True),
    ("/$", "/page.htm", False),
    ("/fish", "/fish", True),
    ("/fish", "/fish.html", True),
    ("/fish", "/fish/salmon.html", True),
    ("/fish", "/fishheads", True),
    ("/fish", "/fishheads/yummy.html", True),
    ("/fish", "/fish.php?id=anything", True),
    ("/fish", "/Fish.asp", False),
    ("/fish", "/catfish", False),
    ("/fish", "/?id=fish", False),
    ("/fish", "/desert/fish", False),
    ("/fish*", "/fish", True),
    ("/fish*", "/fish.html", True),
    ("/fish*", "/fishheads", True),
    ("/fish*", "/Fish.asp", False),
    ("/fish*", "/catfish", False),
    ("/fish/", "/fish/", True),
    ("/fish/", "/fish/?id=anything", True),
    ("/fish/", "/fish/salmon.htm", True),
    ("/fish/", "/fish", False),
    ("/fish/", "/fish.html", False),
    ("/fish/", "/animals/fish/", False),
    ("/fish/", "/Fish/Salmon.asp", False),
    ("/*.php", "/index.php", True),
    ("/*.php", "/filename.php", True),
    ("/*.php", "/folder/filename.php", True),
    ("/*.php", "/folder/filename.php?parameters", True),
    ("/*.php", "/folder/any.php.file.html", True),
    ("/*.php", "/filename.php/", True),
    ("/*.php", "/", False),
    ("/*.php", "/windows.PHP", False),
    ("/*.php$", "/filename.php", True),
    ("/*.php$", "/folder/filename.php", True),
    ("/*.php$", "/filename.php?parameters", False),
    ("/*.php$", "/filename.php/", False),
    ("/*.php$", "/filename.php5", False),
    ("/*.php$", "/windows.PHP", False),
    ("/fish*.php", "/fish.php", True),
    ("/fish*.php", "/fishheads/catfish.php?parameters", True),
    ("/fish*.php", "/Fish.PHP", False),
    # Our additions: "$" only anchors at the end; "*$" anchors nothing.
    ("/a$b", "/a$b/c", True),
    ("/a$b", "/ab", False),
    ("/a*$", "/abc", True),
    ("*.gif$", "/x/y.gif", True),
    ("/*a*b*c", "/xaybzc", True),
    ("/*a*b*c", "/xcybza", False),
]


@pytest.mark.parametrize(("pattern", "path", "matches"), GOOGLE_PATH_MATCHING)
def test_google_path_matching(pattern: str, path: str, matches: bool) -> None:
    assert pattern_matches(pattern, path) is matches
    rules = RobotsRules.from_text(f"User-agent: *\nDisallow: {pattern}\n")
    assert rules.allowed("https://example.com" + path) is not matches


# Google's "Order of precedence for rules" examples: (rules, url, allowed).
@pytest.mark.parametrize(
    ("rules", "path", "allowed"),
    [
        ("allow: /p\ndisallow: /", "/page", True),
        ("allow: /folder\ndisallow: /folder", "/folder/page", True),  # tie: allow wins
        ("allow: /page\ndisallow: /*.htm", "/page.htm", False),  # longer pattern wins
        ("allow: /page\ndisallow: /*.ph", "/page.php", True),  # equal length: allow
        ("allow: /$\ndisallow: /", "/", True),
        ("allow: /$\ndisallow: /", "/page.htm", False),
        ("disallow:\n", "/anything", True),  # empty disallow matches nothing
        ("disallow: /\n", "/robots.txt", True),  # RFC 9309 §2.2.2: implicitly allowed
    ],
)
def test_google_order_of_precedence(rules: str, path: str, allowed: bool) -> None:
    assert RobotsRules.from_text("user-agent: *\n" + rules).allowed(path) is allowed


OURS_OVER_STAR = "User-agent: *\nDisallow: /\n\nUser-agent: {agent}\nAllow: /\n"


@pytest.mark.parametrize(
    ("agent", "allowed"),
    [
        ("siteaudit", True),
        ("SiteAudit", True),
        ("SITEAUDIT", True),
        ("siteaudit/0.1", True),  # a version after the token still names us
        ("siteaudit (+https://example.com)", True),
        ("siteauditbot", False),
        ("site", False),
        ("audit", False),
        ("Googlebot", False),
    ],
)
def test_a_group_naming_our_token_beats_star(agent: str, allowed: bool) -> None:
    """open-seo PR #311 and SEOnaut #38: the group for our own token must be honoured."""
    rules = RobotsRules.from_text(OURS_OVER_STAR.format(agent=agent))
    assert rules.allowed("https://example.com/page") is allowed
    assert PRODUCT_TOKEN == "siteaudit"


@pytest.mark.parametrize(
    ("text", "path", "allowed"),
    [
        ("\ufeffUser-agent: *\nDisallow: /a\n", "/a", False),  # BOM
        ("User-agent: *\rDisallow: /a\r", "/a", False),  # CR only
        ("User-agent: *\r\nDisallow: /a\r\n", "/a", False),  # CRLF
        ("USER-AGENT: *\nDISALLOW: /a\n", "/a", False),  # keys are case-insensitive
        ("User-agent: * # all\nDisallow: /a # secret\n", "/a", False),
        ("User-agent: *\nDisallow: /a#b\n", "/a", False),  # comment cuts the value
        ("# only comments\n#Disallow: /a\n", "/a", True),
        ("User-agent *\nDisallow /a\n", "/a", False),  # missing colons (Google accepts)
        ("useragent: *\ndissallow: /a\n", "/a", False),  # typos Google accepts
        ("Disallow: /a\nUser-agent: *\nAllow: /\n", "/a", True),  # rule before any group
        ("User-agent: *\nnonsense line\n:::\nDisallow: /a\n", "/a", False),
        ("User-agent: *\nDisallow:  /a  \n", "/a", False),
        ("User-agent: *\nDisallow: /a\nUser-agent: other\nDisallow: /\n", "/b", True),
        ("User-agent: other\nUser-agent: *\nDisallow: /a\n", "/a", False),  # shared group
        ("User-agent: *\nSitemap: https://e.com/s.xml\nDisallow: /a\n", "/a", False),
        ("User-agent: *\nCrawl-delay: 5\nUser-agent: other\nDisallow: /a\n", "/a", False),
        ("User-agent: *\nDisallow: /a b\n", "/a%20b", False),
        ("User-agent: *bot\nDisallow: /\n", "/", True),  # "*bot" is not the global group
        ("", "/", True),
    ],
)
def test_parsing(text: str, path: str, allowed: bool) -> None:
    assert RobotsRules.from_text(text).allowed("https://example.com" + path) is allowed


# RFC 9309 §2.2.2 percent-encoding table: rule path, URL path, both match.
@pytest.mark.parametrize(
    ("rule", "path"),
    [
        ("/foo/bar?baz=quz", "/foo/bar?baz=quz"),
        ("/foo/bar/ツ", "/foo/bar/%E3%83%84"),
        ("/foo/bar/%E3%83%84", "/foo/bar/ツ"),
        ("/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84"),
        ("/foo/bar/%62%61%7A", "/foo/bar/baz"),
        ("/foo/bar/baz", "/foo/bar/%62%61%7A"),
        ("/q?x='y'", "/q?x=%27y%27"),
    ],
)
def test_percent_encoding_is_normalised_when_matching(rule: str, path: str) -> None:
    rules = RobotsRules.from_text(f"User-agent: *\nDisallow: {rule}$\n")
    assert not rules.allowed("https://example.com" + path)


def test_encoded_reserved_characters_stay_distinct() -> None:
    rules = RobotsRules.from_text("User-agent: *\nDisallow: /a%2Fb\n")
    assert not rules.allowed("https://example.com/a%2fb")
    assert rules.allowed("https://example.com/a/b")


@pytest.mark.parametrize(
    ("text", "delay"),
    [
        ("User-agent: *\nCrawl-delay: 2\n", 2.0),
        ("User-agent: *\nCrawl-delay: 0.5\n", 0.5),
        ("User-agent: *\nCrawl-delay: 2\nAllow: /\nUser-agent: siteaudit\nCrawl-delay: 7\n", 7.0),
        # Merged groups naming us: the politest delay.
        (
            "User-agent: siteaudit\nCrawl-delay: 3\nAllow: /\n"
            "User-agent: siteaudit\nCrawl-delay: 9\n",
            9.0,
        ),
        # Crawl-delay is not a rule, so it does not end the user-agent lines: one group.
        ("User-agent: *\nCrawl-delay: 2\nUser-agent: siteaudit\nCrawl-delay: 7\n", 2.0),
        ("User-agent: siteaudit\nCrawl-delay: 3\nCrawl-delay: 9\n", 3.0),  # first in a group
        ("User-agent: other\nCrawl-delay: 9\n", None),
        ("User-agent: siteaudit\nDisallow: /x\nUser-agent: *\nCrawl-delay: 9\n", None),
        ("User-agent: *\nCrawl-delay: nan\n", None),
        ("User-agent: *\nCrawl-delay: -1\n", None),
        ("User-agent: *\nCrawl-delay: inf\n", None),
        ("User-agent: *\nCrawl-delay: 1_0\n", None),
        ("Crawl-delay: 5\n", None),
    ],
)
def test_crawl_delay_of_our_group(text: str, delay: float | None) -> None:
    assert RobotsRules.from_text(text).crawl_delay == delay


def test_sitemaps_are_collected_absolute_normalised_and_deduplicated() -> None:
    text = (
        "Sitemap: https://Example.com/sitemap.xml\n"
        "User-agent: *\nDisallow: /x\n"
        "sitemap: https://example.com/sitemap.xml  # again\n"
        "SITEMAP: /relative.xml\n"
        "Sitemap: ftp://example.com/s.xml\n"
        "Site-map: https://cdn.example.net/news.xml\n"
    )
    assert RobotsRules.from_text(text).sitemaps == (
        "https://example.com/sitemap.xml",
        "https://cdn.example.net/news.xml",
    )


def test_only_the_first_500_kib_are_parsed() -> None:
    head = "User-agent: *\nDisallow: /early\n"
    filler = "#" * (MAX_ROBOTS_BYTES - len(head) - 1) + "\n"
    text = head + filler + "Disallow: /late\n"
    rules = RobotsRules.from_text(text)
    assert not rules.allowed("/early") and rules.allowed("/late")


def test_a_line_cut_by_the_cap_is_dropped() -> None:
    head = "User-agent: *\n" + "#" * (MAX_ROBOTS_BYTES - 30) + "\n"
    text = head + "Disallow: /private-area-that-is-cut\n"
    assert len(head.encode()) < MAX_ROBOTS_BYTES < len(text.encode())
    rules = RobotsRules.from_text(text)
    assert rules.allowed("/private-area-that-is-cut") and rules.allowed("/p")


def test_the_product_token_must_be_valid() -> None:
    with pytest.raises(ValueError):
        RobotsRules.from_text("", "site audit/1.0")


# -- properties ---------------------------------------------------------------------------------


@given(st.binary(max_size=400), st.text(max_size=30))
def test_any_bytes_parse_without_raising(data: bytes, url: str) -> None:
    rules = RobotsRules.from_bytes(data)
    assert isinstance(rules.allowed(url), bool)


_robots_lines = st.lists(
    st.sampled_from(
        [
            "User-agent: *",
            "User-agent: siteaudit",
            "user-agent: other",
            "Allow: /a",
            "Disallow: /",
            "Disallow: /a*b$",
            "Disallow:",
            "Sitemap: https://e.com/s",
            "Crawl-delay: 1",
            "junk",
            "",
            "# c",
            "Allow: /$",
        ]
    ),
    max_size=12,
)


@given(_robots_lines, st.sampled_from(["\n", "\r\n", "\r"]), st.text(max_size=10))
def test_line_endings_do_not_change_the_rules(lines: list[str], eol: str, path: str) -> None:
    unix = RobotsRules.from_text("\n".join(lines))
    other = RobotsRules.from_text(eol.join(lines))
    assert unix == other
    assert unix.allowed("/" + path) == other.allowed("/" + path)


def _reference_match(pattern: str, path: str) -> bool:
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(piece) for piece in body.split("*")) + ("$" if anchored else "")
    return re.match(regex, path, re.DOTALL) is not None


@given(st.text(st.sampled_from("ab*$/"), max_size=8), st.text(st.sampled_from("ab$/"), max_size=10))
def test_pattern_matching_agrees_with_a_regex_reference(pattern: str, path: str) -> None:
    assert pattern_matches(pattern, path) == _reference_match(pattern, path)
