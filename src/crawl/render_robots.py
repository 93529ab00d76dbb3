"""robots.txt as the crawl applies it, for every request a rendered page makes (issue 30): the
`render.request_policy.RobotsGate` the render steps hand their renderer.

Which rules apply is the crawl's own decision (crawl.url_policy, `UrlPolicy._robots`): the start
URL's robots.txt for the start host and its `www.` twin (none when a verified owner's override
has the audit ignore robots.txt: the policy then holds no rules), and a host the `subdomains`
option brings in by its own file (crawl.host_robots, read the first time the render meets it).
A request off the audited site is not judged: the crawl reads no other site's robots.txt either,
and one more request per third-party host (a CDN, an analytics script) and step would be spent
on hosts the audit is not about.

Browser Rendering takes regular expressions, not a callback (`rejectRequestPattern`), so
`rejected_patterns` writes each Disallow rule as one: the host, then the rule's path pattern
(`*` as `.*`, a final `$` as the end), preceded by a negative lookahead of every Allow rule at
least as long (RFC 9309 §2.2.2: the longest match wins, allow on a tie) and of `/robots.txt`
(always allowed). That is the same decision as `RobotsRules.allows_target` for a URL spelled as
the rules are normalised (tests/render/test_render_robots.py checks both agree); a request URL
whose percent-encoding differs from the normalised spelling (`%7e` for `~`) can slip past a
pattern. Only the hosts whose rules are known when the call is made are covered: the start
host's always, a subdomain's once the crawl or a local render has read its file.
"""

from __future__ import annotations

from dataclasses import dataclass

from crawl.host_robots import HostRobots
from crawl.robots import RobotsRule, RobotsRules
from crawl.url_policy import UrlPolicy
from urls.normalise import split_url

__all__ = ["RenderRobots", "rejected_patterns"]

# The characters JavaScript's regular expressions give a meaning to (ECMA-262, SyntaxCharacter,
# and `/`); each is escaped in a pattern's literal parts. Python's `re.escape` escapes more
# (`-`, `#`, `~`, ...), which a regex compiled with the `u` flag refuses.
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
_ROBOTS_TXT = r"/robots\.txt$"


@dataclass(frozen=True, slots=True)
class RenderRobots:
    """The audit's robots.txt for a render's requests (module docstring)."""

    policy: UrlPolicy
    hosts: HostRobots

    async def allows(self, url: str) -> bool:
        parts = split_url(url)
        if parts is None or not self.policy.site.covers(parts):
            return True
        if self.policy.site.other_host(parts):
            return await self.hosts.allows(url)
        robots = self.policy.robots
        return robots is None or robots.allows_target(parts.request_target)

    def rejected_patterns(self) -> list[str]:
        start = split_url(self.policy.start_url)
        assert start is not None  # UrlPolicy refuses a start URL that is not http(s)
        host = r"(www\.)?" + _escaped(start.site_host)
        port = "" if start.port is None else f":{start.port}"
        scheme = "https?" if start.port is None else start.scheme
        patterns = rejected_patterns(f"^{scheme}://([^/?#@]*@)?{host}{port}", self.policy.robots)
        for origin, rules in sorted(self.hosts.rules.items()):
            patterns += rejected_patterns("^" + _escaped(origin), rules)
        return patterns


def rejected_patterns(authority: str, robots: RobotsRules | None) -> list[str]:
    """One regular expression per Disallow rule of `robots`, each starting with `authority` (a
    regex matching the URL up to its path)."""
    if robots is None:
        return []
    allows = [rule for rule in robots.rules if rule.allow]
    return [
        authority + _unless(rule, allows) + _regex(rule.pattern)
        for rule in robots.rules
        if not rule.allow
    ]


def _unless(disallow: RobotsRule, allows: list[RobotsRule]) -> str:
    """A lookahead refusing the URLs where an Allow rule wins over `disallow`, or robots.txt."""
    winning = [_regex(a.pattern) for a in allows if len(a.pattern) >= len(disallow.pattern)]
    return "(?!" + "|".join([_ROBOTS_TXT, *winning]) + ")"


def _regex(pattern: str) -> str:
    """A robots.txt path pattern as a regex matching a prefix of the path (RFC 9309 §2.2.3)."""
    anchored = pattern.endswith("$")
    pieces = (pattern[:-1] if anchored else pattern).split("*")
    return ".*".join(_escaped(piece) for piece in pieces) + ("$" if anchored else "")


def _escaped(text: str) -> str:
    return "".join("\\" + c if c in _SYNTAX else c for c in text)
