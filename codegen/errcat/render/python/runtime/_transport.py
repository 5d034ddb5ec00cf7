"""httpx transports that type every failure of a request: responses and transport exceptions.

``httpx.Client(transport=ErrorTransport())`` (or ``AsyncErrorTransport()`` on
an ``httpx.AsyncClient``) makes one client raise an :class:`AgentRunError`
subclass for everything that can go wrong with a call:

- a 4xx or 5xx response: the typed error of its envelope, or of its status
  (as :class:`ErrorHook` does);
- a transport exception, while connecting, sending or reading, including one
  raised half-way through a 2xx body: the code the catalogue's
  ``sdk.transport`` gives its role: ``failed`` (no server got the request:
  safe to resend; ``connection_failed``, say), ``lost`` (the
  request may have arrived, the response did not arrive whole;
  ``connection_lost``) or ``timed_out`` (the caller's deadline passed;
  ``response_timeout``). The original exception is chained as ``__cause__``.
  A catalogue without ``sdk.transport`` types responses only: a transport
  exception passes through unchanged.

A caller's own cancellation (``asyncio.CancelledError``, ``KeyboardInterrupt``)
is not an ``Exception`` and passes through untouched, as asyncio and anyio need.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import AsyncIterator, Iterator

import httpx

from ._base import AgentRunError
from ._generated import catalogue as _cat
from ._responses import aerror_from_response, error_from_response  # globals: no frame local names them

__all__ = ["AsyncErrorTransport", "ErrorTransport", "error_from_exception"]

# The roles of transport failures, as the catalogue's sdk.transport names them.
FAILED = "failed"
LOST = "lost"
TIMED_OUT = "timed_out"

# Every httpx exception a transport can raise, by what it says about the
# request. A class that does not say which phase failed gets the "unknown"
# role (lost), never the "nothing was sent" one.
HTTPX_ROLES: dict[type[Exception], str] = {
    httpx.ConnectError: FAILED,
    httpx.ConnectTimeout: FAILED,
    httpx.PoolTimeout: FAILED,  # no connection was free: nothing was sent
    httpx.ProxyError: FAILED,  # the proxy refused to open the tunnel
    httpx.UnsupportedProtocol: FAILED,  # no connection was attempted
    httpx.ReadTimeout: TIMED_OUT,
    httpx.WriteTimeout: TIMED_OUT,
    httpx.TimeoutException: TIMED_OUT,
    httpx.ReadError: LOST,
    httpx.WriteError: LOST,
    httpx.CloseError: LOST,
    httpx.NetworkError: LOST,
    httpx.RemoteProtocolError: LOST,
    httpx.LocalProtocolError: LOST,
    httpx.ProtocolError: LOST,
    httpx.DecodingError: LOST,
    httpx.TransportError: LOST,
    httpx.RequestError: LOST,
    httpx.HTTPError: LOST,  # a bare one, from a custom transport: nothing more is known
}

# The exceptions of the standard library a custom transport may let through.
OS_ROLES: dict[type[Exception], str] = {
    ssl.SSLCertVerificationError: FAILED,
    ConnectionRefusedError: FAILED,
    socket.gaierror: FAILED,
    TimeoutError: TIMED_OUT,
    ssl.SSLError: LOST,
    OSError: LOST,
}

# httpx exceptions that are not transport failures: the caller's own misuse or
# a client policy. They pass through unchanged.
NOT_TRANSPORT: tuple[type[Exception], ...] = (
    httpx.HTTPStatusError,  # raised by Response.raise_for_status, never by a transport
    httpx.TooManyRedirects,  # the client's redirect policy, after whole responses
    httpx.InvalidURL,
    httpx.CookieConflict,
    httpx.StreamError,  # StreamConsumed, StreamClosed, ResponseNotRead, RequestNotRead
)

_ROLES = {**HTTPX_ROLES, **OS_ROLES}


def _code_of(exc: BaseException) -> str | None:
    """The code of a transport exception: the catalogue's code of the role of its nearest class in
    the tables, else ``None`` (also for every exception when the catalogue declares no transport)."""
    if isinstance(exc, NOT_TRANSPORT):
        return None
    for cls in type(exc).__mro__:
        role = _ROLES.get(cls)
        if role is not None:
            return _cat.SDK_TRANSPORT.get(role)
    return None


def _cause_of(exc: BaseException) -> str:
    """The failure as ``Type: message``, with the message of the exception it wraps when it has none."""
    text = str(exc)
    inner = exc.__cause__ or exc.__context__
    if not text and inner is not None:
        text = str(inner)
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


def error_from_exception(exc: BaseException, token: str | None = None) -> AgentRunError | None:
    """The typed error of a transport exception, or ``None`` for any other exception.

    The error's cause names the exception and its message, sanitized (the
    token and secret-like strings redacted, the length capped); its status is
    ``None``. Raise it ``from exc`` to keep the original.

    Args:
        exc: what the transport raised (an httpx exception, or an ``OSError``
            from a custom transport).
        token: the caller's credential, kept out of the cause.
    """
    from ._local import error_for_code
    from ._sanitize import sanitize_text

    code = _code_of(exc)
    if code is None:
        return None
    return error_for_code(code, "", cause=sanitize_text(_cause_of(exc), token=token))


class _Credential:
    """Holds the token as an attribute, hidden from ``repr`` and from pickle (as ErrorHook does)."""

    __slots__ = ("_token",)

    def __init__(self, token: str | None) -> None:
        self._token = token

    def __repr__(self) -> str:
        return f"{type(self).__name__}(token={'<hidden>' if self._token else None})"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError(f"{type(self).__name__} holds a credential and is not picklable")

    def _typed(self, exc: Exception) -> AgentRunError | None:
        return error_from_exception(exc, self._token)


class _TypedStream(httpx.SyncByteStream):
    """A response body whose transport exceptions become typed errors."""

    def __init__(self, stream: httpx.SyncByteStream, owner: _Credential) -> None:
        self._stream = stream
        self._owner = owner

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._stream
        except Exception as exc:
            err = self._owner._typed(exc)
            if err is None:
                raise
            raise err from exc

    def close(self) -> None:
        self._stream.close()


class _AsyncTypedStream(httpx.AsyncByteStream):
    """:class:`_TypedStream` for an async response body."""

    def __init__(self, stream: httpx.AsyncByteStream, owner: _Credential) -> None:
        self._stream = stream
        self._owner = owner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._stream:
                yield chunk
        except Exception as exc:
            err = self._owner._typed(exc)
            if err is None:
                raise
            raise err from exc

    async def aclose(self) -> None:
        await self._stream.aclose()


class ErrorTransport(_Credential, httpx.BaseTransport):
    """An httpx transport that raises typed errors for failed responses and failed transports.

    ``httpx.Client(transport=ErrorTransport(token=key))``; wraps ``transport``
    (default: a new ``httpx.HTTPTransport()``). Statuses below 400 pass, so
    redirects still work. The frame that raises holds neither the request
    (whose URL may carry the token) nor the response as a local: error
    trackers such as Sentry record frame locals (contract section 4).
    """

    __slots__ = ("_inner",)

    def __init__(self, transport: httpx.BaseTransport | None = None, *, token: str | None = None) -> None:
        super().__init__(token)
        self._inner = transport if transport is not None else httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the wrapped transport; raise the typed error of any failure."""
        try:
            response = self._inner.handle_request(request)
        except Exception as exc:
            del request  # error trackers record frame locals: a URL may carry the token
            err = self._typed(exc)
            if err is None:
                raise
            raise err from exc
        if response.status_code >= 400:
            response.request = request
            del request
            err = error_from_response(response, self._token)
            del response
            raise err
        assert isinstance(response.stream, httpx.SyncByteStream)
        response.stream = _TypedStream(response.stream, self)
        return response

    def close(self) -> None:
        self._inner.close()


class AsyncErrorTransport(_Credential, httpx.AsyncBaseTransport):
    """:class:`ErrorTransport` for an ``httpx.AsyncClient`` (default: ``httpx.AsyncHTTPTransport()``)."""

    __slots__ = ("_inner",)

    def __init__(
        self, transport: httpx.AsyncBaseTransport | None = None, *, token: str | None = None
    ) -> None:
        super().__init__(token)
        self._inner = transport if transport is not None else httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the wrapped transport; raise the typed error of any failure."""
        try:
            response = await self._inner.handle_async_request(request)
        except Exception as exc:
            del request  # error trackers record frame locals: a URL may carry the token
            err = self._typed(exc)
            if err is None:
                raise
            raise err from exc
        if response.status_code >= 400:
            response.request = request
            del request
            err = await aerror_from_response(response, self._token)
            del response
            raise err
        assert isinstance(response.stream, httpx.AsyncByteStream)
        response.stream = _AsyncTypedStream(response.stream, self)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()
