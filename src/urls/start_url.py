"""Validation of the URL a user asks to audit.

The text is read as a browser's address bar would read a URL typed without a scheme: `https://`
is assumed, and `StartUrl.scheme_assumed` records it, so that the audit's discovery falls back to
`http://` when https cannot connect (crawl.start_verdict), as browsers do. Then the URL Standard's
parser reads it. Rejections carry a `StartUrlRejection` reason, which the API answers with as its
error code: INVALID_URL for what the URL Standard refuses ("url is malformed: ..." with the
parser's reason) or a scheme other than http(s), TARGET_BLOCKED for what the private-host policy
refuses. A valid URL whose host cannot be fetched (it does not resolve) is neither: the audit
starts, and its start fetch reports the failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn

from urls.parser import InvalidUrl, UnsupportedScheme, Url, parse_url
from urls.private_hosts import PrivateHosts, host_refused

__all__ = [
    "MAX_URL_LENGTH",
    "StartUrl",
    "StartUrlError",
    "StartUrlRejection",
    "normalise_start_url",
    "read_start_url",
    "userinfo_in",
]

MAX_URL_LENGTH = 2048
_SCHEME_SEPARATOR = "://"


class StartUrlRejection(StrEnum):
    """Why a start URL was refused; the values are the API's error codes."""

    INVALID_URL = "invalid_url"
    TARGET_BLOCKED = "target_blocked"


class StartUrlError(ValueError):
    """The start URL is malformed (`code` INVALID_URL) or targets a forbidden host."""

    def __init__(self, code: StartUrlRejection, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class StartUrl:
    """A validated start URL, and whether its scheme was assumed (none was typed): then `url`
    is https, and the audit tries http when https cannot connect."""

    url: str
    scheme_assumed: bool = False


def normalise_start_url(raw: str, *, private_hosts: PrivateHosts) -> str:
    """The start URL as the audit will fetch it: http(s), no userinfo or fragment, a host the URL
    Standard accepts and the private-host policy allows. Raises StartUrlError.

    Whether the host resolves is the fetch's question, not this one: `http://./` is a valid URL,
    so it is accepted here and its audit fails with the DNS error (crawl.start_verdict)."""
    return read_start_url(raw, private_hosts=private_hosts).url


def read_start_url(raw: str, *, private_hosts: PrivateHosts) -> StartUrl:
    """`normalise_start_url`, remembering whether the text named a scheme."""
    url, assumed = _parse_start_url(raw)
    if url.scheme not in ("http", "https"):
        _reject_scheme(url.scheme)
    if host_refused(url.host, private_hosts):
        raise StartUrlError(
            StartUrlRejection.TARGET_BLOCKED,
            f"{url.host} is not a public address (private, loopback, link-local, metadata or "
            "another special-purpose address of the IANA registries) and cannot be audited",
        )
    port = "" if url.port is None else f":{url.port}"
    query = "" if url.query is None else f"?{url.query}"
    return StartUrl(f"{url.scheme}://{url.host}{port}{url.path}{query}", scheme_assumed=assumed)


def userinfo_in(raw: str) -> bool:
    """Whether `raw` writes a user or password before its host (`user:password@`), which
    `read_start_url` drops: the URL Standard keeps it apart from the host, and no request sends
    it. False for a text that does not parse."""
    try:
        url, _ = _parse_start_url(raw)
    except StartUrlError:
        return False
    return bool(url.username or url.password)


def _parse_start_url(raw: str) -> tuple[Url, bool]:
    """The parsed URL, and whether `https://` was put in front of a text that named no scheme."""
    text = raw.strip()
    if not text:
        raise StartUrlError(StartUrlRejection.INVALID_URL, "url must not be empty")
    if len(text) > MAX_URL_LENGTH:
        raise StartUrlError(
            StartUrlRejection.INVALID_URL, f"url is longer than {MAX_URL_LENGTH} characters"
        )
    assumed = _SCHEME_SEPARATOR not in text
    if assumed:
        text = "https://" + text
    try:
        return parse_url(text), assumed
    except InvalidUrl as exc:
        raise StartUrlError(StartUrlRejection.INVALID_URL, f"url is malformed: {exc}") from None
    except UnsupportedScheme as exc:
        _reject_scheme(str(exc))


def _reject_scheme(scheme: str) -> NoReturn:
    raise StartUrlError(
        StartUrlRejection.INVALID_URL, f"only http and https URLs can be audited, not {scheme}:"
    )
