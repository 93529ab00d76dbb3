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

// -- messages ------------------------------------------------------------------------------------

function notify(text) {
  $("error").textContent = "";
  $("notice").textContent = text;
}

function fail(error) {
  $("error").textContent = error instanceof ApiFailure ? error.message : `Error: ${error}`;
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

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
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
  for (const id of ["audits-table", "monitors-table", "monitor-runs-table"]) {
    $(id).tBodies[0].replaceChildren();
  }
  for (const id of ["progress", "compare-result", "monitor-secret", "monitor-runs"]) {
    $(id).hidden = true;
  }
  runsOf = null;
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
  await Promise.all([loadAudits(), loadMonitors()]);
}

// -- audits --------------------------------------------------------------------------------------

let auditsCursor = null;
const knownAudits = new Map(); // id -> audit, in list order, for the comparison's choices

async function loadAudits(more = false) {
  let query = `limit=${LIST_LIMIT}`;
  if (more && auditsCursor) query += `&cursor=${encodeURIComponent(auditsCursor)}`;
  const page = await json(`/api/audits?${query}`);
  const body = $("audits-table").tBodies[0];
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
    actions.append(rowButton("Watch", context, () => watch(audit.id)));
  } else {
    actions.append(rowButton("Report", context, () => openReport(audit.id)));
  }
  actions.append(
    rowButton("Pages CSV", context, () => download(auditPath(audit.id, "/pages.csv"))),
    rowButton("Issues CSV", context, () => download(auditPath(audit.id, "/issues.csv"))),
  );
  row.append(actions);
  return row;
}

// The site, and which scheme a URL given without one was audited with.
function siteCell(audit, site) {
  const cell = element("th", site, { scope: "row" });
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
  const url = $("audit-url").value.trim();
  if (!url) throw new ApiFailure(0, "Enter the URL of the site to audit.");
  const body = { url };
  const maxPages = $("audit-max-pages").valueAsNumber;
  if (Number.isFinite(maxPages)) body.max_pages = maxPages;
  body.check_external = $("audit-check-external").checked;
  const { audit } = await json("/api/audits", { method: "POST", body });
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
  $("progress-report").hidden = true;
  $("cancel-audit").hidden = false;
  $("progress-h").focus();
  await poll(id);
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
    $("progress-report").hidden = false;
    $("progress-report").dataset.auditId = id;
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
  $("progress-site").textContent = `${audit.final_url || audit.start_url} (audit ${audit.id})`;
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
    text = `Audit ${audit.status}: ${audit.pages_crawled} pages crawled.${score}`;
  }
  if ($("progress-text").textContent !== text) $("progress-text").textContent = text;
  $("progress-text").classList.toggle("failed", Boolean(audit.site_failure));
  $("progress-recent").replaceChildren(
    ...recent.slice(0, 10).map((entry) => element("li", `${entry.status_code} ${entry.url}`)),
  );
  // The feed lists the newest pages only while the audit runs.
  $("recent-h").hidden = $("progress-recent").hidden = recent.length === 0;
}

async function cancelWatched() {
  if (!watching) return;
  await json(auditPath(watching.id, "/cancel"), { method: "POST" });
  notify(`Cancelling audit ${watching.id}.`);
}

// -- the report ----------------------------------------------------------------------------------

let shownReport = null; // { id, html }

async function openReport(id) {
  const html = await (await api(auditPath(id, "/report.html"))).text();
  shownReport = { id, html };
  $("report-frame").srcdoc = html;
  $("report").hidden = false;
  $("report-h").textContent = `Report of audit ${id}`;
  $("report-h").focus();
}

