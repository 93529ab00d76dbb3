"""What start-up imports (issue 29): a command loads what it uses and nothing else.

`siteaudit --help` took 0.47 s because `import cli.main` loaded every command's code, the report
formats and rich; the API loaded the MCP server and the HTML report with its first request.
It came back (0.33 s): an option's vocabulary imported from a module that brings the audit's
whole graph (`--fail-on`'s severities from audit.catalogue, `--render` from render.records, which
holds axe-core's records and so the element tree and the HTML parser); each such vocabulary now
has its own small module (audit.severity, render.mode, auditdb.frequency). Each row below runs
one statement in a fresh interpreter (the test process has imported everything already) and names
the modules it must not have loaded, a package standing for all of its modules;
`test_an_audit_loads_no_other_format` runs a whole text-format audit the same way. A row fails
when a top-level import comes back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

import pytest

from tests.support.cli_process import ROOT
from tests.support.site_server import Reply, serve_site

# The report formats a text audit does not write, the web API's schemas, the MCP server.
FORMATS = ("service.html_report", "service.svg_charts", "service.sarif", "service.junit")
SCHEMAS = ("pydantic", "api.schemas", "api.openapi")
MCP = ("api.mcp.transport", "api.mcp.tools", "api.mcp.protocol")
# The Worker's graph, which the shell (src/entry.py) brings whole.
WORKER = ("entry", "api", "workflow", "durable", "crawl", "audit.catalogue", "a11y", "parse")


@dataclass(frozen=True, slots=True)
class Row:
    statement: str
    not_loaded: tuple[str, ...]


ROWS = {
    # The parser: every command's options, none of their code, nor the Worker's graph.
    "the CLI's parser": Row(
        "import cli.main; cli.main.build_parser()",
        (
            *FORMATS,
            *SCHEMAS,
            *MCP,
            "mcp",
            "service",
            "api",
            "local_platform",
            "entry",
            "audit.catalogue",
            "a11y",
            "parse",
            "structured",
            "crawl",
            "durable",
            "workflow",
            "auditdb.listing",
            "auditdb.records",
            "render.records",
            "urls",
            "idna",
            "common.deployment",
            "rich",
            "cryptography",
            "h11",
            "asyncio",
            "security.grade",
            "exposure.site_check",
            "demo.server",
        ),
    ),
    "the API's entry point": Row("import api.app", (*FORMATS, *SCHEMAS, *MCP)),
    # The platform imports the Worker's shell (the API, the workflow, the Durable Object) when an
    # event, an object or a fetch first needs it (local_platform.runtime).
    "the local platform until the shell is needed": Row(
        "import asyncio, tempfile\n"
        "from local_platform.runtime import LocalPlatform\n"
        "with tempfile.TemporaryDirectory() as state:\n"
        "    asyncio.run(LocalPlatform(state).close())",
        (*WORKER, "render.records", "auditdb.records"),
    ),
    "the progress view off a terminal": Row(
        "import io, cli.progress; cli.progress.progress_view(io.StringIO())", ("rich",)
    ),
    "the local cipher until it seals": Row(
        "import local_platform.cipher as c; c.LocalCipher()", ("cryptography",)
    ),
}


def among(loaded: set[str], names: tuple[str, ...] | set[str]) -> set[str]:
    """The modules of `loaded` that `names` names: a module itself, or any module of a package."""
    return {m for m in loaded for n in names if m == n or m.startswith(f"{n}.")}


def loaded_after(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after `statement`."""
    code = f"{statement}\nimport json, sys; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("name", ROWS)
def test_start_up_loads_only_what_it_uses(name: str) -> None:
    row = ROWS[name]
    loaded = loaded_after(row.statement)
    assert among(loaded, row.not_loaded) == set()


PAGES = {
    "/": Reply(body=b'<!doctype html><html lang="en"><title>Home page</title><a href="/a">A</a>'),
    "/a": Reply(body=b'<!doctype html><html lang="en"><title>Page A here</title><a href="/">H</a>'),
}


def test_an_audit_loads_no_other_format(tmp_path) -> None:
    """A whole `siteaudit audit URL` (text summary) loads neither pydantic nor the API's schemas
    (it starts its audit through the service with a typed request, cli.audit_request), nor the
    other formats, nor the MCP server, nor rich (stderr is a pipe), nor cryptography (nothing
    sealed), nor html5lib (the reference parser: the extractor ports the encoding prescan it
    needed, parse.prescan, and reads the entity table from the standard library)."""
    with serve_site(PAGES) as site:
        argv = ["--state-dir", str(tmp_path), "audit", site.url("/"), "--allow-private-hosts"]
        statement = f"import cli.main; assert cli.main.main({argv!r}) == 0"
        loaded = loaded_after(statement)
    assert {"cli.audit_request", "service.audits"} <= loaded  # the statement did run an audit
    unwanted = {*FORMATS, *SCHEMAS, *MCP, "rich", "cryptography", "demo.server", "html5lib"}
    assert among(loaded, unwanted) == set()


def test_a_command_that_reads_only_d1_loads_no_shell(tmp_path) -> None:
    """`siteaudit keys list` reads the keys table through the service: the platform never
    imports the Worker's shell, nor the audit records."""
    argv = ["--state-dir", str(tmp_path), "keys", "list"]
    loaded = loaded_after(f"import cli.main; assert cli.main.main({argv!r}) == 0")
    assert {"service.keys", "local_platform.runtime"} <= loaded  # the statement did list them
    assert among(loaded, (*WORKER, "auditdb.records", "render.records")) == set()
