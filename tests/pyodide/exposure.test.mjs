// The exposure checks inside Pyodide: the compacted retire.js data loads from the bundle's file
// system (src/ mounted at /session/metadata, as workerd mounts the uploaded modules), every pattern
// compiles, and check_site fetches a page, its scripts and DoH answers through the Worker's own
// fetch (entry.WorkersHttpClient over Node's fetch) from a server on 127.0.0.1. The structured-data
// package's compacted schema.org vocabulary loads the same way (wrangler.toml's Text rule uploads
// structured/data/*.json), and a page's JSON-LD is validated and checked against Google's
// rich-result rules there as on CPython (in this file to share its Pyodide boot).
import assert from "node:assert/strict";
import http from "node:http";
import { after, test } from "node:test";
import { boot } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());

const JQUERY = "/*! jQuery v1.8.1 jquery.com | jquery.org/license */\n(function(){})();\n";
const ROUTES = {
  "/": ["text/html", '<html><head><meta name="generator" content="WordPress 6.4.2"><script src="/static/app.js"></script>' +
        '<script src="/ajax/libs/twitter-bootstrap/3.3.7/js/bootstrap.min.js"></script></head><body>hi</body></html>'],
  "/static/app.js": ["application/javascript", JQUERY],
  "/ajax/libs/twitter-bootstrap/3.3.7/js/bootstrap.min.js": ["application/javascript", "/*! Bootstrap v3.3.7 */"],
};
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (url.pathname === "/dns-query") {
    const name = url.searchParams.get("name"), type = url.searchParams.get("type");
    const answer = type === "TXT" && name === "127.0.0.1"
      ? [{ name: `${name}.`, type: 16, TTL: 60, data: '"v=spf1 -all"' }] : [];
    res.writeHead(200, { "content-type": "application/dns-json" });
    res.end(JSON.stringify({ Status: answer.length ? 0 : 3, AD: false, Answer: answer }));
    return;
  }
  const route = ROUTES[url.pathname];
  res.writeHead(route ? 200 : 404, { "content-type": route?.[0] ?? "text/plain", "x-powered-by": "PHP/7.4.3" });
  res.end(route?.[1] ?? "");
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
after(() => server.close());
const origin = `http://127.0.0.1:${server.address().port}`;

test("the retire.js data loads and every extractor compiles in Pyodide", async () => {
  const counts = await rt.runPython(`
from exposure.retire_data import repository
repo = repository()
compiled = sum(len(l.uri) + len(l.filename) + len(l.filecontent) + len(l.filecontentreplace) for l in repo.libraries)
[len(repo.libraries), compiled]`);
  assert.equal(counts[0], 74);
  assert.ok(counts[1] > 300, `${counts[1]} patterns`);
});

test("check_site finds libraries by URL and content, disclosures and SPF through DoH", async () => {
  const report = await rt.runPython(`
import dataclasses, json
from common import settings
from exposure.site_check import check_site
from urls.private_hosts import PrivateHosts
settings.EXPOSURE = dataclasses.replace(settings.EXPOSURE, doh_resolver_url="${origin}/dns-query")
report = await check_site("${origin}/", private_hosts=PrivateHosts.LOOPBACK)
json.dumps(report.to_dict())`);
  const parsed = JSON.parse(report);
  const libraries = parsed.libraries.map((l) => `${l.library} ${l.version} ${l.detection}`).sort();
  assert.deepEqual(libraries, ["bootstrap 3.3.7 uri", "jquery 1.8.1 filecontent"]);
  const checks = parsed.findings.map((f) => f.check).sort();
  assert.ok(checks.includes("vulnerable_js_library") && checks.includes("version_disclosed"), checks.join());
  assert.equal(parsed.domain.spf.all_qualifier, "-");
  assert.deepEqual(parsed.domain.spf.problems, []);
});

test("the schema.org vocabulary loads and validates in Pyodide", async () => {
  const out = await rt.runPython(`
import json
from structured.nodes import from_json_ld
from structured.rich_results import evaluate
from structured.validate import validate
from structured.vocabulary import vocabulary
vocab = vocabulary()
graph = from_json_ld([{"@context": "https://schema.org", "@type": "Product", "name": "Anvil",
                       "offers": {"@type": "Offer", "prise": "9.99"}}])
json.dumps({
    "classes": len(vocab.classes),
    "properties": len(vocab.properties),
    "findings": [[f.kind.value, f.path_text, list(f.suggestions)] for f in validate(graph)],
    "eligible": [f.value for f in evaluate(graph).eligible_features],
})`);
  const parsed = JSON.parse(out);
  assert.equal(parsed.classes, 937);
  assert.equal(parsed.properties, 1529);
  assert.deepEqual(parsed.findings, [["unknown-property", "Product > offers > prise", ["price"]]]);
  assert.deepEqual(parsed.eligible, []);
});

test("Microdata and RDFa Lite are read from an element tree and checked in Pyodide", async () => {
  const out = await rt.runPython(`
import json
from parse.tree import Element
from structured.page import check_page
S = "https://schema.org/"
offer_md = Element("div", {"itemprop": "offers", "itemscope": "", "itemtype": S + "Offer"},
                   (Element("meta", {"itemprop": "prise", "content": "9.99"}),))
product_md = Element("div", {"itemscope": "", "itemtype": S + "Product"},
                     (Element("h1", {"itemprop": "name"}, ("Anvil",)), offer_md))
event_rdfa = Element("div", {"vocab": S, "typeof": "Event"},
                     (Element("span", {"property": "nam"}, ("Fair",)),))
root = Element("html", {}, (Element("body", {}, (product_md, event_rdfa)),))
checked = check_page([], root, "https://shop.test/")
json.dumps({
    "types": list(checked.types),
    "errors": sorted(f.path_text for f in checked.findings if f.severity == "error"
                     and f.kind.value == "unknown-property"),
})`);
  const parsed = JSON.parse(out);
  assert.deepEqual(parsed.types, ["Product", "Event"]);
  assert.deepEqual(parsed.errors, ["Event > nam", "Product > offers > prise"]);
});
