// SiteAuditWorkflow through run(event, step) with the SDK's workflows.js (a retried step, replay
// after a restart, NonRetryableError, a start URL that fails the audit at discovery), Default.scheduled(controller, env, ctx) for the watchdog and
// cleanup crons, Default.fetch for authenticated reads (an API key made by service.keys inside
// Pyodide), cursor pagination and a streamed export (a JS ReadableStream pulled from Python), a
// full report stored in and read back from the R2 double through the SDK's conversions, /mcp
// (which needs no pydantic), the hourly monitor producer and Default.queue (one message acked, a
// failing one retried; the audit's end finishing the run with its report in the R2 double; an
// alert posted to a loopback receiver, retried with back-off, signed), the daily cleanup's run
// retention (R2 keys deleted as one list), the web app at / (its CSP and headers, an ETag's 304)
// and the streamed HTML report, and what Default does not offer in this tier (request bodies:
// they need pydantic).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { gunzipSync } from "node:zlib";
import fs from "node:fs";
import { MessageBatch, ScheduledController } from "./harness/doubles/bindings.mjs";
import { boot, callDefault } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());
const env = rt.makeEnv();
const wf = env.SITE_AUDIT_WORKFLOW;
const UNREACHABLE = "http://127.0.0.1:9/"; // discard port: every fetch fails fast
// A one-page site on 127.0.0.1: an audit needs a start URL that answers with HTML, or it fails at
// discovery (crawl.start_verdict).
const site = createServer((request, response) => {
  response.writeHead(request.url === "/" ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
  response.end("<!doctype html><html lang=en><title>The one page of the tier's site</title><h1>Home</h1>");
});
await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
after(() => new Promise((resolve) => site.close(resolve)));
const SITE_URL = `http://127.0.0.1:${site.address().port}/`;
const steps = (id) => wf.log.filter((e) => e.instance === id);
const start = (id, url = SITE_URL) => rt.runPython(`import audit_driver, workers
await audit_driver.start_audit(workers.env, ${JSON.stringify(id)}, ${JSON.stringify(url)}, 5)`);
const audit = (id) => env.DB.prepare("SELECT * FROM audits WHERE id = ?").bind(id).first();

test("a failing D1 read is retried by the step's config, and the run completes", async () => {
  env.DB.failNext(1, { pattern: /^SELECT \* FROM audits WHERE id = \?$/ }); // validate-context's read
  await start("wf-retry");
  const record = await wf.wait("wf-retry");
  assert.equal(record.status, "complete", JSON.stringify(record.error));
  assert.equal((await audit("wf-retry")).status, "completed");
  const log = steps("wf-retry");
  assert.deepEqual(log.slice(0, 3).map((e) => [e.step, e.attempt, e.error ?? null]), [
    ["validate-context#1", 1, null], ["validate-context#1", 1, "PythonError"], ["validate-context#1", 2, null],
  ]);
  // The site's port is random, and auto renders one URL in ten by its hash (render.decision):
  // a render step follows the crawl exactly when the start URL falls in that sample.
  const sampled = await rt.runPython(`from render.decision import in_sample
in_sample(${JSON.stringify(SITE_URL)})`);
  assert.deepEqual([...new Set(log.map((e) => e.step))], ["validate-context#1", "discover-urls#1", "crawl-chunk-1#1", ...(sampled ? ["render-1-1#1"] : []), "timing-check#1", "external-links-1#1", "security-grade#1", "exposure-checks#1", "select-lighthouse-sample#1", "keep-links-1#1", "finalize#1"]);
  // audit_driver's audits check external links: one external-links step, with nothing to check.
  // The start URL answers over plain http only: the security-grade step grades that entry point.
  const row = await audit("wf-retry");
  assert.ok(row.security_grade && row.security_score !== null, JSON.stringify(row));
});

test("a start URL that gets no answer fails the audit at discovery, in one attempt, with its sentence", async () => {
  await start("wf-down", UNREACHABLE);
  const record = await wf.wait("wf-down");
  assert.equal(record.status, "errored");
  assert.equal(record.error.name, "DecidedFailure");
  assert.deepEqual(steps("wf-down").map((e) => [e.step, e.attempt, e.error ?? null]), [
    ["validate-context#1", 1, null], ["discover-urls#1", 1, null], ["mark-failed#1", 1, null],
  ]);
  const row = await audit("wf-down");
  assert.deepEqual([row.status, row.failed_phase, row.pages_crawled], ["failed", "discovery", 0]);
  assert.match(row.error_code, /^site_/);
  assert.ok(row.error_detail.startsWith(`${UNREACHABLE} `), row.error_detail);
});

test("replay after a restart re-runs no step and returns the same output", async () => {
  await start("wf-replay");
  const first = await wf.wait("wf-replay");
  assert.equal(first.status, "complete");
  const output = structuredClone(first.output);
  const calls = steps("wf-replay").length;
  await wf.replay("wf-replay"); // a fresh SiteAuditWorkflow instance over the same step store
  const again = await wf.wait("wf-replay");
  assert.equal(again.runs, 2);
  assert.deepEqual(again.output, output);
  assert.equal(steps("wf-replay").length, calls, "no step callback ran on replay");
});

test("NonRetryableError: one attempt, mark-failed runs, the instance errors", async () => {
  await wf.create({ id: "wf-missing", params: { audit_id: "wf-missing", start_url: UNREACHABLE, options: {}, resume: false } });
  const record = await wf.wait("wf-missing");
  assert.equal(record.status, "errored");
  assert.equal(record.error.name, "NonRetryableError");
  assert.equal(record.error.message, "audit wf-missing does not exist");
  const log = steps("wf-missing");
  assert.deepEqual(log.map((e) => [e.step, e.attempt, e.error ?? null]), [
    ["validate-context#1", 1, null], ["validate-context#1", 1, "NonRetryableError"], ["mark-failed#1", 1, null],
  ]);
});

test("scheduled: the */15 watchdog fails a lost audit; the daily cron deletes expired ones", async () => {
  const iso = (msAgo) => new Date(Date.now() - msAgo).toISOString();
  await env.DB.prepare("INSERT INTO audits (id, start_url, status, workflow_instance_id, created_at, started_at) VALUES (?, ?, 'running', ?, ?, ?)")
    .bind("lost", UNREACHABLE, "never-created", iso(3600e3), iso(3600e3)).run();
  await env.DB.prepare("INSERT INTO audits (id, start_url, status, created_at, started_at, finished_at) VALUES (?, ?, 'completed', ?, ?, ?)")
    .bind("old", UNREACHABLE, iso(100 * 86400e3), iso(100 * 86400e3), iso(100 * 86400e3)).run();

  await callDefault(rt, env, "scheduled", new ScheduledController("*/15 * * * *", Date.now()));
  const lost = await audit("lost");
  assert.equal(lost.status, "failed");
  assert.equal(lost.error_code, "instance_lost");

  await callDefault(rt, env, "scheduled", new ScheduledController("17 3 * * *", Date.now()));
  assert.equal(await audit("old"), null);
});

const api = (path, init = {}) => callDefault(rt, env, "fetch", new Request(`http://siteaudit.local${path}`, init));
const makeKey = (owner) => rt.runPython(`import workers
from service import keys
(await keys.create_key(workers.env, ${JSON.stringify(owner)})).secret`);

test("Default.fetch: reads need an API key; the key's owner sees its audits and no one else's", async () => {
  await start("api-read");
  assert.equal((await wf.wait("api-read")).status, "complete");
  const anonymous = await api("/api/audits/api-read");
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get("www-authenticate"), 'Bearer realm="siteaudit"');
  assert.equal((await anonymous.json()).error.code, "unauthorized");

  const local = { headers: { authorization: `Bearer ${await makeKey("local")}` } }; // audit_driver's owner
  const read = await api("/api/audits/api-read", local);
  assert.equal(read.status, 200);
  assert.equal(read.headers.get("x-content-type-options"), "nosniff");
  assert.equal(read.headers.get("cache-control"), "no-store");
  assert.deepEqual([(await read.json()).audit.status, (await (await api("/api/audits/api-read/pages", local)).json()).pages.length > 0], ["completed", true]);

  const stranger = { headers: { authorization: `Bearer ${await makeKey("stranger")}` } };
  assert.equal((await api("/api/audits/api-read", stranger)).status, 404);
  assert.deepEqual((await (await api("/api/audits", stranger)).json()).audits, []);
});

