"""httpx integration: typed errors from responses, per call or for a whole client.

A response whose body was not read yet (a streamed response, or one seen by
an event hook) is read no further than the catalogue's body cap and then
closed. No error keeps the response, the request or the token: the token is
used while the error is built and dropped before anything is raised.
"""

from __future__ import annotations

import httpx

from . import ErrorBase
from ._generated.catalogue import ERROR_BODY_MAX_BYTES
from ._headers import pick_headers
from ._parse import fallback_error, make_error
from ._sanitize import token_forms

__all__ = [
    "AsyncErrorHook",
    "ErrorHook",
    "aerror_from_response",
    "araise_for_status",
    "error_from_response",
    "install_error_hook",
    "raise_for_status",
]


def _read_bounded(resp: httpx.Response) -> bytes:
    """At most the body cap of an unread (streamed) response, which is then closed."""
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in resp.iter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size >= ERROR_BODY_MAX_BYTES:
                break
    except Exception:
        pass  # a body that fails half-way is read as far as it went
    finally:
        try:
            resp.close()
        except Exception:
            pass
    return b"".join(chunks)[:ERROR_BODY_MAX_BYTES]


async def _aread_bounded(resp: httpx.Response) -> bytes:
    """:func:`_read_bounded` for a response of an ``httpx.AsyncClient``."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in resp.aiter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size >= ERROR_BODY_MAX_BYTES:
                break
    except Exception:
        pass
    finally:
        try:
            await resp.aclose()
        except Exception:
            pass
    return b"".join(chunks)[:ERROR_BODY_MAX_BYTES]


def error_from_response(resp: httpx.Response, token: str | None = None) -> ErrorBase:
    """The typed error of a response; never raises.

    A response already read gives its body as it is (no more than the
    catalogue's body cap of it is read); an unread, streamed response is read
    no further than that cap and closed. A sync read of an async stream reads
    nothing and gives the status-derived error: use
    :func:`aerror_from_response` there.

    Args:
        resp: the response, read or not.
        token: the caller's credential, to be kept out of the error.

    Returns:
        The typed error, ready to raise.
    """
    try:
        try:
            body = resp.content
        except httpx.ResponseNotRead:
            body = _read_bounded(resp)
        forms = token_forms(token) if token else ()
        return make_error(body, resp.status_code, pick_headers(resp.headers), forms)
    except Exception:
        return fallback_error(getattr(resp, "status_code", 0))


async def aerror_from_response(resp: httpx.Response, token: str | None = None) -> ErrorBase:
    """:func:`error_from_response` for a response of an ``httpx.AsyncClient``."""
    try:
        try:
            body = resp.content
        except httpx.ResponseNotRead:
            body = await _aread_bounded(resp)
        forms = token_forms(token) if token else ()
        return make_error(body, resp.status_code, pick_headers(resp.headers), forms)
    except Exception:
        return fallback_error(getattr(resp, "status_code", 0))


def raise_for_status(resp: httpx.Response, token: str | None = None) -> None:
    """Raise the typed error of a non-2xx response; a 2xx response is left untouched.

    The drop-in for ``httpx.Response.raise_for_status()``.

    Raises:
        AgentRunError: the subclass of the response's code.
    """
    if 200 <= resp.status_code <= 299:
        return
    err = error_from_response(resp, token)
    del token
    raise err


async def araise_for_status(resp: httpx.Response, token: str | None = None) -> None:
    """:func:`raise_for_status` for a response of an ``httpx.AsyncClient``."""
    if 200 <= resp.status_code <= 299:
        return
    err = await aerror_from_response(resp, token)
    del token
    raise err


class ErrorHook:
    """An ``httpx.Client`` response event hook that raises typed errors for 4xx and 5xx responses.

    ``httpx.Client(event_hooks={"response": [ErrorHook(token=key)]})``. Redirects
    and other statuses below 400 pass, so ``follow_redirects`` still works. The
    token is an attribute, not a closure variable, and never shown by ``repr``.
    """

    __slots__ = ("_token",)

    def __init__(self, token: str | None = None) -> None:
        self._token = token

    def __repr__(self) -> str:
        return f"{type(self).__name__}(token={'<hidden>' if self._token else None})"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError(f"{type(self).__name__} holds a credential and is not picklable")

    def __call__(self, response: httpx.Response) -> None:
        if response.status_code >= 400:
            raise error_from_response(response, self._token)


class AsyncErrorHook(ErrorHook):
    """:class:`ErrorHook` for an ``httpx.AsyncClient``."""

    __slots__ = ()

    async def __call__(self, response: httpx.Response) -> None:  # type: ignore[override]
        if response.status_code >= 400:
            raise await aerror_from_response(response, self._token)


def install_error_hook(
    client: httpx.Client | httpx.AsyncClient, *, token: str | None = None
) -> httpx.Client | httpx.AsyncClient:
    """Make ``client`` raise typed errors on every 4xx and 5xx response; returns ``client``.

    Adds an :class:`ErrorHook` (or :class:`AsyncErrorHook` for an async client)
    after the client's existing response hooks.
    """
    hook: ErrorHook = AsyncErrorHook(token) if isinstance(client, httpx.AsyncClient) else ErrorHook(token)
    hooks = dict(client.event_hooks)
    hooks["response"] = [*hooks.get("response", []), hook]
    client.event_hooks = hooks
    return client
