"""The CLI's credential options (cli.credentials) as the API's `credentials` object: from the
command line, from environment variables and from stdin; a malformed option is refused with
usage (exit 2) naming the option, never repeating what it held."""

from __future__ import annotations

import io

import pytest

from cli.credentials import credentials_body
from cli.main import build_parser

URL = "https://stage.example/"


def body(*options: str, stdin: str = "") -> object:
    parser = build_parser()
    args = parser.parse_args(["audit", URL, *options])
    return credentials_body(parser, args, io.StringIO(stdin))


def test_no_option_means_no_credentials() -> None:
    assert body() is None


@pytest.mark.parametrize(
    ("options", "stdin", "expected"),
    [
        (
            ("--auth", "ci:pa:ss word"),  # the password is everything after the first colon
            "",
            {"basic_auth": {"user": "ci", "password": "pa:ss word"}},
        ),
        (("--auth", "ci"), "from-stdin\n", {"basic_auth": {"user": "ci", "password": "from-stdin"}}),
        (
            ("--header", "CF-Access-Client-Id:  id.access ", "--header", "X-Empty:"),
            "",
            {"headers": {"CF-Access-Client-Id": "id.access", "X-Empty": ""}},
        ),
        (
            ("--cookie", "session=a=b", "--cookie", "theme=dark"),
            "",
            {"cookies": {"session": "a=b", "theme": "dark"}},
        ),
        (
            (
                "--cookie", "s=1", "--credentials-origin", "https://api.stage.example",
                "--send-credentials-to", "external-links", "--send-credentials-to", "lighthouse",
            ),
            "",
            {
                "cookies": {"s": "1"},
                "origins": ["https://api.stage.example"],
                "send_to_external_links": True,
                "send_to_lighthouse": True,
            },
        ),
    ],
)  # fmt: skip
def test_the_options_become_the_api_s_credentials(
    options: tuple[str, ...], stdin: str, expected: dict[str, object]
) -> None:
    assert body(*options, stdin=stdin) == {"headers": {}, "cookies": {}, "origins": [], **expected}


def test_the_env_forms_keep_secrets_off_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAGE_AUTH", "ci:env-pa55")
    monkeypatch.setenv("STAGE_TOKEN", "env-t0ken")
    monkeypatch.setenv("STAGE_SESSION", "env-c00kie")
    given = body(
        "--auth-env", "STAGE_AUTH", "--header-env", "X-Token=STAGE_TOKEN",
        "--cookie-env", "session=STAGE_SESSION",
    )  # fmt: skip
    assert given == {
        "basic_auth": {"user": "ci", "password": "env-pa55"},
        "headers": {"X-Token": "env-t0ken"},
        "cookies": {"session": "env-c00kie"},
        "origins": [],
    }


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (("--header", "X-Token s3cret-value"), "argument --header: expected 'NAME: VALUE'"),
        (("--cookie", "s3cret-value"), "argument --cookie: expected NAME=VALUE"),
        (("--auth-env", "NOT_SET_ANYWHERE"), "the environment variable NOT_SET_ANYWHERE is unset"),
        (("--header-env", "X=NOT_SET_ANYWHERE"), "--header-env: the environment variable"),
        (("--auth", "ci:x", "--auth-env", "V"), "give --auth or --auth-env, not both"),
        (("--credentials-origin", "https://a.example"), "need credentials to send"),
    ],
)
def test_a_malformed_option_exits_2_naming_it_never_its_value(
    options: tuple[str, ...], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        body(*options)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert words in err
    assert "s3cret-value" not in err


def test_auth_env_must_hold_user_and_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STAGE_AUTH", "only-a-s3cret")
    with pytest.raises(SystemExit):
        body("--auth-env", "STAGE_AUTH")
    err = capsys.readouterr().err
    assert "STAGE_AUTH must hold USER:PASSWORD" in err and "only-a-s3cret" not in err
