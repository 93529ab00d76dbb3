// Binding doubles with the production class names (the workers SDK picks wrappers by
// constructor.name): ExecutionContext, Durable Objects, Workflows, Queues, R2, cron controller.
// Shapes follow docs/platform.md §1-§7 (workerd `types/defines/rpc.d.ts`,
// `workflows.d.ts`, `api/queue.h`, `api/r2*.h`). No #private fields: workflows.js wraps the step
// in a Proxy, and private members do not survive that (docs/pyodide-tier.md pitfall 10).
import { createHash, randomUUID } from "node:crypto";
import { DurableObjectStorage } from "./sql.mjs";

// What crosses RPC is a clone; errors keep their name and message only.
export function rpcError(e) {
  if (!(e instanceof Error)) return e;
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

export class ExecutionContext {
  constructor() { this.pending = []; this.props = {}; }
  waitUntil(promise) { this.pending.push(promise); }
  passThroughOnException() {}
  get [Symbol.toStringTag]() { return "ExecutionContext"; }
  async drain() { while (this.pending.length) await this.pending.shift(); }
}

export class ScheduledController {
  constructor(cron, scheduledTime) { this.cron = cron; this.scheduledTime = scheduledTime; this.retry = true; }
  noRetry() { this.retry = false; }
}

// ------------------------------------------------------------------ Durable Objects

export class DurableObjectId {
  constructor(hex, name) { this.hex = hex; this.name = name; }
  toString() { return this.hex; }
  equals(other) { return other?.hex === this.hex; }
}

export class DurableObjectState {
  constructor(id, storage) { this.id = id; this.storage = storage; this.gate = Promise.resolve(); this.pending = []; }
  waitUntil(promise) { this.pending.push(promise); }
  blockConcurrencyWhile(fn) { // the input gate: events wait until fn has finished
    const run = this.gate.then(() => fn());
    this.gate = run.then(() => undefined, () => undefined);
    return run;
  }
  abort(reason) { throw new Error(reason ?? "Durable Object abort requested"); }
}

// The stub: every property is an RPC method whose arguments and result are structured-cloned.
function makeStub(namespace, id) {
  const target = new (class Fetcher {})();
  return new Proxy(target, {
    get(_, prop) {
      if (prop === "id") return id;
      if (prop === "name") return id.name;
      if (typeof prop !== "string" || prop === "then") return undefined;
      return (...args) => namespace.call(id, prop, args);
    },
  });
}

export class DurableObjectNamespace {
  // construct(state) -> Promise<instance>; invoke(instance, method, args, {rpc}) -> Promise<result>
  constructor(className, { construct, invoke }) {
    this.className = className; this.construct = construct; this.invoke = invoke; this.objects = new Map();
  }
  idFromName(name) {
    return new DurableObjectId(createHash("sha256").update(`${this.className}\0${name}`).digest("hex"), name);
  }
  newUniqueId() { return new DurableObjectId(createHash("sha256").update(randomUUID()).digest("hex")); }
  idFromString(hex) {
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new TypeError("Invalid Durable Object ID: must be 64 hex digits");
    return new DurableObjectId(hex, this.objects.get(hex)?.state.id.name);
  }
  get(id) { return makeStub(this, id); }
  getByName(name) { return this.get(this.idFromName(name)); }
  object(id) {
    let entry = this.objects.get(id.toString());
    if (!entry) {
      entry = { state: new DurableObjectState(id, new DurableObjectStorage()), instance: null };
      this.objects.set(id.toString(), entry);
    }
    if (!entry.instance) entry.instance = this.construct(entry.state);
    return entry;
  }
  async call(id, method, args, { rpc = true } = {}) {
    const entry = this.object(id);
    const instance = await entry.instance;
    await entry.state.gate;
    try {
      return await this.invoke(instance, method, rpc ? structuredClone(args) : args, { rpc });
    } catch (e) {
      throw rpc ? rpcError(e) : e;
    }
  }
  // Test hooks: eviction keeps storage and drops the instance; alarms are run by hand.
  evict(id) { const e = this.objects.get(id.toString()); if (e) e.instance = null; }
  async runAlarm(id, retryCount = 0) {
    const entry = this.object(id);
    entry.state.storage.alarm = null; // getAlarm() reads null while the handler runs
    return this.call(id, "alarm", [{ retryCount, isRetry: retryCount > 0 }], { rpc: false });
  }
}

// ------------------------------------------------------------------ Workflows

const DEFAULT_STEP_CONFIG = { retries: { limit: 5, delay: 10000, backoff: "exponential" }, timeout: "10 minutes" };

// The engine's view of one run: steps memoised by "name#occurrence", retried by their config.
export class WorkflowStep {
  constructor(record, engine) { this.record = record; this.engine = engine; this.counts = new Map(); }
  key(name) {
    const count = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, count);
    return { key: `${name}#${count}`, count };
  }
  async do(name, configOrCallback, maybeCallback) {
    const callback = maybeCallback ?? configOrCallback;
    const given = maybeCallback ? configOrCallback : {};
    const config = { ...DEFAULT_STEP_CONFIG, ...given, retries: { ...DEFAULT_STEP_CONFIG.retries, ...given?.retries } };
    const { key, count } = this.key(name);
    if (this.record.steps.has(key)) return structuredClone(this.record.steps.get(key));
    for (let attempt = 1; ; attempt++) {
      this.engine.log.push({ instance: this.record.id, step: key, attempt });
      try {
        const result = await callback({ step: { name, count }, attempt, config });
        this.record.steps.set(key, structuredClone(result ?? null));
        return structuredClone(result ?? null);
      } catch (e) {
        const final = e?.name === "NonRetryableError" || attempt > config.retries.limit;
        this.engine.log.push({ instance: this.record.id, step: key, attempt, error: e?.name, final });
        if (final) throw rpcError(e);
        await new Promise((r) => setTimeout(r, this.engine.delayMs(config.retries, attempt)));
      }
    }
  }
  async sleep(name) { this.key(name); }
  async sleepUntil(name, when) {
    this.key(name);
    const ms = when instanceof Date ? when.getTime() : Number(when);
    if (ms < Date.now()) throw new Error("You can't sleep until a time in the past, time-traveler");
  }
  async waitForEvent(name, options) {
    const { key } = this.key(name);
    if (this.record.steps.has(key)) return structuredClone(this.record.steps.get(key));
    const event = await this.record.nextEvent(options.type);
    this.record.steps.set(key, event);
    return structuredClone(event);
  }
}

