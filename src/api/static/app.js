// The siteaudit web app: one ES module over the service's own /api routes, and nothing else.
//
// The API key lives in sessionStorage (this tab only, gone when it closes) and travels in the
// Authorization header of each fetch, never in a cookie or a URL. Text from audited sites is
// hostile: it reaches the page through textContent only, never innerHTML; the HTML report is
// shown in a sandboxed iframe (scripts run there in an opaque origin, away from this page and
// its storage).

const KEY_NAME = "siteaudit.apiKey";
const POLL_MS = 1000;
const LIST_LIMIT = 50;
const COMPARE_LIMIT = 50;

const $ = (id) => document.getElementById(id);

class ApiFailure extends Error {
  constructor(status, message, retryAfterS = null) {
    super(message);
    this.status = status;
    this.retryAfterS = retryAfterS; // a 429's Retry-After
  }
}

// -- the API -------------------------------------------------------------------------------------

async function api(path, { method = "GET", body } = {}) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY_NAME) ?? ""}` };
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.ok) return response;
  const payload = await response.json().catch(() => null);
  const message = payload?.error?.message ?? `${response.status} ${response.statusText}`;
  if (response.status === 401) signOut("The API key was refused: sign in again.");
  const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
  throw new ApiFailure(response.status, message, Number.isNaN(retryAfter) ? null : retryAfter);
}

const json = async (path, options) => (await api(path, options)).json();
const auditPath = (id, rest = "") => `/api/audits/${encodeURIComponent(id)}${rest}`;
const monitorPath = (id) => `/api/monitors/${encodeURIComponent(id)}`;
const runsPath = (id) => `/api/monitors/${encodeURIComponent(id)}/runs`;
const runNowPath = (id) => `/api/monitors/${encodeURIComponent(id)}/run`;

// -- messages ------------------------------------------------------------------------------------

function notify(text) {
  $("error").textContent = "";
  $("notice").textContent = text;
}

const messageOf = (error) => (error instanceof ApiFailure ? error.message : `Error: ${error}`);

function fail(error) {
  $("error").textContent = messageOf(error);
}

// Runs an async action for an event, reporting any failure in the alert region (and clearing
// the last one: it was about an earlier action).
const guarded = (action) => async (event) => {
  event?.preventDefault?.();
  $("error").textContent = "";
  try {
    await action(event);
  } catch (error) {
    fail(error);
  }
};

// The same for a form's submission, whose failure (the API's 400 sentence, say) is shown next to
// the form, in its own alert region, where the reader who pressed its button is.
const guardedForm = (errorId, action) => async (event) => {
  event.preventDefault();
  $("error").textContent = "";
  $(errorId).textContent = "";
  try {
    await action(event);
  } catch (error) {
    $(errorId).textContent = messageOf(error);
  }
};

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

// A URL that wraps only between its parts, never inside one: the scheme, host and first "/" are
// one part, then each path segment up to and with its "/" (and a query's "?", "&", "#"). Each part keeps to
// one line (app.css .url > span) and a <wbr> between parts is where a line may end (HTML, "the
// wbr element"); the text stays one string for readers and copying.
function urlNode(url) {
  const node = element("span", undefined, { class: "url" });
  const text = String(url);
  const hostStart = text.indexOf("//") + 2;
  const pathStart = hostStart < 2 ? -1 : text.indexOf("/", hostStart);
  const rest = pathStart < 0 ? "" : text.slice(pathStart + 1); // after the host and its "/"
  const parts = [text.slice(0, text.length - rest.length), ...rest.split(/(?<=[/?&#])/)].filter(Boolean);
  parts.forEach((part, i) => {
    if (i > 0) node.append(element("wbr"));
    node.append(element("span", part));
  });
  return node;
}

// The origin of a URL, or the URL itself when it is not one.
function originOf(url) {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

// A button whose accessible name adds, out of sight, which row it acts on.
function rowButton(label, context, action) {
  const button = element("button", label, { type: "button" });
  button.append(element("span", ` ${context}`, { class: "visually-hidden" }));
  button.dataset.action = label.toLowerCase().replaceAll(" ", "-");
  button.addEventListener("click", guarded(action));
  return button;
}

// -- signing in and out --------------------------------------------------------------------------

async function signIn(event) {
  const key = $("api-key").value.trim();
  if (!key) throw new ApiFailure(0, "Enter an API key.");
  sessionStorage.setItem(KEY_NAME, key);
  await json(`/api/audits?limit=1`); // refused keys sign out again (api())
  $("api-key").value = "";
  await showWorkspace();
  notify("Signed in.");
  $("new-audit-h").focus();
}

// `siteaudit serve` prints a sign-in link, `/#key=<key>`: a fragment never reaches a server
// (RFC 3986 §3.5). The key moves to session storage and leaves the address bar and the history.
function keyFromLink() {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (!key) return;
  history.replaceState(null, "", location.pathname + location.search);
  sessionStorage.setItem(KEY_NAME, key.trim());
}

function signOut(reason) {
  stopWatching();
  sessionStorage.removeItem(KEY_NAME);
  $("workspace").hidden = true;
  $("site-nav").hidden = true;
  $("sign-out").hidden = true;
  $("sign-in").hidden = false;
  closeReport();
  // Nothing of the signed-out owner stays on the page.
  for (const id of ["audits-table", "monitors-table", "monitor-runs-table", "verifications-table"]) {
    $(id).tBodies[0].replaceChildren();
  }
  for (const id of ["progress", "compare-result", "monitor-secret", "monitor-runs", "edit-monitor", "verification"]) {
    $(id).hidden = true;
  }
  runsOf = null;
  editing = null;
  shownVerification = null;
  for (const form of document.querySelectorAll("form")) form.reset();
  $("verification-token").textContent = "";
  $("runs-chart").replaceChildren();
  for (const id of ["compare-before", "compare-after", "compare-summary", "progress-recent"]) {
    $(id).replaceChildren();
    delete $(id).dataset.chosen;
  }
  $("monitor-secret-value").textContent = "";
  knownAudits.clear();
  notify(reason ?? "Signed out.");
}

async function showWorkspace() {
  $("sign-in").hidden = true;
  $("workspace").hidden = false;
  $("site-nav").hidden = false;
  $("sign-out").hidden = false;
  await Promise.all([loadAudits(), loadMonitors(), loadVerifications()]);
}

// -- audits --------------------------------------------------------------------------------------

let auditsCursor = null;
const knownAudits = new Map(); // id -> audit, in list order, for the comparison's choices

// The list is marked busy while it reloads (WAI-ARIA 1.2, aria-busy: assistive technology may
// wait for the update to end before announcing it), and a reader of the page can tell when it has.
async function loadAudits(more = false) {
  const table = $("audits-table");
  table.setAttribute("aria-busy", "true");
  try {
    await fillAudits(table, more);
  } finally {
    table.setAttribute("aria-busy", "false");
  }
}

