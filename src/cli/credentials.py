"""The CLI's credential options, shared by `audit` and `monitors add|credentials`:

    --auth USER:PASSWORD        HTTP basic auth; `--auth USER` alone reads the password from the
                                terminal (not echoed) or, piped, from the first line of stdin
    --auth-env VAR              the same, `USER:PASSWORD` read from the environment variable VAR
    --header 'NAME: VALUE'      a request header (repeatable); --header-env NAME=VAR reads VALUE
                                from the environment variable VAR
    --cookie NAME=VALUE         a cookie (repeatable); --cookie-env NAME=VAR likewise
    --credentials-origin URL    one more origin that gets them (repeatable)
    --send-credentials-to external-links|lighthouse   what else may get them (repeatable)

They become the API's `credentials` object (urls.credentials checks the values). A secret on the
command line stays in the shell's history and in `ps`: the `-env` forms and stdin keep it out of
both. Nothing here repeats a value in an error message: a malformed option is named, not quoted.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import TextIO

from common.wire import JsonObject

__all__ = ["add_credentials_arguments", "credentials_body"]

# Each choice names its `urls.credentials.Recipient` member, looked up where the body is built:
# that module brings the URL parser (and idna) with it, which the CLI's parser must not load
# (tests/cli/test_startup.py).
_SEND_TO = {"external-links": "EXTERNAL_LINKS", "lighthouse": "LIGHTHOUSE"}


def add_credentials_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "credentials for a closed site (sent only to its origin and --credentials-origin)"
    )
    group.add_argument(
        "--auth",
        metavar="USER[:PASSWORD]",
        help="HTTP basic auth; without :PASSWORD the password is read from the terminal or stdin",
    )
    group.add_argument("--auth-env", metavar="VAR", help="USER:PASSWORD from this env variable")
    group.add_argument(
        "--header",
        action="append",
        default=[],
        type=_header,
        metavar="'NAME: VALUE'",
        help="send this request header (repeatable), e.g. an access token",
    )
    group.add_argument(
        "--header-env",
        action="append",
        default=[],
        type=_named_variable,
        metavar="NAME=VAR",
        help="send header NAME with the value of env variable VAR (repeatable)",
    )
    group.add_argument(
        "--cookie",
        action="append",
        default=[],
        type=_cookie,
        metavar="NAME=VALUE",
        help="send this cookie (repeatable), e.g. a login session",
    )
    group.add_argument(
        "--cookie-env",
        action="append",
        default=[],
        type=_named_variable,
        metavar="NAME=VAR",
        help="send cookie NAME with the value of env variable VAR (repeatable)",
    )
    group.add_argument(
        "--credentials-origin",
        action="append",
        default=[],
        metavar="URL",
        help="one more origin (https://host[:port]) that gets the credentials (repeatable)",
    )
    group.add_argument(
        "--send-credentials-to",
        action="append",
        default=[],
        choices=list(_SEND_TO),
        help="also send them with the checks of links to other sites (to the listed origins "
        "only) or to Lighthouse (which PageSpeed Insights cannot take: it is then skipped)",
    )


def credentials_body(
    parser: argparse.ArgumentParser, args: argparse.Namespace, stdin: TextIO | None = None
) -> JsonObject | None:
    """The API's `credentials` object of the options given, or None when none is; a missing
    environment variable or a malformed --auth exits 2 with usage, naming the option."""
    headers = dict(args.header)
    headers.update(_from_environment(parser, "--header-env", args.header_env))
    cookies = dict(args.cookie)
    cookies.update(_from_environment(parser, "--cookie-env", args.cookie_env))
    auth = _basic_auth(parser, args, stdin or sys.stdin)
    if auth is None and not headers and not cookies:
        if args.credentials_origin or args.send_credentials_to:
            parser.error("--credentials-origin and --send-credentials-to need credentials to send")
        return None
    body: JsonObject = {
        "headers": headers,
        "cookies": cookies,
        "origins": list(args.credentials_origin),
    }
    if auth is not None:
        body["basic_auth"] = auth
    from urls.credentials import Recipient

    for choice in args.send_credentials_to:
        body[f"send_to_{Recipient[_SEND_TO[choice]]}"] = True
    return body


def _basic_auth(
    parser: argparse.ArgumentParser, args: argparse.Namespace, stdin: TextIO
) -> JsonObject | None:
    if args.auth is not None and args.auth_env is not None:
        parser.error("give --auth or --auth-env, not both")
    if args.auth_env is not None:
        text = os.environ.get(args.auth_env)
        if text is None:
            parser.error(f"argument --auth-env: the environment variable {args.auth_env} is unset")
        user, colon, password = text.partition(":")
        if not colon:
            parser.error(f"argument --auth-env: {args.auth_env} must hold USER:PASSWORD")
        return {"user": user, "password": password}
    if args.auth is None:
        return None
    user, colon, password = args.auth.partition(":")
    if not colon:
        password = _read_password(user, stdin)
    return {"user": user, "password": password}


def _read_password(user: str, stdin: TextIO) -> str:
    """The password from the terminal, not echoed; piped, the first line of stdin."""
    if stdin.isatty():
        return getpass.getpass(f"password for {user}: ")
    return stdin.readline().rstrip("\r\n")


def _header(text: str) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    if not colon or not name.strip():
        # The text holds a secret: named, never quoted.
        raise argparse.ArgumentTypeError("expected 'NAME: VALUE'")
    return name.strip(), value.strip(" \t")  # optional whitespace around the value (RFC 9110)


def _cookie(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError("expected NAME=VALUE")
    return name.strip(), value


def _named_variable(text: str) -> tuple[str, str]:
    name, equals, variable = text.partition("=")
    if not equals or not name or not variable:
        raise argparse.ArgumentTypeError("expected NAME=VAR")
    return name, variable


def _from_environment(
    parser: argparse.ArgumentParser, option: str, pairs: list[tuple[str, str]]
) -> dict[str, str]:
    values = {}
    for name, variable in pairs:
        value = os.environ.get(variable)
        if value is None:
            parser.error(f"argument {option}: the environment variable {variable} is unset")
        values[name] = value
    return values
