"""Responses of sync HTTP clients other than httpx, read as httpx ones are (contract sections 1 and 2c).

requests, urllib3 and urllib (``http.client``) responses give their status,
headers and at most the body cap of their body. An unread body (requests'
``stream=True``, urllib3's ``preload_content=False``, any ``http.client``
response or ``urllib.error.HTTPError``) is read as sent, one socket read at a
time, inflated never past the cap (``_bounded.Inflater``), within the read
deadline, and then closed: before each read the socket's timeout is lowered
to the time left, so a stalled or trickling body is cut at the deadline. A
body the client already read is taken as it is, up to the cap.
"""

from __future__ import annotations

from ._bounded import CHUNK, collect, end_of, error_of, inflated
from ._generated.catalogue import ERROR_BODY_MAX_BYTES
from ._parse import fallback_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable, Iterator
    from typing import Any

    from ._base import AgentRunError

__all__ = ["other_error"]

_SOCKET_PATHS = (
    ("connection", "sock"),  # urllib3: the connection it reads from
    ("_fp", "fp", "raw", "_sock"),  # urllib3 without a connection: its http.client response
    ("fp", "raw", "_sock"),  # http.client.HTTPResponse
    ("fp", "fp", "raw", "_sock"),  # urllib.error.HTTPError around one
)


def _socket_of(resp: object) -> socket.socket | None:
    """The socket a response's body is read from, where the client keeps one; else ``None``."""
    import socket

    for path in _SOCKET_PATHS:
        found: object = resp
        for name in path:
            found = getattr(found, name, None)
        if isinstance(found, socket.socket):
            return found
    return None


def _paced(read: Callable[[], bytes], sock: socket.socket | None, end: float) -> Iterator[bytes]:
    """``read()``'s chunks up to the first empty one, the socket's timeout lowered to the time left first."""
    import time

    while True:
        if sock is not None:
            sock.settimeout(max(end - time.monotonic(), 0.001))
        chunk = read()
        if not chunk:
            return
        yield chunk


def _read_raw(
    resp: Any, headers: object, read: Callable[[], bytes], deadline: float, raw: object = None
) -> tuple[bytes, bool]:
    """At most the cap of the body ``read`` gives (raw, then inflated) within ``deadline`` ms; then closed.

    ``raw`` is the object that holds the socket, when not ``resp`` itself (requests' urllib3 response).
    """
    end = end_of(deadline)
    sock = _socket_of(resp if raw is None else raw)
    before = sock.gettimeout() if sock is not None else None
    try:
        return collect(inflated(headers, _paced(read, sock, end)), end)
    finally:
        try:
            if sock is not None:
                sock.settimeout(before)
            resp.close()
        except Exception:
            pass


def _urllib3_reader(r: Any) -> Callable[[], bytes]:
    """One raw read of a urllib3 response: ``read1`` (urllib3 2.3 and later), else one of its stream."""
    if hasattr(r, "read1"):
        return lambda: r.read1(CHUNK, decode_content=False)
    chunks = r.stream(CHUNK, decode_content=False)
    return lambda: next(chunks, b"")


def _read(resp: object, deadline: float) -> tuple[int, object, bytes, bool] | None:
    """The status, headers, body (at most the cap) and whether the deadline cut it.

    ``None`` when ``resp`` is no response of a client this module reads.
    """
    import http.client
    import urllib.error

    client = type(resp).__module__.partition(".")[0]
    r: Any = resp
    if client == "requests" and hasattr(r, "status_code") and hasattr(r, "raw"):
        if vars(r).get("_content", False) is not False:  # read already (no stream=True)
            return r.status_code, r.headers, r.content[:ERROR_BODY_MAX_BYTES], False
        body, cut = _read_raw(r, r.headers, _urllib3_reader(r.raw), deadline, r.raw)
        return r.status_code, r.headers, body, cut
    if client == "urllib3" and hasattr(r, "stream") and hasattr(r, "status"):
        if getattr(r, "_body", None) is not None:  # preloaded, the default
            return r.status, r.headers, r.data[:ERROR_BODY_MAX_BYTES], False
        body, cut = _read_raw(r, r.headers, _urllib3_reader(r), deadline)
        return r.status, r.headers, body, cut
    if isinstance(resp, (http.client.HTTPResponse, urllib.error.HTTPError)):
        status = resp.status if isinstance(resp, http.client.HTTPResponse) else resp.code
        headers = resp.headers
        raw: Any = resp if isinstance(resp, http.client.HTTPResponse) else resp.fp
        reader = getattr(raw, "read1", None) or resp.read
        body, cut = _read_raw(resp, headers, lambda: reader(CHUNK), deadline)
        return status, list(headers.items()), body, cut
    return None


def other_error(resp: object, token: str | None, deadline: float) -> AgentRunError | None:
    """The error of a requests, urllib3 or urllib response (never raises for one); else ``None``."""
    found = _read(resp, deadline)
    if found is None:
        return None
    status, headers, body, cut = found
    try:
        return error_of(status, headers, body, cut, deadline, token)
    except Exception:
        return fallback_error(status)