async function fillAudits(table, more) {
  let query = `limit=${LIST_LIMIT}`;
  if (more && auditsCursor) query += `&cursor=${encodeURIComponent(auditsCursor)}`;
  const page = await json(`/api/audits?${query}`);
  const body = table.tBodies[0];
  if (!more) {
    body.replaceChildren();
    knownAudits.clear();
  }
  for (const audit of page.audits) {
    knownAudits.set(audit.id, audit);
    body.append(auditRow(audit));
  }
  auditsCursor = page.next_cursor;
  $("more-audits").hidden = !auditsCursor;
  $("audits-empty").hidden = knownAudits.size > 0;
  fillCompareChoices();
}

function auditRow(audit) {
  const row = element("tr", undefined, { id: `audit-${audit.id}`, "data-audit-id": audit.id });
  const site = audit.final_url || audit.start_url;
  const score = audit.health_score === null ? "–" : Math.round(audit.health_score);
  row.append(
    siteCell(audit, site),
    statusCell(audit),
    element("td", audit.pages_crawled, { class: "num" }),
    element("td", score, { class: "num" }),
    element("td", audit.security_grade ?? "–"),
    element("td", (audit.started_at ?? audit.created_at).replace("T", " ").slice(0, 19)),
  );
  const context = `of ${site} (audit ${audit.id})`;
  const actions = element("td", undefined, { class: "row-actions" });
  if (audit.status === "running") {
    actions.append(
      rowButton("Watch", context, () => watch(audit.id)),
      rowButton("Cancel", context, () => cancelAudit(audit.id)),
    );
  } else {
    actions.append(rowButton("Report", context, () => openReport(audit.id)));
    if (resumable(audit.status)) {
      actions.append(rowButton("Resume", context, () => resumeAudit(audit.id)));
    }
    actions.append(rowButton("Re-run", context, () => rerunAudit(audit.id)));
  }
  actions.append(
    rowButton("Pages CSV", context, () => download(auditPath(audit.id, "/pages.csv"))),
    rowButton("Issues CSV", context, () => download(auditPath(audit.id, "/issues.csv"))),
  );
  if (audit.status !== "running") {
    actions.append(rowButton("Delete", context, () => deleteAudit(audit.id, site)));
  }
  row.append(actions);
  return row;
}

// -- an audit's actions: cancel, resume, re-run, delete ------------------------------------------

// The statuses the API resumes (auditdb.repository.RESUMABLE).
const resumable = (status) => status === "failed" || status === "cancelled";

async function cancelAudit(id) {
  const fromSection = document.activeElement === $("cancel-audit");
  await json(auditPath(id, "/cancel"), { method: "POST" });
  notify(`Audit ${id} cancelled; its results so far are kept.`);
  await loadAudits();
  if (watching?.id === id) await poll(id);
  // The button pressed is gone: the focus goes to what can follow, resuming the audit.
  const resume = fromSection ? $("resume-audit") : auditButton(id, "resume");
  resume?.focus();
}

const auditButton = (id, action) =>
  document.querySelector(`#audits-table tr[data-audit-id="${CSS.escape(id)}"] [data-action="${action}"]`);

async function resumeAudit(id) {
  await json(auditPath(id, "/resume"), { method: "POST" });
  notify(`Audit ${id} resumed.`);
  await loadAudits();
  await watch(id);
}

async function rerunAudit(id) {
  const { audit } = await json(auditPath(id, "/rerun"), { method: "POST" });
  notify(`Audit ${audit.id} started again for ${audit.start_url}.`);
  await loadAudits();
  await watch(audit.id);
}

// The API refuses to delete a running audit (409): it is cancelled first, on purpose.
async function deleteAudit(id, site) {
  if (!window.confirm(`Delete audit ${id} of ${site} with its pages, issues and report?`)) return;
  try {
    await api(auditPath(id), { method: "DELETE" });
  } catch (error) {
    if (error.status !== 404) throw error; // already gone: what was asked is done
  }
  if (shownReport?.id === id) closeReport();
  if (watching?.id === id || $("progress").dataset.auditId === id) closeProgress();
  await loadAudits();
  notify(`Audit ${id} deleted.`);
  $("audits-h").focus();
}

// The site, and which scheme a URL given without one was audited with.
function siteCell(audit, site) {
  const cell = element("th", undefined, { scope: "row" });
  cell.append(urlNode(site));
  if (audit.scheme_note) cell.append(element("span", audit.scheme_note, { class: "note" }));
  return cell;
}

// The status, and the sentence that says why the site made the audit fail.
function statusCell(audit) {
  const cell = element("td", audit.status);
  if (audit.site_failure) cell.append(element("span", audit.site_failure, { class: "failure" }));
  return cell;
}

async function startAudit() {
  const form = $("audit-form");
  const url = $("audit-url").value.trim();
  const scope = scopeOf(form);
  // In list mode the API starts from the list's first URL (or the sitemap's site).
  if (!url && scope.mode !== "list") throw new ApiFailure(0, "Enter the URL of the site to audit.");
  const body = url ? { url } : {};
  const maxPages = $("audit-max-pages").valueAsNumber;
  if (Number.isFinite(maxPages)) body.max_pages = maxPages;
  body.check_external = $("audit-check-external").checked;
  Object.assign(body, changedFrom(SCOPE_DEFAULTS, scope));
  const credentials = credentialsOf(form);
  if (credentials) body.credentials = credentials;
  const { audit } = await json("/api/audits", { method: "POST", body });
  clearCredentials(form); // sent once, kept sealed by the API: nothing of them stays on the page
  notify(`Audit ${audit.id} started.`);
  await loadAudits();
  await watch(audit.id);
}

// -- live progress -------------------------------------------------------------------------------

let watching = null; // { id, timer }

function stopWatching() {
  if (watching) clearTimeout(watching.timer);
  watching = null;
}

async function watch(id) {
  stopWatching();
  watching = { id, timer: null };
  $("progress").hidden = false;
  $("progress").dataset.auditId = id;
  showEndedActions(null);
  $("cancel-audit").hidden = false;
  $("progress-h").focus();
  await poll(id);
}

function closeProgress() {
  stopWatching();
  $("progress").hidden = true;
  delete $("progress").dataset.auditId;
}

// What can be done with the audit the progress section shows once it has ended (null: running).
function showEndedActions(status) {
  $("progress-report").hidden = status === null;
  $("resume-audit").hidden = !resumable(status);
  $("rerun-audit").hidden = status === null;
  $("delete-audit").hidden = status === null;
}