function closeReport() {
  shownReport = null;
  $("report-frame").srcdoc = "";
  $("report").hidden = true;
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

function showComparison(c) {
  const score = c.health_score;
  const delta = score.delta === null ? "n/a" : `${score.delta > 0 ? "+" : ""}${score.delta}`;
  const facts = [
    ["Older audit", `${c.before.start_url} (${c.before.id})`],
    ["Newer audit", `${c.after.start_url} (${c.after.id})`],
    ["Health score", `${score.before ?? "n/a"} → ${score.after ?? "n/a"} (${delta})`],
    ["New issues", c.new_issues.total],
    ["Fixed issues", c.fixed_issues.total],
    ["Unchanged issues", c.unchanged_issues.total],
    ["Pages added", c.pages_added.total],
    ["Pages removed", c.pages_removed.total],
  ];
  $("compare-summary").replaceChildren(...facts.flatMap(([k, v]) => [element("dt", k), element("dd", v)]));
  // Audits of two different sites: the API still compares them, and says why it means little.
  $("compare-warning").textContent = c.warning ? `Warning: ${c.warning}.` : "";
  $("compare-warning").hidden = !c.warning;
  const issue = (i) => element("li", `${i.severity} ${i.issue_type}: ${i.page_url}`);
  fillList("compare-new", c.new_issues.issues.map(issue), c.new_issues);
  fillList("compare-fixed", c.fixed_issues.issues.map(issue), c.fixed_issues);
  fillList("compare-added", c.pages_added.urls.map((u) => element("li", u)), c.pages_added);
  fillList("compare-removed", c.pages_removed.urls.map((u) => element("li", u)), c.pages_removed);
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
  row.append(
    element("th", monitor.url, { scope: "row" }),
    element("td", monitor.frequency),
    element("td", when(monitor.next_due_at)),
    element("td", when(monitor.last_run_at)),
  );
  const actions = element("td", undefined, { class: "row-actions" });
  const context = `monitor of ${monitor.url}`;
  actions.append(
    rowButton("Runs", context, () => showRuns(monitor)),
    rowButton("Remove", context, () => removeMonitor(monitor)),
  );
  row.append(actions);
  return row;
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
  runsOf = { monitor, cursor: page.next_cursor };
  $("monitor-runs-site").textContent = monitor.url;
  $("more-runs").hidden = !page.next_cursor;
  $("monitor-runs-empty").hidden = body.rows.length > 0;
  $("monitor-runs").hidden = false;
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
  await api(monitorPath(monitor.id), { method: "DELETE" });
  if (runsOf?.monitor.id === monitor.id) {
    $("monitor-runs").hidden = true;
    runsOf = null;
  }
  await loadMonitors();
  notify(`Monitor of ${monitor.url} removed.`);
  $("monitors-h").setAttribute("tabindex", "-1");
  $("monitors-h").focus();
}

// -- wiring --------------------------------------------------------------------------------------

function start() {
  $("sign-in-form").addEventListener("submit", guarded(signIn));
  $("sign-out").addEventListener("click", () => {
    signOut();
    $("sign-in-h").focus();
  });
  $("audit-form").addEventListener("submit", guarded(startAudit));
  $("refresh-audits").addEventListener("click", guarded(() => loadAudits()));
  $("more-audits").addEventListener("click", guarded(() => loadAudits(true)));
  $("cancel-audit").addEventListener("click", guarded(cancelWatched));
  $("progress-report").addEventListener("click", guarded(() => openReport($("progress-report").dataset.auditId)));
  $("download-report").addEventListener("click", downloadShownReport);
  $("close-report").addEventListener("click", () => {
    closeReport();
    $("audits-h").setAttribute("tabindex", "-1");
    $("audits-h").focus();
  });
  $("compare-form").addEventListener("submit", guarded(compareAudits));
  for (const id of ["compare-before", "compare-after"]) {
    $(id).addEventListener("change", () => ($(id).dataset.chosen = "yes"));
  }
  $("monitor-form").addEventListener("submit", guarded(createMonitor));
  $("more-monitors").addEventListener("click", guarded(() => loadMonitors(true)));
  $("more-runs").addEventListener("click", guarded(() => loadRuns(runsOf.monitor, true)));
  keyFromLink();
  if (sessionStorage.getItem(KEY_NAME)) guarded(showWorkspace)();
}

start();
