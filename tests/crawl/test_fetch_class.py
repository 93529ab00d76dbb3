"""Fetch classification: the original's newest rules (original system §4.7), in their order."""

import pytest

from common.fetch_class import FetchClass, classify_fetch
from common.settings import CRAWL

BODY_HEAD_CHARS = CRAWL.body_head_chars

OK, BLOCKED, RATE_LIMITED, ERROR = (
    FetchClass.OK,
    FetchClass.BLOCKED,
    FetchClass.RATE_LIMITED,
    FetchClass.ERROR,
)
CF_CHALLENGE = "<!DOCTYPE html><html><head><title>Just a moment...</title></head>"
CF_BLOCK = '<html><head><title class="x">Attention Required! | Cloudflare</title>'


@pytest.mark.parametrize(
    ("status", "headers", "body", "expected"),
    [
        (0, {}, "", ERROR),
        (0, {"cf-mitigated": "challenge"}, CF_CHALLENGE, ERROR),  # no response at all
        (429, {}, "", RATE_LIMITED),
        (429, {"cf-mitigated": "challenge"}, "", RATE_LIMITED),  # before cf-mitigated
        (200, {"cf-mitigated": "challenge"}, "<title>Home</title>", BLOCKED),
        (200, {"CF-Mitigated": "challenge"}, "", BLOCKED),  # header names are case-insensitive
        (404, {"cf-mitigated": ""}, "", BLOCKED),  # presence is enough
        (401, {}, "", BLOCKED),
        (403, {}, "", BLOCKED),
        (202, {}, "", BLOCKED),  # SiteGround / AWS WAF challenge
        (200, {}, CF_CHALLENGE, BLOCKED),
        (200, {}, CF_BLOCK, BLOCKED),
        (203, {}, "<TITLE> just a moment... </TITLE>", BLOCKED),
        (200, {}, '<script src="/.well-known/sgcaptcha/?r=%2F"></script>', BLOCKED),
        (200, {}, "<title>Just a moment, we are loading</title>", OK),
        (200, {}, "<p>Just a moment...</p>", OK),  # 2xx: only the title counts
        (200, {}, "<title>Home</title>", OK),
        (204, {}, "", OK),
        (301, {}, CF_CHALLENGE, OK),
        (503, {}, CF_CHALLENGE, BLOCKED),
        (503, {}, '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate"></script>', BLOCKED),
        (503, {}, '<div id="cf-browser-verification">', BLOCKED),
        (503, {}, "<h1>ATTENTION REQUIRED! | CLOUDFLARE</h1>", BLOCKED),
        (503, {}, "<p>Verifying you are human. This may take a few seconds.</p>", BLOCKED),
        (503, {}, "<h1>Service Unavailable</h1>", OK),  # a real outage, not a challenge
        (500, {}, CF_CHALLENGE, OK),
        (502, {}, "challenge-platform", OK),
        (404, {}, "", OK),
        (410, {"server": "cloudflare"}, "", OK),
    ],
)
def test_classification(
    status: int, headers: dict[str, str], body: str, expected: FetchClass
) -> None:
    assert classify_fetch(status, headers, body) is expected


@pytest.mark.parametrize(
    ("status", "marker"),
    [
        (200, "<title>Just a moment...</title>"),
        (200, "/.well-known/sgcaptcha/"),
        (503, "challenge-platform"),
    ],
)
def test_only_the_first_4000_characters_are_read(status: int, marker: str) -> None:
    inside = " " * (BODY_HEAD_CHARS - len(marker)) + marker
    outside = " " * (BODY_HEAD_CHARS - len(marker) + 1) + marker
    assert classify_fetch(status, {}, inside) is BLOCKED
    assert classify_fetch(status, {}, outside) is OK


def test_the_vocabulary_is_closed() -> None:
    assert [c.value for c in FetchClass] == ["ok", "blocked", "rate_limited", "error"]
