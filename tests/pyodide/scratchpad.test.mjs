// Every AuditScratchpad RPC method and its alarm, through workerd-style routing (structured-cloned
// arguments and results, the call wrapper) and the real SDK's DurableObjectContext/storage wrappers.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { boot } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());
const env = rt.makeEnv();
const ns = env.AUDIT_SCRATCHPAD;
const U = (p) => `http://127.0.0.1:9/${p}`;
const mirror = (url, extra = {}) => ({
  url, page_id: `p-${url}`, status_code: 200, fetch_class: "ok", final_url: url, redirect_url: null, is_html: 1,
  is_indexable: 1, canonical_url: null, title: "Same title", meta_description: "d", content_hash: "h",
  word_count: 120, javascript_shell: 0, depth: 1, in_sitemap: 0, hreflang_json: "[]", ...extra,
});

test("construction arms the 7-day cleanup alarm", async () => {
  const stub = ns.getByName("alarm-audit");
  await stub.stats();
  const alarm = ns.object(ns.idFromName("alarm-audit")).state.storage.alarm;
  assert.ok(alarm > Date.now() + 6.9 * 24 * 3600e3, `alarm at ${alarm}`);
});

test("seeding, config, leasing, recording, release, resume and stats", async () => {
  const pad = ns.getByName("audit-1");
  assert.deepEqual(await pad.crawl_config(), { final_url: "", robots_txt: "" });
  assert.deepEqual(await pad.seed_start(U("")), { received: 1, inserted: 1 });
  assert.deepEqual(await pad.seed_start(U("")), { received: 1, inserted: 0 });
  assert.deepEqual(await pad.seed_sitemap_urls([U(""), U("a"), U("b"), U("a")]), { received: 4, inserted: 2 });
  assert.deepEqual(await pad.note_sitemap_blocked([U("secret"), U("secret")]), { received: 2, inserted: 1 });
  assert.deepEqual(await pad.sitemap_blocked_urls({ after: "", limit: 10 }), { urls: [U("secret")] });
  assert.deepEqual(await pad.sitemap_blocked_urls({ after: U("secret"), limit: 10 }), { urls: [] });
  assert.deepEqual(await pad.save_crawl_config({ final_url: U(""), robots_txt: "User-agent: *\n" }), { saved: true });
  assert.deepEqual(await pad.crawl_config(), { final_url: U(""), robots_txt: "User-agent: *\n" });

  // One level at a time: the start URL (depth 0) alone, then depth 1, then the sitemap-only URLs.
  const claim = await pad.claim_chunk({ chunk_no: 1, limit: 2 });
  assert.equal(claim.is_retry, false);
  assert.deepEqual(claim.urls, [{ url: U(""), depth: 0, in_sitemap: true }]);
  const retry = await pad.claim_chunk({ chunk_no: 1, limit: 2 });
  assert.deepEqual(retry, { urls: claim.urls, is_retry: true }, "a retried chunk gets its own URLs back");

  const recorded = await pad.record_batch({
    crawled: [U("")], pages: [mirror(U("")), mirror(U("c"), { depth: 2 })],
    links: [{ source_url: U(""), target_url: U("c"), nofollow: false, anchor: "c" }],
    discovered: [{ url: U("c"), depth: 1, found_on: U("") }, { url: U("a"), depth: 1, found_on: U("") }],
  });
  assert.deepEqual(recorded, { seen: 4, pending: 3, leased: 0, crawled: 1, links_truncated: false, links_written: 1, enqueued: 1 });
  const more = await pad.claim_more({ chunk_no: 1, limit: 2 });
  // "a", listed by the sitemap first, takes the depth of the link that reached it (issue 27).
  const level = [{ url: U("a"), depth: 1, in_sitemap: true }, { url: U("c"), depth: 1, in_sitemap: false }];
  assert.deepEqual(more, { urls: level, is_retry: false }, "a short chunk leases the next level");
  assert.deepEqual((await pad.claim_chunk({ chunk_no: 1, limit: 2 })).urls.map((u) => u.url), [U("a"), U("c")], "its retry gets them back");
  assert.deepEqual(await pad.release_urls([U("c")]), { released: 1 });
  assert.deepEqual(await pad.release_urls([U("a"), U("zzz")]), { released: 1 });
  assert.deepEqual(await pad.release_urls([U("a")]), { released: 0 }, "a pending URL is not released");
  assert.deepEqual(await pad.claim_chunk({ chunk_no: 2, limit: 0 }), { urls: [], is_retry: false });
  const resume = await pad.prepare_resume();
  assert.deepEqual(resume, { seen: 4, pending: 3, leased: 0, crawled: 1, links_truncated: false, last_chunk: 1, configured: true, resources_pending: 0 });
  assert.deepEqual(await pad.stats(), { seen: 4, pending: 3, leased: 0, crawled: 1, links_truncated: false });
});