export class WorkflowInstance {
  constructor(impl, id) { this.impl = impl; this.id = id; }
  async status() {
    const r = this.impl.record(this.id);
    const out = { status: r.status, error: r.error ?? null, output: r.output ?? null };
    return structuredClone(out);
  }
  async terminate() { this.impl.record(this.id).status = "terminated"; }
  async pause() { this.impl.record(this.id).status = "paused"; }
  async resume() { const r = this.impl.record(this.id); if (r.status === "paused") r.status = "running"; }
  async restart() { const r = this.impl.record(this.id); r.steps.clear(); this.impl.launch(r); }
  async sendEvent({ type, payload }) { this.impl.record(this.id).events.push({ type, payload: structuredClone(payload), timestamp: new Date() }); }
}

export class WorkflowImpl {
  // start(event, step) -> Promise<output>: constructs the entrypoint and calls run() (the router).
  constructor(name, start, { delayScale = 0 } = {}) {
    this.name = name; this.start = start; this.delayScale = delayScale; this.instances = new Map(); this.log = [];
  }
  delayMs({ delay, backoff }, attempt) {
    const base = typeof delay === "number" ? delay : 1000;
    const factor = backoff === "exponential" ? 2 ** (attempt - 1) : backoff === "linear" ? attempt : 1;
    return base * factor * this.delayScale;
  }
  record(id) {
    const r = this.instances.get(id);
    if (!r) throw new Error("(instance.not_found) Instance not found");
    return r;
  }
  async create(options = {}) {
    await null;
    const id = options?.id ?? randomUUID();
    if (id.length > 100 || !/^[a-zA-Z0-9_][a-zA-Z0-9-_]*$/.test(id)) throw new Error("Workflow instance has invalid id");
    if (this.instances.has(id)) throw new Error("(instance.already_exists) Instance already exists");
    const record = {
      id, params: structuredClone(options?.params ?? {}), created: new Date(), status: "queued",
      steps: new Map(), events: [], waiters: [], runs: 0,
      nextEvent(type) {
        return new Promise((resolve) => {
          const poll = () => {
            const k = record.events.findIndex((e) => e.type === type);
            if (k >= 0) resolve(record.events.splice(k, 1)[0]); else setTimeout(poll, 5);
          };
          poll();
        });
      },
    };
    this.instances.set(id, record);
    this.launch(record);
    return new WorkflowInstance(this, id);
  }
  async createBatch(list) { return Promise.all(list.map((o) => this.create(o))); }
  async get(id) { await null; this.record(id); return new WorkflowInstance(this, id); }
  // One run of run(event, step) over the record's step store; a replay is just another run.
  launch(record) {
    record.status = "running";
    record.runs++;
    const event = { payload: structuredClone(record.params), timestamp: record.created, instanceId: record.id, workflowName: this.name };
    record.done = (async () => {
      try {
        const output = await this.start(event, new WorkflowStep(record, this));
        if (record.status === "running") Object.assign(record, { status: "complete", output: structuredClone(output ?? null), error: null });
      } catch (e) {
        const name = e?.type ?? e?.name ?? "Error";
        const lines = String(e?.message ?? e).trim().split("\n");
        const last = lines.at(-1);
        const message = name === "PythonError" || e?.type ? last.slice(last.indexOf(": ") + 2) : e?.message;
        if (record.status === "running") Object.assign(record, { status: "errored", error: { name, message } });
      }
      return record.status;
    })();
    return record.done;
  }
  // Test hooks: wait for the current run; replay an instance on a fresh entrypoint (a restart).
  async wait(id) { await this.record(id).done; return this.record(id); }
  replay(id) { return this.launch(this.record(id)); }
}

