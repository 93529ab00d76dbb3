// SQL doubles over node:sqlite: a Durable Object's SqlStorage and D1Database.
// Class names are the production ones: the workers SDK picks its wrappers by constructor.name.
// Shapes and texts follow docs/platform.md §2.1 and §3.1 (workerd `api/sql.c++`,
// `cloudflare/internal/d1-api.ts`), and match src/local_platform/d1.py and durable_objects.py.
import { DatabaseSync } from "node:sqlite";

export const TRANSACTION_REFUSED =
  "To execute a transaction, please use the state.storage.transaction() or " +
  "state.storage.transactionSync() APIs instead of the SQL BEGIN TRANSACTION or SAVEPOINT " +
  "statements. The JavaScript API is safer because it will automatically roll back on " +
  "exceptions, and because it interacts correctly with Durable Objects' automatic atomic " +
  "write coalescing.";
const ONE_NONE = "Expected exactly one result from SQL query, but got no results.";
const ONE_MANY = "Expected exactly one result from SQL query, but got multiple results.";
const PRIMARY = ["SQLITE_OK", "SQLITE_ERROR", "SQLITE_INTERNAL", "SQLITE_PERM", "SQLITE_ABORT",
  "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOMEM", "SQLITE_READONLY", "SQLITE_INTERRUPT",
  "SQLITE_IOERR", "SQLITE_CORRUPT", "SQLITE_NOTFOUND", "SQLITE_FULL", "SQLITE_CANTOPEN",
  "SQLITE_PROTOCOL", "SQLITE_EMPTY", "SQLITE_SCHEMA", "SQLITE_TOOBIG", "SQLITE_CONSTRAINT",
  "SQLITE_MISMATCH", "SQLITE_MISUSE", "SQLITE_NOLFS", "SQLITE_AUTH", "SQLITE_FORMAT",
  "SQLITE_RANGE", "SQLITE_NOTADB"];

// "<sqlite message>: SQLITE_<PRIMARY CODE>", as workerd and D1 word SQLite failures.
const sqliteMessage = (e) => `${e.message}: ${PRIMARY[(e.errcode ?? 1) & 0xff] ?? "SQLITE_ERROR"}`;

// node:sqlite's prepare() silently runs only the first statement: split scripts first,
// respecting quotes, comments and CREATE TRIGGER ... BEGIN ... END bodies.
export function splitStatements(sql) {
  const out = [];
  let start = 0, depth = 0, i = 0;
  const word = () => sql.slice(start, i).replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ");
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      i = sql.indexOf(close, i + 1);
      if (i < 0) i = sql.length;
    } else if (c === "-" && sql[i + 1] === "-") {
      i = sql.indexOf("\n", i); if (i < 0) i = sql.length;
    } else if (c === "/" && sql[i + 1] === "*") {
      i = sql.indexOf("*/", i + 2); i = i < 0 ? sql.length : i + 1;
    } else if (/[A-Za-z]/.test(c) && !/\w/.test(sql[i - 1] ?? "")) {
      const w = /^\w+/.exec(sql.slice(i))[0].toUpperCase();
      if (/^\s*CREATE\s+(TEMP\w*\s+)?TRIGGER/i.test(word())) {
        if (w === "BEGIN" || w === "CASE") depth++;
        if (w === "END") depth--;
      }
      i += w.length - 1;
    } else if (c === ";" && depth === 0) {
      if (word().trim()) out.push(sql.slice(start, i).trim());
      start = i + 1;
    }
    i++;
  }
  if (word().trim()) out.push(sql.slice(start).trim());
  return out;
}

const TRANSACTION_WORDS = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const isTransaction = (stmt) => TRANSACTION_WORDS.test(stmt.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " "));

// int64 arrives as a double (never a throw), BLOBs as ArrayBuffer: sql.h's result types.
function resultValue(v) {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Uint8Array) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  return v;
}

function openDatabase(path = ":memory:") {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA foreign_keys = ON");
  return db;
}

// Runs `statements` (already split); returns {columns, rows (arrays), changes, lastRowId} of the last.
function runStatements(db, statements, params) {
  let outcome = { columns: [], rows: [], changes: 0, lastRowId: 0 };
  statements.forEach((sql, n) => {
    const stmt = db.prepare(sql);
    stmt.setReadBigInts(true);
    stmt.setReturnArrays(true);
    const args = n === statements.length - 1 ? params : [];
    const columns = stmt.columns().map((c) => c.name);
    if (columns.length) {
      outcome = { columns, rows: stmt.all(...args).map((r) => r.map(resultValue)), changes: 0, lastRowId: 0 };
    } else {
      const r = stmt.run(...args);
      outcome = { columns, rows: [], changes: Number(r.changes), lastRowId: Number(r.lastInsertRowid) };
    }
  });
  return outcome;
}