test("record_links stores a page's links while it is parsed, and a rewrite counts nothing twice", async () => {
  const pad = ns.getByName("audit-links");
  await pad.seed_start(U(""));
  const links = [U("x"), U("y"), U("x")].map((t) => ({ source_url: U(""), target_url: t, nofollow: false, anchor: null }));
  const discovered = [{ url: U("x"), depth: 1, found_on: U("") }, { url: U("y"), depth: 1, found_on: U("") }];
  // The client sends large records as JSON text (common.wire.JsonRecord.to_json_text); an
  // object, as older senders sent, is read the same way.
  const first = await pad.record_links(JSON.stringify({ links, discovered }));
  assert.deepEqual(first, { seen: 3, pending: 3, leased: 0, crawled: 0, links_truncated: false, links_written: 2, enqueued: 2 });
  const again = await pad.record_links({ links, discovered });
  assert.deepEqual(again, { ...first, links_written: 0, enqueued: 0 });
});

test("link_graph answers each crawled page's kept links, a bounded answer at a time", async () => {
  const pad = ns.getByName("audit-graph");
  await pad.record_batch(JSON.stringify({
    pages: [mirror(U("a")), mirror(U("b")), mirror(U("gone"), { status_code: 404 })],
    links: [
      { source_url: U("a"), target_url: U("b"), nofollow: false, anchor: "Read B" },
      { source_url: U("b"), target_url: U("a"), nofollow: true, anchor: null, image_alt: "Logo" },
      { source_url: U("b"), target_url: U("gone"), nofollow: false, anchor: "Broken" },
      { source_url: U("b"), target_url: "https://other.test/", nofollow: false, anchor: "Away", external: true },
    ],
  }));
  // Rows in the compact form (audit.link_graph.to_row): [url, in total, out total, complete,
  // inlinks, outlinks], each list the JSON text SQLite built, each link [url or path on the
  // page's origin (flag 4), anchor, kind, flags, status].
  const first = await pad.link_graph({ after: "", max_pages: 2, max_bytes: 1048576 });
  assert.deepEqual(first.rows.map((r) => r[0]), [U("a"), U("b")]);
  assert.equal(first.next_after, U("b"));
  const [url, inTotal, outTotal, complete, inlinks, outlinks] = first.rows[1];
  assert.deepEqual([url, inTotal, outTotal, complete], [U("b"), 1, 3, 1]);
  assert.deepEqual(JSON.parse(inlinks), [["/a", "Read B", "text", 4, null]]);
  assert.deepEqual(JSON.parse(outlinks), [
    ["/a", "Logo", "image", 5, 200], ["/gone", "Broken", "text", 4, 404], ["https://other.test/", "Away", "text", 2, null],
  ]);
  const last = await pad.link_graph({ after: U("b"), max_pages: 2, max_bytes: 1048576 });
  assert.deepEqual([last.rows.map((r) => r[0]), last.next_after], [[U("gone")], null]);
});