const seedExport = () => rt.runPython(`import workers
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
db = workers.env.DB
await repository.insert_audit(db, AuditRecord("export-1", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="local"))
titles = ["=SUM(A1)", "plain, with a comma", "two\\nlines", 'a "quote"']
pages = [PageRecord(f"p{n}", "export-1", f"https://a.test/{n}", "2026-12-01T00:00:00.000Z", status_code=200, title=t)
         for n, t in enumerate(titles)]
issues = [IssueRecord(f"i{n}", "export-1", p.url, "thin-content", "warning", p.id) for n, p in enumerate(pages)]
await repository.write_crawled_pages(db, pages, issues)`);
const csvRows = (text) => rt.runPython(`import csv, io
[[row["url"], row["title"]] for row in csv.DictReader(io.StringIO(${JSON.stringify(text)}, newline=""))]`);

test("Default.fetch pages a list with limit=1: next_cursor, a Link header, and following it reads each row once", async () => {
  await seedExport();
  const local = { headers: { authorization: `Bearer ${await makeKey("local")}` } };
  const urls = [];
  let path = "/api/audits/export-1/pages?limit=1";
  for (let n = 0; path !== null; n++) {
    const res = await api(path, local);
    assert.equal(res.status, 200);
    const body = await res.json();
    urls.push(...body.pages.map((p) => p.url));
    const link = res.headers.get("link");
    if (body.next_cursor === null) { assert.equal(link, null); path = null; continue; }
    assert.match(link, /^<\/api\/audits\/export-1\/pages\?limit=1&cursor=[^>]+>; rel="next"$/);
    assert.equal(new URL(link.slice(1, link.indexOf(">")), "http://x").searchParams.get("cursor"), body.next_cursor);
    path = link.slice(1, link.indexOf(">"));
    assert.ok(n < 10, "the cursor advances");
  }
  assert.deepEqual(urls, ["https://a.test/0", "https://a.test/1", "https://a.test/2", "https://a.test/3"]);
});

