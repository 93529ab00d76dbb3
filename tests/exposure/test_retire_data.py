"""The vendored retire.js repository: compacted faithfully, every pattern translated, and its own
testcases detected (upstream's repository/test-detection.js, without the downloads)."""

from __future__ import annotations

import json
import re
import warnings

import pytest

from exposure.jsregex import compile_js, required_literal
from exposure.libraries import Detection, scan_content, scan_url
from exposure.retire_data import (
    COMPACT_PATH,
    PLACEHOLDER,
    VERSION_PATTERN,
    compact,
    repository,
)
from tests.exposure.regex_examples import example
from tests.exposure.retire_cases import VENDORED, extractor_sources, upstream, url_cases


def test_compact_copy_is_rebuilt_from_the_vendored_file() -> None:
    notice = (VENDORED / "NOTICE").read_text(encoding="utf-8").strip()
    source = (VENDORED / "SOURCE").read_text(encoding="utf-8").strip()
    expected = compact(upstream(), notice=notice, source=source)
    assert json.loads(COMPACT_PATH.read_text(encoding="utf-8")) == expected


def test_compact_copy_carries_the_notice_and_every_library() -> None:
    repo = repository()
    assert "Erlend Oftedal" in repo.notice
    names = {library.name for library in repo.libraries}
    assert names == set(upstream()) - {"retire-example", "dont check"}
    assert sum(len(library.vulnerabilities) for library in repo.libraries) == sum(
        len(body["vulnerabilities"])
        for name, body in upstream().items()
        if name != "retire-example"
    )


ALL_SOURCES = [
    pytest.param(kind, source, id=f"{library}:{kind}:{index}")
    for kind in ("uri", "filename", "filecontent", "filecontentreplace")
    for index, (library, source) in enumerate(extractor_sources(kind))
]


@pytest.mark.parametrize(("kind", "source"), ALL_SOURCES)
def test_every_pattern_translates_and_compiles_silently(kind: str, source: str) -> None:
    pattern = source.replace(PLACEHOLDER, VERSION_PATTERN)
    if kind == "filecontentreplace":
        pattern = _search_part(pattern)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compile_js(pattern)


def test_every_library_compiles_its_extractors() -> None:
    for library in repository().libraries:
        assert all(isinstance(p, re.Pattern) for p in (*library.uri, *library.filename))
        assert all(isinstance(p, re.Pattern) for p in library.filecontent)
        assert all(isinstance(rule[0], re.Pattern) for rule in library.filecontentreplace)
        assert len(library.content_literals) == len(library.filecontent)


@pytest.mark.parametrize(("library", "version", "url"), list(url_cases()))
def test_testcase_urls_name_their_library_and_version(library: str, version: str, url: str) -> None:
    # Upstream's check: exactly one component, the right one, a version starting with the
    # expected one (jquery-3.6.0.slim.js is "3.6.0.slim" in retire.js too).
    found = scan_url(url)
    assert [f.library for f in found] == [library]
    assert found[0].version.startswith(version)
    assert found[0].detection in (Detection.URI, Detection.FILENAME)


CONTENT_SOURCES = [
    pytest.param(library, source, id=f"{library}:{index}")
    for index, (library, source) in enumerate(extractor_sources("filecontent"))
]


@pytest.mark.parametrize(("library", "source"), CONTENT_SOURCES)
def test_every_content_pattern_detects_a_minimal_script(library: str, source: str) -> None:
    script = example(source, "1.2.3")
    assert required_literal(source) in script  # the prefilter never hides a match
    found = {(f.library, f.version) for f in scan_content(script, "https://example.test/a.js")}
    assert (library, "1.2.3") in found


REPLACE_SOURCES = [
    pytest.param(library, source, id=f"{library}:{index}")
    for index, (library, source) in enumerate(extractor_sources("filecontentreplace"))
]


@pytest.mark.parametrize(("library", "source"), REPLACE_SOURCES)
def test_every_replacement_rule_detects_a_minimal_script(library: str, source: str) -> None:
    script = example(_search_part(source), "1.2.3")
    assert required_literal(_search_part(source)) in script
    found = scan_content(script, "https://example.test/a.js")
    assert library in {f.library for f in found}
    assert all(f.version for f in found)


def _search_part(rule: str) -> str:
    """The search regex of a `/search/replacement/` rule (retire's own split)."""
    match = re.fullmatch(r"/(.*[^\\])/([^/]+)/", rule, re.DOTALL)
    assert match is not None, rule
    return match.group(1)
