// The Pyodide tier's runtime: boots npm `pyodide` (0.28.3 = Python 3.13, the line our compat date
// selects), unpacks the hash-checked wheels, registers the two shim modules the workers SDK imports,
// mounts src/ where workerd puts the bundle, and routes entrypoint calls the way workerd does.
// Written from documented behaviour (docs/pyodide-tier.md §4, docs/platform.md §1.1); it follows
// workerd release 2026-08-22 (6552d99) and copies none of its files. Re-check on a compat-date bump.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";
import * as B from "./doubles/bindings.mjs";
import { D1Database } from "./doubles/sql.mjs";

export const TIER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = path.resolve(TIER, "../..");
export const JSPI = typeof WebAssembly.Suspending === "function" || typeof WebAssembly.Suspender === "function";

// Date-gated flags (docs/platform.md §10.1, workerd compatibility-date.capnp), on from these dates.
const DATED_FLAGS = {
  python_no_global_handlers: "2025-08-14", python_workflows: "2025-09-20", python_workers_20250116: "2025-09-29",
  python_request_headers_preserve_commas: "2026-02-17", delete_all_deletes_alarm: "2026-02-24",
  python_workflows_implicit_dependencies: "2026-02-25", enable_python_external_sdk: "2026-04-21",
};

export function wheels() {
  const spec = fs.readFileSync(path.join(TIER, "wheels.txt"), "utf8");
  return [...spec.matchAll(/^([\w.-]+)==([\w.]+) --hash=sha256:([0-9a-f]{64})$/gm)].map(([, name, version, sha]) => {
    const stem = `${name.replace(/-/g, "_")}-${version}-`;
    const file = fs.existsSync(path.join(TIER, "wheels"))
      ? fs.readdirSync(path.join(TIER, "wheels")).find((f) => f.startsWith(stem) && f.endsWith(".whl")) : undefined;
    return { name, version, sha, file: file && path.join(TIER, "wheels", file) };
  });
}

function checkedWheel({ name, sha, file }) {
  if (!file) throw new Error(`wheel ${name} missing: run tests/pyodide/setup.sh`);
  const bytes = fs.readFileSync(file);
  const got = createHash("sha256").update(bytes).digest("hex");
  if (got !== sha) throw new Error(`wheel ${file}: sha256 ${got}, expected ${sha} (wheels.txt)`);
  return new Uint8Array(bytes); // unpackArchive refuses a Buffer (pitfall 1)
}

export async function boot({ mainModule = "entry" } = {}) {
  // A stable fetch dispatcher installed before the SDK imports `js.fetch` (pitfall 2).
  const realFetch = globalThis.fetch;
  let fetchTarget = realFetch;
  globalThis.fetch = (...args) => fetchTarget(...args);

  // Pyodide's event loop leaves cancelled call_later timers armed (e.g. asyncio.timeout's); track
  // them so close() can clear what is left and the test process exits when its tests are done.
  const timers = new Set();
  const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
  globalThis.setTimeout = (fn, ms, ...args) => {
    const handle = realSetTimeout(() => { timers.delete(handle); fn(...args); }, ms);
    timers.add(handle);
    return handle;
  };
  globalThis.clearTimeout = (handle) => { timers.delete(handle); realClearTimeout(handle); };

  const py = await loadPyodide({ indexURL: path.join(TIER, "node_modules/pyodide") });
  const site = py.runPython("import site, sys; sys.dont_write_bytecode = True; site.getsitepackages()[0]");
  for (const wheel of wheels()) py.unpackArchive(checkedWheel(wheel), "wheel", { extractDir: site });

  const wrangler = JSON.parse(py.runPython(
    `import json, tomllib; json.dumps(tomllib.loads(${JSON.stringify(fs.readFileSync(path.join(ROOT, "wrangler.toml"), "utf8"))}))`));
  const flags = Object.fromEntries((wrangler.compatibility_flags ?? []).map((f) => [f, true]));
  for (const [flag, date] of Object.entries(DATED_FLAGS)) flags[flag] ??= wrangler.compatibility_date >= date;

  const cloudflareWorkers = { env: {}, waitUntil: (p) => cloudflareWorkers.pending.push(p), pending: [] };
  py.registerJsModule("_cloudflare_compat_flags", flags);
  py.registerJsModule("_pyodide_entrypoint_helper", {
    cloudflareWorkersModule: cloudflareWorkers,
    cloudflareSocketsModule: { connect() { throw new Error("cloudflare:sockets is not emulated in this tier"); } },
    patchWaitUntil() {},
    async doAnImport(name) {
      if (name === "python_modules/workers/workflows.js") {
        const source = py.FS.readFile(`${site}/workers/workflows.js`, { encoding: "utf8" });
        return import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
      }
      if (name === "cloudflare:workers") return cloudflareWorkers;
      if (name === "cloudflare:sockets") return { connect() { throw new Error("not emulated"); } };
      return import(name);
    },
  });
  py.FS.mkdirTree("/session/metadata");
  py.FS.mkdirTree("/session/tier");
  py.mountNodeFS("/session/metadata", path.join(ROOT, "src"));
  py.mountNodeFS("/session/tier", TIER);
  py.runPython(`import sys, importlib
sys.path[:0] = ["/session/metadata", "/session/tier", "/session/tier/harness"]
importlib.invalidate_caches()`);

  const call = (fn, relaxed, ...args) =>
    JSPI ? fn.callWithOptions({ promising: true, relaxed }, ...args) : relaxed ? fn.callRelaxed(...args) : fn(...args);
  const layer = py.pyimport("entry_layer");
  // The main module is imported by a promising call, so its top level may use run_sync.
  const classes = (await call(layer.discover, false, mainModule)).toJs({ dict_converter: Object.fromEntries });
  const rt = {
    py, flags, wrangler, classes, mainModule, cloudflareWorkers,
    setFetch(fn) { fetchTarget = fn ?? realFetch; },
    close() { for (const handle of timers) realClearTimeout(handle); timers.clear(); },
    entryClass: (module, name) => layer.entry_class(module, name),
    construct: async (cls, ctx, env) => call(cls, false, ctx, env),
    // Routing: fetch/connect -> call wrapper, relaxed; workflow run and DO alarm/webSocket* ->
    // direct relaxed call with the raw JS arguments; everything else -> call wrapper, strict.
    async invoke(instance, name, args) {
      if (["run", "alarm", "webSocketMessage", "webSocketClose", "webSocketError"].includes(name)) {
        const method = instance[name];
        if (typeof method !== "function") throw new TypeError(`Method ${name} does not exist`);
        return toJsValue(await (await call(method, true, ...args)));
      }
      const relaxed = name === "fetch" || name === "connect";
      if (!layer.exposed(instance, name)) throw new TypeError(`Method ${name} does not exist`);
      return toJsValue(await (await call(layer.call, false, instance, name, args, relaxed)));
    },
    makeEnv: (options) => makeEnv(rt, options),
    async runPython(code) { return toJsValue(await py.runPythonAsync(code)); },
  };
  return rt;
}

