// SiteAuditWorkflow through run(event, step) with the SDK's workflows.js (a retried step, replay
// after a restart, NonRetryableError), Default.scheduled(controller, env, ctx) for both crons,
// Default.fetch for authenticated reads (an API key made by service.keys inside Pyodide), and what
// Default does not offer in this tier (queue: no handler yet; request bodies: need pydantic).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { MessageBatch, ScheduledController } from "./harness/doubles/bindings.mjs";
import { boot, callDefault } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());
const env = rt.makeEnv();
const wf = env.SITE_AUDIT_WORKFLOW;
const UNREACHABLE = "http://127.0.0.1:9/"; // discard port: every fetch fails fast
const steps = (id) => wf.log.filter((e) => e.instance === id);
const start = (id) => rt.runPython(`import audit_driver, workers
await audit_driver.start_audit(workers.env, ${JSON.stringify(id)}, ${JSON.stringify(UNREACHABLE)}, 5)`);
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
  assert.deepEqual([...new Set(log.map((e) => e.step))], ["validate-context#1", "discover-urls#1", "crawl-chunk-1#1", "finalize#1"]);
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

test("Default.fetch: a method the SDK's HTTPMethod cannot name (PROPFIND) is a 405, not a crash", async () => {
  const init = { method: "PROPFIND", headers: { authorization: `Bearer ${await makeKey("local")}` } };
  const refused = await api("/api/audits", init);
  assert.equal(refused.status, 405);
  assert.equal(refused.headers.get("allow"), "GET, POST");
});

test("Default has no queue handler yet; request bodies are validated by pydantic, which this tier cannot load", async () => {
  await assert.rejects(callDefault(rt, env, "queue", new MessageBatch("siteaudit-monitor", [{ a: 1 }])), /Method queue does not exist/);
  const key = await makeKey("local");
  const init = { method: "POST", headers: { authorization: `Bearer ${key}` }, body: JSON.stringify({ url: UNREACHABLE }) };
  await assert.rejects(api("/api/audits", init), /No module named 'pydantic'/);
});
