"""The README gets a newcomer going and the docs hold the rest: the README stays short, its test
command is the one CI runs, every `siteaudit` command it shows exists, and every relative link
in the README and under docs/ reaches a file (and a heading, for `#anchor` links into Markdown).
The demo command itself is run by tests/demo/test_demo.py."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MARKDOWN = [README, ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").rglob("*.md"))]
README_MAX_LINES = 150

# [text](target) outside code spans; images too. External and mail links are not checked.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _prose(text: str) -> str:
    """The text without fenced blocks and code spans, where brackets are code, not links."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def _slug(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation but hyphens and spaces dropped, spaces to
    hyphens (github/cmark-gfm's behaviour as GitHub renders READMEs)."""
    text = re.sub(r"`", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", path.read_text()), re.M)
    return {_slug(h) for h in headings}


def _links(path: Path) -> list[str]:
    targets = LINK.findall(_prose(path.read_text()))
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


def test_the_readme_is_short() -> None:
    assert len(README.read_text().splitlines()) <= README_MAX_LINES


def _sh_lines(text: str) -> list[str]:
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    return [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]


def test_ci_runs_the_readme_setup_and_test_commands() -> None:
    readme = _sh_lines(README.read_text())
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]

    assert readme[:2] == ["uv sync --frozen", "uv run pytest"]
    assert all(command in ci for command in readme[:2])


def test_every_siteaudit_command_in_the_readme_parses() -> None:
    commands = [line for line in _sh_lines(README.read_text()) if "siteaudit " in line]
    parser = build_parser()

    assert "uv run siteaudit demo" in commands
    for command in commands:
        words = shlex.split(command.replace("<id>", "a1b2"))
        parser.parse_args(words[words.index("siteaudit") + 1 :])  # exits 2 on a bad one


@pytest.mark.parametrize("path", MARKDOWN, ids=[p.relative_to(ROOT).as_posix() for p in MARKDOWN])
def test_every_relative_link_reaches_its_file_and_heading(path: Path) -> None:
    broken = []
    for target in _links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        missing_heading = anchor and linked.suffix == ".md" and anchor not in _anchors(linked)
        if not linked.exists() or missing_heading:
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: {broken}"