async function poll(id) {
  if (watching?.id !== id) return;
  let feed;
  try {
    feed = await json(auditPath(id, "/progress"));
  } catch (error) {
    if (error.status === 429 && watching?.id === id) {
      // The key's request rate is spent for now: ask again when the API says it may.
      watching.timer = setTimeout(guarded(() => poll(id)), (error.retryAfterS ?? 5) * 1000);
    } else {
      stopWatching();
    }
    throw error;
  }
  if (watching?.id !== id) return;
  showProgress(feed);
  if (feed.audit.status === "running") {
    watching.timer = setTimeout(guarded(() => poll(id)), POLL_MS);
  } else {
    stopWatching();
    $("cancel-audit").hidden = true;
    showEndedActions(feed.audit.status);
    notify(`Audit ${id} ${feed.audit.status}.`);
    await loadAudits();
  }
}

function showProgress({ audit, frontier, external, pages_expected, recent }) {
  const crawled = frontier ? frontier.crawled : audit.pages_crawled;
  // The API caps the pages expected at the audit's max_pages (service/progress.py).
  const found = Math.max(pages_expected ?? audit.pages_total, crawled, 1);
  const bar = $("progress-bar");
  bar.max = found;
  bar.value = crawled;
  $("progress-site").replaceChildren(urlNode(audit.final_url || audit.start_url), ` (audit ${audit.id})`);
  $("progress-scheme").textContent = audit.scheme_note ?? "";
  const phase = audit.current_phase ? `, phase ${audit.current_phase}` : "";
  let text = `${audit.status}: ${crawled} of ${found} pages crawled${phase}.`;
  if (external && audit.current_phase === "external-links") {
    // The external link checks are a phase of their own: the bar counts their URLs.
    bar.max = Math.max(external.urls, 1);
    bar.value = external.checked;
    const failing = `${external.hosts_failing} host${external.hosts_failing === 1 ? "" : "s"} failing`;
    text = `${audit.status}: ${crawled} pages crawled; checking external links: ` +
      `${external.checked.toLocaleString("en")} of ${external.urls.toLocaleString("en")} (${failing}).`;
  }
  if (audit.site_failure) {
    text = `Audit failed: ${audit.site_failure}`;
  } else if (audit.status !== "running") {
    const score = audit.health_score === null ? "" : ` Health score ${Math.round(audit.health_score)}.`;
    const pages = `${audit.pages_crawled} page${audit.pages_crawled === 1 ? "" : "s"}`;
    text = `Audit ${audit.status}: ${pages} crawled.${score}`;
  }
  if ($("progress-text").textContent !== text) $("progress-text").textContent = text;
  $("progress-text").classList.toggle("failed", Boolean(audit.site_failure));
  $("progress-recent").replaceChildren(
    ...recent.slice(0, 10).map((entry) => {
      const item = element("li", `${entry.status_code} `);
      item.append(urlNode(entry.url));
      return item;
    }),
  );
  // The feed lists the newest pages only while the audit runs.
  $("recent-h").hidden = $("progress-recent").hidden = recent.length === 0;
}

async function cancelWatched() {
  if (!watching) return;
  await cancelAudit(watching.id);
}

// The audit the progress section shows.
const progressAudit = () => $("progress").dataset.auditId;

// -- the report ----------------------------------------------------------------------------------

let shownReport = null; // { id, html }

// The report opens at its top: once its document has loaded, its section is scrolled to the top
// of the window (a focus alone scrolls only as far as the heading, leaving the frame below the
// fold), and the frame fills the rest of the window (app.css).
async function openReport(id) {
  const [html, report] = await Promise.all([
    api(auditPath(id, "/report.html")).then((response) => response.text()),
    json(auditPath(id, "/report")),
  ]);
  shownReport = { id, html };
  showStructured(id, report.structured_data); // above the frame, in place before the report shows
  showAccessibility(id, report);
  const frame = $("report-frame");
  const loaded = new Promise((resolve) => {
    frame.addEventListener("load", resolve, { once: true });
    setTimeout(resolve, 5000); // a report that never signals its load still gets shown
  });
  $("report").hidden = false;
  $("report-h").textContent = `Report of audit ${id}`;
  frame.srcdoc = html;
  await loaded;
  if (shownReport?.id !== id) return; // closed or replaced meanwhile
  $("report-h").focus({ preventScroll: true });
  $("report").scrollIntoView({ block: "start" });
}

function closeReport() {
  shownReport = null;
  $("report-frame").srcdoc = "";
  $("report").hidden = true;
  $("report-structured").hidden = true;
  $("report-a11y").hidden = true;
}

// -- the report's structured data: the pages of a type, feature or finding kind ------------------

// What the summary lists (docs/structured-data.md, "In the product"), each with the list filter
// that selects its pages; type names are crawled text, so they reach the page as textContent.
const STRUCTURED_GROUPS = [
  ["types", "structured_type", "type", (entry) => entry.name],
  ["features", "eligible_feature", "eligible for", (entry) => entry.feature],
  ["kinds", "structured_finding", "finding", (entry) => entry.kind],
];

function showStructured(id, summary) {
  const box = $("report-structured");
  box.hidden = !summary || summary.pages === 0;
  box.open = false;
  if (box.hidden) return;
  $("structured-summary").textContent =
    `Structured data: ${summary.pages} pages, ${summary.errors} errors, ${summary.warnings} warnings`;
  const items = STRUCTURED_GROUPS.flatMap(([key, parameter, label, value]) =>
    summary[key].map((entry) => structuredItem(id, parameter, `${label} ${value(entry)}`, value(entry), entry.pages)),
  );
  $("structured-exports").replaceChildren(...items);
}

// -- the report's accessibility: the pages each failing static rule was found on -----------------

// One `a11y-<axe rule id>` issue per page and failing rule (docs/accessibility.md, "In the
// product"), so a rule's issue count is its pages; the pages export filtered by `has_issue`.
const A11Y_PREFIX = "a11y-";
// The rules only axe-core decides, on a rendered page (a11y.rule_ids.RenderedRuleId; a test
// holds the two lists together): decided on the pages axe-core ran on, no other.
const A11Y_RENDERED_ONLY = new Set([
  "aria-braille-equivalent", "aria-command-name", "aria-conditional-attr", "aria-deprecated-role",
  "aria-hidden-focus", "aria-input-field-name", "aria-meter-name", "aria-progressbar-name",
  "aria-prohibited-attr", "aria-roledescription", "aria-tab-name", "aria-toggle-field-name",
  "aria-tooltip-name", "audio-caption", "avoid-inline-spacing", "bypass", "color-contrast",
  "css-orientation-lock", "frame-focusable-content", "frame-title-unique",
  "label-content-name-mismatch", "link-in-text-block", "no-autoplay-audio", "p-as-heading",
  "scrollable-region-focusable", "summary-name", "table-fake-caption", "td-has-header",
  "target-size", "video-caption",
]);

