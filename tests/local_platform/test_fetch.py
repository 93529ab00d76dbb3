"""`local_platform.fetch.fetch` against real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import socket
import sys
import threading
import zlib
from collections.abc import AsyncIterator, Iterator, Sequence
from http import HTTPMethod
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from local_platform.errors import JsException
from local_platform.fetch import FetchError, aclose_shared_client, fetch
from local_platform.http import BodyUsedError, Request

CHUNKS = [b"alpha-", b"beta-", b"gamma-", b"delta"]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Chunks sent by /stream wait on this event so a test can prove it reads incrementally.
    release_rest: threading.Event
    log: list[dict[str, object]]

    def log_message(self, format: str, *args: object) -> None:  # quiet test output
        pass

    def do_GET(self) -> None:
        self._route()

    def do_HEAD(self) -> None:
        self._route()

    def do_POST(self) -> None:
        self._route()

    def do_PUT(self) -> None:
        self._route()

    def _route(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.log.append(
            {
                "method": self.command,
                "path": self.path,
                "body": body,
                "headers": dict(self.headers.items()),
            }
        )
        path, _, query = self.path.partition("?")
        getattr(self, "route_" + path.strip("/").replace("-", "_"), self.route_missing)(query, body)

    def _send(
        self, status: int, body: bytes = b"", headers: Sequence[tuple[str, str]] = ()
    ) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def route_missing(self, query: str, body: bytes) -> None:
        self._send(404, b"not found")

    def route_status(self, query: str, body: bytes) -> None:
        self._send(int(query), b"" if int(query) in (204, 304) else f"status {query}".encode())

    def route_echo(self, query: str, body: bytes) -> None:
        seen = {"method": self.command, "body": body.decode(), "x-test": self.headers.get("x-test")}
        self._send(200, json.dumps(seen).encode(), [("Content-Type", "application/json")])

    def route_redirect(self, query: str, body: bytes) -> None:
        status, _, target = query.partition("&to=")
        self._send(int(status), b"moved", [("Location", target)])

    def route_loop(self, query: str, body: bytes) -> None:
        n = int(query)
        self._send(302, b"", [("Location", f"/loop?{n + 1}")])

    def route_chain(self, query: str, body: bytes) -> None:
        n = int(query)
        if n == 0:
            self._send(200, b"arrived")
        else:
            self._send(302, b"", [("Location", f"/chain?{n - 1}")])

    def route_dup_headers(self, query: str, body: bytes) -> None:
        headers = [
            ("X-Multi", "one"),
            ("X-Multi", "two"),
            ("Set-Cookie", "a=1; Path=/"),
            ("Set-Cookie", "b=2, c; Path=/"),
        ]
        self._send(200, b"ok", headers)

    def route_gzip(self, query: str, body: bytes) -> None:
        payload = b"compressible " * 1000
        if query == "deflate":
            encoded, encoding = zlib.compress(payload), "deflate"
        else:
            encoded, encoding = gzip.compress(payload), "gzip"
        self._send(200, encoded, [("Content-Encoding", encoding)])

    def route_stream(self, query: str, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for index, chunk in enumerate(CHUNKS):
            if index == 1:
                self.release_rest.wait(timeout=10)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def route_big(self, query: str, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for _ in range(10_000):
                chunk = b"x" * 16_384
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            self.close_connection = True  # the client hung up after enough bytes: expected

    def route_truncated(self, query: str, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"only a little")
        self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    disable_nagle_algorithm = True

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        # A client that drops a kept-alive or half-read connection is part of these tests.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def fresh_handler() -> type[_Handler]:
    """A handler class of one server's own: its own release event and request log."""

    class Handler(_Handler):
        release_rest = threading.Event()
        log = []  # noqa: RUF012 - the handler threads append to it

    return Handler


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = fresh_handler()
    httpd = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    handler.release_rest.set()
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(autouse=True)
async def _close_client() -> AsyncIterator[None]:
    yield
    await aclose_shared_client()


@pytest.mark.parametrize(
    ("status", "ok", "status_text"),
    [
        (200, True, "OK"),
        (201, True, "Created"),
        (299, True, ""),
        (404, False, "Not Found"),
        (500, False, "Internal Server Error"),
        (503, False, "Service Unavailable"),
    ],
)
async def test_status_ok_and_text(server, status: int, ok: bool, status_text: str) -> None:
    base, _ = server
    response = await fetch(f"{base}/status?{status}")
    assert (response.status, response.ok) == (status, ok)
    assert response.status_text == status_text
    assert await response.text() == f"status {status}"
    assert response.url == f"{base}/status?{status}"
    assert response.redirected is False


