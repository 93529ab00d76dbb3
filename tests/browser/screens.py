"""Every screen of the product, in one table: each row says how a reader gets there and which part
of the page it is about. The accessibility, keyboard and layout tests and scripts/screenshots.py
all walk this table, so a new screen is a new row.

The screens share one `Session`: a `siteaudit serve` on its own state folder with a key that has
two finished audits of the badseo site, a monitor with two runs (and scope options and
credentials, shown redacted when it is edited) and a verified host; a second key that owns
nothing (the empty states); the standalone HTML report of the first audit as a file; a slow site
(tests/browser/slow_site.py) whose audits run long enough to be cancelled.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Frame, Page, expect

from tests.badseo.failing_sites import closed_port
from tests.badseo.site import serve_badseo
from tests.browser.chromium import Watched, watched_page
from tests.browser.slow_site import serve_slow_site
from tests.support.cli_process import running_serve, siteaudit

AUDIT_TIMEOUT_S = 60  # the badseo audit takes a few seconds; a loaded machine, longer
WIDTHS = (1280, 375)  # a laptop, a phone
DNS_SENTENCE = "The host name example.com does not resolve. Check the domain's DNS records."
# test_screens.py and test_keyboard.py share one session (tests/browser/conftest.py): under
# pytest-xdist (`--dist loadgroup`) this group runs them on one worker, which builds it once.
SCREENS_GROUP = pytest.mark.xdist_group("browser-screens")


@dataclass(frozen=True)
class Session:
    watched: Watched
    origin: str  # http://127.0.0.1:PORT of `siteaudit serve`
    key: str  # owns the audits and the monitor
    empty_key: str  # owns nothing
    site: str  # the badseo site's start URL
    slow_site: str  # the slow site's start URL
    report: Path  # the first audit's standalone HTML report
    audits: tuple[str, str]  # the two finished audits' ids, older first

    @property
    def page(self) -> Page:
        return self.watched.page


@dataclass(frozen=True)
class Screen:
    name: str  # the test id and the screenshot's file name
    show: Callable[[Session], None]  # brings the session's page to the screen
    about: str  # selector of the part the screen is about: scrolled to for its screenshot
    in_frame: bool = False  # the report inside the app: its frame is a screen of its own too


# -- getting there -------------------------------------------------------------------------------


def signed_out(s: Session) -> None:
    s.page.goto(f"{s.origin}/")
    s.page.evaluate("() => sessionStorage.clear()")
    s.page.reload()
    expect(s.page.locator("#sign-in")).to_be_visible()


def refused_key(s: Session) -> None:
    signed_out(s)
    s.page.get_by_label("API key").fill("not-a-key")
    s.page.get_by_role("button", name="Sign in").click()
    expect(s.page.locator("#error")).not_to_be_empty()


def signed_in_as(s: Session, key: str) -> None:
    s.page.goto(f"{s.origin}/")
    s.page.evaluate("(key) => sessionStorage.setItem('siteaudit.apiKey', key)", key)
    s.page.reload()
    expect(s.page.locator("#workspace")).to_be_visible()
    for listed in ("audits", "monitors", "verifications"):  # loaded: nothing moves under the tests
        shown = s.page.locator(f"#{listed}-empty:not([hidden]), #{listed}-table tbody tr")
        expect(shown.first).to_be_attached()


def signed_in(s: Session) -> None:
    signed_in_as(s, s.key)


def nothing_yet(s: Session) -> None:
    signed_in_as(s, s.empty_key)
    expect(s.page.locator("#audits-empty")).to_be_visible()
    expect(s.page.locator("#monitors-empty")).to_be_visible()


def started_in_app(s: Session, url: str) -> str:
    """An audit of `url` started from the form: its id, once the progress section watches it."""
    signed_in(s)
    s.page.get_by_label("Site URL", exact=True).fill(url)
    s.page.get_by_label("Maximum pages", exact=True).fill("20")
    s.page.get_by_role("button", name="Start audit").click()
    expect(s.page.locator("#progress-h")).to_be_focused()
    audit_id = s.page.locator("#progress").get_attribute("data-audit-id")
    assert audit_id is not None
    return audit_id


def ended(s: Session, audit_id: str, status: str) -> None:
    """The progress section says how the audit ended, and the list, reloaded then, says so too:
    nothing moves under a test after this. The list starts its reload in the same task that
    writes the ending (and is aria-busy until it has), so waiting for the row's status alone could
    see the list the start had shown, already ended for an audit that fails at once."""
    expect(s.page.locator("#progress-text")).to_contain_text(
        f"Audit {status}", timeout=AUDIT_TIMEOUT_S * 1000
    )
    expect(s.page.locator("#audits-table")).to_have_attribute("aria-busy", "false")
    expect(s.page.locator(f"[id='audit-{audit_id}'] td").first).to_contain_text(status)


def audit_in_app(s: Session, url: str, status: str) -> None:
    ended(s, started_in_app(s, url), status)


def audit_progress(s: Session) -> None:
    audit_in_app(s, s.site, "completed")


def failed_audit(s: Session) -> None:
    audit_in_app(s, f"http://127.0.0.1:{closed_port()}/", "failed")


def cancelled_audit(s: Session) -> None:
    """A running audit cancelled from its section: what can be done with it now (resume, re-run,
    delete), the focus on the first of them."""
    audit_id = started_in_app(s, s.slow_site)
    s.page.locator("#progress").get_by_role("button", name="Cancel audit").click()
    ended(s, audit_id, "cancelled")
    expect(s.page.get_by_role("button", name="Resume audit")).to_be_focused()


def report_in_app(s: Session) -> None:
    signed_in(s)
    done = s.page.locator(f"[id='audit-{s.audits[0]}']")
    done.get_by_role("button", name=re.compile(r"^Report")).click()
    expect(s.page.frame_locator("#report-frame").locator("figure.chart").first).to_be_visible()


def comparison(s: Session) -> None:
    signed_in(s)
    s.page.get_by_label("Older audit").select_option(s.audits[0])
    s.page.get_by_label("Newer audit").select_option(s.audits[1])
    s.page.get_by_role("button", name="Compare", exact=True).click()
    expect(s.page.locator("#compare-result")).to_be_visible()


def monitor_runs(s: Session) -> None:
    signed_in(s)
    row = s.page.locator("#monitors-table tbody tr").first
    row.get_by_role("button", name=re.compile(r"^Runs")).click()
    expect(s.page.locator("#monitor-runs-table tbody tr")).to_have_count(2)


def monitor_edit(s: Session) -> None:
    signed_in(s)
    row = s.page.locator("#monitors-table tbody tr").first
    row.get_by_role("button", name=re.compile(r"^Edit")).click()
    expect(s.page.locator("#edit-monitor-h")).to_be_focused()


def advanced_fields(s: Session, form: str) -> None:
    """A form's advanced fields, opened by a click on their disclosure."""
    details = s.page.locator(f"#{form} details.advanced")
    details.locator("summary").click()
    expect(details).to_have_attribute("open", "")


