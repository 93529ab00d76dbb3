"""The local platform: CPython implementations of the Cloudflare bindings siteaudit uses.

Production code, not a test helper: the CLI, `siteaudit serve`, the tests and the benchmarks all
run the Worker's own code on it. Shapes, limits and error texts follow docs/platform.md;
where the platform's behaviour is undocumented the assumption is written next to the code.

Nothing here may be imported by the Worker's core (src/ minus local_platform/ and cli/).
"""