function showAccessibility(id, report) {
  const box = $("report-a11y");
  const byType = report.summary?.issues_by_type ?? {};
  const rules = Object.entries(byType)
    .filter(([type]) => type.startsWith(A11Y_PREFIX))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  box.hidden = rules.length === 0;
  box.open = false;
  if (box.hidden) return;
  const category = (report.scores?.categories ?? []).find((c) => c.category === "accessibility");
  const score = category?.score ?? null;
  const rendered = report.scores?.accessibility_rendered ?? 0;
  // Never implies that a page axe-core did not run on passed the rules only it decides: the
  // summary says which checks ran (short, so the closed disclosure keeps to the report's bar),
  // the opened disclosure says what that leaves unchecked.
  const pages = `${rendered} rendered ${rendered === 1 ? "page" : "pages"}`;
  const where = rendered > 0 ? `axe-core on ${pages}` : "static rules only";
  $("a11y-summary").textContent =
    `Accessibility: ${score === null ? "n/a" : score}, ${rules.length} failing ${rules.length === 1 ? "rule" : "rules"}; ${where}`;
  $("a11y-where").textContent = rendered > 0
    ? `Colour contrast, target size and the other rules only a browser decides were checked by axe-core on ${pages}, and on no other page.`
    : "No page was rendered with axe-core: colour contrast, target size and the other rules only a browser decides were not checked.";
  const items = rules.map(([type, pages]) => {
    const rule = type.slice(A11Y_PREFIX.length);
    const label = A11Y_RENDERED_ONLY.has(rule) ? `rule ${rule} (rendered page)` : `rule ${rule}`;
    return structuredItem(id, "has_issue", label, type, pages);
  });
  $("a11y-exports").replaceChildren(...items);
}

function structuredItem(id, parameter, what, value, pages) {
  const item = element("li", `${what}: ${pages} ${pages === 1 ? "page" : "pages"} `);
  const query = `?${parameter}=${encodeURIComponent(value)}`;
  item.append(rowButton("Pages CSV", `of ${what}`, () => download(auditPath(id, "/pages.csv") + query)));
  return item;
}

function downloadShownReport() {
  if (!shownReport) return;
  const blob = new Blob([shownReport.html], { type: "text/html" });
  saveBlob(blob, `siteaudit-${shownReport.id}.html`);
}

// -- downloads -----------------------------------------------------------------------------------

async function download(path) {
  const response = await api(path);
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? path.split("/").pop();
  saveBlob(await response.blob(), name);
  notify(`Downloaded ${name}.`);
}

