"""`siteaudit security` on badseo's security variants: each page gets its grade, A+ to F."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.security import run_security
from local_platform.fetch import trust_ca_file
from local_platform.runtime import LocalPlatform
from security.grade import Grade
from tests.badseo.security_sites import GRADE_VARIANTS, GradeSite, GradeVariant, serve_grade_sites
from tests.badseo.site import serve_badseo
from tests.support.cli_process import siteaudit


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
    platform: LocalPlatform,
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
    grade_site: GradeSite,
    platform: LocalPlatform,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    trust_ca_file(grade_site.ca_file)
    args = argparse.Namespace(
        url=grade_site.url(GRADE_VARIANTS[0]), as_json=False, allow_private_hosts=True
    )

    assert await run_security(args, platform) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Grade A+  score 155"
    assert any(line.split()[:3] == ["cross-origin-opener-policy", "+10", "pass"] for line in lines)


@pytest.mark.slow  # a CLI process: about 5 s
def test_siteaudit_security_on_the_plain_http_badseo_site(tmp_path: Path) -> None:
    """`siteaudit security http://127.0.0.1:PORT/`, as a process, on the main badseo site: its
    home sends the usual security headers over plain http, so only redirection and HSTS fail
    (100 - 20 - 20), the grade its audits store (tests/pyodide/badseo_parity.test.mjs)."""
    with serve_badseo() as badseo:
        done = siteaudit(
            "security",
            badseo.origin + "/",
            "--json",
            "--allow-private-hosts",
            state_dir=tmp_path / "state",
        )

    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert (printed["grade"], printed["score"]) == ("C+", 60)
    failing = {name for name, test in printed["tests"].items() if not test["pass"]}
    assert failing == {"redirection", "strict-transport-security"}
