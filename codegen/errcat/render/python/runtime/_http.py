"""httpx integration: typed errors from responses, per call or for a whole client.

A response whose body was not read yet (a streamed response, or one seen by
an event hook) is read no further than the catalogue's body cap of decoded
bytes (a gzip or deflate body is inflated as it arrives, never past the cap),
within the body read deadline, and then closed (``_bounded``). No error keeps
the response, the request or the token: the token is used while the error is
built and dropped before anything is raised. ``error_from_response`` and
``aerror_from_response`` (``_responses``) read an httpx response here.
"""

from __future__ import annotations

from typing import overload

from ._base import AgentRunError
from ._bounded import (
    HookBase,
    acollect,
    ainflated,
    collect,
    deadline_of,
    end_of,
    error_of,
    inflated,
    joined,
)
from ._generated.catalogue import DISTRIBUTION
from ._parse import fallback_error

try:
    import httpx
except ModuleNotFoundError as missing:  # httpx is the optional extra of the same name
    if missing.name != "httpx":
        raise
    raise ModuleNotFoundError(
        f"the httpx integration of {__package__} needs httpx: pip install '{DISTRIBUTION}[httpx]'",
        name="httpx",
    ) from missing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "AsyncErrorHook",
    "ErrorHook",
    "araise_for_status",
    "install_error_hook",
    "raise_for_status",
]


_NO_TIMEOUTS: dict[str, object] = {}


def _read_timeouts(resp: httpx.Response) -> dict[str, object]:
    """The per-read timeouts httpx's own transports look up before each read (empty for others)."""
    try:
        found = resp.request.extensions.get("timeout")
    except Exception:
        return _NO_TIMEOUTS
    return found if type(found) is dict and "read" in found else _NO_TIMEOUTS


def _read_bounded(resp: httpx.Response, deadline: float) -> tuple[bytes, bool]:
    """At most the body cap of an unread (streamed) response within ``deadline`` ms in all; then closed.

    Returns the bytes and whether the deadline stopped the read. The clock is
    checked after each chunk; a read that stalls is bounded by lowering the
    read timeout httpx's transports consult before each read to what is left.
    """
    end = end_of(deadline)
    timeouts = _read_timeouts(resp)
    original = timeouts.get("read")
    try:
        return collect(_paced(resp, timeouts, original, end), end)
    finally:
        if timeouts is not _NO_TIMEOUTS:
            timeouts["read"] = original
        try:
            resp.close()
        except Exception:
            pass


def _paced(
    resp: httpx.Response, timeouts: dict[str, object], original: object, end: float
) -> Iterator[bytes]:
    """The body's decoded chunks, the read timeout set before each to at most the time left."""
    import time

    chunks = inflated(resp.headers, resp.iter_raw())
    while True:
        if timeouts is not _NO_TIMEOUTS:
            left = max(end - time.monotonic(), 0.001)
            if not isinstance(original, (int, float)) or left < original:
                timeouts["read"] = left
        chunk = next(chunks, None)
        if chunk is None:
            return
        yield chunk


async def _aread_bounded(resp: httpx.Response, deadline: float) -> tuple[bytes, bool]:
    """:func:`_read_bounded` for an ``httpx.AsyncClient``: the read is cancelled at the deadline."""
    import anyio

    parts: list[bytes] = []
    try:
        with anyio.move_on_after(deadline / 1000) as scope:
            await acollect(ainflated(resp.headers, resp.aiter_raw()), parts)
    finally:
        try:
            await resp.aclose()
        except Exception:
            pass
    return joined(parts), scope.cancelled_caught


def httpx_error(resp: httpx.Response, token: str | None, deadline: float) -> AgentRunError:
    """The error of an httpx response, read or not; never raises (``error_from_response``)."""
    try:
        cut = False
        try:
            body = resp.content
        except httpx.ResponseNotRead:
            body, cut = _read_bounded(resp, deadline)
        return error_of(resp.status_code, resp.headers, body, cut, deadline, token)
    except Exception:
        return fallback_error(resp.status_code)


async def ahttpx_error(resp: httpx.Response, token: str | None, deadline: float) -> AgentRunError:
    """The error of an ``httpx.AsyncClient``'s response, read or not (``aerror_from_response``)."""
    try:
        cut = False
        try:
            body = resp.content
        except httpx.ResponseNotRead:
            body, cut = await _aread_bounded(resp, deadline)
        return error_of(resp.status_code, resp.headers, body, cut, deadline, token)
    except Exception:
        return fallback_error(resp.status_code)


def raise_for_status(
    resp: httpx.Response, token: str | None = None, *, body_read_timeout_ms: float | None = None
) -> None:
    """Raise the typed error of a non-2xx response; a 2xx response is left untouched.

    The drop-in for ``httpx.Response.raise_for_status()``.

    Raises:
        AgentRunError: the subclass of the response's code.
    """
    if 200 <= resp.status_code <= 299:
        return
    err = httpx_error(resp, token, deadline_of(body_read_timeout_ms))
    del token
    raise err


async def araise_for_status(
    resp: httpx.Response, token: str | None = None, *, body_read_timeout_ms: float | None = None
) -> None:
    """:func:`raise_for_status` for a response of an ``httpx.AsyncClient``."""
    if 200 <= resp.status_code <= 299:
        return
    err = await ahttpx_error(resp, token, deadline_of(body_read_timeout_ms))
    del token
    raise err


class ErrorHook(HookBase):
    """An ``httpx.Client`` response event hook that raises typed errors for 4xx and 5xx responses.

    ``httpx.Client(event_hooks={"response": [ErrorHook(token=key)]})``. Redirects
    and other statuses below 400 pass, so ``follow_redirects`` still works. The
    token is an attribute, not a closure variable, and never shown by ``repr``.
    """

    __slots__ = ()

    def __call__(self, response: httpx.Response) -> None:
        if response.status_code >= 400:
            raise httpx_error(response, self._token, deadline_of(self._deadline))


class AsyncErrorHook(ErrorHook):
    """:class:`ErrorHook` for an ``httpx.AsyncClient``."""

    __slots__ = ()

    async def __call__(self, response: httpx.Response) -> None:  # type: ignore[override]
        if response.status_code >= 400:
            raise await ahttpx_error(response, self._token, deadline_of(self._deadline))


@overload
def install_error_hook(
    client: httpx.AsyncClient, *, token: str | None = None, body_read_timeout_ms: float | None = None
) -> httpx.AsyncClient: ...
@overload
def install_error_hook(
    client: httpx.Client, *, token: str | None = None, body_read_timeout_ms: float | None = None
) -> httpx.Client: ...
def install_error_hook(
    client: httpx.Client | httpx.AsyncClient,
    *,
    token: str | None = None,
    body_read_timeout_ms: float | None = None,
) -> httpx.Client | httpx.AsyncClient:
    """Make ``client`` raise typed errors on every 4xx and 5xx response; returns ``client``.

    Adds an :class:`ErrorHook` to an ``httpx.Client``, an :class:`AsyncErrorHook`
    to an ``httpx.AsyncClient`` (a sync client's hook stays sync), after the
    client's existing response hooks; the client comes back with its own type.
    """
    kind = AsyncErrorHook if isinstance(client, httpx.AsyncClient) else ErrorHook
    hook: ErrorHook = kind(token, body_read_timeout_ms=body_read_timeout_ms)
    hooks = dict(client.event_hooks)
    hooks["response"] = [*hooks.get("response", []), hook]
    client.event_hooks = hooks
    return client