function toJsValue(v) {
  if (v && typeof v === "object" && typeof v.toJs === "function") {
    const out = v.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
    v.destroy?.();
    return out;
  }
  return v;
}

// The Worker's env as wrangler.toml declares it, over the doubles. `classes` maps DO/workflow
// class names to [module, class] when they are not the main module's (conformance probes).
export function makeEnv(rt, { config = rt.wrangler, vars = {}, classes = {}, delayScale = 0 } = {}) {
  const w = config;
  const env = {};
  const cls = (name) => rt.entryClass(...(classes[name] ?? [rt.mainModule, name]));
  Object.assign(env, w.vars ?? {}, vars);
  for (const db of w.d1_databases ?? []) {
    const d1 = new D1Database();
    const dir = db.migrations_dir && path.join(ROOT, db.migrations_dir);
    if (dir) d1.migrate(fs.readdirSync(dir).filter((f) => f.endsWith(".sql")).sort().map((f) => fs.readFileSync(path.join(dir, f), "utf8")));
    env[db.binding] = d1;
  }
  for (const b of w.durable_objects?.bindings ?? []) {
    env[b.name] = new B.DurableObjectNamespace(b.class_name, {
      construct: (state) => rt.construct(cls(b.class_name), state, env),
      invoke: (instance, method, args) => rt.invoke(instance, method, args),
    });
  }
  for (const wf of w.workflows ?? []) {
    env[wf.binding] = new B.WorkflowImpl(wf.name, async (event, step) => {
      const instance = await rt.construct(cls(wf.class_name), new B.ExecutionContext(), env);
      try { return await rt.invoke(instance, "run", [event, step]); } finally { instance.destroy(); }
    }, { delayScale });
  }
  for (const q of w.queues?.producers ?? []) env[q.binding] = new B.WorkerQueue(q.queue);
  for (const r2 of w.r2_buckets ?? []) env[r2.binding] = new B.R2Bucket();
  rt.cloudflareWorkers.env = env;
  return env;
}

// Default's handlers: fetch with a real Request, scheduled(controller, env, ctx), queue(batch, env, ctx).
export async function callDefault(rt, env, name, ...args) {
  const ctx = new B.ExecutionContext();
  const instance = await rt.construct(rt.entryClass(rt.mainModule, "Default"), ctx, env);
  try {
    const result = await rt.invoke(instance, name, [...args, env, ctx]);
    await ctx.drain();
    return result;
  } finally { instance.destroy(); }
}
