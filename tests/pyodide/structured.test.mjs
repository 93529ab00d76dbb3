// The structured-data package inside Pyodide: the compacted schema.org vocabulary loads from the
// bundle's file system (src/ mounted at /session/metadata, as workerd mounts the uploaded modules;
// wrangler.toml's Text rule uploads structured/data/*.json), and a page's JSON-LD is validated and
// checked against Google's rich-result rules there as on CPython.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { boot } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());

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
