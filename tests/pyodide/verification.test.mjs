// Host verification inside Pyodide, through Default.fetch's /mcp (no pydantic needed): the
// verifications' rows in the D1 double, the file and meta proofs fetched through the Worker's own
// fetch (entry.WorkersHttpClient over Node's fetch, https first, then http, from a server on
// 127.0.0.1), and the dns proof asked of a DoH double at the deployment's VERIFICATION_DOH_URL.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, test } from "node:test";
import { boot, callDefault } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());
const env = rt.makeEnv();

const published = {}; // path -> [content type, body]
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (url.pathname === "/dns-query") {
    const name = url.searchParams.get("name");
    const record = published[`dns:${name}`];
    const answer = record ? [{ name: `${name}.`, type: 16, TTL: 60, data: `"${record}"` }] : [];
    res.writeHead(200, { "content-type": "application/dns-json" });
    res.end(JSON.stringify({ Status: answer.length ? 0 : 3, AD: false, Answer: answer }));
    return;
  }
  const route = published[url.pathname];
  res.writeHead(route ? 200 : 404, { "content-type": route?.[0] ?? "text/plain" });
  res.end(route?.[1] ?? "");
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
after(() => server.close());
const host = `127.0.0.1:${server.address().port}`;
env.VERIFICATION_DOH_URL = `http://${host}/dns-query`;
env.ALLOW_PRIVATE_HOSTS = "loopback"; // the proofs are served on 127.0.0.1

const api = (path, init = {}) => callDefault(rt, env, "fetch", new Request(`http://siteaudit.local${path}`, init));
const key = await rt.runPython(`import workers
from service import keys
(await keys.create_key(workers.env, "owner")).secret`);
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
let id = 0;
const tool = async (name, args) => {
  const answer = await (await api("/mcp", { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } }) })).json();
  assert.equal(answer.result.isError, false, answer.result.content[0].text);
  return answer.result.structuredContent;
};

test("the file proof: failed while missing, verified once published, stored in D1", async () => {
  const { verification } = await tool("verify_host", { host, method: "file" });
  assert.equal(verification.status, "pending");
  const missing = await tool("check_host_verification", { verification_id: verification.id });
  assert.equal(missing.verification.status, "failed");
  assert.match(missing.verification.reason, /answered 404/);
  published["/.well-known/siteaudit-verification.txt"] = ["text/plain", `${verification.token}\n`];
  const found = await tool("check_host_verification", { verification_id: verification.id });
  assert.equal(found.verification.status, "verified");
  const row = await env.DB.prepare("SELECT status, verified_at FROM host_verifications WHERE id = ?").bind(verification.id).first();
  assert.equal(row.status, "verified");
  assert.equal(row.verified_at, found.verification.verified_at);
});

test("the meta proof on the start page", async () => {
  const { verification } = await tool("verify_host", { host, method: "meta" });
  published["/"] = ["text/html", `<html><head>${verification.proof.value}</head><body>home</body></html>`];
  const found = await tool("check_host_verification", { verification_id: verification.id });
  assert.equal(found.verification.status, "verified", found.verification.reason);
});

test("the dns proof through the deployment's DoH resolver", async () => {
  const { verification } = await tool("verify_host", { host: "owned.example", method: "dns" });
  published["dns:_siteaudit.owned.example"] = verification.proof.value;
  const found = await tool("check_host_verification", { verification_id: verification.id });
  assert.equal(found.verification.status, "verified", found.verification.reason);
  const listed = await tool("list_host_verifications", {});
  assert.deepEqual(listed.verifications.map((v) => v.host).sort(), [host, "owned.example"]);
});
