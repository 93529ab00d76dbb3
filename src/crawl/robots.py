"""robots.txt (RFC 9309, the Robots Exclusion Protocol) for one product token: ours.

Theory of operation
-------------------
The fetched text is the durable artifact (original system §4.8: discovery checkpoints the raw
text and every later step re-parses it), so parsing is a pure, deterministic function of
(text, product token) and never raises.

* Size: only the first 500 KiB are parsed, the minimum RFC 9309 §2.5 requires crawlers to read;
  a line cut by the cap is dropped (it is a rule the site did not write).
* Lines end in CR, LF or CRLF (RFC 9309 §2.2); a UTF-8 BOM is skipped; `#` starts a comment;
  lines that are not `key: value` are ignored (§2.2: "parsers MUST ignore ... unparseable
  lines"). Like Google's parser (google/robotstxt `robots.cc`), a missing colon is accepted when
  the key and value are separated by whitespace, and a few common key typos are accepted.
* Groups (§2.1): one or more `user-agent` lines, then rules; a `user-agent` line after a rule
  starts a new group. `sitemap` lines belong to no group and do not end one.
* Which group applies (§2.2.1): the group(s) whose user-agent, reduced to its product token
  (the leading run of letters, `_` and `-`, as Google does), equals ours case-insensitively; all
  such groups are merged. Only when none names us do the `*` groups apply. A group that names us
  and has no rules means "everything allowed"; it does not fall back to `*`. (The original passed
  no user agent, so only `*` ever applied — open-seo PR #311; SEOnaut matched rules against its
  full UA string, so `User-agent: SEOnautBot` was ignored — SEOnaut #38.)
* Matching (§2.2.2, §2.2.3): a rule matches a prefix of the URL's path and query; `*` matches
  any run of characters and a `$` ending the pattern anchors it to the end. The longest matching
  pattern (in octets) wins; on a tie allow wins; no match means allowed; `/robots.txt` is always
  allowed. Patterns and paths are compared after the same percent-encoding normalisation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from urls.normalise import normalise_request_target, normalise_url, split_url

__all__ = ["MAX_ROBOTS_BYTES", "PRODUCT_TOKEN", "RobotsRule", "RobotsRules"]

# The product token our crawler matches in robots.txt; the fetch User-Agent contains it
# (settings.CrawlSettings.user_agent: "... siteaudit/0.1 ..."), as RFC 9309 §2.2.1 requires.
PRODUCT_TOKEN = "siteaudit"
# RFC 9309 §2.5: "crawlers SHOULD impose a parsing limit ... at least 500 kibibytes (KiB)".
MAX_ROBOTS_BYTES = 500 * 1024

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TOKEN_PREFIX = re.compile(r"[A-Za-z_\-]*")
_DECIMAL = re.compile(r"\d+(?:\.\d+)?|\.\d+")
# RFC 9309 §2.2.1: a product token is letters, "_" and "-".
_VALID_TOKEN = re.compile(r"[A-Za-z_\-]+")
# Keys Google's parser accepts (google/robotstxt robots.cc, `ParsedRobotsKey::Parse`).
_KEYS = {
    "user-agent": "user-agent",
    "useragent": "user-agent",
    "user agent": "user-agent",
    "allow": "allow",
    "disallow": "disallow",
    "dissallow": "disallow",
    "dissalow": "disallow",
    "disalow": "disallow",
    "diasllow": "disallow",
    "disallaw": "disallow",
    "sitemap": "sitemap",
    "site-map": "sitemap",
    "crawl-delay": "crawl-delay",
}


@dataclass(frozen=True, slots=True)
class RobotsRule:
    allow: bool
    pattern: str  # percent-encoding normalised

    def matches(self, target: str) -> bool:
        return pattern_matches(self.pattern, target)


@dataclass(frozen=True, slots=True)
class RobotsRules:
    """The rules of robots.txt that apply to one product token."""

    rules: tuple[RobotsRule, ...] = ()
    sitemaps: tuple[str, ...] = ()
    crawl_delay: float | None = None

    @classmethod
    def from_text(cls, text: str, product_token: str = PRODUCT_TOKEN) -> RobotsRules:
        return cls.from_bytes(text.encode("utf-8", "surrogatepass"), product_token)

    @classmethod
    def from_bytes(cls, data: bytes, product_token: str = PRODUCT_TOKEN) -> RobotsRules:
        if not _VALID_TOKEN.fullmatch(product_token):
            raise ValueError(f"not an RFC 9309 product token: {product_token!r}")
        lines = _lines(data)
        groups = _parse_groups(lines)
        ours = [g for g in groups if product_token.lower() in g.agents]
        chosen = ours or [g for g in groups if "*" in g.agents]
        delays = [g.crawl_delay for g in chosen if g.crawl_delay is not None]
        return cls(
            rules=tuple(rule for group in chosen for rule in group.rules),
            sitemaps=_sitemaps(lines),
            crawl_delay=max(delays) if delays else None,  # the politest of merged groups
        )

    @property
    def closes_site(self) -> bool:
        """Whether the rules disallow every URL but /robots.txt (`Disallow: /`, no Allow): then
        no sitemap could name a page open to us, and discovery reads none."""
        closing = any(not rule.allow and rule.pattern in ("/", "/*", "*") for rule in self.rules)
        return closing and not any(rule.allow for rule in self.rules)

    def allowed(self, url: str) -> bool:
        """Whether our crawler may fetch `url` (absolute, or a path starting with "/")."""
        target = _request_target(url)
        return target is None or self.allows_target(target)

    def allows_target(self, target: str) -> bool:
        """Whether our crawler may fetch a normalised request target (`/path?query`)."""
        if target == "/robots.txt":  # RFC 9309 §2.2.2: implicitly allowed
            return True
        best: RobotsRule | None = None
        for rule in self.rules:
            if rule.matches(target) and (best is None or _beats(rule, best)):
                best = rule
        return best is None or best.allow


def pattern_matches(pattern: str, target: str) -> bool:
    """Whether a robots.txt path pattern matches a prefix of `target` (RFC 9309 §2.2.3).

    `*` matches any run of characters; a final `$` anchors the end (elsewhere `$` is literal, as
    in Google's parser). Matching each `*`-separated piece at its leftmost occurrence is exact
    for such patterns and runs in linear time per piece, where a regex with many `.*` can
    backtrack for polynomially long on hostile files.
    """
    anchored = pattern.endswith("$")
    first, *rest = (pattern[:-1] if anchored else pattern).split("*")
    if not target.startswith(first):
        return False
    position = len(first)
    if not rest:
        return not anchored or position == len(target)
    *middle, last = rest
    for piece in middle:
        found = target.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    if anchored:
        return len(target) - len(last) >= position and target.endswith(last)
    return target.find(last, position) >= 0


def _beats(rule: RobotsRule, best: RobotsRule) -> bool:
    """RFC 9309 §2.2.2: the longest pattern wins; on equal length allow wins."""
    if len(rule.pattern) != len(best.pattern):
        return len(rule.pattern) > len(best.pattern)
    return rule.allow and not best.allow


@dataclass(slots=True)
class _Group:
    agents: set[str]
    rules: list[RobotsRule]
    crawl_delay: float | None = None


def _lines(data: bytes) -> list[tuple[str, str]]:
    """(key, value) pairs of the parsed part of the file, keys canonical, comments removed."""
    capped = data[:MAX_ROBOTS_BYTES]
    text = capped.decode("utf-8", "replace").removeprefix("\ufeff")
    raw_lines = _LINE_BREAK.split(text)
    if len(data) > MAX_ROBOTS_BYTES:
        raw_lines.pop()  # cut by the cap (or the empty rest after the last break): not a rule
    pairs = (_key_value(line) for line in raw_lines)
    return [pair for pair in pairs if pair is not None]


def _key_value(line: str) -> tuple[str, str] | None:
    line = line.split("#", 1)[0].strip()
    key, colon, value = line.partition(":")
    if not colon:
        parts = line.split()
        if len(parts) != 2:
            return None
        key, value = parts
    canonical = _KEYS.get(" ".join(key.lower().split()))
    return None if canonical is None else (canonical, value.strip())


def _parse_groups(lines: list[tuple[str, str]]) -> list[_Group]:
    groups: list[_Group] = []
    current: _Group | None = None
    in_agent_lines = False
    for key, value in lines:
        if key == "user-agent":
            if not in_agent_lines or current is None:
                current = _Group(agents=set(), rules=[])
                groups.append(current)
            current.agents.add(_agent_token(value))
            in_agent_lines = True
        elif key in ("allow", "disallow") and current is not None:
            in_agent_lines = False
            if value:  # an empty value matches nothing (RFC 9309 §2.2.2)
                current.rules.append(RobotsRule(key == "allow", normalise_request_target(value)))
        elif key == "crawl-delay" and current is not None:
            # Not a rule: RFC 9309 §2.2.4 says other records must not change how groups parse.
            current.crawl_delay = _crawl_delay(value, current.crawl_delay)
    return groups


def _agent_token(value: str) -> str:
    """The product token a user-agent line names: "*" for the global group (only when `*` stands
    alone, as Google's parser reads it), else the leading letters, `_` and `-`, lowercased."""
    if value == "*" or (value.startswith("*") and value[1:2].isspace()):
        return "*"
    match = _TOKEN_PREFIX.match(value)
    return match.group(0).lower() if match else ""


def _crawl_delay(value: str, current: float | None) -> float | None:
    """Crawl-delay is not in RFC 9309; we read it as non-negative decimal seconds and keep the
    first valid value of a group. float() alone would accept "nan", "inf" and "1_0"."""
    if current is not None or not _DECIMAL.fullmatch(value):
        return current
    return float(value)


def _sitemaps(lines: list[tuple[str, str]]) -> tuple[str, ...]:
    """Absolute http(s) sitemap URLs in file order, normalised and deduplicated (RFC 9309 §2.3.5:
    the value is a fully qualified URL)."""
    urls = (normalise_url(value) for key, value in lines if key == "sitemap")
    return tuple(dict.fromkeys(url for url in urls if url is not None))


def _request_target(url: str) -> str | None:
    if url.startswith("/") and not url.startswith("//"):
        url = "http://robots.invalid" + url
    parts = split_url(url)
    return None if parts is None else parts.request_target