test("run_finalize_checks pages cross-page issues", async () => {
  const pad = ns.getByName("audit-2");
  await pad.seed_start(U(""));
  await pad.save_crawl_config({ final_url: U(""), robots_txt: "" });
  await pad.claim_chunk({ chunk_no: 1, limit: 10 });
  await pad.record_batch({ crawled: [U("")], pages: [mirror(U("")), mirror(U("twin"))], links: [], discovered: [] });
  const page = await pad.run_finalize_checks({ audit_id: "audit-2", start_url: U(""), crawl_completed: true, cursor: null, limit: 50 });
  assert.equal(page.next_cursor, null);
  assert.equal(page.orphans_checked, true);
  const types = new Set(page.issues.map((i) => i.issue_type));
  assert.ok(types.has("duplicate-title"), [...types].join(","));
  assert.equal(page.counts["duplicate-title"], 2);
});

test("fragment targets and resource checks: stored, leased, answered, reported", async () => {
  const pad = ns.getByName("audit-5");
  const KEY = 9007199254740991; // 2**53 - 1: fragment keys cross RPC as exact JS numbers
  await pad.record_batch({
    crawled: [], pages: [mirror(U("")), mirror(U("doc"))], links: [], discovered: [],
    fragment_targets: [{ url: U("doc"), keys: [KEY, 7] }],
    fragment_links: [
      { source_url: U(""), target_url: U("doc"), fragment: "found", key: KEY, decoded_key: KEY },
      { source_url: U(""), target_url: U("doc"), fragment: "lost", key: 1, decoded_key: 2 },
    ],
    resources: [
      { source_url: U(""), url: U("x.png"), kind: "img", rel: null },
      { source_url: U("doc"), url: U("s.css"), kind: "link", rel: "stylesheet" },
    ],
  });
  const claim = await pad.claim_resources({ chunk_no: 1, limit: 5 });
  assert.deepEqual(claim, { urls: [U("s.css"), U("x.png")], is_retry: false, pending: 0 });
  assert.deepEqual(await pad.claim_resources({ chunk_no: 1, limit: 5 }), { ...claim, is_retry: true });
  await pad.record_resources([{ url: U("x.png"), status_code: 404, fetch_class: "ok" }]);
  assert.deepEqual(await pad.release_resources([U("s.css")]), { released: 1 });
  const page = await pad.run_finalize_checks({ audit_id: "audit-5", start_url: U(""), crawl_completed: true, cursor: null, limit: 50 });
  const found = page.issues
    .filter((i) => i.issue_type === "broken-fragment" || i.issue_type === "broken-resource")
    .map((i) => [i.issue_type, i.page_url, i.dedupe_key]);
  assert.deepEqual(found, [
    ["broken-fragment", U(""), `${U("doc")}#lost`],
    ["broken-resource", U(""), U("x.png")],
  ]);
});

test("external links: stored with their referrers, leased within the budget, answered, reported", async () => {
  const pad = ns.getByName("audit-6");
  const X = (path) => `https://other.test/${path}`;
  await pad.record_batch({
    crawled: [], pages: [mirror(U("")), mirror(U("doc"))], links: [], discovered: [],
    external: [
      { source_url: U(""), url: X("gone") },
      { source_url: U("doc"), url: X("gone") },
      { source_url: U("doc"), url: X("later") },
    ],
  });
  const claim = await pad.claim_external({ lease_no: 1, limit: 5, budget: 1 });
  assert.ok(claim.started_ms > 0);
  assert.deepEqual(claim, {
    urls: [X("gone")], is_retry: false, pending: 1, over_budget: 1,
    started_ms: claim.started_ms, resolved_hosts: [], unresolved_hosts: [],
  });
  assert.deepEqual(await pad.claim_external({ lease_no: 1, limit: 5, budget: 1 }), { ...claim, is_retry: true });
  await pad.record_external([{
    url: X("gone"), outcome: "broken", status_code: 404, final_url: null, reason: "HTTP 404",
    host: "other.test", reach: "answered",
  }]);
  assert.deepEqual(await pad.release_external([X("gone")]), { released: 0 });
  assert.deepEqual(await pad.stop_external("time-budget"), { stopped: "time-budget" });
  assert.deepEqual((await pad.claim_external({ lease_no: 2, limit: 5, budget: 1 })).resolved_hosts, ["other.test"]);
  const page = await pad.run_finalize_checks({ audit_id: "audit-6", start_url: U(""), crawl_completed: true, cursor: null, limit: 50 });
  const found = page.issues
    .filter((i) => i.issue_type.includes("external"))
    .map((i) => JSON.stringify([i.issue_type, i.page_url, i.dedupe_key]))
    .sort();
  const expected = [
    ["broken-external-link", U(""), X("gone")],
    ["broken-external-link", U("doc"), X("gone")],
    ["external-links-unchecked", U(""), null],
  ];
  assert.deepEqual(found, expected.map((e) => JSON.stringify(e)).sort());
});