function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = element("a", undefined, { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// -- comparing two audits ------------------------------------------------------------------------

// Defaults: the newest audit against the one before it; a choice the user made is kept.
function fillCompareChoices() {
  for (const [id, offset] of [["compare-before", 1], ["compare-after", 0]]) {
    const select = $(id);
    const kept = select.dataset.chosen ? select.value : null;
    select.replaceChildren(
      ...[...knownAudits.values()].map((audit) =>
        element("option", `${audit.final_url || audit.start_url} (${audit.created_at.slice(0, 16)}, ${audit.id})`, {
          value: audit.id,
        }),
      ),
    );
    const ids = [...knownAudits.keys()];
    select.value = kept && knownAudits.has(kept) ? kept : (ids[offset] ?? ids[0] ?? "");
  }
}

async function compareAudits() {
  const before = $("compare-before").value;
  const after = $("compare-after").value;
  if (!before || !after) throw new ApiFailure(0, "Choose two audits to compare.");
  const { comparison } = await json(`${auditPath(before, `/compare/${encodeURIComponent(after)}`)}?limit=${COMPARE_LIMIT}`);
  showComparison(comparison);
}

// Two audits of different sites compare two sites, not one site over time: the API's
// `warning` says so (the crawl's same-site rule, service.compare); an answer without the field
// (an older deployment) is judged by the two start URLs' origins.
const siteOf = (audit) => originOf(audit.final_url || audit.start_url);

function differentSites(c) {
  if ("warning" in c) return Boolean(c.warning);
  return siteOf(c.before) !== siteOf(c.after);
}

function showComparison(c) {
  const score = c.health_score;
  const warning = $("compare-warning");
  warning.hidden = !differentSites(c);
  warning.textContent = warning.hidden
    ? ""
    : c.warning
      ? `Warning: ${c.warning}.`
      : `These audits are of different sites (${siteOf(c.before)} and ${siteOf(c.after)}): ` +
        "the changes below compare two sites, not one site over time.";
  const delta = score.delta === null ? "n/a" : `${score.delta > 0 ? "+" : ""}${score.delta}`;
  const facts = [
    ["Older audit", [urlNode(c.before.start_url), ` (${c.before.id})`]],
    ["Newer audit", [urlNode(c.after.start_url), ` (${c.after.id})`]],
    ["Health score", `${score.before ?? "n/a"} → ${score.after ?? "n/a"} (${delta})`],
    ["New issues", c.new_issues.total],
    ["Fixed issues", c.fixed_issues.total],
    ["Unchanged issues", c.unchanged_issues.total],
    ["Pages added", c.pages_added.total],
    ["Pages removed", c.pages_removed.total],
  ];
  const dd = (value) => {
    const node = element("dd");
    node.append(...(Array.isArray(value) ? value : [String(value)]));
    return node;
  };
  $("compare-summary").replaceChildren(...facts.flatMap(([k, v]) => [element("dt", k), dd(v)]));
  const withUrl = (text, url) => {
    const item = element("li", text);
    item.append(urlNode(url));
    return item;
  };
  const issue = (i) => withUrl(`${i.severity} ${i.issue_type}: `, i.page_url);
  fillList("compare-new", c.new_issues.issues.map(issue), c.new_issues);
  fillList("compare-fixed", c.fixed_issues.issues.map(issue), c.fixed_issues);
  fillList("compare-added", c.pages_added.urls.map((u) => withUrl("", u)), c.pages_added);
  fillList("compare-removed", c.pages_removed.urls.map((u) => withUrl("", u)), c.pages_removed);
  $("compare-result").hidden = false;
  $("compare-result-h").focus();
}

function fillList(id, items, changes) {
  if (items.length === 0) items.push(element("li", "None."));
  if (changes.truncated) items.push(element("li", `and ${changes.total - (items.length)} more`));
  $(id).replaceChildren(...items);
}

// -- monitors ------------------------------------------------------------------------------------

let monitorsCursor = null;

async function loadMonitors(more = false) {
  let query = `limit=${LIST_LIMIT}`;
  if (more && monitorsCursor) query += `&cursor=${encodeURIComponent(monitorsCursor)}`;
  const page = await json(`/api/monitors?${query}`);
  const body = $("monitors-table").tBodies[0];
  if (!more) body.replaceChildren();
  body.append(...page.monitors.map(monitorRow));
  monitorsCursor = page.next_cursor;
  $("more-monitors").hidden = !monitorsCursor;
  $("monitors-empty").hidden = body.rows.length > 0;
}

function monitorRow(monitor) {
  const row = element("tr", undefined, { id: `monitor-${monitor.id}`, "data-monitor-id": monitor.id });
  const when = (at) => (at ? at.replace("T", " ").slice(0, 16) : "–");
  const site = element("th", undefined, { scope: "row" });
  site.append(urlNode(monitor.url));
  row.append(
    site,
    element("td", monitor.frequency),
    element("td", monitor.is_active ? "active" : "paused"),
    element("td", monitor.is_active ? when(monitor.next_due_at) : "–"),
    element("td", when(monitor.last_run_at)),
  );
  const actions = element("td", undefined, { class: "row-actions" });
  const context = `monitor of ${monitor.url}`;
  actions.append(
    rowButton("Runs", context, () => showRuns(monitor)),
    rowButton("Edit", context, () => editMonitor(monitor)),
    monitor.is_active
      ? rowButton("Pause", context, () => setActive(monitor, false))
      : rowButton("Resume", context, () => setActive(monitor, true)),
  );
  if (monitor.is_active) actions.append(rowButton("Run now", context, () => runNow(monitor)));
  actions.append(rowButton("Delete", context, () => removeMonitor(monitor)));
  row.append(actions);
  return row;
}

// -- a monitor's actions: edit, pause and resume, run now ----------------------------------------

let editing = null; // the monitor the edit form changes

function editMonitor(monitor) {
  editing = monitor;
  $("edit-monitor-site").textContent = monitor.url;
  $("edit-url").value = monitor.url;
  $("edit-frequency").value = monitor.frequency;
  $("edit-hour").value = monitor.hour;
  $("edit-max-pages").value = monitor.max_pages;
  $("edit-check-external").checked = monitor.check_external;
  $("edit-webhook").value = monitor.webhook_url ?? "";
  const form = $("edit-monitor-form");
  fillScope(form, scopeOfMonitor(monitor));
  showStoredCredentials(form, monitor.credentials);
  $("edit-monitor-form-error").textContent = "";
  $("edit-monitor").hidden = false;
  $("edit-monitor-h").focus();
}

function closeEdit() {
  editing = null;
  clearCredentials($("edit-monitor-form"));
  $("edit-monitor").hidden = true;
}

async function saveMonitor() {
  if (!editing) return;
  const body = {
    frequency: $("edit-frequency").value,
    check_external: $("edit-check-external").checked,
    webhook_url: $("edit-webhook").value.trim() || null, // empty: no alerts
  };
  // The URL only when it changed: a URL sent is read afresh (whether it names a scheme).
  const url = $("edit-url").value.trim();
  if (url !== editing.url) body.url = url;
  for (const [name, id] of Object.entries({ hour: "edit-hour", max_pages: "edit-max-pages" })) {
    const value = $(id).valueAsNumber;
    if (Number.isFinite(value)) body[name] = value;
  }
  // Only the advanced fields the form changed: an unchanged `ignore_robots` is not asked again.
  const form = $("edit-monitor-form");
  Object.assign(body, changedFrom(scopeOfMonitor(editing), scopeOf(form)));
  const credentials = credentialsChange(form);
  if (credentials !== undefined) body.credentials = credentials;
  const { monitor } = await json(monitorPath(editing.id), { method: "PATCH", body });
  closeEdit();
  await refreshMonitor(monitor);
  notify(`Monitor of ${monitor.url} saved.`);
  $("monitors-h").focus();
}

async function setActive(monitor, active) {
  const { monitor: changed } = await json(monitorPath(monitor.id), {
    method: "PATCH",
    body: { is_active: active },
  });
  await refreshMonitor(changed);
  notify(`Monitor of ${changed.url} ${active ? "resumed" : "paused"}.`);
  // The row was redrawn: the focus goes to its button that undoes what was just done.
  $(`monitor-${changed.id}`)?.querySelector(`[data-action="${active ? "pause" : "resume"}"]`)?.focus();
}

async function runNow(monitor) {
  const run = await json(runNowPath(monitor.id), { method: "POST" });
  notify(`Run of the monitor of ${monitor.url} started (audit ${run.audit_id ?? "refused"}).`);
  await Promise.all([loadMonitors(), loadAudits()]);
  await showRuns(monitor); // the new run is the first of the runs shown, and the focus goes there
}

// After a change: the list, and the runs shown if they are this monitor's.
async function refreshMonitor(monitor) {
  await loadMonitors();
  if (runsOf?.monitor.id === monitor.id) await loadRuns(monitor);
}

// -- a monitor's runs ----------------------------------------------------------------------------

let runsOf = null; // { monitor, cursor }: the monitor whose runs are shown

async function loadRuns(monitor, more = false) {
  let query = `limit=${LIST_LIMIT}`;
  if (more && runsOf?.cursor) query += `&cursor=${encodeURIComponent(runsOf.cursor)}`;
  const page = await json(`${runsPath(monitor.id)}?${query}`);
  const body = $("monitor-runs-table").tBodies[0];
  if (!more) body.replaceChildren();
  body.append(...page.runs.map(runRow));
  runsOf = { monitor, cursor: page.next_cursor, runs: more ? [...runsOf.runs, ...page.runs] : page.runs };
  $("monitor-runs-site").textContent = monitor.url;
  drawScoreChart(runsOf.runs);
  $("more-runs").hidden = !page.next_cursor;
  $("monitor-runs-empty").hidden = body.rows.length > 0;
  $("monitor-runs").hidden = false;
}

// The score chart: the health score of each scored run shown, oldest on the left, on a 0-100
// scale. An SVG line chart made with DOM calls (the page's policy allows no inline markup); its
// title says what it shows in words, and the table under it holds every value.
const SVG_NS = "http://www.w3.org/2000/svg";
// In viewBox units; the chart scales to its box (at most 40rem wide), so the axis labels stay
// readable on a 375 px screen too.
const CHART = { width: 480, height: 180, left: 40, right: 12, top: 12, bottom: 30 };

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawScoreChart(runs) {
  const scored = runs.filter((run) => run.health_score !== null).reverse(); // oldest first
  const figure = $("runs-chart");
  figure.hidden = scored.length === 0;
  if (scored.length === 0) return figure.replaceChildren();
  const { width, height, left, right, top, bottom } = CHART;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const x = (i) => left + (scored.length === 1 ? plotW / 2 : (i * plotW) / (scored.length - 1));
  const y = (score) => top + plotH - (score * plotH) / 100;
  const day = (run) => run.started_at.slice(0, 10);
  const rounded = (run) => Math.round(run.health_score);
  const first = scored[0];
  const last = scored[scored.length - 1];
  const summary =
    `Health score of ${scored.length} run${scored.length === 1 ? "" : "s"}: ` +
    `${rounded(first)} on ${day(first)}` +
    (scored.length > 1 ? `, ${rounded(last)} on ${day(last)}` : "") + ".";
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-labelledby": "runs-chart-title",
    class: "score-chart",
  });
  chart.append(svg("title", { id: "runs-chart-title" }, summary));
  for (const tick of [0, 50, 100]) {
    chart.append(
      svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: "grid" }),
      svg("text", { x: left - 6, y: y(tick) + 4, "text-anchor": "end", class: "axis" }, tick),
    );
  }
  const points = scored.map((run, i) => `${x(i)},${y(run.health_score)}`).join(" ");
  chart.append(svg("polyline", { points, class: "line" }));
  scored.forEach((run, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(run.health_score), r: 4, class: "dot" });
    dot.append(svg("title", {}, `${day(run)}: ${rounded(run)}`));
    chart.append(dot);
  });
  chart.append(
    svg("text", { x: left, y: height - 6, class: "axis" }, day(first)),
    svg("text", { x: width - right, y: height - 6, "text-anchor": "end", class: "axis" }, day(last)),
  );
  figure.replaceChildren(chart, element("figcaption", summary));
}