def new_audit_advanced(s: Session) -> None:
    signed_in(s)
    advanced_fields(s, "audit-form")


def monitor_edit_advanced(s: Session) -> None:
    """The monitor's scope options filled in, its credentials said to be set, never shown."""
    monitor_edit(s)
    advanced_fields(s, "edit-monitor-form")
    expect(s.page.locator("#edit-monitor-form .credentials-summary")).to_contain_text("set")


def host_verification(s: Session) -> None:
    """A verification started from the form: its token, the three ways to publish it, and the
    owner's hosts (one verified before)."""
    signed_in(s)
    s.page.get_by_label("Host (with :port").fill(VERIFIED_HOST.replace("preview", "staging"))
    s.page.get_by_role("button", name="Start verification").click()
    expect(s.page.locator("#verification-h")).to_be_focused()
    expect(s.page.locator("#verifications-table tbody tr")).to_have_count(2)


def standalone_report(s: Session) -> None:
    s.page.goto(s.report.as_uri())
    expect(s.page.locator("figure.chart").first).to_be_visible()


def report_issue_group(s: Session) -> None:
    """The first fix-first action followed to its issue group, opened."""
    standalone_report(s)
    s.page.locator("ol.actions > li > a").first.click()
    expect(s.page.locator(ISSUE_OPENED)).to_be_in_viewport()


