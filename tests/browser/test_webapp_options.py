"""The web app's advanced fields and host verification in a real browser (issue 28), one flow
each: an audit started with scope, speed and list-mode fields carries them (read back through
the API); a monitor's credentials are created, replaced and removed without a secret ever coming
back to the page, in its DOM or in any API answer it receives; a host is verified against a site
on 127.0.0.1 serving the token, and the three ways the page shows are the API's."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, Response, expect

from tests.badseo.robots_closed import serve_closed
from tests.browser.app_session import Worker, sign_in
from tests.browser.chromium import watched_page
from tests.support.site_server import Reply, Site, html_page, serve_site

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def quick_site() -> Iterator[Site]:
    home = html_page("Home", "<h1>Home</h1><a href='/about?utm_source=x'>About</a>")
    about = html_page("About", "<h1>About</h1><a href='/'>Home</a>")
    with serve_site({"/": Reply(body=home), "/about": Reply(body=about)}) as site:
        yield site


def api_get(page: Page, worker: Worker, path: str) -> dict:
    answer = page.request.get(
        f"{worker.origin}{path}", headers={"authorization": f"Bearer {worker.key}"}
    )
    assert answer.ok, answer.text()
    body: dict = answer.json()
    return body


def api_post(page: Page, worker: Worker, path: str, body: dict) -> dict:
    answer = page.request.post(
        f"{worker.origin}{path}", data=body, headers={"authorization": f"Bearer {worker.key}"}
    )
    assert answer.ok, answer.text()
    result: dict = answer.json()
    return result


REFUSED_LOAD = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


def advanced(form: Locator) -> Locator:
    """The form's advanced fields, opened as a user does: a click on the disclosure."""
    details = form.locator("details.advanced")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return details


def started_audit(page: Page) -> str:
    expect(page.locator("#progress-h")).to_be_focused()  # the app watches the audit it started
    audit_id = page.locator("#progress").get_attribute("data-audit-id")
    assert audit_id is not None
    return audit_id


def test_an_audit_started_with_advanced_fields_carries_them(
    browser: Browser, worker: Worker, quick_site: Site
) -> None:
    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        sign_in(page, worker)
        form = page.locator("#audit-form")
        form.get_by_label("Site URL", exact=True).fill(quick_site.url("/"))
        fields = advanced(form)
        fields.get_by_label("Maximum depth").fill("1")
        fields.get_by_label("Crawl only URLs matching").fill("/\n")
        fields.get_by_label("Never crawl URLs matching").fill("/private/\n*.pdf$")
        fields.get_by_label("Query parameters to remove").fill("utm_*\n\nsessionid")
        fields.get_by_label("Also crawl the other subdomains").check()
        fields.get_by_label("Requests a second to one host").fill("5")
        fields.get_by_label("User-Agent header").fill("PreviewBot/2.0 (+https://example.com/bot)")

        # Past the API's limit: its 400 sentence, next to the form, and no audit.
        fields.get_by_label("Page fetches at a time").fill("99")
        form.get_by_role("button", name="Start audit").click()
        expect(page.locator("#audit-form-error")).to_have_text(
            "concurrency: Input should be less than or equal to 40"
        )
        assert api_get(page, worker, "/api/audits")["audits"] == []
        # The browser logs the refused request itself; nothing else went wrong.
        assert watched.console_errors == [REFUSED_LOAD]
        watched.console_errors.clear()

        fields.get_by_label("Page fetches at a time").fill("2")
        form.get_by_role("button", name="Start audit").click()
        expect(page.locator("#audit-form-error")).to_be_empty()
        options = api_get(page, worker, f"/api/audits/{started_audit(page)}")["audit"]["options"]
        assert (options["max_depth"], options["include_patterns"]) == (1, ["/"])
        assert options["exclude_patterns"] == ["/private/", "*.pdf$"]
        assert options["scope"] == {
            "mode": "crawl",
            "urls": [],
            "sitemap_url": None,
            "user_agent": "PreviewBot/2.0 (+https://example.com/bot)",
            "rate_per_s": 5.0,
            "concurrency": 2,
            "strip_params": ["utm_*", "sessionid"],
            "subdomains": True,
        }
        assert options["ignore_robots"] is False and options["credentials"] is None

        # List mode: no site URL, the list's pages only; the crawl's own fields left as they were.
        page.reload()
        form.locator("#audit-mode-list").wait_for(state="attached")
        fields = advanced(form)
        expect(fields.get_by_label("Pages of the list")).to_be_hidden()
        fields.get_by_label("A list of pages only").check()
        listed = [quick_site.url("/about"), quick_site.url("/")]
        fields.get_by_label("Pages of the list").fill("\n".join(listed))
        form.get_by_role("button", name="Start audit").click()
        audit = api_get(page, worker, f"/api/audits/{started_audit(page)}")["audit"]
        assert audit["start_url"] == listed[0]
        scope = audit["options"]["scope"]
        assert (scope["mode"], scope["urls"], scope["sitemap_url"]) == ("list", listed, None)
        watched.assert_quiet()