async function showRuns(monitor) {
  await loadRuns(monitor);
  $("monitor-runs-h").focus();
}

// A failed run says why under its status, in the API's sentence (`reason`): the site could not be
// audited, or the audit failed on our side and nothing was learned about the site. New and fixed
// issues are counted against the previous completed run only; "–" is "not compared".
function runRow(run) {
  const row = element("tr", undefined, { "data-run-id": run.id });
  const status = element("td", run.status);
  if (run.reason) status.append(element("br"), element("span", run.reason, { class: "reason" }));
  const shown = (value) => (value === null ? "–" : value);
  const score = run.health_score === null ? null : Math.round(run.health_score);
  row.append(
    element("th", run.started_at.replace("T", " ").slice(0, 16), { scope: "row" }),
    status,
    element("td", shown(score), { class: "num" }),
    element("td", shown(run.new_issues), { class: "num" }),
    element("td", shown(run.fixed_issues), { class: "num" }),
  );
  return row;
}

async function createMonitor() {
  const url = $("monitor-url").value.trim();
  if (!url) throw new ApiFailure(0, "Enter the URL of the site to monitor.");
  const body = { url, frequency: $("monitor-frequency").value };
  const maxPages = $("monitor-max-pages").valueAsNumber;
  if (Number.isFinite(maxPages)) body.max_pages = maxPages;
  body.check_external = $("monitor-check-external").checked;
  const webhook = $("monitor-webhook").value.trim();
  if (webhook) body.webhook_url = webhook;
  const form = $("monitor-form");
  Object.assign(body, changedFrom(SCOPE_DEFAULTS, scopeOf(form)));
  const credentials = credentialsOf(form);
  if (credentials) body.credentials = credentials;
  const { monitor } = await json("/api/monitors", { method: "POST", body });
  // Every monitor gets a signing secret; it matters (and is shown, once) when alerts go out.
  const secret = webhook ? monitor.webhook_secret : "";
  $("monitor-secret").hidden = !secret;
  $("monitor-secret-value").textContent = secret;
  $("monitor-form").reset();
  await loadMonitors();
  notify(`Monitor created for ${monitor.url}.`);
}

async function removeMonitor(monitor) {
  if (!window.confirm(`Delete the monitor of ${monitor.url} and its run history?`)) return;
  try {
    await api(monitorPath(monitor.id), { method: "DELETE" });
  } catch (error) {
    if (error.status !== 404) throw error; // already gone: what was asked is done
  }
  if (runsOf?.monitor.id === monitor.id) {
    $("monitor-runs").hidden = true;
    runsOf = null;
  }
  if (editing?.id === monitor.id) closeEdit();
  await loadMonitors();
  notify(`Monitor of ${monitor.url} deleted.`);
  $("monitors-h").focus();
}

// -- the advanced fields: scope, speed, list mode, robots.txt, credentials ------------------------

// One set of fields (index.html's #advanced-fields template) in each form that starts crawls,
// its ids prefixed with the form's own. Each control is named after the API's field.
function mountAdvancedFields() {
  const template = $("advanced-fields");
  for (const slot of document.querySelectorAll(".advanced-slot")) {
    const fields = template.content.cloneNode(true);
    const prefixed = (id) => id.replace(/^P-/, `${slot.dataset.prefix}-`);
    for (const node of fields.querySelectorAll("[id]")) node.id = prefixed(node.id);
    for (const label of fields.querySelectorAll("label[for]")) label.htmlFor = prefixed(label.htmlFor);
    for (const node of fields.querySelectorAll("[aria-describedby]")) {
      node.setAttribute("aria-describedby", prefixed(node.getAttribute("aria-describedby")));
    }
    slot.append(fields);
    const form = slot.closest("form");
    for (const radio of form.querySelectorAll("[name=credentials_action]")) {
      radio.addEventListener("change", () => showCredentialFields(form));
    }
    for (const radio of form.querySelectorAll("[name=mode]")) {
      radio.addEventListener("change", () => showListFields(form));
    }
    form.addEventListener("reset", () => setTimeout(() => showListFields(form)));
  }
}

// The list's fields are shown in list mode only (crawl mode sends neither).
function showListFields(form) {
  form.querySelector(".list-fields").hidden = control(form, "mode").value !== "list";
}

const control = (form, name) => form.elements.namedItem(name);
const linesOf = (text) => text.split("\n").map((line) => line.trim()).filter(Boolean);
const numberOf = (input) => (Number.isFinite(input.valueAsNumber) ? input.valueAsNumber : null);
const textOf = (input) => input.value.trim() || null;

// What the API takes when a field is left out (src/api/schemas.py ScopeFields, CreateAuditBody).
const SCOPE_DEFAULTS = {
  max_depth: null,
  include: [],
  exclude: [],
  user_agent: null,
  rate_per_s: null,
  concurrency: null,
  strip_params: [],
  subdomains: false,
  mode: "crawl",
  urls: [],
  sitemap_url: null,
  ignore_robots: false,
};

// The scope fields as the form says them, in the API's names and types.
function scopeOf(form) {
  const list = control(form, "mode").value === "list";
  const values = {};
  for (const [name, fallback] of Object.entries(SCOPE_DEFAULTS)) {
    const input = control(form, name);
    if (typeof fallback === "boolean") values[name] = input.checked;
    else if (Array.isArray(fallback)) values[name] = linesOf(input.value);
    else if (input.type === "number") values[name] = numberOf(input);
    else values[name] = textOf(input);
  }
  // The list's fields go only with list mode, which is what the API accepts.
  values.mode = list ? "list" : "crawl";
  if (!list) Object.assign(values, { urls: [], sitemap_url: null });
  return values;
}