// ------------------------------------------------------------------ Queues, R2

export class WorkerQueue {
  constructor(name) { this.name = name; this.sent = []; }
  async send(body, options = {}) { await null; this.sent.push({ body: structuredClone(body), ...options }); }
  async sendBatch(messages, options = {}) {
    await null;
    for (const m of messages) this.sent.push({ ...options, ...m, body: structuredClone(m.body) });
  }
}

export class Message {
  constructor(id, body, attempts = 1) {
    this.id = id; this.body = body; this.attempts = attempts; this.timestamp = new Date(); this.outcome = null;
  }
  ack() { this.outcome ??= "ack"; }
  retry(options) { this.outcome ??= { retry: options ?? {} }; }
}

export class MessageBatch {
  constructor(queue, bodies) { this.queue = queue; this.messages = bodies.map((b, k) => new Message(`m${k}`, structuredClone(b))); }
  ackAll() { for (const m of this.messages) m.ack(); }
  retryAll(options) { for (const m of this.messages) m.retry(options); }
}

export class R2Object {
  constructor(key, entry) {
    Object.assign(this, {
      key, size: entry.bytes.byteLength, etag: entry.etag, httpEtag: `"${entry.etag}"`, version: entry.etag,
      uploaded: entry.uploaded, storageClass: "Standard", httpMetadata: entry.httpMetadata, customMetadata: entry.customMetadata,
    });
  }
}

export class R2ObjectBody extends R2Object {
  constructor(key, entry) { super(key, entry); this.bytes = entry.bytes; this.bodyUsed = false; }
  async arrayBuffer() { this.bodyUsed = true; return this.bytes.buffer.slice(0); }
  async text() { return new TextDecoder().decode(await this.arrayBuffer()); }
  async json() { return JSON.parse(await this.text()); }
}

export class R2Bucket {
  constructor() { this.objects = new Map(); }
  async put(key, value, options = {}) {
    await null;
    const bytes = typeof value === "string" ? new TextEncoder().encode(value)
      : value == null ? new Uint8Array() : new Uint8Array(ArrayBuffer.isView(value) ? value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) : value);
    const entry = {
      bytes, etag: createHash("md5").update(bytes).digest("hex"), uploaded: new Date(),
      httpMetadata: options.httpMetadata ?? {}, customMetadata: options.customMetadata ?? {},
    };
    this.objects.set(key, entry);
    return new R2Object(key, entry);
  }
  async get(key) { await null; const e = this.objects.get(key); return e ? new R2ObjectBody(key, e) : null; }
  async head(key) { await null; const e = this.objects.get(key); return e ? new R2Object(key, e) : null; }
  async delete(keys) { await null; for (const k of [keys].flat()) this.objects.delete(k); }
  async list(options = {}) {
    await null;
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(options.prefix ?? "")).sort();
    return { objects: keys.map((k) => new R2Object(k, this.objects.get(k))), truncated: false, delimitedPrefixes: [] };
  }
}
