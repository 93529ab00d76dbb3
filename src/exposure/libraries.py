"""Vulnerable JavaScript libraries: which library and version a script is, and what is known
against that version, following retire.js (node/lib/retire.js, retire 5.x).

Detection, in retire.js's order and with its rules:

* by URL: every `uri` pattern searched anywhere in the script URL, and every `filename` pattern
  anchored against the last path segment (query and fragment cut first, as a file name has
  neither); URLs matching a `dont check` pattern (analytics snippets) are left alone;
* by content (line endings normalised to \\n): every `filecontent` pattern, all matches; only
  when none matched, the `filecontentreplace` rules (the match rewritten with a `$1.$2`-style
  replacement); only when those found nothing, the SHA-1 of the content against `hashes`.

The version is capture group 1, with a trailing `.min` or `-min` cut; results are unique per
library and version, first detection first. A vulnerability applies when the version is below its
`below`, at or above its `atOrAbove` when given, and not in its `excludes` (retire's `check`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from common.wire import JsonRecord
from exposure.retire_data import Library, Repository, RetireSeverity, Vulnerability, repository
from exposure.versions import is_below

__all__ = [
    "Detection",
    "LibraryFinding",
    "assess",
    "fixed_in",
    "scan_content",
    "scan_url",
]


class Detection(StrEnum):
    URI = "uri"
    FILENAME = "filename"
    FILECONTENT = "filecontent"
    FILECONTENTREPLACE = "filecontentreplace"
    HASH = "hash"


@dataclass(frozen=True, slots=True)
class LibraryFinding(JsonRecord):
    """A library found in one script, with what is known against its version."""

    library: str
    version: str
    detection: Detection
    script_url: str
    vulnerabilities: tuple[Vulnerability, ...] = ()
    # The highest severity among `vulnerabilities`; None when none is known.
    severity: RetireSeverity | None = None
    # The lowest `below` above the version: the nearest release fixing at least one of them.
    fixed_in: str | None = None
    # The lowest `below` above the version that no known vulnerability affects.
    safe_version: str | None = None


@dataclass(frozen=True, slots=True)
class _Detected:
    library: Library
    version: str
    detection: Detection


_MIN_SUFFIX = re.compile(r"[.\-]min\Z")
_LINE_ENDINGS = re.compile(r"\r\n|\r")
_JS_REPLACEMENT_TOKEN = re.compile(r"\$(\$|&|[0-9]{1,2})")


def scan_url(url: str, repo: Repository | None = None) -> list[LibraryFinding]:
    """Libraries named by a script URL (its `uri` patterns) or its file name."""
    repo = repo or repository()
    if any(pattern.search(url) for pattern in repo.skip_uris):
        return []
    name = re.split(r"[/\\]", urlsplit(url).path)[-1]
    found = [*_by_patterns(repo, url, Detection.URI), *_by_patterns(repo, name, Detection.FILENAME)]
    return [assess(item, url) for item in _unique(found)]


def scan_content(
    content: str, script_url: str, repo: Repository | None = None
) -> list[LibraryFinding]:
    """Libraries recognised in a script's text."""
    repo = repo or repository()
    text = _LINE_ENDINGS.sub("\n", content)
    found = _unique(_by_patterns(repo, text, Detection.FILECONTENT))
    if not found:
        found = _unique(_by_replacement(repo, text))
    if not found:
        found = _by_hash(repo, text)
    return [assess(item, script_url) for item in found]


def _by_patterns(repo: Repository, data: str, detection: Detection) -> Iterator[_Detected]:
    for library in repo.libraries:
        patterns: tuple[re.Pattern[str], ...] = getattr(library, detection.value)
        if detection is Detection.FILECONTENT:
            literals = library.content_literals
        else:
            literals = ("",) * len(patterns)
        for pattern, literal in zip(patterns, literals, strict=True):
            if literal not in data:
                continue  # the pattern cannot match: skip its scan of the whole script
            for match in pattern.finditer(data):
                if match.group(1) is not None:
                    version = _MIN_SUFFIX.sub("", match.group(1))
                    yield _Detected(library, version, detection)