PASSWORD, TOKEN, SESSION, NEW_TOKEN = (
    "pw-3Zq81-secret",
    "tok-8Hh27-secret",
    "sid-5Kp55-secret",
    "tok-9Rr40-new-secret",
)
SECRETS = (PASSWORD, TOKEN, SESSION, NEW_TOKEN)


def secrets_in(page: Page) -> list[str]:
    """The secrets anywhere in the page: its serialised DOM and every field's current value."""
    values = page.evaluate(
        "() => [...document.querySelectorAll('input, textarea')].map((e) => e.value).join('\\n')"
    )
    shown = page.content() + values
    return [secret for secret in SECRETS if secret in shown]


def save(page: Page, edit: Locator) -> None:
    """Save the edit form and wait for the API's answer: each save shows the same notice, so the
    notice alone cannot tell this save from the last one."""
    with page.expect_response(lambda r: r.request.method == "PATCH" and "/api/monitors/" in r.url):
        edit.get_by_role("button", name="Save monitor").click()


def test_a_monitors_credentials_are_set_replaced_and_removed_and_never_shown_back(
    browser: Browser, worker: Worker, quick_site: Site
) -> None:
    url = quick_site.url("/")
    answers: list[str] = []

    def record(response: Response) -> None:
        if "/api/" in response.url:
            answers.append(response.text())

    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        page.on("response", record)
        sign_in(page, worker)
        form = page.locator("#monitor-form")
        form.get_by_label("Monitored site URL").fill(url)
        fields = advanced(form)
        expect(fields.get_by_label("Basic auth password")).to_have_attribute("type", "password")
        expect(fields.get_by_label("Basic auth password")).to_have_attribute("autocomplete", "off")
        fields.get_by_label("Basic auth user").fill("deploy")
        fields.get_by_label("Basic auth password").fill(PASSWORD)
        fields.get_by_label("Request headers").fill(f"X-Preview-Token: {TOKEN}")
        fields.get_by_label("Cookies").fill(f"session={SESSION}")
        fields.get_by_label("Other origins that get them").fill("https://assets.example.com")
        form.get_by_role("button", name="Create monitor").click()
        expect(page.locator("#notice")).to_have_text(f"Monitor created for {url}.")
        assert secrets_in(page) == []

        row = page.locator("#monitors-table tbody tr", has_text=url)
        monitor_id = row.get_attribute("data-monitor-id")
        stored = api_get(page, worker, f"/api/monitors/{monitor_id}")["monitor"]["credentials"]
        assert stored["basic_auth"] == {"user": "deploy", "password": "[redacted]"}
        assert stored["headers"] == {"X-Preview-Token": "[redacted]"}
        assert stored["cookies"] == {"session": "[redacted]"}
        assert stored["origins"] == ["https://assets.example.com"]

        # Edit: the form says which are set, never what they are; replace them.
        row.get_by_role("button", name=re.compile("^Edit ")).click()
        edit = page.locator("#edit-monitor-form")
        fields = advanced(edit)
        summary = edit.locator(".credentials-summary")
        expect(summary).to_contain_text("basic auth as deploy")
        expect(summary).to_contain_text("headers X-Preview-Token")
        expect(summary).to_contain_text("cookies session")
        expect(fields.get_by_label("Basic auth password")).to_be_hidden()
        fields.get_by_label("Replace them").check()
        fields.get_by_label("Request headers").fill(f"X-Other-Token: {NEW_TOKEN}")
        save(page, edit)
        expect(page.locator("#notice")).to_have_text(f"Monitor of {url} saved.")
        assert secrets_in(page) == []
        replaced = api_get(page, worker, f"/api/monitors/{monitor_id}")["monitor"]["credentials"]
        assert replaced["headers"] == {"X-Other-Token": "[redacted]"}
        assert replaced["basic_auth"] is None and replaced["cookies"] == {}

        # Edit again, keeping them while another field changes; then remove them.
        row.get_by_role("button", name=re.compile("^Edit ")).click()
        expect(edit.locator(".credentials-summary")).to_contain_text("headers X-Other-Token")
        page.get_by_label("Run frequency").select_option("weekly")
        save(page, edit)
        expect(page.locator("#notice")).to_have_text(f"Monitor of {url} saved.")
        kept = api_get(page, worker, f"/api/monitors/{monitor_id}")["monitor"]
        assert (kept["frequency"], kept["credentials"]) == ("weekly", replaced)
        row.get_by_role("button", name=re.compile("^Edit ")).click()
        advanced(edit).get_by_label("Remove them").check()
        save(page, edit)
        expect(page.locator("#notice")).to_have_text(f"Monitor of {url} saved.")
        removed = api_get(page, worker, f"/api/monitors/{monitor_id}")["monitor"]
        assert removed["credentials"] is None

        assert secrets_in(page) == []
        assert len(answers) >= 8  # the lists, the create, three saves and their reloads
        assert [s for s in SECRETS if any(s in answer for answer in answers)] == []
        watched.assert_quiet()


