// Credentials at rest and on the wire inside Pyodide (issue 28): the shell seals with WebCrypto
// (entry.WebCryptoCipher over crypto.subtle, Node 22's as workerd's), its values open on CPython
// with `cryptography` (tests/pyodide/sealing_peer.py, the local platform's cipher) and CPython's
// open here, one format both ways; an altered value or another purpose is refused. Then a closed
// badseo site (basic auth) is audited here: the credentials sealed with WebCrypto into the
// workflow's params, opened per step, sent to the site through its wall and to no other origin.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { python } from "./harness/python.mjs";
import { boot } from "./harness/runtime.mjs";
// The key of bytes 0..31, as `openssl rand -base64 32` would print one.
const KEY = Buffer.from([...Array(32).keys()]).toString("base64");


const cpython = async (...args) => (await python(["-m", "tests.pyodide.sealing_peer", ...args]).done).trim();

const rt = await boot();
after(() => rt.close());

const inPyodide = (action, purpose, text) => rt.runPython(`from common import ports
from common.sealing import KeyRing, SealingError, parse_key
ring = KeyRing(parse_key(${JSON.stringify(KEY)}))
try:
    result = ${action === "seal"
      ? `await ring.seal(ports.cipher(), ${JSON.stringify(text)}.encode(), ${JSON.stringify(purpose)})`
      : `(await ring.open(ports.cipher(), ${JSON.stringify(text)}, ${JSON.stringify(purpose)})).decode()`}
except SealingError as exc:
    result = type(exc).__name__
result`);

test("the Worker shell seals with WebCrypto", async () => {
  assert.equal(await rt.runPython("from common import ports\ntype(ports.cipher()).__name__"), "WebCryptoCipher");
});

test("WebCrypto's sealed values open on CPython, and CPython's open in Pyodide", async () => {
  const fromPyodide = await inPyodide("seal", "credentials", "héllo from WebCrypto");
  assert.match(fromPyodide, /^sa1\.[0-9a-f]{16}\.[A-Za-z0-9_-]+$/);
  assert.equal(await cpython("open", KEY, "credentials", fromPyodide), "héllo from WebCrypto");

  const fromCPython = await cpython("seal", KEY, "credentials", "wörld from cryptography");
  assert.equal(await inPyodide("open", "credentials", fromCPython), "wörld from cryptography");
  // Both sides use the same key id for the same key.
  assert.equal(fromPyodide.split(".")[1], fromCPython.split(".")[1]);
});

test("an altered value or another purpose is refused on both sides", async () => {
  const sealed = await inPyodide("seal", "credentials", "secret");
  const body = sealed.split(".")[2];
  const flipped = `${sealed.slice(0, -body.length)}${body[0] === "A" ? "B" : "A"}${body.slice(1)}`;
  assert.equal(await inPyodide("open", "credentials", flipped), "SealBroken");
  assert.equal(await cpython("open", KEY, "credentials", flipped), "SealBroken");
  assert.equal(await inPyodide("open", "webhook", sealed), "SealBroken");
  assert.equal(await cpython("open", KEY, "webhook", sealed), "SealBroken");
});

test("a closed site is audited in Pyodide with its credentials, sent to its origin only", async () => {
  const server = python(["-m", "tests.pyodide.serve_closed"], { untilLine: true });
  const [, origin, userPassword] = (await server.done).split(" ");
  const [user, password] = userPassword.split(":");
  let record, snapshot;
  try {
    const env = rt.makeEnv({ vars: { CREDENTIALS_KEY: KEY } });
    await rt.runPython(`import audit_driver, workers
from urls.credentials import BasicAuth, Credentials
await audit_driver.start_audit(workers.env, "closed-audit", ${JSON.stringify(origin + "/")}, 20,
    Credentials(basic_auth=BasicAuth(${JSON.stringify(user)}, ${JSON.stringify(password)})))`);
    record = await env.SITE_AUDIT_WORKFLOW.wait("closed-audit");
    snapshot = JSON.parse(await rt.runPython(`await audit_driver.snapshot(workers.env, "closed-audit")`));
  } finally {
    server.child.kill("SIGTERM");
  }
  await new Promise((resolve) => server.child.on("exit", resolve));
  const seen = JSON.parse(server.output().trim().split("\n").at(-1));

  assert.equal(record.status, "complete", JSON.stringify(record.error));
  assert.equal(snapshot.audit.status, "completed");
  assert.deepEqual(snapshot.pages.map((p) => [p.url.slice(origin.length), p.status_code]).sort(), [
    ["/", 200], ["/about", 200], ["/from-sitemap", 200], ["/news", 200],
  ]);
  // Sealed in the params (the instance store), never in clear there or in a step's result.
  assert.match(record.params.credentials_sealed, /^sa1\./);
  const stored = JSON.stringify([record.params, [...record.steps.values()]]);
  assert.ok(!stored.includes(password), "a secret in the instance store");
  assert.ok(!JSON.stringify(snapshot).includes(password), "a secret in D1");
  // Through the wall for every request (robots.txt and the sitemap too), to no other origin.
  assert.deepEqual(seen.refused, []);
  for (const p of ["/", "/robots.txt", "/sitemap.xml", "/about", "/news", "/from-sitemap"]) assert.ok(seen.admitted.includes(p), p);
  assert.ok(seen.elsewhere > 0, "the external link was checked");
  assert.deepEqual(seen.elsewhere_with_credentials, []);
});