def _by_replacement(repo: Repository, data: str) -> Iterator[_Detected]:
    for library in repo.libraries:
        for pattern, replacement, literal in library.filecontentreplace:
            if literal not in data:
                continue
            for match in pattern.finditer(data):
                version = _js_replace_first(pattern, match.group(0), replacement)
                yield _Detected(library, _MIN_SUFFIX.sub("", version), Detection.FILECONTENTREPLACE)


def _js_replace_first(pattern: re.Pattern[str], text: str, replacement: str) -> str:
    """JavaScript's `text.replace(new RegExp(pattern), replacement)`: the first match only, with
    `$n`, `$&` and `$$` expanded (ECMA-262 GetSubstitution)."""
    match = pattern.search(text)
    if match is None:
        return text

    def token(found: re.Match[str]) -> str:
        name = found.group(1)
        if name == "$":
            return "$"
        if name == "&":
            return match.group(0)
        index = int(name)
        if index > (pattern.groups or 0) and len(name) == 2:
            return (match.group(int(name[0])) or "") + name[1]
        return (match.group(index) or "") if 0 < index <= pattern.groups else found.group(0)

    expanded = _JS_REPLACEMENT_TOKEN.sub(token, replacement)
    return text[: match.start()] + expanded + text[match.end() :]


def _by_hash(repo: Repository, text: str) -> list[_Detected]:
    digest = hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()
    for library in repo.libraries:
        if digest in library.hashes:
            return [_Detected(library, library.hashes[digest], Detection.HASH)]
    return []


def _unique(found: Iterable[_Detected]) -> list[_Detected]:
    seen: dict[tuple[str, str], _Detected] = {}
    for item in found:
        seen.setdefault((item.library.name, item.version), item)
    return list(seen.values())


def _applies(vulnerability: Vulnerability, version: str) -> bool:
    if vulnerability.below is not None and not is_below(version, vulnerability.below):
        return False
    if vulnerability.at_or_above is not None and is_below(version, vulnerability.at_or_above):
        return False
    return version not in vulnerability.excludes


def _is_release(version: str) -> bool:
    # retire.js writes "every later version" as a `below` of 999s (`999.999.999`, `3.999.999`
    # for "the whole 3.x line"): a bound, not a release anyone can upgrade to.
    return not any(part.startswith("999") for part in re.split(r"[.\-]", version))


def fixed_in(library: Library, version: str) -> tuple[str | None, str | None]:
    """(the lowest `below` above `version`, the lowest such `below` no vulnerability affects);
    None where the data names no release (only 999 bounds)."""
    candidates = sorted(
        {
            v.below
            for v in library.vulnerabilities
            if v.below and is_below(version, v.below) and _is_release(v.below)
        },
        key=_VersionKey,
    )
    safe = next(
        (c for c in candidates if not any(_applies(v, c) for v in library.vulnerabilities)), None
    )
    return (candidates[0] if candidates else None), safe


class _VersionKey:
    """Sort key over retire.js order."""

    __slots__ = ("version",)

    def __init__(self, version: str) -> None:
        self.version = version

    def __lt__(self, other: _VersionKey) -> bool:
        return is_below(self.version, other.version)


def assess(detected: _Detected, script_url: str) -> LibraryFinding:
    applicable = [v for v in detected.library.vulnerabilities if _applies(v, detected.version)]
    known = tuple(applicable)
    severity = max((k.severity for k in known), key=lambda s: s.rank, default=None)
    nearest, safe = fixed_in(detected.library, detected.version) if known else (None, None)
    return LibraryFinding(
        library=detected.library.name,
        version=detected.version,
        detection=detected.detection,
        script_url=script_url,
        vulnerabilities=known,
        severity=severity,
        fixed_in=nearest,
        safe_version=safe,
    )
