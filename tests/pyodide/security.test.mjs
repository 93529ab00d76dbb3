// The security grade inside Pyodide: the package imports with its two pure-Python data
// dependencies (hstspreload's Chromium preload list, publicsuffixlist's PSL, both unpacked from
// wheels.txt) and grades one response exactly as on CPython.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { boot } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());

test("security grades one response in Pyodide: score, grade and the 12 results", async () => {
  const summary = JSON.parse(await rt.runPython(`import json
from security.grade import grade_response
from security.observed import response_from_input
response = response_from_input({
    "url": "https://example.com/", "status": 200,
    "headers": {
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "strict-transport-security": "max-age=63072000",
        "x-content-type-options": "nosniff",
        "cross-origin-opener-policy": "same-origin",
        "set-cookie": ["sessionid=1; Secure; HttpOnly; SameSite=Lax"],
    },
    "html": "<script src='https://cdn.example.net/x.js'></script>",
    "redirects": [{"url": "http://example.com/", "status": 301, "headers": {}}],
})
json.dumps(grade_response(response).summary())`));
  // CSP +10, cookies +5, XFO via CSP +5, COOP +10; SRI -5 leaves 95, so the bonuses count
  assert.equal(summary.score, 125);
  assert.equal(summary.grade, "A+");
  assert.equal(Object.keys(summary.tests).length, 12);
  assert.deepEqual(summary.tests["subresource-integrity"], {
    result: "sri-not-implemented-but-external-scripts-loaded-securely", pass: false, score_modifier: -5,
  });
});

test("the preload list and the Public Suffix List load from their wheels", async () => {
  const answers = JSON.parse(await rt.runPython(`import json
from security.site_names import is_hsts_preloaded, registrable_domain
json.dumps([is_hsts_preloaded("github.com"), is_hsts_preloaded("example.com"),
            registrable_domain("a.b.example.co.uk"), registrable_domain("127.0.0.1")])`));
  assert.deepEqual(answers, [true, false, "example.co.uk", null]);
});
