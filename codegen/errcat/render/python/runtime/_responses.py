"""``error_from_response`` and ``aerror_from_response``: any supported client's response, bounded.

The response's client is found by its class, without importing any client:
httpx (``_http``), requests, urllib3 and urllib (``_clients``) and aiohttp
(``_aiohttp``) are each read within the body cap and the read deadline
(docs/sdk-contract.md section 2c), and only the client in use is imported.
Anything else is refused with a ``TypeError`` naming the call to make.
"""

from __future__ import annotations

import sys

from ._bounded import deadline_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    import aiohttp
    import httpx

    from ._base import AgentRunError

__all__ = ["aerror_from_response", "error_from_response"]


def _is(resp: object, module: str, name: str) -> bool:
    """Whether ``resp`` is an instance of ``module.name``; a module not imported yet has made none."""
    loaded = sys.modules.get(module)
    kind = getattr(loaded, name, None) if loaded is not None else None
    return isinstance(kind, type) and isinstance(resp, kind)


def _kind(resp: object) -> str:
    return f"{type(resp).__module__}.{type(resp).__qualname__}"


_SYNC = (
    "error_from_response takes an httpx.Response, a requests.Response, a urllib3 HTTPResponse, or an "
    "http.client.HTTPResponse or urllib.error.HTTPError, not {kind}: {fix}"
)
_OTHER = (
    "for another client, call error_from_body(body, status=..., headers=..., token=...) with the body it read"
)
_ASYNC = "an aiohttp.ClientResponse is read by `await aerror_from_response(resp)`"
_AWAIT = (
    "aerror_from_response takes an httpx.Response of an httpx.AsyncClient or an aiohttp.ClientResponse, "
    "not {kind}: a sync client's response goes to error_from_response"
)


def error_from_response(
    resp: httpx.Response | object, token: str | None = None, *, body_read_timeout_ms: float | None = None
) -> AgentRunError:
    """The typed error of a response of a sync client; never raises for one.

    A response already read gives its body as it is (no more than the
    catalogue's body cap of it is read); an unread, streamed one is read no
    further than that cap of decoded bytes and closed (``gzip`` and
    ``deflate`` are inflated as they arrive, never past the cap; a body in
    any other coding is not read, and the status decides). Reading has a
    deadline of its own (docs/sdk-contract.md section 2c), not reset by
    arriving bytes: past it, the error is built from the bytes that arrived
    and its cause says so. A sync read of an httpx async stream reads
    nothing and gives the status-derived error: use
    :func:`aerror_from_response` there.

    Args:
        resp: an ``httpx.Response``, a ``requests.Response`` (``stream=True``
            for a bounded read), a urllib3 ``HTTPResponse``
            (``preload_content=False`` for a bounded read), or an
            ``http.client.HTTPResponse`` or ``urllib.error.HTTPError``.
        token: the caller's credential, to be kept out of the error.
        body_read_timeout_ms: how long reading the body may take in all
            (the catalogue's ``ERROR_BODY_READ_TIMEOUT_MS`` unless a number >= 0).

    Returns:
        The typed error, ready to raise.

    Raises:
        TypeError: ``resp`` is none of these (an aiohttp one included): the
            message names the call to make. Never a status-0 error.
    """
    deadline = deadline_of(body_read_timeout_ms)
    if _is(resp, "httpx", "Response"):
        from ._http import httpx_error

        return httpx_error(resp, token, deadline)  # type: ignore[arg-type]
    if _is(resp, "aiohttp", "ClientResponse"):
        raise TypeError(_SYNC.format(kind=_kind(resp), fix=_ASYNC))
    from ._clients import other_error

    found = other_error(resp, token, deadline)
    if found is None:
        raise TypeError(_SYNC.format(kind=_kind(resp), fix=_OTHER))
    return found


async def aerror_from_response(
    resp: httpx.Response | aiohttp.ClientResponse,
    token: str | None = None,
    *,
    body_read_timeout_ms: float | None = None,
) -> AgentRunError:
    """:func:`error_from_response` for a response of an ``httpx.AsyncClient`` or an ``aiohttp.ClientSession``.

    An aiohttp response is read no further than the body cap (as aiohttp
    decodes it), within the deadline, and then released.

    Raises:
        TypeError: ``resp`` is neither (an untyped caller's mistake): the
            message names the call to make instead.
    """
    deadline = deadline_of(body_read_timeout_ms)
    if _is(resp, "httpx", "Response"):
        from ._http import ahttpx_error

        return await ahttpx_error(resp, token, deadline)  # type: ignore[arg-type]
    if _is(resp, "aiohttp", "ClientResponse"):
        from ._aiohttp import aiohttp_error

        return await aiohttp_error(resp, token, deadline)  # type: ignore[arg-type]
    raise TypeError(_AWAIT.format(kind=_kind(resp)))
