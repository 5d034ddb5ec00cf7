"""A loopback reference server that replays vectors over real HTTP.

It listens on 127.0.0.1 only, on an ephemeral port, in a daemon thread, and
is bounded: it serves at most ``max_requests`` requests (later connections
are closed unanswered), stops itself after ``lifetime_s`` seconds, and gives
up on a client that stops reading after ``io_timeout_s``. Use it as a context
manager; leaving the block stops it.

``GET /v/<index>/<mode>`` serves vector ``index`` with its status and
headers, its body streamed lazily (a 50 MB body is never built), as:

- ``plain``: with ``Content-Length``;
- ``chunked``: ``Transfer-Encoding: chunked``, the first bytes in chunks of
  1, 2, 3, 5 and 8 bytes (so a multi-byte character is split across chunks);
- ``gzip``: ``Content-Encoding: gzip``, compressed on the fly, chunked;
- ``deflate`` and ``deflate-raw``: ``Content-Encoding: deflate``, zlib-wrapped
  (RFC 1950) or raw (RFC 1951, as some servers send it), the same way.

A compressed mode's path may end in ``?cuts=A,B,...``: the compressed bytes
are then sent in chunks that end at those offsets (then the rest), instead
of the first ones in tiny chunks.

A vector with ``http.drop_after`` has its connection dropped after that many
body bytes (after the chunk header in chunked modes), however long the body
claims to be. A vector with ``http.trickle`` (plain and chunked modes) gets
its first ``after`` body bytes at once, then one byte every ``every_ms``
milliseconds, at most :data:`TRICKLE_MAX` of them, after which the rest is
sent at once; the trickle stops when the client goes away. :attr:`LoopbackServer.sent` records, per path, how many body
bytes reached the socket before the response ended or the client went away.
"""

from __future__ import annotations

import contextlib
import http.server
import socket
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from testkit.vectors import HTTP_MODES as MODES
from testkit.vectors import Vector, body_chunks, body_length

SMALL_CHUNKS = (1, 2, 3, 5, 8)
TRICKLE_MAX = 64
"""The most bytes a trickle sends one by one (so a client that never gives up waits a bounded time)."""