@pytest.mark.parametrize("status", [204, 304])
async def test_null_body_statuses_have_no_body(server, status: int) -> None:
    base, _ = server
    response = await fetch(f"{base}/status?{status}")
    assert response.status == status
    assert response.body is None
    assert await response.text() == ""


async def test_head_has_no_body(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/status?200", method="HEAD")
    assert response.status == 200
    assert response.body is None


@pytest.mark.parametrize("method", ["POST", HTTPMethod.PUT, "put"])
async def test_method_headers_and_body_are_sent(server, method) -> None:
    base, _ = server
    response = await fetch(f"{base}/echo", method=method, headers={"X-Test": "yes"}, body="payload")
    seen = await response.json()
    assert seen == {
        "method": str(method).upper().removeprefix("HTTPMETHOD."),
        "body": "payload",
        "x-test": "yes",
    }


async def test_headers_as_list_of_pairs_and_bytes_body(server) -> None:
    base, _ = server
    response = await fetch(
        f"{base}/echo", method="POST", headers=[("x-test", "pairs")], body=b"raw"
    )
    assert await response.json() == {"method": "POST", "body": "raw", "x-test": "pairs"}


async def test_fetch_accepts_a_request(server) -> None:
    base, _ = server
    request = Request(f"{base}/echo", method="POST", headers={"x-test": "req"}, body="from request")
    response = await fetch(request)
    assert await response.json() == {"method": "POST", "body": "from request", "x-test": "req"}


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_manual_redirect_returns_the_3xx_unfollowed(server, status: int) -> None:
    base, handler = server
    response = await fetch(f"{base}/redirect?{status}&to=/status?200", redirect="manual")
    assert response.status == status
    assert response.headers.get("location") == "/status?200"
    assert response.redirected is False
    assert [entry["path"] for entry in handler.log] == [f"/redirect?{status}&to=/status?200"]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_follow_redirect_lands_on_the_target(server, status: int) -> None:
    base, _ = server
    response = await fetch(f"{base}/redirect?{status}&to=/status?201")
    assert response.status == 201
    assert response.redirected is True
    assert response.url == f"{base}/status?201"


@pytest.mark.parametrize(
    ("status", "method", "expected_method", "expected_body"),
    [
        (301, "POST", "GET", ""),
        (302, "POST", "GET", ""),
        (303, "PUT", "GET", ""),
        (307, "POST", "POST", "data"),
        (308, "PUT", "PUT", "data"),
    ],
)
async def test_redirect_method_rewrite_follows_the_fetch_standard(
    server, status: int, method: str, expected_method: str, expected_body: str
) -> None:
    base, _ = server
    response = await fetch(f"{base}/redirect?{status}&to=/echo", method=method, body="data")
    seen = await response.json()
    assert (seen["method"], seen["body"]) == (expected_method, expected_body)


async def test_twenty_redirects_are_followed(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/chain?20")
    assert await response.text() == "arrived"


async def test_more_than_twenty_redirects_fail(server) -> None:
    base, handler = server
    with pytest.raises(FetchError, match="exceeded 20 redirects"):
        await fetch(f"{base}/loop?0")
    assert len(handler.log) == 21


async def test_redirect_error_mode_raises(server) -> None:
    base, _ = server
    with pytest.raises(FetchError, match="redirect"):
        await fetch(f"{base}/redirect?301&to=/status?200", redirect="error")


async def test_duplicate_headers_are_joined_except_set_cookie(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/dup-headers")
    assert response.headers.get("x-multi") == "one, two"
    assert response.headers.get("X-MULTI") == "one, two"
    assert response.headers.get_all("set-cookie") == ["a=1; Path=/", "b=2, c; Path=/"]
    assert "x-multi" in response.headers


async def test_streamed_body_is_read_incrementally(server) -> None:
    base, handler = server
    response = await fetch(f"{base}/stream")
    assert response.body is not None
    chunks = aiter(response.body)
    first = await anext(chunks)
    # The server holds the rest back until told, so this chunk cannot come from a whole read.
    assert first.to_bytes() == CHUNKS[0]
    handler.release_rest.set()
    rest = [chunk.to_bytes() async for chunk in chunks]
    assert first.to_bytes() + b"".join(rest) == b"".join(CHUNKS)


async def test_body_reader_interface(server) -> None:
    base, handler = server
    handler.release_rest.set()
    response = await fetch(f"{base}/stream")
    assert response.body is not None
    reader = response.body.getReader()
    received = b""
    while not (result := await reader.read()).done:
        assert result.value is not None
        received += result.value.to_bytes()
    assert received == b"".join(CHUNKS)


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
async def test_content_encoding_is_decoded(server, encoding: str) -> None:
    base, _ = server
    response = await fetch(f"{base}/gzip?{encoding}")
    assert response.headers.get("content-encoding") == encoding
    assert await response.bytes() == b"compressible " * 1000


async def test_body_cancelled_after_n_bytes_releases_the_connection(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/big")
    assert response.body is not None
    received = 0
    async for chunk in response.body:
        received += len(chunk.to_bytes())
        if received >= 100_000:
            break
    await response.body.cancel()
    assert 100_000 <= received < 10_000 * 16_384
    with pytest.raises(BodyUsedError, match="Response body is already used"):
        await response.text()
    # The pool still works after the cancelled stream.
    assert (await fetch(f"{base}/status?200")).status == 200


async def test_reading_a_consumed_body_raises_oserror(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/status?200")
    await response.text()
    assert response.body_used
    with pytest.raises(OSError, match="Response body is already used"):
        await response.bytes()
    with pytest.raises(OSError, match="Response body is already used"):
        await response.json()


async def test_truncated_body_raises_fetch_error(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/truncated")
    with pytest.raises(FetchError, match="reading the response body"):
        await response.bytes()


async def test_connection_refused_raises_fetch_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(FetchError, match="cannot connect") as caught:
        await fetch(f"http://127.0.0.1:{port}/")
    assert isinstance(caught.value, OSError)


async def test_js_style_options_dict_is_refused() -> None:
    with pytest.raises(
        TypeError, match=r"^fetch\(\) takes 1 positional argument but 2 were given$"
    ):
        # The JavaScript-style call, which must be refused.
        await fetch("http://127.0.0.1:1/", {"method": "POST"})  # type: ignore[call-arg, arg-type]


@pytest.mark.parametrize("url", ["ftp://example.com/", "/relative", "not a url"])
async def test_non_http_urls_are_refused(url: str) -> None:
    with pytest.raises(JsException, match="Fetch API cannot load"):
        await fetch(url)


async def test_get_with_body_is_refused() -> None:
    with pytest.raises(JsException, match="GET or HEAD method cannot have a body"):
        await fetch("http://127.0.0.1:1/", body="x")


async def test_unknown_js_options_are_ignored(server) -> None:
    base, _ = server
    response = await fetch(f"{base}/status?200", cf={"cacheTtl": 5}, signal=None)
    assert response.status == 200


# --- private CA hook (https sites served with a throwaway CA) ---------------------------------


@pytest.fixture
def tls_server() -> Iterator[tuple[str, object]]:
    """An https server on 127.0.0.1 whose certificate comes from a fresh private CA."""
    import ssl

    import trustme

    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)

    class TlsServer(_Server):
        def finish_request(self, request, client_address) -> None:
            try:
                tls = context.wrap_socket(request, server_side=True)
            except OSError:
                return  # the client refused our certificate: the point of one test
            with tls:
                super().finish_request(tls, client_address)

    handler = fresh_handler()
    httpd = TlsServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{httpd.server_address[1]}", ca
    httpd.shutdown()
    httpd.server_close()
    thread.join()


async def test_a_private_ca_is_refused_until_trusted(tls_server, tmp_path) -> None:
    from local_platform.fetch import trust_ca_file

    base, ca = tls_server
    with pytest.raises(FetchError, match="CERTIFICATE_VERIFY_FAILED"):
        await fetch(f"{base}/status?200")
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    trust_ca_file(ca_file)
    response = await fetch(f"{base}/status?200")
    assert (response.status, await response.text()) == (200, "status 200")


async def test_trusting_a_ca_still_checks_the_host_name(tls_server, tmp_path) -> None:
    from local_platform.fetch import trust_ca_file

    base, ca = tls_server
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    trust_ca_file(ca_file)
    # The certificate names 127.0.0.1 only; "localhost" reaches the same listener but is not in it.
    with pytest.raises(FetchError, match=r"CERTIFICATE_VERIFY_FAILED|match"):
        await fetch(base.replace("127.0.0.1", "localhost") + "/status?200")


async def test_trust_ends_with_the_loops_pool(tls_server, tmp_path) -> None:
    from local_platform.fetch import trust_ca_file

    base, ca = tls_server
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    trust_ca_file(ca_file)
    await (await fetch(f"{base}/status?200")).bytes()
    await aclose_shared_client()
    with pytest.raises(FetchError, match="CERTIFICATE_VERIFY_FAILED"):
        await fetch(f"{base}/status?200")
