"""The vendored retire.js files as test tables: testcases.json URLs and every content pattern."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

VENDORED = Path(__file__).resolve().parents[2] / "data" / "retirejs"


def upstream() -> dict[str, dict[str, Any]]:  # the vendored JSON, as json.loads reads it
    return json.loads((VENDORED / "jsrepository.json").read_text(encoding="utf-8"))


def load_testcases() -> dict[str, dict[str, dict[str, object]]]:
    return json.loads((VENDORED / "testcases.json").read_text(encoding="utf-8"))


def url_cases() -> Iterator[tuple[str, str, str]]:
    """(library, version, URL) for every testcases.json URL whose URL names its version."""
    for library, templates in load_testcases().items():
        for template, spec in templates.items():
            if spec.get("contentOnly"):
                continue
            for version in spec["versions"]:  # type: ignore[attr-defined]
                for sub in spec.get("subversions", [""]):  # type: ignore[attr-defined]
                    url = template.replace("§§version§§", version).replace("§§subversion§§", sub)
                    yield library, version, url


def extractor_sources(kind: str) -> Iterator[tuple[str, str]]:
    """(library, JavaScript source) of every extractor of `kind`, placeholder kept."""
    for library, body in upstream().items():
        if library in ("retire-example", "dont check"):
            continue
        extractors = body.get("extractors", {})
        for source in extractors.get(kind, []):
            yield library, source
