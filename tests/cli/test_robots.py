"""`siteaudit audit --ignore-robots` and `siteaudit verify` as separate processes, on badseo's site
closed by robots.txt (tests/badseo/robots_closed.py): a private host the user allows may be
audited without a verification; a public host needs one; without the switch robots.txt wins."""

from __future__ import annotations

from pathlib import Path

from tests.badseo.robots_closed import CLOSED_FIXTURES, serve_closed
from tests.cli.test_formats import run

PRIVATE_NOTE = "robots.txt was ignored (127.0.0.1 is a private host, audited without verification)"


def test_ignore_robots_on_an_allowed_private_host_audits_the_whole_site(tmp_path: Path) -> None:
    with serve_closed() as site:
        done = run(
            tmp_path / "state",
            "audit",
            site.start_url,
            "--allow-private-hosts",
            "--ignore-robots",
            "--max-pages",
            "20",
        )
        requested = set(site.requested_paths())

    assert done.returncode == 0, done.stderr
    summary = done.stdout.splitlines()
    assert PRIVATE_NOTE in summary
    assert f"pages crawled: {len(CLOSED_FIXTURES)}" in summary
    assert {p for f in CLOSED_FIXTURES for p in f.paths} <= requested


def test_without_the_switch_robots_txt_wins_and_the_audit_says_so(tmp_path: Path) -> None:
    with serve_closed() as site:
        done = run(tmp_path / "state", "audit", site.start_url, "--allow-private-hosts")

    assert done.returncode == 3, done.stderr
    assert "start_robots_disallowed" in done.stderr
    assert f"{site.origin}/robots.txt disallows {site.start_url}" in done.stdout


def test_ignore_robots_on_a_public_host_needs_a_verification(tmp_path: Path) -> None:
    # Refused before anything is fetched: the host is never asked.
    done = run(tmp_path / "state", "audit", "https://example.com/", "--ignore-robots")

    assert done.returncode == 2
    assert done.stderr.startswith(
        "siteaudit: ignore_robots needs a verified host, and example.com is not verified"
    )


def test_verify_add_check_list_and_remove(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with serve_closed() as site:
        added = run(state, "verify", "add", site.host, "--method", "file", "--allow-private-hosts")
        assert added.returncode == 0, added.stderr
        first = added.stdout.splitlines()[0]
        verification_id = first.split()[1].removesuffix(":")
        assert first == f"verification {verification_id}: {site.host} by file (pending)"
        where = f"where: https://{site.host}/.well-known/siteaudit-verification.txt"
        assert added.stdout.splitlines()[2] == where

        missing = run(state, "verify", "check", verification_id, "--allow-private-hosts")
        assert missing.returncode == 1
        assert missing.stdout.startswith(f"{site.host}: failed: ")

        token = added.stdout.splitlines()[1].removeprefix("value: ")
        site.publish("file", token)
        found = run(state, "verify", "check", verification_id, "--allow-private-hosts")
        assert found.returncode == 0, found.stdout + found.stderr
        assert found.stdout.startswith(f"{site.host}: verified: the token is in ")

    listed = run(state, "verify", "list").stdout
    assert f"{verification_id}  {site.host}  file  verified  " in listed
    assert run(state, "verify", "remove", verification_id).returncode == 0
    assert run(state, "verify", "list").stdout == ""
    gone = run(state, "verify", "remove", verification_id)
    assert gone.returncode == 2 and "no verification with id" in gone.stderr