test("pages to render: queued with a batch, leased per render step, answered, tallied; script links marked", async () => {
  const pad = ns.getByName("audit-renders");
  const facts = { page_url: U("app"), encoding: { name: "windows-1252", source: "default", declared: null }, html_bytes: 18, truncated: false };
  const candidate = (path, reason) => ({
    url: U(path), reason, final_url: U(path), status: 200, elapsed_ms: 3.5,
    headers: { "content-type": "text/html" }, raw_facts: facts, depth: 1, in_sitemap: false,
  });
  await pad.record_batch(JSON.stringify({ render: [candidate("app", "app-shell"), candidate("s", "sample")] }));
  const claim = await pad.claim_renders({ chunk_no: 1001, limit: 1 });
  assert.deepEqual(claim.candidates.map((c) => [c.url, c.reason, c.raw_facts.html_bytes]), [[U("app"), "app-shell", 18]]);
  assert.deepEqual([claim.is_retry, claim.pending], [false, 1]);
  assert.equal((await pad.claim_renders({ chunk_no: 1001, limit: 1 })).is_retry, true, "a step run again gets its own pages");
  assert.deepEqual(await pad.record_renders([{ url: U("app"), state: "skipped", detail: "no renderer" }]), { received: 1, inserted: 1 });
  await pad.seed_start(U(""));
  const rendered = await pad.record_batch(JSON.stringify({ discovered: [{ url: U("only-rendered"), depth: 1, found_on: U("app") }], from_rendered: true }));
  assert.equal(rendered.enqueued, 1);
  assert.deepEqual(await pad.render_tally(), {
    rendered: 0, failed: 0, skipped: 1, unreached: 1, shells_not_rendered: 1, reason: "no renderer", script_links: 1,
  });
});

test("destroy and the alarm handler wipe the object; a later call reopens it", async () => {
  const pad = ns.getByName("audit-3");
  await pad.seed_start(U(""));
  assert.deepEqual(await pad.destroy(), { destroyed: true });
  const storage = ns.object(ns.idFromName("audit-3")).state.storage;
  assert.equal(storage.alarm, null);
  assert.deepEqual(await pad.stats(), { seen: 0, pending: 0, leased: 0, crawled: 0, links_truncated: false });

  await pad.seed_start(U("again"));
  ns.evict(ns.idFromName("audit-3")); // a fresh instance over the same storage re-arms the alarm
  await pad.stats();
  assert.ok(storage.alarm > Date.now());
  await ns.runAlarm(ns.idFromName("audit-3")); // alarm(self) is called relaxed with raw alarmInfo
  assert.equal(storage.alarm, null);
  assert.deepEqual((await pad.stats()).seen, 0);
  assert.deepEqual(await pad.seed_start(U("again")), { received: 1, inserted: 1 }, "counts restart with the schema");
  assert.deepEqual((await pad.stats()).pending, 1);
});

test("RPC refuses what the runtime refuses", async () => {
  const pad = ns.getByName("audit-4");
  await assert.rejects(pad.no_such_method(), /Method no_such_method does not exist/);
  await assert.rejects(pad._rows("SELECT 1"), /Method _rows does not exist/);
  await assert.rejects(pad.seed_start(), /PythonError|TypeError/); // strict call: the signature must accept the args
});
