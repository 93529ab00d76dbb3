"""The HTTP client every test runs behind (the autouse `outbound_http` fixture in
tests/conftest.py): it records each URL and refuses any non-loopback host."""

from urllib.parse import urlsplit

from common import ports, settings
from urls.private_hosts import is_loopback_host

NO_SUCH_NAME = "[Errno -2] Name or service not known"  # getaddrinfo's EAI_NONAME on Linux
NO_RESOLVER = "[Errno -3] Temporary failure in name resolution"  # EAI_AGAIN: no DNS server


class LoopbackOnlyHttp:
    """Wraps the platform's HTTP client: records every URL and refuses any non-loopback host.

    Tests only ever talk to servers they started on 127.0.0.1; a request anywhere else is a bug
    in the crawler's SSRF policy, and it must fail the test instead of leaving the machine.

    One exception, so tests can link names that do not resolve without asking any resolver: a
    host under `.invalid`, which never resolves (RFC 6761 §6.4), gets the answer the platform's
    client gives a name that does not resolve (local_platform.http_client), at once and without
    a lookup, so no DNS query leaves the machine either.

    And one stand-in: the reference sites a start URL without an answer makes the audit ask
    (crawl.network_probe, `settings.CRAWL.network_probe_urls`) answer 204 at once, as they would
    on a machine that is online; with `online` False they fail as on a machine without DNS.
    """

    def __init__(self, inner: ports.HttpClient) -> None:
        self.inner = inner
        self.urls: list[str] = []
        self.online = True

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        url = request.url
        self.urls.append(url)
        host = urlsplit(url).hostname or ""
        if url in settings.CRAWL.network_probe_urls:
            if self.online:
                return ports.FetchResult(url, 204, {}, b"", False, 0.0)
            error = f"fetch to {url} failed: cannot resolve {host}: {NO_RESOLVER}"
            return ports.FetchResult(url, 0, {}, b"", False, 0.0, error)
        if host.endswith(".invalid"):
            error = f"fetch to {url} failed: cannot resolve {host}: {NO_SUCH_NAME}"
            return ports.FetchResult(url, 0, {}, b"", False, 0.0, error)
        if not is_loopback_host(host):
            raise AssertionError(f"the crawler tried to fetch a non-loopback URL: {url}")
        return await self.inner.fetch(request)
