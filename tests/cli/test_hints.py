"""Every command the CLI, the web app, the API document and the reports tell a user to run works
when copied as written (issue 27: the sign-in hint said `siteaudit keys create`, which failed
without `--owner`).

`HINTS` is the table: where a hint appears, its text in the source (an f-string's fields as
`{expression}`), and what fills those fields here. `test_the_table_covers_every_hint_in_the_source`
scans the string literals of src/ (docstrings and comments are not shown to users, so they are
left out) and the web app's files, so a new hint cannot escape the table; each row is then run
through the CLI's main entry (`python -m cli.main`, as `tests/support/cli_process.py` starts it),
on a state dir holding the audits the hints name.
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.support.chain_site import Chain
from tests.support.cli_process import ROOT, audit_killed_midway, serving, siteaudit
from tests.support.site_server import Reply, Site, serve_site

SRC = ROOT / "src"
WEB_FILES = ("src/api/static/index.html", "src/api/static/app.js")
COMMANDS = (
    "audit|resume|report|cancel|delete|compare|serve|keys|monitors|security-check|security|exposure"
)
# A command runs to the end of its code span, sentence or string; an f-string field is one token.
HINT = re.compile(rf"siteaudit (?:{COMMANDS})(?![\w:-])(?:\{{[^}}]*\}}|[^`<);\"\n{{])*")
JS_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)  # a script's own notes, shown to no one


@dataclass(frozen=True, slots=True)
class Hint:
    where: str  # the file that shows it
    text: str  # as in the source
    fills: dict[str, str] = field(default_factory=dict)  # field or placeholder -> a `World` name


HINTS = [
    # `siteaudit report ID` of an audit still running (its process was killed).
    Hint("src/cli/main.py", "siteaudit resume {args.audit_id}", {"{args.audit_id}": "killed"}),
    # The text summary: more ranked actions than it lists; a cancelled audit.
    Hint(
        "src/cli/report.py",
        "siteaudit report {audit.id} --format json",
        {"{audit.id}": "completed"},
    ),
    Hint("src/cli/report.py", "siteaudit resume {audit.id}", {"{audit.id}": "cancelled"}),
    # The HTML report: its page table over 100 pages, an issue with more affected pages than it
    # lists, and a monitor run's changes since the previous run.
    Hint("src/service/page_table.py", "siteaudit serve"),
    Hint(
        "src/service/page_table.py",
        "siteaudit report {escape(audit_id)} --format json",
        {"{escape(audit_id)}": "completed"},
    ),
    Hint(
        "src/service/html_report.py",
        "siteaudit report {escape(audit_id)} --format csv",
        {"{escape(audit_id)}": "completed"},
    ),
    Hint(
        "src/service/html_history.py",
        "siteaudit compare {escape(before.id)} {escape(audit_id)}",
        {"{escape(before.id)}": "completed", "{escape(audit_id)}": "newer"},
    ),
    # The web app's sign-in screen and the API document's security scheme.
    Hint("src/api/static/index.html", "siteaudit serve"),
    Hint("src/api/static/index.html", "siteaudit keys create"),
    Hint("src/api/openapi.py", "siteaudit keys create"),
    # The fix advice of exposure-dns-unchecked.
    Hint(
        "src/audit/catalogue.py",
        "siteaudit exposure SITE_URL --resolver RESOLVER_URL",
        {"SITE_URL": "site_url", "RESOLVER_URL": "resolver_url"},
    ),
]


def test_the_table_covers_every_hint_in_the_source() -> None:
    assert sorted(found_hints()) == sorted((hint.where, hint.text) for hint in HINTS)


def found_hints() -> Iterator[tuple[str, str]]:
    for path in sorted(SRC.rglob("*.py")):
        for text in shown_strings(ast.parse(path.read_text())):
            for hint in HINT.findall(text):
                yield str(path.relative_to(ROOT)), hint.strip()
    for name in WEB_FILES:
        for hint in HINT.findall(JS_COMMENT.sub("", (ROOT / name).read_text())):
            yield name, hint.strip()


def shown_strings(tree: ast.Module) -> Iterator[str]:
    """Every string literal but docstrings; an f-string with its fields as `{expression}`."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    inside_fstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inside_fstrings.update(id(part) for part in node.values)
            yield "".join(
                str(part.value)
                if isinstance(part, ast.Constant)
                else f"{{{ast.unparse(part.value)}}}"
                for part in node.values
                if isinstance(part, ast.Constant | ast.FormattedValue)
            )
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings | inside_fstrings
        ):
            yield node.value


@dataclass
class World:
    """A state dir with the audits the hints name, and the sites they audited."""

    state: Path
    site_url: str
    resolver_url: str  # answers no DNS question: the advice is for an unreachable resolver
    completed: str
    newer: str
    killed: str  # still `running`: its process was killed mid-crawl
    cancelled: str


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    state = tmp_path_factory.mktemp("hints") / "state"
    chain = Chain()
    with serve_site(chain.routes()) as site, serve_site({"/": Reply(body=b"")}) as resolver:
        completed, newer = (_audit(state, site) for _ in range(2))
        with chain.held():
            killed = audit_killed_midway(state, site.url("/"), min_pages=3)
        with chain.held():
            cancelled = audit_killed_midway(state, site.url("/"), min_pages=3)
        assert siteaudit("cancel", cancelled, state_dir=state).returncode == 0
        yield World(
            state, site.url("/"), resolver.url("/dns-query"), completed, newer, killed, cancelled
        )


def _audit(state: Path, site: Site) -> str:
    done = siteaudit("audit", site.url("/"), "--allow-private-hosts", state_dir=state)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[0].removeprefix("audit ")


def test_the_report_of_a_killed_audit_and_of_a_cancelled_one_show_their_hints(
    world: World,
) -> None:
    running = siteaudit("report", world.killed, state_dir=world.state)
    assert f"`siteaudit resume {world.killed}`" in running.stderr
    cancelled = siteaudit("report", world.cancelled, state_dir=world.state)
    assert f"`siteaudit resume {world.cancelled}` finishes it" in cancelled.stdout


@pytest.mark.parametrize("hint", HINTS, ids=lambda h: f"{h.where}:{h.text}")
def test_each_hint_works_as_written(hint: Hint, world: World) -> None:
    command = hint.text
    for placeholder, name in hint.fills.items():
        command = command.replace(placeholder, str(getattr(world, name)))
    argv = shlex.split(command)
    assert argv[0] == "siteaudit"
    if argv[1:] == ["serve"]:
        _serve_works(world)
        return
    if argv[1] == "exposure":
        argv.append("--allow-private-hosts")  # the site and the resolver are on loopback
    done = siteaudit(*argv[1:], state_dir=world.state)
    assert done.returncode == 0, (command, done.stderr)


def _serve_works(world: World) -> None:
    """`siteaudit serve` (on a free port, not 8787): the app, and the pages the page table's
    note names (`GET /api/audits/{id}/pages.csv`), with the key of its sign-in link."""
    with serving(world.state) as banner:
        assert httpx.get(banner.app, timeout=10).status_code == 200
        pages = httpx.get(
            f"{banner.api}/{world.completed}/pages.csv",
            headers={"authorization": f"Bearer {banner.key}"},
            timeout=10,
        )
        assert pages.status_code == 200 and world.site_url in pages.text