def report_page_view(s: Session) -> None:
    """The first example page of the fix-first list followed to its section, opened."""
    standalone_report(s)
    s.page.locator("ol.actions a.view").first.click()
    expect(s.page.locator(PAGE_OPENED)).to_be_in_viewport()


ISSUE_OPENED = "article.issue:has(> details.more[open])"
PAGE_OPENED = "details.page[open]"


SCREENS = (
    Screen("sign-in", signed_out, "#sign-in"),
    Screen("sign-in-refused", refused_key, "#main"),
    Screen("new-audit", signed_in, "#new-audit"),
    Screen("new-audit-advanced", new_audit_advanced, "#new-audit"),
    Screen("audits", signed_in, "#audits"),
    Screen("empty", nothing_yet, "#audits"),
    Screen("audit-progress", audit_progress, "#progress"),
    Screen("audit-failed", failed_audit, "#progress"),
    Screen("audit-cancelled", cancelled_audit, "#progress"),
    Screen("app-report", report_in_app, "#report", in_frame=True),
    Screen("compare", comparison, "#compare-result"),
    Screen("monitors", signed_in, "#monitors"),
    Screen("monitor-runs", monitor_runs, "#monitor-runs"),
    Screen("monitor-edit", monitor_edit, "#edit-monitor"),
    Screen(
        "monitor-edit-advanced", monitor_edit_advanced, "#edit-monitor-form fieldset.credentials"
    ),
    Screen("verify", host_verification, "#verify"),
    Screen("report", standalone_report, "main"),
    Screen("report-issue", report_issue_group, ISSUE_OPENED),
    Screen("report-page", report_page_view, PAGE_OPENED),
)


def frames_of(page: Page, screen: Screen) -> list[Frame]:
    """The page's document, and the report's inside the app."""
    if not screen.in_frame:
        return [page.main_frame]
    frame = page.locator("#report-frame").element_handle().content_frame()
    assert frame is not None
    return [page.main_frame, frame]


# -- the session ---------------------------------------------------------------------------------


def _call(origin: str, key: str, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{origin}{path}", data=data, method=method)
    request.add_header("Authorization", f"Bearer {key}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        if path.endswith(".html"):
            return {"html": response.read().decode()}
        answer: dict = json.load(response)
        return answer


def _finished_audit(origin: str, key: str, url: str, max_pages: int) -> str:
    body = {"url": url, "max_pages": max_pages}
    audit_id: str = _call(origin, key, "POST", "/api/audits", body)["audit"]["id"]
    deadline = time.monotonic() + AUDIT_TIMEOUT_S
    while _call(origin, key, "GET", f"/api/audits/{audit_id}")["audit"]["status"] == "running":
        assert time.monotonic() < deadline, f"audit {audit_id} still running"
        time.sleep(0.5)
    return audit_id


def _monitor_with_runs(origin: str, key: str, state: Path) -> None:
    body = {
        "url": "https://example.com/",
        "frequency": "weekly",
        "max_depth": 4,
        "exclude": ["/search"],
        "strip_params": ["utm_*"],
        "concurrency": 4,
        "credentials": {
            "basic_auth": {"user": "preview", "password": "not-shown"},
            "headers": {"X-Preview-Token": "not-shown"},
        },
    }
    monitor_id = _call(origin, key, "POST", "/api/monitors", body)["monitor"]["id"]
    add_two_runs(state, monitor_id, "screens")


FAR_AHEAD = "2099-01-05T10:00:00.000Z"


def add_two_runs(state: Path, monitor_id: str, prefix: str) -> None:
    """Two finished runs of the monitor, as the queue consumer leaves them: the site up (run
    PREFIX-run-1, score 91), then down (PREFIX-run-2, failed with DNS_SENTENCE)."""
    with closing(sqlite3.connect(state / "d1" / "siteaudit.sqlite")) as db:
        db.executemany(
            "INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, status, "
            "health_score, error_code, error_detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (f"{prefix}-run-1", monitor_id, "a1", "d1", "2026-12-07T10:00:00.000Z",
                 "completed", 91.0, None, None),
                (f"{prefix}-run-2", monitor_id, "a2", "d2", "2026-12-08T10:00:00.000Z",
                 "failed", None, "site_dns_error", DNS_SENTENCE),
            ],
        )  # fmt: skip
        # Its next slot is far ahead: a new monitor is due at once, and the server's cron
        # (every 15 minutes, wrangler.toml) would otherwise add a third run mid-test.
        db.execute("UPDATE monitors SET next_due_at = ? WHERE id = ?", (FAR_AHEAD, monitor_id))
        db.commit()


