"""`siteaudit exposure URL` as a user runs it, against the fixture site and the DoH double."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.exposure.dns_helpers import doh_double
from tests.exposure.fixture_libraries import library_site
from tests.support.cli_process import siteaudit
from tests.support.site_server import serve_site

# Each test starts the CLI as its own process (a few seconds each).
pytestmark = pytest.mark.slow

SITE = library_site(
    jquery_version="1.8.1", angularjs_version=None, angular_version=None, bootstrap_version="5.3.3"
)


def test_exposure_prints_libraries_disclosures_dns_and_findings(tmp_path: Path) -> None:
    with serve_site(SITE) as site, doh_double({}) as resolver:
        done = siteaudit(
            "exposure",
            site.url("/"),
            "--allow-private-hosts",
            "--resolver",
            resolver.url("/dns-query"),
            state_dir=tmp_path,
        )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "jquery 1.8.1: medium, upgrade to 3.5.0" in out
    assert "bootstrap 5.3.3: no known vulnerability" in out
    assert "x-powered-by: PHP/7.4.3 -> PHP 7.4.3" in out
    assert "SPF      - [no all, 0 lookups] problems: missing" in out
    assert "[warning] vulnerable_js_library: jquery 1.8.1" in out
    assert "[warning] spf_missing: 127.0.0.1" in out


def test_exposure_json_without_dns(tmp_path: Path) -> None:
    with serve_site(SITE) as site:
        done = siteaudit(
            "exposure",
            site.url("/"),
            "--allow-private-hosts",
            "--no-dns",
            "--json",
            state_dir=tmp_path,
        )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["domain"] is None
    assert {(f["library"], f["version"]) for f in report["libraries"]} == {
        ("jquery", "1.8.1"),
        ("bootstrap", "5.3.3"),
    }
    assert {f["check"] for f in report["findings"]} == {
        "vulnerable_js_library",
        "version_disclosed",
    }


def test_exposure_refuses_private_hosts_without_the_flag(tmp_path: Path) -> None:
    done = siteaudit("exposure", "http://127.0.0.1:9/", "--no-dns", state_dir=tmp_path)
    assert done.returncode == 2
    assert "siteaudit:" in done.stdout + done.stderr


def test_exposure_says_dns_was_not_checked_when_the_resolver_answers_nothing(
    tmp_path: Path,
) -> None:
    with serve_site({}) as gone:
        resolver = gone.url("/dns-query")  # closed when it is asked: refused
    with serve_site(SITE) as site:
        text = siteaudit(
            "exposure",
            site.url("/"),
            "--allow-private-hosts",
            "--resolver",
            resolver,
            state_dir=tmp_path,
        )
        done = siteaudit(
            "exposure",
            site.url("/"),
            "--allow-private-hosts",
            "--resolver",
            resolver,
            "--json",
            state_dir=tmp_path,
        )
    assert text.returncode == done.returncode == 0, text.stderr + done.stderr
    assert f"  not checked: the DNS-over-HTTPS resolver {resolver} answered none" in text.stdout
    assert "spf_missing" not in text.stdout and "[info] dns_unchecked: 127.0.0.1" in text.stdout
    report = json.loads(done.stdout)
    assert report["dns_checked"] is False
    assert report["dns_error"].endswith("so the DNS and email checks were not run")
    assert "dns_unchecked" in {f["check"] for f in report["findings"]}
    assert not {"spf_missing", "dmarc_missing", "caa_missing"} & {
        f["check"] for f in report["findings"]
    }