def way_texts(page: Page, method: str) -> tuple[str, str]:
    """The where and the what the page shows for one way of publishing the token."""
    codes = page.locator(f"#verification-ways li[data-method='{method}'] code")
    return codes.nth(0).inner_text(), codes.nth(1).inner_text()


def test_a_host_is_verified_against_a_site_serving_its_token(
    browser: Browser, worker: Worker
) -> None:
    with serve_closed() as site, watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        sign_in(page, worker)
        page.get_by_role("link", name="Verify a site").click()
        page.get_by_label("Host (with :port").fill(site.host)
        page.get_by_label("A file on the site").check()
        page.get_by_role("button", name="Start verification").click()
        expect(page.locator("#verification-h")).to_be_focused()
        token = page.locator("#verification-token").inner_text()
        assert len(token) == 32
        rows = page.locator("#verifications-table tbody tr")
        expect(rows).to_have_count(1)
        expect(rows.first.locator("td").nth(1)).to_have_text("pending")

        # Not published yet: the check fails, and says why.
        page.get_by_role("button", name="Check now", exact=True).click()
        expect(rows.first.locator("td").nth(1)).to_contain_text("failed")
        site.publish("file", token)
        page.get_by_role("button", name="Check now", exact=True).click()
        expect(page.locator("#notice")).to_contain_text(f"{site.host}: verified")
        expect(rows.first.locator("td").nth(1)).to_contain_text("verified")
        facts = page.locator("#verification-facts")
        expect(facts).to_contain_text("verified")
        shown = {method: way_texts(page, method) for method in ("file", "dns", "meta")}

        # The three ways as the page wrote them are the API's: asked for each in turn (the same
        # token), the API's proof is what the page showed.
        for method in ("dns", "meta", "file"):
            body = {"host": site.host, "method": method}
            proof = api_post(page, worker, "/api/verifications", body)["verification"]["proof"]
            assert (proof["where"], proof["value"]) == shown[method]
        assert shown["file"] == (
            f"https://{site.host}/.well-known/siteaudit-verification.txt",
            token,
        )
        watched.assert_quiet()