def _rechunk(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """Split the first bytes into tiny chunks, then pass the rest through."""
    sizes = list(SMALL_CHUNKS)
    for chunk in chunks:
        while sizes and chunk:
            size = sizes.pop(0)
            yield chunk[:size]
            chunk = chunk[size:]
        if chunk:
            yield chunk


CODED = {"gzip": ("gzip", 31), "deflate": ("deflate", 15), "deflate-raw": ("deflate", -15)}
"""Each compressed mode: its ``Content-Encoding`` and the zlib window bits of its format."""
SERVED = (*MODES, *(mode for mode in CODED if mode not in MODES))
"""Every mode the server serves (a vector's own ``modes`` are some of them)."""


def _recut(chunks: Iterator[bytes], cuts: Sequence[int]) -> Iterator[bytes]:
    """The bytes of ``chunks`` in pieces that end at the offsets ``cuts`` (ascending), then the rest."""
    buffer, at = b"", 0
    ends = iter(cuts)
    end = next(ends, None)
    for chunk in chunks:
        buffer += chunk
        while end is not None and at + len(buffer) >= end:
            yield buffer[: end - at]
            buffer, at = buffer[end - at :], end
            end = next(ends, None)
        if end is None and buffer:
            yield buffer
            buffer, at = b"", at + len(buffer)
    if buffer:
        yield buffer


def _compressed(chunks: Iterator[bytes], wbits: int) -> Iterator[bytes]:
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    for chunk in chunks:
        out = compressor.compress(chunk)
        if out:
            yield out
    yield compressor.flush()


def _cuts(query: str) -> tuple[int, ...] | None:
    """The offsets of ``cuts=A,B,...`` (ascending, positive), or None without one."""
    found = [
        value for name, _, value in (p.partition("=") for p in query.split("&")) if name == "cuts"
    ]
    if not found:
        return None
    cuts = tuple(int(n) for n in found[0].split(",") if n)
    if any(n <= 0 for n in cuts) or list(cuts) != sorted(set(cuts)):
        raise ValueError(query)
    return cuts


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    error_message_format = ""
    default_request_version = "HTTP/1.1"

    def setup(self) -> None:
        """Send each write at once (without TCP_NODELAY, delayed ACKs cost 40 ms a request)."""
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def handle(self) -> None:
        """Serve the connection; a client that hangs up early is not an error here."""
        with contextlib.suppress(OSError):
            super().handle()

    def log_message(self, format: str, *args: object) -> None:
        """Keep the test output clean."""

    def _write(self, data: bytes) -> None:
        self.wfile.write(data)
        self.server.add_sent(self.path, len(data))

    def do_GET(self) -> None:
        """Serve ``/v/<index>/<mode>``; anything else is a 404 without a body."""
        self.connection.settimeout(self.server.io_timeout_s)
        if not self.server.admit():
            self.close_connection = True
            return
        path, _, query = self.path.partition("?")
        parts = path.strip("/").split("/")
        try:
            if len(parts) != 3 or parts[0] != "v" or parts[2] not in SERVED:
                raise LookupError(self.path)
            vector = self.server.vectors[int(parts[1])]
            cuts = _cuts(query) if parts[2] in CODED else None
        except (LookupError, ValueError):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        mode = parts[2]
        with contextlib.suppress(OSError):
            self._serve(vector, mode, cuts)

    def _serve(self, vector: Vector, mode: str, cuts: Sequence[int] | None = None) -> None:
        self.server.add_sent(self.path, 0)
        self.send_response(vector.status)
        for name, value in vector.headers:
            self.send_header(name, value)
        chunks: Iterator[bytes] = body_chunks(vector.body)
        if mode == "plain":
            self.send_header("Content-Length", str(body_length(vector.body)))
        else:
            self.send_header("Transfer-Encoding", "chunked")
            if mode in CODED:
                coding, wbits = CODED[mode]
                self.send_header("Content-Encoding", coding)
                chunks = _compressed(chunks, wbits)
            chunks = _rechunk(chunks) if cuts is None else _recut(chunks, cuts)
        self.end_headers()
        if vector.trickle is not None and mode not in CODED:
            self._trickle(
                b"".join(chunks), mode == "plain", vector.trickle.after, vector.trickle.every_ms
            )
            return
        budget = vector.drop_after
        for chunk in chunks:
            if not chunk:
                continue
            if budget is not None and len(chunk) >= budget:
                if mode == "plain":
                    self._write(chunk[:budget])
                else:
                    self.wfile.write(f"{len(chunk):x}\r\n".encode())
                    self._write(chunk[:budget])
                self._drop()
                return
            if budget is not None:
                budget -= len(chunk)
            if mode == "plain":
                self._write(chunk)
            else:
                self.wfile.write(f"{len(chunk):x}\r\n".encode())
                self._write(chunk)
                self.wfile.write(b"\r\n")
        if budget is not None:
            self._drop()
            return
        if mode != "plain":
            self.wfile.write(b"0\r\n\r\n")

    def _send(self, data: bytes, plain: bool) -> None:
        """Write ``data`` at once, as one chunk unless ``plain``."""
        if not data:
            return
        if plain:
            self._write(data)
        else:
            self.wfile.write(f"{len(data):x}\r\n".encode())
            self._write(data)
            self.wfile.write(b"\r\n")
        self.wfile.flush()

    def _trickle(self, body: bytes, plain: bool, after: int, every_ms: int) -> None:
        """``after`` bytes at once, then one byte every ``every_ms`` ms (at most TRICKLE_MAX), then the rest."""
        self._send(body[:after], plain)
        slow = body[after : after + TRICKLE_MAX]
        for i in range(len(slow)):
            time.sleep(every_ms / 1000)
            self._send(slow[i : i + 1], plain)  # raises OSError once the client has gone
        self._send(body[after + TRICKLE_MAX :], plain)
        if not plain:
            self.wfile.write(b"0\r\n\r\n")

    def _drop(self) -> None:
        """Close the connection at once, mid-body, as a crashed upstream would."""
        self.wfile.flush()
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False
    request_queue_size = 64

    def __init__(self, vectors: Sequence[Vector], max_requests: int, io_timeout_s: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.vectors = list(vectors)
        self.max_requests = max_requests
        self.io_timeout_s = io_timeout_s
        self.served = 0
        self.refused = 0
        self.sent: dict[str, int] = {}
        self._lock = threading.Lock()

    def admit(self) -> bool:
        with self._lock:
            if self.served >= self.max_requests:
                self.refused += 1
                return False
            self.served += 1
            return True

    def add_sent(self, path: str, count: int) -> None:
        with self._lock:
            self.sent[path] = self.sent.get(path, 0) + count


@dataclass(frozen=True)
class HttpRun:
    """What one SDK gave over HTTP (keyed ``name@mode``), and what the server saw."""

    results: dict[str, dict[str, Any]]
    sent: dict[str, int]
    served: int
    refused: int


class LoopbackServer:
    """The reference server, bounded in requests and in time; a context manager."""

    def __init__(
        self,
        vectors: Sequence[Vector],
        *,
        max_requests: int,
        lifetime_s: float = 120.0,
        io_timeout_s: float = 10.0,
    ) -> None:
        self._server = _Server(vectors, max_requests, io_timeout_s)
        self._lifetime_s = lifetime_s
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._timer = threading.Timer(lifetime_s, self._expire)
        self._timer.daemon = True
        self.started = 0.0

    def _expire(self) -> None:
        """Stop serving and close the listening socket: later connections are refused."""
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def served(self) -> int:
        """Requests answered so far."""
        return self._server.served

    @property
    def refused(self) -> int:
        """Requests turned away because the cap was reached."""
        return self._server.refused

    @property
    def sent(self) -> dict[str, int]:
        """Body bytes written to the socket, per path."""
        return dict(self._server.sent)

    @staticmethod
    def path(index: int, mode: str, cuts: Sequence[int] = ()) -> str:
        """The path that serves vector ``index`` in ``mode`` (a compressed one cut at ``cuts``)."""
        query = f"?cuts={','.join(map(str, cuts))}" if cuts else ""
        return f"/v/{index}/{mode}{query}"

    def __enter__(self) -> LoopbackServer:
        self.started = time.monotonic()
        self._thread.start()
        self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
