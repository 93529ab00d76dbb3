// The production renderer inside Pyodide (issue 30): render.renderers builds it from the Worker's
// env (the account id and token as vars and a secret would arrive), and it calls the Browser
// Rendering `/content` double (tests/render/browser_rendering_double.py, run by CPython beside
// the runtime) through the Worker's own fetch (entry.WorkersHttpClient over Node's fetch): the
// first call answered 429, waited out per Retry-After, the second rendered. A page URL the SSRF
// policy refuses is never sent.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { python } from "./harness/python.mjs";
import { boot } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());

test("Browser Rendering renders through the Worker's fetch, a 429 waited out, a private URL never sent", async () => {
  const server = python(["-m", "tests.pyodide.serve_browser_rendering"], { untilLine: true });
  const [, endpoint, account, token] = (await server.done).split(" ");
  let pages;
  try {
    rt.makeEnv({ vars: {
      BROWSER_RENDERING_ACCOUNT_ID: account,
      BROWSER_RENDERING_API_TOKEN: token,
      BROWSER_RENDERING_ENDPOINT: endpoint,
    } });
    pages = JSON.parse(await rt.runPython(`
import json, workers
from common import ports
from common.deployment import DeploymentVars
from render.records import RenderBudget
from render.renderers import configured_renderer
from urls.private_hosts import PrivateHosts
renderer = configured_renderer(DeploymentVars.from_env(workers.env), ports.http_client(), PrivateHosts.DENY)
budget = RenderBudget(time_s=9)
pages = [await renderer.render(url, budget) for url in ("https://site.example/app", "http://169.254.169.254/")]
json.dumps([renderer.name] + [page.to_dict() for page in pages])`));
  } finally {
    server.child.kill("SIGTERM");
  }
  await new Promise((resolve) => server.child.on("exit", resolve));
  const calls = JSON.parse(server.output().trim().split("\n").at(-1));

  const [name, rendered, refused] = pages;
  assert.equal(name, "cloudflare-browser-rendering");
  assert.equal(rendered.failure, null, rendered.error);
  assert.match(rendered.html, /<title>Rendered https:\/\/site\.example\/app<\/title>/);
  assert.equal(rendered.browser_ms, 1234);
  assert.equal(refused.failure, "refused-url");
  assert.deepEqual(refused.blocked.map((b) => [b.url, b.reason]), [["http://169.254.169.254/", "private-address"]]);
  // Two calls for the one page (the 429, then the render); none for the refused one.
  assert.equal(calls.length, 2);
  for (const call of calls) {
    assert.equal(call.path, `/client/v4/accounts/${account}/browser-rendering/content`);
    assert.equal(call.authorization, `Bearer ${token}`);
    assert.equal(call.body.url, "https://site.example/app");
    assert.deepEqual(call.body.gotoOptions, { waitUntil: "networkidle0", timeout: 9000 });
    assert.deepEqual(call.body.rejectResourceTypes, ["font", "image", "media"]);
  }
});