const databaseSize = (db) =>
  Number(db.prepare("PRAGMA page_count").get().page_count) * Number(db.prepare("PRAGMA page_size").get().page_size);

// ------------------------------------------------------------------ Durable Object SQL (sql.h)

export class SqlStorageCursor {
  constructor(columns, rows, rowsWritten) {
    this.columns = columns; this.rows = rows; this.position = 0; this.written = rowsWritten;
  }
  get columnNames() { return [...this.columns]; }
  get rowsRead() { return this.rows.length; }
  get rowsWritten() { return this.written; }
  object(row) { // an ordinary object, as workerd builds its rows (pitfall 6)
    const o = {};
    this.columns.forEach((c, k) => { o[c] = row[k]; });
    return o;
  }
  next() {
    return this.position < this.rows.length
      ? { done: false, value: this.object(this.rows[this.position++]) } : { done: true, value: undefined };
  }
  toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
  one() {
    const rest = this.rows.slice(this.position);
    if (rest.length === 0) throw new Error(ONE_NONE);
    if (rest.length > 1) throw new Error(ONE_MANY);
    return this.next().value;
  }
  raw() { return new RawIterator(this); }
  [Symbol.iterator]() { return this; }
}

// A class instance, not a plain object: python_from_rpc would turn a plain object into a dict.
export class RawIterator {
  constructor(cursor) { this.cursor = cursor; }
  next() {
    const c = this.cursor;
    return c.position < c.rows.length ? { done: false, value: [...c.rows[c.position++]] } : { done: true, value: undefined };
  }
  toArray() { const out = []; for (let r = this.next(); !r.done; r = this.next()) out.push(r.value); return out; }
  [Symbol.iterator]() { return this; }
}

export class SqlStorage {
  constructor(db) { this.db = db; }
  exec(query, ...bindings) {
    const statements = splitStatements(query);
    if (statements.length === 0) throw new Error("SQL code did not contain a statement.");
    if (statements.some(isTransaction)) throw new Error(TRANSACTION_REFUSED);
    const params = bindings.map((v, k) => {
      if (v === null || v === undefined) return null;
      if (typeof v === "string" || typeof v === "number") return v;
      if (v instanceof ArrayBuffer) return new Uint8Array(v);
      if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      throw new TypeError(`Failed to execute 'exec' on 'SqlStorage': parameter ${k + 1} is not of type ` +
        "'ArrayBuffer or ArrayBufferView or string or number'.");
    });
    let outcome;
    try { outcome = runStatements(this.db, statements, params); } catch (e) { throw new Error(sqliteMessage(e)); }
    return new SqlStorageCursor(outcome.columns, outcome.rows, outcome.changes);
  }
  get databaseSize() { return databaseSize(this.db); }
}

// ------------------------------------------------------------------ D1 (d1-api.ts)

export const D1_FAULT = "D1_ERROR: injected fault: SQLITE_IOERR";

function d1Binding(v) {
  if (v === null || typeof v === "string") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v) && v.every((b) => Number.isInteger(b) && b >= 0 && b < 256)) return Uint8Array.from(v);
  const type = typeof v;
  throw new Error(`D1_TYPE_ERROR: Type '${type}' not supported for value '${v}'`);
}

// D1 results travel as JSON: BLOBs become arrays of byte numbers, int64 a double.
const d1Value = (v) => (v instanceof ArrayBuffer ? Array.from(new Uint8Array(v)) : v);

export class D1PreparedStatement {
  constructor(database, sql, params = []) { this.database = database; this.sql = sql; this.params = params; }
  bind(...values) { return new D1PreparedStatement(this.database, this.sql, values.map(d1Binding)); }
  async all() { return this.database._result(await this._outcome()); }
  async run() { return this.database._result(await this._outcome()); }
  async first(column) {
    const o = await this._outcome();
    if (o.rows.length === 0) return null;
    const row = o.row(0);
    if (column === undefined || column === null) return row;
    if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
    return row[column];
  }
  async raw(options) {
    const o = await this._outcome();
    const rows = o.rows.map((r) => r.map(d1Value));
    return options?.columnNames ? [[...o.columns], ...rows] : rows;
  }
  async _outcome() { await null; return this.database._execute(this.sql, this.params); }
}