// A monitor's scope fields, as scopeOf says them (the API keeps the first three beside `scope`).
function scopeOfMonitor(monitor) {
  const { max_depth, include, exclude, ignore_robots } = monitor;
  return { ...SCOPE_DEFAULTS, ...monitor.scope, max_depth, include, exclude, ignore_robots };
}

function fillScope(form, values) {
  for (const [name, value] of Object.entries(values)) {
    const input = control(form, name);
    if (name === "mode") input.value = value;
    else if (typeof value === "boolean") input.checked = value;
    else if (Array.isArray(value)) input.value = value.join("\n");
    else input.value = value ?? "";
  }
  showListFields(form);
}

// The fields of `values` that differ from `base` (null clears a field back to its default).
function changedFrom(base, values) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => !same(base[name], value)));
}

// "name: value" lines (headers) or "name=value" lines (cookies) as the API's object. A line that
// is not one is refused by its number: it may hold a secret, which no message repeats.
function pairsOf(text, separator, what) {
  const pairs = {};
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const at = line.indexOf(separator);
    if (at < 1) throw new ApiFailure(0, `${what}: line ${i + 1} is not "name${separator} value".`);
    pairs[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  });
  return pairs;
}

// The credentials the form holds in the API's shape (CredentialsBody), or null when it holds none.
function credentialsOf(form) {
  const user = control(form, "basic_user").value.trim();
  const password = control(form, "basic_password").value;
  const credentials = {
    headers: pairsOf(control(form, "headers").value, ":", "Request headers"),
    cookies: pairsOf(control(form, "cookies").value, "=", "Cookies"),
    origins: linesOf(control(form, "origins").value),
    send_to_external_links: control(form, "send_to_external_links").checked,
    send_to_lighthouse: control(form, "send_to_lighthouse").checked,
  };
  if (user || password) credentials.basic_auth = { user, password };
  const given = user || password || Object.keys(credentials.headers).length > 0 ||
    Object.keys(credentials.cookies).length > 0 || credentials.origins.length > 0;
  return given ? credentials : null;
}

// What an edit does to a monitor's stored credentials: undefined keeps them (left out of the
// PATCH), null removes them, an object replaces them whole (the API keeps no part of the old).
function credentialsChange(form) {
  const stored = !form.querySelector(".credentials-state").hidden;
  const action = stored ? control(form, "credentials_action").value : "replace";
  if (action === "keep") return undefined;
  if (action === "remove") return null;
  const credentials = credentialsOf(form);
  if (credentials === null && stored) {
    throw new ApiFailure(0, "Enter the new credentials, or choose to keep or remove them.");
  }
  return credentials ?? undefined;
}

// A monitor's stored credentials as the API shows them (each value redacted): which are set,
// never what they are, and whether to keep, replace or remove them.
function showStoredCredentials(form, credentials) {
  clearCredentials(form);
  form.querySelector(".credentials-state").hidden = credentials === null;
  form.querySelector(".credentials-summary").textContent = credentials ? credentialsSummary(credentials) : "";
  control(form, "credentials_action").value = "keep";
  showCredentialFields(form);
}

function credentialsSummary({ basic_auth, headers, cookies, origins }) {
  const names = (record) => Object.keys(record).join(", ");
  const parts = [];
  if (basic_auth) parts.push(`basic auth as ${basic_auth.user}`);
  if (Object.keys(headers).length) parts.push(`headers ${names(headers)}`);
  if (Object.keys(cookies).length) parts.push(`cookies ${names(cookies)}`);
  const also = origins.length ? `; also sent to ${origins.join(", ")}` : "";
  return `Credentials are set (${parts.join("; ") || "none"}${also}); their values are never shown.`;
}

function showCredentialFields(form) {
  const stored = !form.querySelector(".credentials-state").hidden;
  const replacing = control(form, "credentials_action").value === "replace";
  form.querySelector(".credentials-fields").hidden = stored && !replacing;
}

function clearCredentials(form) {
  for (const name of ["basic_user", "basic_password", "headers", "cookies", "origins"]) {
    control(form, name).value = "";
  }
  for (const name of ["send_to_external_links", "send_to_lighthouse"]) control(form, name).checked = false;
}

// -- verifying a host ----------------------------------------------------------------------------

let shownVerification = null; // the verification whose token and ways are shown

const verificationPath = (id) => `/api/verifications/${encodeURIComponent(id)}`;
const verificationCheckPath = (id) => `/api/verifications/${encodeURIComponent(id)}/check`;

// Where each way puts the token and what goes there, for the ways the verification is not set
// to (the API's `proof` says it for the one it is): src/crawl/host_proof.py's WELL_KNOWN_PATH,
// DNS_LABEL, TXT_PREFIX and META_NAME, as service/verification.py proof_of uses them
// (tests/browser/test_webapp_options.py compares the three with the API's).
const hostnameOf = (host) => (host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, ""));
const WAYS = {
  file: {
    title: "A file on the site",
    how: "Serve a text file at this address (over http where the site has no https) holding the token on a line of its own.",
    proof: (host, token) => ({ where: `https://${host}/.well-known/siteaudit-verification.txt`, value: token }),
  },
  dns: {
    title: "A DNS TXT record",
    how: "Add a TXT record with this text at this name (or at the host name itself).",
    proof: (host, token) => ({ where: `_siteaudit.${hostnameOf(host)}`, value: `siteaudit-verification=${token}` }),
  },
  meta: {
    title: "A meta tag on the home page",
    how: "Put this tag in the <head> of the page at this address.",
    proof: (host, token) => ({
      where: `https://${host}/`,
      value: `<meta name="siteaudit-verification" content="${token}">`,
    }),
  },
};

async function loadVerifications() {
  const { verifications } = await json("/api/verifications");
  $("verifications-table").tBodies[0].replaceChildren(...verifications.map(verificationRow));
  $("verifications-empty").hidden = verifications.length > 0;
}

function verificationRow(verification) {
  const row = element("tr", undefined, { "data-verification-id": verification.id });
  const state = element("td", verification.status);
  if (verification.reason) state.append(element("span", verification.reason, { class: "failure" }));
  const checked = verification.checked_at ? verification.checked_at.replace("T", " ").slice(0, 16) : "never";
  row.append(
    element("th", verification.host, { scope: "row" }),
    element("td", WAYS[verification.method]?.title ?? verification.method),
    state,
    element("td", checked),
  );
  const context = `the verification of ${verification.host}`;
  const actions = element("td", undefined, { class: "row-actions" });
  actions.append(
    rowButton("Show", context, () => showVerification(verification)),
    rowButton("Check now", context, () => checkVerification(verification, verification.method)),
    rowButton("Forget", context, () => forgetVerification(verification)),
  );
  row.append(actions);
  return row;
}

