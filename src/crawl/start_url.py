"""Validation of the URL a user asks to audit."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from crawl.ssrf import PrivateHosts, host_refused, normalise_host

MAX_URL_LENGTH = 2048


class StartUrlError(ValueError):
    """The start URL is malformed (`code` "invalid_url") or targets a forbidden host."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def normalise_start_url(raw: str, *, private_hosts: PrivateHosts) -> str:
    text = raw.strip()
    if not text:
        raise StartUrlError("invalid_url", "url must not be empty")
    if len(text) > MAX_URL_LENGTH:
        raise StartUrlError("invalid_url", f"url is longer than {MAX_URL_LENGTH} characters")
    if "://" not in text:
        text = "https://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise StartUrlError("invalid_url", f"url is malformed: {exc}") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise StartUrlError(
            "invalid_url", f"only http and https URLs can be audited, not {parts.scheme}:"
        )
    host = normalise_host(parts.hostname or "")
    if not host or any(ch.isspace() for ch in host):
        raise StartUrlError("invalid_url", "url has no valid host")
    if host_refused(host, private_hosts):
        raise StartUrlError(
            "target_blocked",
            f"{host} is a private, loopback, link-local or metadata address and cannot be audited",
        )
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return urlunsplit((parts.scheme.lower(), netloc, parts.path or "/", parts.query, ""))