export class D1Database {
  constructor(path = ":memory:") { this.db = openDatabase(path); this.faults = []; this.queries = 0; }
  migrate(sqlTexts) { for (const text of sqlTexts) this.db.exec(text); }
  // Fault injection: the next `count` queries (matching `pattern`, if given) fail with `message`.
  failNext(count = 1, { message = D1_FAULT, pattern = /./ } = {}) {
    for (let k = 0; k < count; k++) this.faults.push({ message, pattern });
  }
  prepare(sql) { return new D1PreparedStatement(this, sql); }
  async batch(statements) {
    await null;
    this.db.exec("BEGIN");
    try {
      const results = statements.map((s) => this._result(this._execute(s.sql, s.params)));
      this.db.exec("COMMIT");
      return results;
    } catch (e) { this.db.exec("ROLLBACK"); throw e; }
  }
  async exec(sql) {
    await null;
    const started = performance.now();
    const statements = splitStatements(sql);
    for (const s of statements) this._execute(s, []);
    return { count: statements.length, duration: performance.now() - started };
  }
  _execute(sql, params) {
    this.queries++;
    const fault = this.faults.findIndex((f) => f.pattern.test(sql));
    if (fault >= 0) throw new Error(this.faults.splice(fault, 1)[0].message);
    const statements = splitStatements(sql);
    if (statements.length === 0) throw new Error("D1_ERROR: No SQL statements detected.");
    if (statements.length > 1) throw new Error("D1_ERROR: A prepared SQL statement must contain only one statement.: SQLITE_ERROR");
    if (isTransaction(statements[0])) throw new Error(`D1_ERROR: ${TRANSACTION_REFUSED}`);
    const started = performance.now();
    let o;
    try { o = runStatements(this.db, statements, params); } catch (e) { throw new Error(`D1_ERROR: ${sqliteMessage(e)}`); }
    o.duration = performance.now() - started;
    o.row = (k) => Object.fromEntries(o.columns.map((c, j) => [c, d1Value(o.rows[k][j])]));
    return o;
  }
  _result(o) {
    const results = o.rows.map((_, k) => o.row(k));
    const meta = {
      duration: o.duration, changes: o.changes, last_row_id: o.lastRowId, changed_db: o.changes > 0,
      rows_read: o.rows.length, rows_written: o.changes, size_after: databaseSize(this.db),
    };
    return { success: true, meta, results };
  }
}

// ------------------------------------------------------------------ DO storage (KV, transactions, alarms)

export class DurableObjectStorage {
  constructor(path = ":memory:") {
    this.db = openDatabase(path);
    this.sql = new SqlStorage(this.db);
    this.kv = new Map();
    this.alarm = null;
  }
  async get(keys) {
    await null;
    if (Array.isArray(keys)) return new Map(keys.filter((k) => this.kv.has(k)).map((k) => [k, structuredClone(this.kv.get(k))]));
    return this.kv.has(keys) ? structuredClone(this.kv.get(keys)) : undefined;
  }
  async put(key, value) {
    await null;
    if (typeof key === "object") for (const [k, v] of Object.entries(key)) this.kv.set(k, structuredClone(v));
    else this.kv.set(key, structuredClone(value));
  }
  async delete(keys) {
    await null;
    if (Array.isArray(keys)) return keys.filter((k) => this.kv.delete(k)).length;
    return this.kv.delete(keys);
  }
  async list(options = {}) {
    await null;
    const keys = [...this.kv.keys()].filter((k) => k.startsWith(options.prefix ?? "")).sort();
    return new Map(keys.slice(0, options.limit ?? keys.length).map((k) => [k, structuredClone(this.kv.get(k))]));
  }
  async deleteAll() {
    await null;
    this.kv.clear();
    this.alarm = null; // delete_all_deletes_alarm (compat date >= 2026-02-24)
    const objects = this.db.prepare(
      "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'view')").all();
    for (const { type, name } of objects) this.db.exec(`DROP ${type.toUpperCase()} IF EXISTS "${name}"`);
  }
  async sync() { await null; }
  transactionSync(fn) {
    this.db.exec("SAVEPOINT tx");
    try {
      const result = fn();
      this.db.exec("RELEASE tx");
      return result;
    } catch (e) {
      this.db.exec("ROLLBACK TO tx"); this.db.exec("RELEASE tx");
      throw e;
    }
  }
  async transaction(fn) {
    const kvBefore = new Map(this.kv);
    this.db.exec("SAVEPOINT tx_async");
    try {
      const result = await fn(this);
      this.db.exec("RELEASE tx_async");
      return result;
    } catch (e) {
      this.db.exec("ROLLBACK TO tx_async"); this.db.exec("RELEASE tx_async");
      this.kv = kvBefore;
      throw e;
    }
  }
  async getAlarm() { await null; return this.alarm; }
  async setAlarm(when) { await null; this.alarm = when instanceof Date ? when.getTime() : Number(when); }
  async deleteAlarm() { await null; this.alarm = null; }
}