test("Default.fetch streams pages.csv as a ReadableStream the client pulls; a cancelled export stops cleanly", async () => {
  const local = { headers: { authorization: `Bearer ${await makeKey("local")}` } };
  const res = await api("/api/audits/export-1/pages.csv", local);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8; header=present");
  assert.equal(res.headers.get("content-disposition"), 'attachment; filename="siteaudit-export-1-pages.csv"');
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.ok(res.body instanceof ReadableStream);
  const reader = res.body.getReader();
  const chunks = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  assert.equal(chunks.length, 2, "the header, then one keyset page of rows");
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  assert.deepEqual(await csvRows(text), [
    ["https://a.test/0", "'=SUM(A1)"], ["https://a.test/1", "plain, with a comma"],
    ["https://a.test/2", "two\nlines"], ["https://a.test/3", 'a "quote"'],
  ]);

  const lines = (await (await api("/api/audits/export-1/issues.ndjson?type=thin-content", local)).text()).trim().split("\n");
  assert.deepEqual(lines.map((l) => JSON.parse(l).page_url), ["https://a.test/0", "https://a.test/1", "https://a.test/2", "https://a.test/3"]);

  await rt.runPython(`from service import exports
closed, export_rows = [], exports.export_rows
async def watched(*args):
    try:
        async for chunk in export_rows(*args):
            yield chunk
    finally:
        closed.append("closed")
exports.export_rows = watched`);
  const cancelled = await api("/api/audits/export-1/pages.ndjson", local);
  const early = cancelled.body.getReader();
  assert.equal((await early.read()).done, false); // the first page of rows, then the client goes away
  assert.deepEqual(await rt.runPython("closed"), []);
  await early.cancel("client went away");
  assert.deepEqual(await rt.runPython("exports.export_rows = export_rows\nclosed"), ["closed"]);
  assert.equal((await api("/api/audits/export-1/pages.csv?status=404", local)).status, 200);
  const stranger = { headers: { authorization: `Bearer ${await makeKey("stranger")}` } };
  const refused = await api("/api/audits/export-1/pages.csv", stranger);
  assert.deepEqual([refused.status, refused.headers.get("content-type"), (await refused.json()).error.code], [404, "application/json; charset=utf-8", "not_found"]);
});

const report = (id) => rt.runPython(`import gzip, json, workers
from auditdb import repository
from service import reports
audit = await repository.get_audit(workers.env.DB, ${JSON.stringify(id)})
stored = await reports.store_report(workers.env, audit)
read = await reports.read_report(workers.env, audit.owner, audit.id)
json.dumps({"stored": None if stored is None else stored.to_dict(), "source": str(read.source),
            "body": read.body.hex(), "audit_id": json.loads(gzip.decompress(read.body))["audit"]["id"]})`).then(JSON.parse);

