"""`siteaudit security-check` and `siteaudit security`, as separate processes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_process import siteaudit
from tests.support.site_server import Reply, html_page, serve_site


def test_security_check_prints_score_grade_and_tests(tmp_path: Path) -> None:
    path = tmp_path / "response.json"
    path.write_text(
        json.dumps(
            {
                "url": "https://example.com/",
                "status": 200,
                "headers": {"x-content-type-options": "nosniff", "set-cookie": ["a=1; Secure"]},
                "html": "<script src='https://cdn.other.org/x.js'></script>",
                "redirects": [{"url": "http://example.com/", "status": 301, "headers": {}}],
            }
        )
    )

    done = siteaudit("security-check", "--response", str(path), state_dir=tmp_path / "state")

    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    # CSP -25, HSTS -20, SRI -5, XFO -20: 30
    assert (printed["score"], printed["grade"]) == (30, "D")
    assert printed["tests"]["subresource-integrity"] == {
        "result": "sri-not-implemented-but-external-scripts-loaded-securely",
        "pass": False,
        "score_modifier": -5,
    }
    assert list(printed["tests"]) == [
        "content-security-policy", "cookies", "cross-origin-resource-sharing", "redirection",
        "referrer-policy", "strict-transport-security", "subresource-integrity",
        "x-content-type-options", "x-frame-options", "cross-origin-resource-policy",
        "cross-origin-opener-policy", "cross-origin-embedder-policy",
    ]  # fmt: skip


def test_security_check_refuses_bad_input_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "response.json"
    path.write_text('{"url": "https://example.com/"}')
    done = siteaudit("security-check", "--response", str(path), state_dir=tmp_path / "state")
    assert done.returncode == 2
    assert done.stderr == "siteaudit: response: status must be an integer\n"
    missing = siteaudit(
        "security-check", "--response", str(tmp_path / "nope.json"), state_dir=tmp_path / "state"
    )
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_security_fetches_both_entry_points_of_a_plain_http_site(tmp_path: Path) -> None:
    routes = {
        "/": Reply(200, html_page("Home"), {"content-type": "text/html", "x-frame-options": "DENY"})
    }
    with serve_site(routes) as site:
        done = siteaudit(
            "security",
            site.url("/"),
            "--json",
            "--allow-private-hosts",
            state_dir=tmp_path / "state",
        )
        asked = [
            (request.method, request.path, "origin" in request.headers) for request in site.requests
        ]

    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    tests = printed["tests"]
    assert tests["redirection"]["result"] == "redirection-missing"
    assert tests["strict-transport-security"]["result"] == "hsts-not-implemented-no-https"
    assert tests["x-frame-options"]["result"] == "x-frame-options-sameorigin-or-deny"
    # CSP -25, redirection -20, HSTS -20, nosniff -5: 30; XFO's +5 is not extra credit below 90
    assert (printed["score"], printed["grade"]) == (30, "D")
    # the http entry point, then the CORS probe with its Origin header
    assert asked == [("GET", "/", False), ("GET", "/", True)]


def test_security_refuses_private_hosts_without_the_flag(tmp_path: Path) -> None:
    done = siteaudit("security", "http://127.0.0.1:9/", state_dir=tmp_path / "state")
    assert done.returncode == 2
    assert "private or reserved address" in done.stderr
