// Pyodide half of bench/pyodide_cpu_bench.py: boots the tier's runtime (real SDK, wheels, src/
// mounted) and runs the same measure() over the corpus. Args: CORPUS_DIR REPEATS.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { boot } from "../tests/pyodide/harness/runtime.mjs";

const [corpus, repeats = "3"] = process.argv.slice(2);
const rt = await boot();
rt.py.FS.mkdirTree("/bench"); rt.py.FS.mkdirTree("/corpus");
rt.py.mountNodeFS("/bench", path.dirname(fileURLToPath(import.meta.url)));
rt.py.mountNodeFS("/corpus", path.resolve(corpus));
const bench = rt.py.runPython("import sys; sys.path.insert(0, '/bench'); import pyodide_cpu_bench; pyodide_cpu_bench");
console.log(bench.measure("/corpus", Number(repeats), "wall"));
rt.close();