test("a full report: Python bytes become the R2 object, and get() hands them back as bytes", async () => {
  await start("r2-report");
  assert.equal((await wf.wait("r2-report")).status, "complete");
  const first = await report("r2-report");
  assert.deepEqual([first.stored.key, first.source, first.audit_id], ["reports/local/r2-report.json.gz", "r2", "r2-report"]);
  const object = env.REPORTS.objects.get(first.stored.key);
  assert.equal(object.bytes.byteLength, first.stored.size);
  assert.equal(Buffer.from(object.bytes).toString("hex"), first.body);
  const doc = JSON.parse(gunzipSync(object.bytes).toString("utf-8"));
  assert.equal(doc.format, "siteaudit-report/3");
  // Finalize added up the structured-data summary in D1 (json_each and a window, in Pyodide too).
  assert.equal(typeof doc.structured_data.pages, "number");
  assert.ok(Array.isArray(doc.structured_data.types));
  assert.equal(doc.pages.length, doc.audit.pages_crawled);
  // The completed audit kept its link graph (the keep-links steps' D1 batches, through json_each).
  assert.equal(doc.links.kept, true);
  assert.deepEqual(doc.links.pages.map((p) => p.url), doc.pages.map((p) => p.url));

  await env.REPORTS.delete(first.stored.key); // the next store writes it again; read falls back to D1 first
  const rebuilt = await rt.runPython(`import workers
from service import reports
(await reports.read_report(workers.env, "local", "r2-report")).body.hex()`);
  assert.equal(rebuilt, first.body, "the report rebuilt from D1 equals the stored one");
});

test("monitors: the hourly cron enqueues a due monitor; queue() acks its message and retries a failing one", async () => {
  const now = new Date().toISOString();
  await env.DB.prepare("INSERT INTO monitors (id, owner, url, frequency, hour, max_pages, webhook_secret, next_due_at, created_at) VALUES (?, 'local', ?, 'daily', 3, 5, 'whsec_x', ?, ?)")
    .bind("mon-1", SITE_URL, now, now).run();
  await callDefault(rt, env, "scheduled", new ScheduledController("0 * * * *", Date.now()));
  const queue = env.MONITOR_QUEUE;
  assert.deepEqual(queue.sent.map((m) => m.body), [{ monitor_id: "mon-1", due_at: now, kind: "monitor_due" }]);

  const batch = new MessageBatch("siteaudit-monitor", [queue.sent[0].body, { monitor_id: 42 }, queue.sent[0].body]);
  env.ALLOW_PRIVATE_HOSTS = "loopback"; // the monitor audits a loopback URL
  try { await callDefault(rt, env, "queue", batch); } finally { env.ALLOW_PRIVATE_HOSTS = "false"; }
  assert.deepEqual(batch.messages.map((m) => m.outcome), ["ack", { retry: {} }, "ack"]); // the third: claimed already
  const run = await env.DB.prepare("SELECT * FROM monitor_runs WHERE monitor_id = ?").bind("mon-1").all();
  assert.equal(run.results.length, 1);
  assert.deepEqual([run.results[0].status, run.results[0].due_at], ["running", now]);
  assert.equal((await wf.wait(run.results[0].audit_id)).status, "complete");
  const monitor = await env.DB.prepare("SELECT last_run_at, next_due_at, lock_until FROM monitors WHERE id = ?").bind("mon-1").first();
  assert.equal(monitor.lock_until, null);
  assert.ok(monitor.last_run_at && monitor.next_due_at > monitor.last_run_at);

  // The audit's end was announced on the queue; its delivery finishes the run with its report in R2.
  const auditId = run.results[0].audit_id;
  const ended = queue.sent.map((m) => m.body).filter((b) => b.kind === "audit_ended");
  assert.deepEqual(ended, [{ audit_id: auditId, kind: "audit_ended" }]);
  const finishing = new MessageBatch("siteaudit-monitor", [ended[0], ended[0]]); // delivered twice
  await callDefault(rt, env, "queue", finishing);
  assert.deepEqual(finishing.messages.map((m) => m.outcome), ["ack", "ack"]);
  const finished = await env.DB.prepare("SELECT * FROM monitor_runs WHERE audit_id = ?").bind(auditId).first();
  const key = `reports/local/${auditId}.json.gz`;
  assert.deepEqual([finished.status, finished.r2_key], [(await audit(auditId)).status, key]);
  assert.equal(finished.report_bytes, env.REPORTS.objects.get(key).bytes.byteLength);
  assert.equal(JSON.parse(gunzipSync(env.REPORTS.objects.get(key).bytes).toString("utf-8")).audit.id, auditId);
});

