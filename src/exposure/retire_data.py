"""The retire.js vulnerability repository: compacted at vendor time, loaded lazily at run time.

`data/retirejs/jsrepository.json` (repository root) is upstream's `repository/jsrepository-v5.json`
byte for byte (Apache-2.0, data/retirejs/README.md). `compact()` keeps what detection and reporting
use — the `uri`, `filename`, `filecontent`, `filecontentreplace` and `hashes` extractors and each
vulnerability's range, severity, CWE, summary, CVE and GHSA identifiers and first advisory link — and
drops what a Worker cannot use (`func` and `ast` need a browser or a JavaScript parser) and
package metadata (`bowername`, `licenses`, `basePurl`). The result, `exposure/data/retirejs.json`,
is what the Worker bundle carries (wrangler.toml uploads it as a Text module, so it sits beside
this module in the bundle's file system); `scripts/refresh_retirejs.py` rebuilds both files.

The file is parsed on first use and its patterns compiled on first use per library, so an
isolate that never scans a script pays nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from pathlib import Path
from typing import Final

from common.wire import JsonRecord, as_list, as_object, as_str
from exposure.jsregex import compile_js, required_literal

__all__ = [
    "COMPACT_PATH",
    "SKIP_KEY",
    "VERSION_PATTERN",
    "Library",
    "Repository",
    "RetireSeverity",
    "Vulnerability",
    "compact",
    "repository",
]

COMPACT_PATH: Final = Path(__file__).parent / "data" / "retirejs.json"
# Upstream's sample entry, not a library.
EXAMPLE_KEY: Final = "retire-example"
# URI patterns of third-party scripts retire.js leaves alone (analytics and the like).
SKIP_KEY: Final = "dont check"
# retire.js's `replaceVersion`: the placeholder becomes this class in the JSON text before parsing.
PLACEHOLDER: Final = "§§version§§"
VERSION_PATTERN: Final = r"[0-9][0-9.a-z_\-]+"
_EXTRACTORS: Final = ("uri", "filename", "filecontent", "filecontentreplace")
_IDENTIFIERS: Final = ("summary", "CVE", "githubID")
_REPLACEMENT = re.compile(r"/(.*[^\\])/([^/]+)/", re.DOTALL)


def compact(upstream: Mapping[str, object], notice: str, source: str) -> dict[str, object]:
    """The repository trimmed to what `Repository` reads, with the placeholder already replaced."""
    libraries: dict[str, object] = {}
    skip: list[str] = []
    for name, entry in upstream.items():
        body = as_object(entry)
        extractors = as_object(body.get("extractors", {}))
        if name == SKIP_KEY:
            skip = [as_str(pattern) for pattern in as_list(extractors.get("uri", []))]
        elif name != EXAMPLE_KEY:
            libraries[name] = _compact_library(body, extractors)
    return {"source": source, "notice": notice, "skip_uris": skip, "libraries": libraries}


def _compact_library(body: Mapping[str, object], extractors: Mapping[str, object]) -> object:
    kept: dict[str, object] = {
        kind: [as_str(p).replace(PLACEHOLDER, VERSION_PATTERN) for p in as_list(extractors[kind])]
        for kind in _EXTRACTORS
        if kind in extractors
    }
    if "hashes" in extractors:
        kept["hashes"] = dict(as_object(extractors["hashes"]))
    vulnerabilities = [
        _compact_vulnerability(as_object(v)) for v in as_list(body["vulnerabilities"])
    ]
    return {"extractors": kept, "vulnerabilities": vulnerabilities}


def _compact_vulnerability(vulnerability: Mapping[str, object]) -> dict[str, object]:
    identifiers = as_object(vulnerability.get("identifiers", {}))
    kept = {
        key: vulnerability[key]
        for key in ("below", "atOrAbove", "excludes", "severity", "cwe")
        if key in vulnerability
    }
    # One advisory link is enough for a report; the rest repeat the CVE and GHSA ids as NVD and
    # GitHub URLs, and carrying them all would add a third to the file.
    kept["info"] = as_list(vulnerability.get("info", []))[:1]
    kept.update({key: identifiers[key] for key in _IDENTIFIERS if identifiers.get(key)})
    return kept


class RetireSeverity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return list(RetireSeverity).index(self)


@dataclass(frozen=True, slots=True)
class Vulnerability(JsonRecord):
    """One vulnerability entry: the versions it affects and how it is known."""

    severity: RetireSeverity
    summary: str | None
    cves: tuple[str, ...]
    ghsa: str | None  # the GitHub advisory id (`githubID`)
    cwes: tuple[str, ...]
    info: tuple[str, ...]
    below: str | None  # the first version of this range without the vulnerability
    at_or_above: str | None
    excludes: tuple[str, ...] = ()


def _strings(value: object) -> tuple[str, ...]:
    return tuple(as_str(item) for item in as_list(value or []))


def _optional(value: object) -> str | None:
    return None if value is None else as_str(value)


def _vulnerability(data: Mapping[str, object]) -> Vulnerability:
    return Vulnerability(
        below=_optional(data.get("below")),
        at_or_above=_optional(data.get("atOrAbove")),
        excludes=_strings(data.get("excludes")),
        severity=RetireSeverity(as_str(data.get("severity", "medium"))),
        summary=_optional(data.get("summary")),
        cves=_strings(data.get("CVE")),
        ghsa=_optional(data.get("githubID")),
        cwes=_strings(data.get("cwe")),
        info=_strings(data.get("info")),
    )


@dataclass(frozen=True)
class Library:
    """One library's extractors (compiled on first use) and vulnerabilities."""

    name: str
    data: Mapping[str, object]

    def _patterns(self, kind: str) -> tuple[re.Pattern[str], ...]:
        extractors = as_object(self.data["extractors"])
        return tuple(compile_js(as_str(p)) for p in as_list(extractors.get(kind, [])))

    @cached_property
    def uri(self) -> tuple[re.Pattern[str], ...]:
        return self._patterns("uri")

    @cached_property
    def filename(self) -> tuple[re.Pattern[str], ...]:
        # retire.js anchors file-name patterns: `'^' + regex + '$'` against the last path segment.
        extractors = as_object(self.data["extractors"])
        sources = as_list(extractors.get("filename", []))
        return tuple(compile_js(f"^{as_str(source)}$") for source in sources)

    @cached_property
    def filecontent(self) -> tuple[re.Pattern[str], ...]:
        return self._patterns("filecontent")

    @cached_property
    def content_literals(self) -> tuple[str, ...]:
        """Per `filecontent` pattern, a substring every match contains (a cheap prefilter)."""
        extractors = as_object(self.data["extractors"])
        return tuple(
            required_literal(as_str(p)) for p in as_list(extractors.get("filecontent", []))
        )

    @cached_property
    def filecontentreplace(self) -> tuple[tuple[re.Pattern[str], str, str], ...]:
        """(search pattern, `$n` replacement, prefilter literal) per rule."""
        extractors = as_object(self.data["extractors"])
        rules = []
        for rule in as_list(extractors.get("filecontentreplace", [])):
            match = _REPLACEMENT.fullmatch(as_str(rule))
            if match is None:
                raise ValueError(f"{self.name}: malformed filecontentreplace {rule!r}")
            rules.append(
                (compile_js(match.group(1)), match.group(2), required_literal(match.group(1)))
            )
        return tuple(rules)

    @cached_property
    def hashes(self) -> Mapping[str, str]:
        extractors = as_object(self.data["extractors"])
        return {
            key: as_str(value) for key, value in as_object(extractors.get("hashes", {})).items()
        }

    @cached_property
    def vulnerabilities(self) -> tuple[Vulnerability, ...]:
        return tuple(_vulnerability(as_object(v)) for v in as_list(self.data["vulnerabilities"]))


@dataclass(frozen=True)
class Repository:
    source: str
    notice: str
    skip_uris: tuple[re.Pattern[str], ...]
    libraries: tuple[Library, ...]

    @classmethod
    def from_compact(cls, data: Mapping[str, object]) -> Repository:
        libraries = as_object(data["libraries"])
        return cls(
            source=as_str(data["source"]),
            notice=as_str(data["notice"]),
            skip_uris=tuple(compile_js(as_str(p)) for p in as_list(data["skip_uris"])),
            libraries=tuple(Library(name, as_object(body)) for name, body in libraries.items()),
        )

    def library(self, name: str) -> Library | None:
        return next((library for library in self.libraries if library.name == name), None)


@cache
def repository() -> Repository:
    """The vendored repository, read and parsed once per isolate."""
    return Repository.from_compact(json.loads(COMPACT_PATH.read_text(encoding="utf-8")))


def all_sources(library: Library) -> Sequence[str]:
    """Every regex source of a library (for the vendoring tests)."""
    extractors = as_object(library.data["extractors"])
    return [as_str(p) for kind in _EXTRACTORS for p in as_list(extractors.get(kind, []))]
