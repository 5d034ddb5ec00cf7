"""Responses of sync HTTP clients other than httpx, read as httpx ones are (contract section 1).

requests, urllib3 and urllib (``http.client``) responses give their status,
headers and at most the body cap of their body, an unread body read in chunks
within the deadline and then closed; anything else is refused with a
``TypeError`` that names the call to make instead. A ``requests.Response``
unread (``stream=True``) is read through ``iter_content``, a urllib3
``HTTPResponse`` made with ``preload_content=False`` through ``stream``, an
``http.client.HTTPResponse`` or ``urllib.error.HTTPError`` by ``read`` (its
bytes as sent, undecoded). A stalled read is bounded by the client's own
socket timeout.
"""

from __future__ import annotations

from ._generated.catalogue import ERROR_BODY_MAX_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

_CHUNK = 16_384
"""How much of another client's unread body is asked for at a time."""


def _read_chunks(chunks: Iterator[bytes], deadline: float) -> tuple[bytes, bool]:
    """At most the body cap of ``chunks`` within ``deadline`` ms (the clock checked after each chunk).

    Returns the bytes and whether the deadline stopped the read; a body that
    fails half-way is read as far as it went.
    """
    import time

    end = time.monotonic() + deadline / 1000
    parts: list[bytes] = []
    size = 0
    cut = False
    try:
        for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size >= ERROR_BODY_MAX_BYTES:
                break
            if time.monotonic() >= end:
                cut = True
                break
    except Exception:
        pass
    return b"".join(parts)[:ERROR_BODY_MAX_BYTES], cut


def _read_then_close(resp: Any, chunks: Iterator[bytes], deadline: float) -> tuple[bytes, bool]:
    """:func:`_read_chunks`, then ``resp`` closed (the rest of its body is never read)."""
    try:
        return _read_chunks(chunks, deadline)
    finally:
        try:
            resp.close()
        except Exception:
            pass


def _pieces(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """The chunks ``read(_CHUNK)`` returns, up to the first empty one."""
    return iter(lambda: read(_CHUNK), b"")


def other_client(resp: object) -> str:
    """The package a response's class comes from: ``requests``, ``urllib3``, ``http``, ``urllib``, ..."""
    return type(resp).__module__.partition(".")[0]


AWAIT_FIRST = (
    "error_from_response cannot read an {client} response, whose body is read asynchronously: "
    "call error_from_body(await resp.read(), status=resp.status, headers=resp.headers, token=...) instead"
)
_UNKNOWN = (
    "error_from_response takes an httpx.Response, a requests.Response, a urllib3 HTTPResponse, or an "
    "http.client.HTTPResponse or urllib.error.HTTPError, not {kind}: for another client, call "
    "error_from_body(body, status=..., headers=..., token=...) with the body it read"
)


def other_response(resp: object, deadline: float) -> tuple[int, object, bytes, bool]:
    """The status, headers, body (at most the cap) and whether the deadline cut it, of a non-httpx response.

    Raises:
        TypeError: ``resp`` is no response of a client this module reads.
    """
    import http.client
    import urllib.error

    client = other_client(resp)
    r: Any = resp
    if client == "requests" and hasattr(r, "status_code") and hasattr(r, "iter_content"):
        if vars(r).get("_content", False) is False:  # stream=True and not read yet
            body, cut = _read_then_close(r, r.iter_content(_CHUNK), deadline)
        else:
            body, cut = r.content[:ERROR_BODY_MAX_BYTES], False
        return r.status_code, r.headers, body, cut
    if client == "urllib3" and hasattr(r, "stream") and hasattr(r, "status"):
        if getattr(r, "_body", None) is not None:  # preloaded, the default
            return r.status, r.headers, r.data[:ERROR_BODY_MAX_BYTES], False
        body, cut = _read_then_close(r, r.stream(_CHUNK, decode_content=True), deadline)
        return r.status, r.headers, body, cut
    if isinstance(resp, (http.client.HTTPResponse, urllib.error.HTTPError)):
        status = resp.status if isinstance(resp, http.client.HTTPResponse) else resp.code
        headers = list(resp.headers.items())
        body, cut = _read_then_close(resp, _pieces(resp.read), deadline)
        return status, headers, body, cut
    if client == "aiohttp":
        raise TypeError(AWAIT_FIRST.format(client=client))
    raise TypeError(_UNKNOWN.format(kind=f"{type(resp).__module__}.{type(resp).__qualname__}"))
