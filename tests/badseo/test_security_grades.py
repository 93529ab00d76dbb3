"""`siteaudit security` on badseo's security variants: each page gets its grade, A+ to F."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.security import run_security
from local_platform.fetch import trust_ca_file
from security.grade import Grade
from tests.badseo.security_sites import GRADE_VARIANTS, GradeSite, GradeVariant, serve_grade_sites


@pytest.fixture(scope="module")
def grade_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GradeSite]:
    with serve_grade_sites(tmp_path_factory.mktemp("security-grades")) as site:
        yield site


def test_there_is_a_variant_per_grade() -> None:
    assert [variant.grade for variant in GRADE_VARIANTS] == list(Grade)


@pytest.mark.parametrize("variant", GRADE_VARIANTS, ids=[v.path for v in GRADE_VARIANTS])
async def test_siteaudit_security_grades_the_variant(
    variant: GradeVariant,
    grade_site: GradeSite,
    platform: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    trust_ca_file(grade_site.ca_file)
    args = argparse.Namespace(url=grade_site.url(variant), as_json=True, allow_private_hosts=True)

    assert await run_security(args, platform) == 0

    printed = json.loads(capsys.readouterr().out)
    assert (printed["grade"], printed["score"]) == (variant.grade, variant.score)
    assert printed["tests"]["redirection"]["result"] == "redirection-not-needed-no-http"
    assert len(printed["tests"]) == 12


async def test_the_table_names_grade_and_tests(
    grade_site: GradeSite, platform: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trust_ca_file(grade_site.ca_file)
    args = argparse.Namespace(
        url=grade_site.url(GRADE_VARIANTS[0]), as_json=False, allow_private_hosts=True
    )

    assert await run_security(args, platform) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Grade A+  score 155"
    assert any(line.split()[:3] == ["cross-origin-opener-policy", "+10", "pass"] for line in lines)
