// A CPython process beside the Pyodide runtime (a fixture server, the CPython side of a parity
// or cross-check): the project's .venv python when there is one, src/ and the repository root on
// PYTHONPATH. `untilLine` resolves `done` with the first line printed (a server's "serving ...");
// otherwise `done` is the whole output once the process exits 0. `output()` is what it printed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./runtime.mjs";

const VENV_PYTHON = path.join(ROOT, ".venv/bin/python");
const PYTHON = process.env.SITEAUDIT_PYTHON ?? (fs.existsSync(VENV_PYTHON) ? VENV_PYTHON : "python3");
const pyEnv = { ...process.env, PYTHONPATH: [path.join(ROOT, "src"), ROOT].join(path.delimiter) };

export function python(args, { untilLine } = {}) {
  const child = spawn(PYTHON, args, { cwd: ROOT, env: pyEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "", err = "";
  child.stderr.on("data", (d) => { err += d; });
  const done = new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => { out += d; if (untilLine && out.includes("\n")) resolve(out.trim()); });
    child.on("exit", (code) => (code === 0 || untilLine ? resolve(out) : reject(new Error(`${args.join(" ")} exited ${code}\n${err}`))));
  });
  return { child, done, output: () => out };
}