async function startVerification() {
  const host = $("verify-host").value.trim();
  if (!host) throw new ApiFailure(0, "Enter the host to verify.");
  const method = control($("verify-form"), "method").value;
  const { verification } = await json("/api/verifications", { method: "POST", body: { host, method } });
  await loadVerifications();
  showVerification(verification);
  notify(`Verification of ${verification.host} started: publish its token, then check it.`);
}

function showVerification(verification) {
  shownVerification = verification;
  const when = (at) => (at ? at.replace("T", " ").slice(0, 16) : "never");
  const facts = [
    ["State", verification.status],
    ["Checked by", WAYS[verification.method]?.title ?? verification.method],
    ["Last checked (UTC)", when(verification.checked_at)],
    ["Verified (UTC)", when(verification.verified_at)],
  ];
  if (verification.reason) facts.push(["Last check", verification.reason]);
  $("verification-facts").replaceChildren(...facts.flatMap(([k, v]) => [element("dt", k), element("dd", v)]));
  $("verification-host").textContent = verification.host;
  $("verification-token").textContent = verification.token;
  $("verification-ways").replaceChildren(
    ...Object.keys(WAYS).map((method) => wayItem(verification, method)),
  );
  $("verification-method").value = verification.method;
  $("verification").hidden = false;
  $("verification-h").focus();
}

function wayItem(verification, method) {
  const way = WAYS[method];
  const current = method === verification.method;
  const proof = current ? verification.proof : way.proof(verification.host, verification.token);
  const item = element("li", undefined, { "data-method": method });
  item.append(element("h4", current ? `${way.title} (the way checked)` : way.title));
  item.append(element("p", current ? proof.instructions : way.how));
  item.append(copyable("Where", proof.where, `where ${way.title.toLowerCase()} goes`));
  item.append(copyable("What", proof.value, `what ${way.title.toLowerCase()} holds`));
  return item;
}

// A line of text to copy, and its button; the text stays selectable where the clipboard is shut.
function copyable(label, text, context) {
  const line = element("p", `${label}: `, { class: "copyable" });
  const code = element("code", text);
  const button = element("button", "Copy", { type: "button", class: "secondary copy" });
  button.append(element("span", ` ${context}`, { class: "visually-hidden" }));
  button.addEventListener("click", guarded(() => copyText(code)));
  line.append(code, " ", button);
  return line;
}

async function copyText(code) {
  try {
    await navigator.clipboard.writeText(code.textContent);
    notify("Copied.");
  } catch {
    getSelection().selectAllChildren(code);
    notify("Selected: copy it with Ctrl+C (or Cmd+C).");
  }
}

// Checks the way asked for; another way than the verification's is asked for first (the API
// keeps the token and makes the verification pending until this check).
async function checkVerification(verification, method) {
  let current = verification;
  if (method !== current.method) {
    const body = { host: current.host, method };
    ({ verification: current } = await json("/api/verifications", { method: "POST", body }));
  }
  const { verification: checked } = await json(verificationCheckPath(current.id), { method: "POST" });
  await loadVerifications();
  if (shownVerification?.id === checked.id) showVerification(checked);
  notify(`${checked.host}: ${checked.status}${checked.reason ? `: ${checked.reason}` : "."}`);
}

async function forgetVerification(verification) {
  if (!window.confirm(`Forget the verification of ${verification.host}? Audits of it obey its robots.txt again.`)) return;
  try {
    await api(verificationPath(verification.id), { method: "DELETE" });
  } catch (error) {
    if (error.status !== 404) throw error; // already gone: what was asked is done
  }
  if (shownVerification?.id === verification.id) {
    shownVerification = null;
    $("verification").hidden = true;
  }
  await loadVerifications();
  notify(`The verification of ${verification.host} is forgotten.`);
  $("verify-h").focus();
}

// -- wiring --------------------------------------------------------------------------------------

function start() {
  // The edit form offers the frequencies the create form does (one list, in index.html).
  $("edit-frequency").append(...[...$("monitor-frequency").options].map((o) => o.cloneNode(true)));
  $("sign-in-form").addEventListener("submit", guarded(signIn));
  $("sign-out").addEventListener("click", () => {
    signOut();
    $("sign-in-h").focus();
  });
  mountAdvancedFields();
  $("audit-form").addEventListener("submit", guardedForm("audit-form-error", startAudit));
  $("refresh-audits").addEventListener("click", guarded(() => loadAudits()));
  $("more-audits").addEventListener("click", guarded(() => loadAudits(true)));
  $("cancel-audit").addEventListener("click", guarded(cancelWatched));
  $("progress-report").addEventListener("click", guarded(() => openReport(progressAudit())));
  $("resume-audit").addEventListener("click", guarded(() => resumeAudit(progressAudit())));
  $("rerun-audit").addEventListener("click", guarded(() => rerunAudit(progressAudit())));
  $("delete-audit").addEventListener("click", guarded(() => {
    const audit = knownAudits.get(progressAudit());
    return deleteAudit(progressAudit(), audit ? audit.final_url || audit.start_url : "its site");
  }));
  $("download-report").addEventListener("click", downloadShownReport);
  $("close-report").addEventListener("click", () => {
    closeReport();
    $("audits-h").focus();
  });
  $("compare-form").addEventListener("submit", guarded(compareAudits));
  for (const id of ["compare-before", "compare-after"]) {
    $(id).addEventListener("change", () => ($(id).dataset.chosen = "yes"));
  }
  $("monitor-form").addEventListener("submit", guardedForm("monitor-form-error", createMonitor));
  $("more-monitors").addEventListener("click", guarded(() => loadMonitors(true)));
  $("more-runs").addEventListener("click", guarded(() => loadRuns(runsOf.monitor, true)));
  $("edit-monitor-form").addEventListener("submit", guardedForm("edit-monitor-form-error", saveMonitor));
  $("verify-form").addEventListener("submit", guardedForm("verify-form-error", startVerification));
  $("verification-check-form").addEventListener(
    "submit",
    guardedForm("verification-check-form-error", () =>
      checkVerification(shownVerification, $("verification-method").value),
    ),
  );
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", guarded(() => copyText($(button.dataset.copy))));
  }
  $("cancel-edit").addEventListener("click", () => {
    closeEdit();
    $("monitors-h").focus();
  });
  keyFromLink();
  if (sessionStorage.getItem(KEY_NAME)) guarded(showWorkspace)();
}

start();