// A webhook receiver on 127.0.0.1 answering the statuses given, one per request (the last repeats).
async function receiver(statuses) {
  const seen = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      seen.push({ method: request.method, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(statuses[Math.min(seen.length, statuses.length) - 1]).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { seen, url: `http://127.0.0.1:${server.address().port}/hook`, close: () => new Promise((r) => server.close(r)) };
}

test("queue() delivers an alert: a signed POST through the SDK's fetch, back-off on a 500", async () => {
  const secret = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
  const hook = await receiver([500, 204]);
  const now = new Date().toISOString();
  try {
    await env.DB.prepare("INSERT INTO monitors (id, owner, url, frequency, hour, max_pages, webhook_url, webhook_secret, next_due_at, created_at) VALUES ('mon-2', 'local', 'https://a.test/', 'daily', 3, 5, ?, ?, ?, ?)")
      .bind(hook.url, secret, now, now).run();
    await env.DB.prepare("INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, finished_at, status) VALUES ('run-2', 'mon-2', 'a-2', ?, ?, ?, 'completed')")
      .bind(now, now, now).run();
    const payload = JSON.stringify({ delivery_id: "alert_1", run_id: "run-2", type: "monitor.alert" });
    await env.DB.prepare("INSERT INTO alerts (run_id, monitor_id, delivery_id, payload, created_at) VALUES ('run-2', 'mon-2', 'alert_1', ?, ?)")
      .bind(payload, now).run();
    env.ALLOW_PRIVATE_HOSTS = "loopback";
    const first = new MessageBatch("siteaudit-monitor", [{ kind: "alert", run_id: "run-2" }]);
    await callDefault(rt, env, "queue", first);
    assert.deepEqual(first.messages.map((m) => m.outcome), [{ retry: { delaySeconds: 60 } }]);
    const again = new MessageBatch("siteaudit-monitor", [{ kind: "alert", run_id: "run-2" }, { kind: "alert", run_id: "run-2" }]);
    await callDefault(rt, env, "queue", again);
    assert.deepEqual(again.messages.map((m) => m.outcome), ["ack", "ack"]);
  } finally {
    env.ALLOW_PRIVATE_HOSTS = "false";
    await hook.close();
  }
  assert.equal(hook.seen.length, 2, "the duplicate found the alert delivered");
  for (const { method, headers, body } of hook.seen) {
    assert.equal(method, "POST");
    assert.equal(body.toString("utf-8"), JSON.stringify(JSON.parse(body.toString("utf-8"))));
    const signed = `${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body.toString("utf-8")}`;
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    assert.equal(headers["webhook-signature"], `v1,${createHmac("sha256", key).update(signed).digest("base64")}`);
    assert.equal(headers["webhook-id"], "alert_1");
  }
  const alert = await env.DB.prepare("SELECT status, attempts, response_status FROM alerts WHERE run_id = 'run-2'").first();
  assert.deepEqual([alert.status, alert.attempts, alert.response_status], ["delivered", 2, 204]);
});

test("Default.fetch serves the web app at / with its CSP and headers, revalidated by ETag; the HTML report streams", async () => {
  const csp = await rt.runPython("from api import webapp\nwebapp.CSP");
  assert.match(csp, /^default-src 'none'; script-src 'self' 'sha256-/);
  const page = await api("/");
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(page.headers.get("content-security-policy"), csp);
  assert.equal(page.headers.get("strict-transport-security"), "max-age=63072000; includeSubDomains");
  assert.deepEqual(["cross-origin-opener-policy", "cross-origin-embedder-policy", "cross-origin-resource-policy", "referrer-policy", "x-content-type-options", "cache-control"].map((h) => page.headers.get(h)),
    ["same-origin", "require-corp", "same-origin", "no-referrer", "nosniff", "no-cache"]);
  assert.equal(await page.text(), fs.readFileSync(new URL("../../src/api/static/index.html", import.meta.url), "utf8"));
  const script = await api("/app.js");
  assert.deepEqual([script.status, script.headers.get("content-type")], [200, "text/javascript; charset=utf-8"]);
  const etag = script.headers.get("etag");
  const again = await api("/app.js", { headers: { "if-none-match": etag } });
  assert.deepEqual([again.status, again.body, again.headers.get("etag")], [304, null, etag]);

  const local = { headers: { authorization: `Bearer ${await makeKey("local")}` } };
  const report = await api("/api/audits/export-1/report.html", local);
  assert.deepEqual([report.status, report.headers.get("content-type")], [200, "text/html; charset=utf-8"]);
  assert.match(report.headers.get("content-security-policy"), /^default-src 'none'; style-src 'sha256-/);
  const html = await report.text();
  assert.ok(html.startsWith("<!DOCTYPE html>") && html.includes("https://a.test/3") && html.endsWith("</html>\n"));
});

test("Default.fetch: a method the SDK's HTTPMethod cannot name (PROPFIND) is a 405, not a crash", async () => {
  const init = { method: "PROPFIND", headers: { authorization: `Bearer ${await makeKey("local")}` } };
  const refused = await api("/api/audits", init);
  assert.equal(refused.status, 405);
  assert.equal(refused.headers.get("allow"), "GET, POST");
});

test("a monitor's runs page through Default.fetch; the daily cleanup deletes those past retention, their audits and R2 reports (one key list)", async () => {
  const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
  const recent = new Date().toISOString();
  await env.DB.prepare("INSERT INTO monitors (id, owner, url, frequency, hour, max_pages, webhook_secret, next_due_at, created_at) VALUES ('mon-old', 'local', ?, 'daily', 3, 5, 'whsec_x', ?, ?)")
    .bind(UNREACHABLE, old, old).run();
  const runs = [["old-a", old], ["old-b", old], ["kept", recent]];
  for (const [id, when] of runs) {
    await env.DB.prepare("INSERT INTO audits (id, owner, start_url, status, created_at, finished_at) VALUES (?, 'local', ?, 'completed', ?, ?)")
      .bind(id, UNREACHABLE, when, when).run();
    await env.DB.prepare("INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, status) VALUES (?, 'mon-old', ?, ?, ?, 'completed')")
      .bind(`run-${id}`, id, `${when}/${id}`, when).run();
    await env.REPORTS.put(`reports/local/${id}.json.gz`, new Uint8Array([31, 139]));
  }
  await env.DB.prepare("UPDATE monitor_runs SET health_score = 87.0, r2_key = 'k' WHERE id = 'run-kept'").run();
  const local = { headers: { authorization: `Bearer ${await makeKey("local")}` } };
  const first = await (await api("/api/monitors/mon-old/runs?limit=1", local)).json();
  assert.deepEqual(first.runs.map((r) => [r.audit_id, r.health_score, r.has_report]), [["kept", 87, true]]);
  const rest = await (await api(`/api/monitors/mon-old/runs?cursor=${first.next_cursor}`, local)).json();
  assert.deepEqual([rest.runs.map((r) => r.audit_id), rest.next_cursor], [["old-b", "old-a"], null]);

  await callDefault(rt, env, "scheduled", new ScheduledController("17 3 * * *", Date.now()));

  const left = await env.DB.prepare("SELECT audit_id FROM monitor_runs WHERE monitor_id = 'mon-old'").all();
  assert.deepEqual(left.results.map((r) => r.audit_id), ["kept"]);
  const audits = await env.DB.prepare("SELECT id FROM audits WHERE id IN ('old-a', 'old-b', 'kept')").all();
  assert.deepEqual(audits.results.map((r) => r.id), ["kept"]);
  assert.deepEqual([...env.REPORTS.objects.keys()].filter((k) => /old-|kept/.test(k)), ["reports/local/kept.json.gz"]);
});

test("request bodies are validated by pydantic, which this tier cannot load", async () => {
  const key = await makeKey("local");
  const init = { method: "POST", headers: { authorization: `Bearer ${key}` }, body: JSON.stringify({ url: UNREACHABLE }) };
  await assert.rejects(api("/api/audits", init), /No module named 'pydantic'/);
});

test("Default.fetch serves /mcp in this tier: its arguments are checked without pydantic", async () => {
  const headers = { authorization: `Bearer ${await makeKey("local")}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const mcp = async (id, method, params) => (await api("/mcp", { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method, params }) })).json();
  const listed = await mcp(1, "tools/list", {});
  assert.deepEqual(listed.result.tools.map((tool) => tool.name), ["run_site_audit", "get_audit_status", "get_audit_issues", "get_audit_pages", "get_audit_actions", "verify_host", "check_host_verification", "list_host_verifications", "delete_host_verification"]);
  const refused = await mcp(2, "tools/call", { name: "run_site_audit", arguments: { url: "ftp://a.test/" } });
  assert.equal(refused.result.isError, true);
  assert.match(refused.result.content[0].text, /http and https/);
  assert.equal((await mcp(3, "no/such/method", {})).error.code, -32601);
});
