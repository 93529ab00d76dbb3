// The conformance checks (conformance/checks.py) inside Pyodide, with the real workers SDK over the
// JS doubles. The same functions run on the CPython local platform via pytest.
import { after, test } from "node:test";
import { boot } from "./harness/runtime.mjs";

const rt = await boot();
after(() => rt.close());
const env = rt.makeEnv({
  config: {
    d1_databases: [{ binding: "DB" }],
    durable_objects: { bindings: [{ name: "PROBE", class_name: "ProbeObject" }] },
    workflows: [{ name: "probe-flow", binding: "PROBE_FLOW", class_name: "ProbeFlow" }],
  },
  classes: { ProbeObject: ["conformance.probes", "ProbeObject"], ProbeFlow: ["conformance.probes", "ProbeFlow"] },
});
const checks = rt.py.pyimport("conformance.checks");
const pyEnv = rt.py.pyimport("workers")._EnvWrapper(env);

for (const name of checks.names().toJs()) {
  test(name, async () => { await checks.run(pyEnv, name); });
}
