// The crown: an end-to-end audit of the badseo fixture site inside Pyodide (SiteAuditWorkflow over
// the doubles, outbound fetch to the site on 127.0.0.1) must write the same D1 audit row, pages and
// issues as the CPython local platform's audit of the same site (timing fields excluded), and
// report exactly the golden issue set. Each audit gets a fresh server on the same port.
import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { python } from "./harness/python.mjs";
import { boot } from "./harness/runtime.mjs";

const AUDIT_ID = "parity-audit";

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

test("badseo audited in Pyodide equals the CPython local platform's audit and the golden set", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;

  const server = python(["-m", "tests.pyodide.serve_badseo", "--port", String(port)], { untilLine: true });
  assert.equal(await server.done, `serving ${origin}`);
  let pyodide;
  const rt = await boot();
  try {
    const env = rt.makeEnv();
    await rt.runPython(`import audit_driver, workers
audit_driver.tolerate_load()
await audit_driver.start_audit(workers.env, ${JSON.stringify(AUDIT_ID)}, ${JSON.stringify(origin + "/")})`);
    const record = await env.SITE_AUDIT_WORKFLOW.wait(AUDIT_ID);
    assert.equal(record.status, "complete", JSON.stringify(record.error));
    pyodide = JSON.parse(await rt.runPython(`await audit_driver.snapshot(workers.env, ${JSON.stringify(AUDIT_ID)})`));
  } finally {
    server.child.kill();
    rt.close();
  }

  const cpython = JSON.parse(await python(["-m", "tests.pyodide.cpython_audit", "--port", String(port), "--audit-id", AUDIT_ID]).done);
  assert.equal(pyodide.audit.status, "completed");
  // The security-grade step ran in Pyodide: plain http fails redirection and HSTS (100 - 40).
  assert.deepEqual([pyodide.audit.security_grade, pyodide.audit.security_score], ["C+", 60]);
  // The exposure-checks step ran in Pyodide: jQuery by file name and by content (the retire.js
  // data and a same-site script fetch), and a version in a header.
  const exposure = pyodide.issues
    .filter((i) => i.issue_type.startsWith("exposure-"))
    .map((i) => [i.issue_type, i.page_url.slice(origin.length)])
    .sort();
  assert.deepEqual(exposure, [
    ["exposure-version-disclosed", "/security/version-disclosure"],
    ["exposure-vulnerable-js-library", "/security/vulnerable-jquery-by-content"],
    ["exposure-vulnerable-js-library", "/security/vulnerable-jquery-by-name"],
  ]);
  const found = [...new Set(pyodide.issues.map((i) => JSON.stringify([i.issue_type, i.page_url])))].sort();
  assert.deepEqual(found, cpython.expected_issues.map((x) => JSON.stringify(x)).sort(), "Pyodide issues vs golden");
  assert.deepEqual(pyodide.audit, cpython.audit);
  assert.deepEqual(pyodide.pages, cpython.pages);
  assert.deepEqual(pyodide.issues, cpython.issues);
});

// The Lighthouse phase in Pyodide: the vitals site sampled, one fetch step per page (no step
// retries) in groups of five, the group's persist step, rows in D1 and gzip payloads in R2.
test("the vitals site's Lighthouse phase runs in Pyodide against the PSI double", async () => {
  const server = python(["-m", "tests.pyodide.serve_vitals"], { untilLine: true });
  const [, origin, endpoint] = (await server.done).split(" ");
  const rt = await boot();
  try {
    const env = rt.makeEnv({ vars: { PSI_API_KEY: "pyodide-key", PSI_ENDPOINT: endpoint } });
    await rt.runPython(`import audit_driver, workers
await audit_driver.start_audit(workers.env, "vitals-audit", ${JSON.stringify(origin + "/")}, 20)`);
    const record = await env.SITE_AUDIT_WORKFLOW.wait("vitals-audit");
    assert.equal(record.status, "complete", JSON.stringify(record.error));
    const log = env.SITE_AUDIT_WORKFLOW.log.filter((e) => e.instance === "vitals-audit");
    const names = [...new Set(log.map((e) => e.step))];
    const fetches = Array.from({ length: 8 }, (_, i) => `lighthouse-fetch-${i + 1}#1`);
    assert.deepEqual(names.filter((n) => n.startsWith("lighthouse-") || n.startsWith("select-")).sort(),
      ["select-lighthouse-sample#1", ...fetches, "lighthouse-persist-1#1", "lighthouse-persist-2#1"].sort());
    assert.ok(names.indexOf("lighthouse-persist-2#1") < names.indexOf("finalize#1"));
    assert.ok(fetches.every((f) => log.filter((e) => e.step === f).length === 1), "no fetch step ran twice");
    const audit = await env.DB.prepare("SELECT * FROM audits WHERE id = ?").bind("vitals-audit").first();
    assert.deepEqual([audit.lighthouse_status, audit.lighthouse_total, audit.lighthouse_completed, audit.lighthouse_failed],
      ["completed", 16, 14, 2]);
    const rows = (await env.DB.prepare("SELECT * FROM audit_lighthouse_results WHERE audit_id = ?").bind("vitals-audit").all()).results;
    assert.equal(rows.length, 16);
    const stored = rows.filter((r) => r.r2_key);
    assert.equal(stored.length, 14);
    for (const row of stored) {
      const object = env.REPORTS.objects.get(row.r2_key);
      assert.equal(object.bytes.byteLength, row.payload_size_bytes);
      assert.equal(JSON.parse(gunzipSync(object.bytes).toString("utf-8")).kind, "pagespeedonline#result");
    }
    const issues = (await env.DB.prepare("SELECT issue_type FROM audit_issues WHERE audit_id = ? AND issue_type LIKE '%poor%'").bind("vitals-audit").all()).results;
    assert.equal(issues.length, 8);
  } finally {
    server.child.kill();
    rt.close();
  }
});