VERIFIED_HOST = "preview.example.com"


def _verified_host(state: Path, owner: str) -> None:
    """A host the owner verified by DNS, as a passing check leaves its row."""
    with closing(sqlite3.connect(state / "d1" / "siteaudit.sqlite")) as db:
        db.execute(
            "INSERT INTO host_verifications (id, owner, host, method, token, status, reason, "
            "created_at, checked_at, verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                "ver_screens00000001", owner, VERIFIED_HOST, "dns", "t" * 32, "verified",
                f'the TXT record "siteaudit-verification={"t" * 32}" is at _siteaudit.{VERIFIED_HOST}',
                "2026-12-01T09:00:00.000Z", "2026-12-07T09:00:00.000Z", "2026-12-07T09:00:00.000Z",
            ),
        )  # fmt: skip
        db.commit()


def _key(state: Path, owner: str) -> str:
    made = siteaudit("keys", "create", "--owner", owner, state_dir=state)
    assert made.returncode == 0, made.stderr
    return made.stdout.splitlines()[1]


@dataclass(frozen=True)
class Served:
    """What the screens show, before any browser: the servers, the audits, the report."""

    origin: str
    key: str
    empty_key: str
    site: str
    slow_site: str
    report: Path
    audits: tuple[str, str]


@contextmanager
def served_screens(folder: Path) -> Iterator[Served]:
    """The servers, audits, monitor and report every screen needs."""
    state = folder / "state"
    key, empty_key = _key(state, "screens"), _key(state, "nobody")
    # Every screen reloads the app, which lists audits and monitors: more than the deployment's
    # 120 requests a minute per key (wrangler.toml) in a test run, so the limit is off here.
    unlimited = ("--var", "RATE_LIMIT_REQUESTS_PER_MINUTE:0")
    with (
        serve_badseo() as site,
        serve_slow_site() as slow,
        running_serve(state, *unlimited) as audits_url,
    ):
        origin = audits_url.removesuffix("/api/audits")
        first = _finished_audit(origin, key, site.start_url, 500)
        second = _finished_audit(origin, key, site.start_url, 60)
        _monitor_with_runs(origin, key, state)
        _verified_host(state, "screens")
        report = folder / "report.html"
        html = _call(origin, key, "GET", f"/api/audits/{first}/report.html")["html"]
        report.write_text(html, encoding="utf-8")
        yield Served(origin, key, empty_key, site.start_url, slow.url("/"), report, (first, second))


@contextmanager
def open_session(browser: Browser, served: Served) -> Iterator[Session]:
    """One page to show the screens, allowed to reach the app and the report alone."""
    allowed = (f"{served.origin}/", served.report.as_uri())
    with watched_page(browser, *allowed) as watched:
        yield Session(
            watched, served.origin, served.key, served.empty_key, served.site, served.slow_site,
            served.report, served.audits,
        )  # fmt: skip
