"""`check_site` against a local fixture site: vulnerable libraries found by URL and by content,
fixed versions reported clean, disclosures and the content budget."""

from __future__ import annotations

import dataclasses

import pytest

from common import settings
from exposure.findings import Check
from exposure.libraries import Detection
from exposure.site_check import ExposureReport, check_site
from tests.exposure.fixture_libraries import library_site
from tests.support.site_server import Route, serve_site
from urls.private_hosts import PrivateHosts

# Fetches go through the shared pool of the test loop, with no LocalPlatform to close it.
pytestmark = pytest.mark.usefixtures("fetch_pool_closed")

VULNERABLE = library_site(
    jquery_version="1.8.1",
    angularjs_version="1.5.0",
    angular_version="18.2.14",
    bootstrap_version="3.3.7",
)
FIXED = library_site(
    jquery_version="3.7.1",
    angularjs_version=None,
    angular_version="19.2.26",
    bootstrap_version="5.3.3",
)


async def _check[R: Route](routes: dict[str, R], **changes: int) -> ExposureReport:
    exposure = dataclasses.replace(settings.EXPOSURE, **changes)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as patch, serve_site(routes) as site:
        patch.setattr(settings, "EXPOSURE", exposure)
        return await check_site(site.url("/"), private_hosts=PrivateHosts.LOOPBACK, check_dns=False)


async def test_vulnerable_libraries_are_found_by_url_and_by_content() -> None:
    report = await _check(VULNERABLE)
    assert report.final_url.endswith("/home") and report.status == 200
    found = {
        (f.library, f.version, f.detection, f.script_url.split("/")[-1]) for f in report.libraries
    }
    assert found == {
        ("jquery", "1.8.1", Detection.URI, "jquery.min.js"),
        ("bootstrap", "3.3.7", Detection.URI, "bootstrap.min.js"),
        ("angularjs", "1.5.0", Detection.URI, "angular.min.js"),
        ("@angular/core", "18.2.14", Detection.URI, "core.mjs"),
        ("jquery", "1.8.1", Detection.FILECONTENT, "app.js"),
        ("bootstrap", "3.3.7", Detection.FILECONTENT, "theme.js"),
        ("angularjs", "1.5.0", Detection.FILECONTENT, "ui.js"),
        ("@angular/core", "18.2.14", Detection.FILECONTENT, "main.js"),
    }
    assert all(f.vulnerabilities for f in report.libraries)
    vulnerable = {f.subject: f for f in report.findings if f.check is Check.VULNERABLE_JS_LIBRARY}
    assert set(vulnerable) == {
        "jquery 1.8.1",
        "bootstrap 3.3.7",
        "angularjs 1.5.0",
        "@angular/core 18.2.14",
    }
    assert "CVE-2019-11358" in vulnerable["jquery 1.8.1"].identifiers
    assert "fixed in 3.5.0" in vulnerable["jquery 1.8.1"].detail
    assert type(report).from_dict(report.to_dict()) == report


async def test_fixed_versions_report_nothing() -> None:
    report = await _check(FIXED)
    assert {(f.library, f.version) for f in report.libraries} == {
        ("jquery", "3.7.1"),
        ("bootstrap", "5.3.3"),
        ("@angular/core", "19.2.26"),
    }
    assert all(not f.vulnerabilities and f.severity is None for f in report.libraries)
    assert not [f for f in report.findings if f.check is Check.VULNERABLE_JS_LIBRARY]


async def test_disclosures_of_the_start_page() -> None:
    report = await _check(FIXED)
    disclosed = {
        f.subject.split(":")[0]: f.detail
        for f in report.findings
        if f.check is Check.VERSION_DISCLOSED
    }
    # the test server adds its own product token to Server (`fixture`, no version): only
    # Apache's version is named
    assert disclosed == {
        "server": "Apache 2.4.41",
        "x-powered-by": "PHP 7.4.3",
        "meta-generator": "WordPress 6.4.2",
    }


@pytest.mark.parametrize(("budget", "scanned"), [(0, 0), (1, 1), (10**9, 4)])
async def test_content_reads_stay_within_the_budget(budget: int, scanned: int) -> None:
    report = await _check(VULNERABLE, script_budget_bytes=budget)
    by_content = [f for f in report.libraries if f.detection is Detection.FILECONTENT]
    assert report.content_bytes_read <= budget
    # one byte reads no banner: the script counts as read but names nothing
    assert len(by_content) == (0 if budget < 100 else scanned)


async def test_an_unreachable_page_is_reported_not_raised() -> None:
    with serve_site({}) as site:
        report = await check_site(
            site.url("/"), private_hosts=PrivateHosts.LOOPBACK, check_dns=False
        )
    assert report.status == 404 and report.error == "HTTP 404"


async def test_private_hosts_are_refused_by_default() -> None:
    report = await check_site("http://127.0.0.1:9/", check_dns=False)
    assert report.status == 0 and report.error is not None and "refused" in report.error
