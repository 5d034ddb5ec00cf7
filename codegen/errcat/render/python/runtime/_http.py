"""httpx integration: typed errors from responses, per call or for a whole client.

A response whose body was not read yet (a streamed response, or one seen by
an event hook) is read no further than the catalogue's body cap of decoded
bytes (a gzip or deflate body is inflated as it arrives, never past the cap),
within the body read deadline, and then closed. No error keeps the response,
the request or the token: the token is used while the error is built and
dropped before anything is raised.
"""

from __future__ import annotations

from ._base import AgentRunError
from ._clients import AWAIT_FIRST, other_client, other_response
from ._fields import plain_number
from ._generated.catalogue import DISTRIBUTION, ERROR_BODY_MAX_BYTES, ERROR_BODY_READ_TIMEOUT_MS
from ._headers import pick_headers
from ._parse import fallback_error, make_error
from ._sanitize import cap_length, token_forms

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
    from collections.abc import AsyncIterator, Iterator

__all__ = [
    "AsyncErrorHook",
    "ErrorHook",
    "aerror_from_response",
    "araise_for_status",
    "error_from_response",
    "install_error_hook",
    "raise_for_status",
]


_NO_TIMEOUTS: dict[str, object] = {}


def note_cut(err: AgentRunError, note: str) -> None:
    """Append ``note`` to the cause of ``err`` and cap it (contract section 2c: a body cut short)."""
    err.__dict__["cause"] = cap_length(err.cause + note)


def deadline_of(body_read_timeout_ms: object) -> int | float:
    """The read deadline of a call: the option when it is a number >= 0, else the catalogue's."""
    ms = body_read_timeout_ms
    if isinstance(ms, (int, float)) and not isinstance(ms, bool) and 0 <= ms <= 2_147_483_647:
        return int(ms) if float(ms).is_integer() else ms
    return ERROR_BODY_READ_TIMEOUT_MS


def cut_note(deadline: int | float) -> str:
    """What a cause gains when the deadline stopped the read (contract section 2c)."""
    return f" (the error body was cut short: it did not arrive within {plain_number(deadline)} ms)"


class _Inflater:
    """A body's ``Content-Encoding`` undone as the body arrives, never more than asked for per call.

    ``identity``, ``gzip`` and ``deflate`` (zlib-wrapped, or raw as some
    servers send it) are decoded with a bound on each call's output, so a
    small compressed chunk never inflates past the body cap in memory (a
    decoder that inflates whole chunks spends ~128 MB on one 128 KB chunk).
    """

    __slots__ = ("_coding", "_zlib")

    _CODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
    """The codings read; a body in any other (``br``, ``zstd``, several at once) is not read."""

    def __init__(self, coding: str) -> None:
        import zlib

        self._coding = coding
        wbits = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
        self._zlib = zlib.decompressobj(wbits[coding]) if coding in wbits else None

    @classmethod
    def of(cls, resp: httpx.Response) -> _Inflater | None:
        """The inflater of the response's ``Content-Encoding``; ``None`` if not one of :attr:`_CODINGS`."""
        coding = resp.headers.get("content-encoding", "").strip().lower()
        return cls(coding) if coding in cls._CODINGS else None

    def feed(self, raw: bytes, room: int) -> bytes:
        """At most ``room`` bytes of what ``raw`` (the next bytes as sent) decodes to."""
        if self._zlib is None:
            return raw[:room]
        import zlib

        try:
            return self._zlib.decompress(raw, room)
        except zlib.error:
            if self._coding != "deflate" or self._zlib.unused_data or self._zlib.eof:
                raise
            self._coding = "raw-deflate"  # deflate without the zlib wrapper
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
            return self._zlib.decompress(raw, room)


def _decoded(resp: httpx.Response, raw: Iterator[bytes]) -> Iterator[bytes]:
    """The body's decoded chunks, from its raw ones, until the body cap; nothing if its coding is not read."""
    inflater = _Inflater.of(resp)
    if inflater is None:
        return
    size = 0
    for chunk in raw:
        piece = inflater.feed(chunk, ERROR_BODY_MAX_BYTES - size)
        size += len(piece)
        yield piece
        if size >= ERROR_BODY_MAX_BYTES:
            return


async def _adecoded(resp: httpx.Response) -> AsyncIterator[bytes]:
    """:func:`_decoded` of an async response's raw chunks."""
    inflater = _Inflater.of(resp)
    if inflater is None:
        return
    size = 0
    async for chunk in resp.aiter_raw():
        piece = inflater.feed(chunk, ERROR_BODY_MAX_BYTES - size)
        size += len(piece)
        yield piece
        if size >= ERROR_BODY_MAX_BYTES:
            return


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
    import time

    end = time.monotonic() + deadline / 1000
    timeouts = _read_timeouts(resp)
    original = timeouts.get("read")
    chunks: list[bytes] = []
    size = 0
    cut = lowered = False
    try:
        for chunk in _chunks_until(resp, timeouts, original, end):
            if chunk is None:
                lowered = True
                continue
            chunks.append(chunk)
            size += len(chunk)
            if size >= ERROR_BODY_MAX_BYTES:
                break
            if time.monotonic() >= end:
                cut = True
                break
    except httpx.TimeoutException:
        cut = lowered and time.monotonic() >= end - 0.01  # our deadline, not the caller's own timeout
    except Exception:
        pass  # a body that fails half-way is read as far as it went
    finally:
        if timeouts is not _NO_TIMEOUTS:
            timeouts["read"] = original
        try:
            resp.close()
        except Exception:
            pass
    return b"".join(chunks)[:ERROR_BODY_MAX_BYTES], cut


def _chunks_until(
    resp: httpx.Response, timeouts: dict[str, object], original: object, end: float
) -> Iterator[bytes | None]:
    """The body's chunks, the read timeout set before each to at most the time left (``None``: lowered)."""
    import time

    chunks = _decoded(resp, resp.iter_raw())
    while True:
        if timeouts is not _NO_TIMEOUTS:
            left = max(end - time.monotonic(), 0.001)
            if not isinstance(original, (int, float)) or left < original:
                timeouts["read"] = left
                yield None
        chunk = next(chunks, None)
        if chunk is None:
            return
        yield chunk


async def _aread_bounded(resp: httpx.Response, deadline: float) -> tuple[bytes, bool]:
    """:func:`_read_bounded` for an ``httpx.AsyncClient``: the read is cancelled at the deadline."""
    import anyio

    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.move_on_after(deadline / 1000) as scope:
            try:
                async for chunk in _adecoded(resp):
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
    return b"".join(chunks)[:ERROR_BODY_MAX_BYTES], scope.cancelled_caught


def _error_of(
    status: int, headers: object, body: bytes, cut: bool, deadline: float, token: str | None
) -> AgentRunError:
    """The error of a response's body; a body the deadline cut says so in its cause."""
    forms = token_forms(token) if token else ()
    err = make_error(body, status, pick_headers(headers), forms)
    if cut:
        note_cut(err, cut_note(deadline))
    return err


def error_from_response(
    resp: httpx.Response | object, token: str | None = None, *, body_read_timeout_ms: float | None = None
) -> AgentRunError:
    """The typed error of a response; never raises.

    A response already read gives its body as it is (no more than the
    catalogue's body cap of it is read); an unread, streamed response is read
    no further than that cap of decoded bytes and closed (``gzip`` and
    ``deflate`` are inflated as they arrive, never past the cap; a body in
    any other coding is not read, and the status decides). A sync read of an async stream reads
    nothing and gives the status-derived error: use
    :func:`aerror_from_response` there. Reading has a deadline of its own
    (docs/sdk-contract.md section 2c), not reset by arriving bytes: past it,
    the error is built from the bytes that arrived and its cause says so.

    A requests, urllib3 or urllib response is read the same way (see
    :mod:`._clients`: the deadline is checked after each chunk).

    Args:
        resp: the response, read or not.
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
    if not isinstance(resp, httpx.Response):
        status, headers, body, cut = other_response(resp, deadline)
        try:
            return _error_of(status, headers, body, cut, deadline, token)
        except Exception:
            return fallback_error(status)
    try:
        cut = False
        try:
            body = resp.content
        except httpx.ResponseNotRead:
            body, cut = _read_bounded(resp, deadline)
        return _error_of(resp.status_code, resp.headers, body, cut, deadline, token)
    except Exception:
        return fallback_error(resp.status_code)


async def aerror_from_response(
    resp: httpx.Response, token: str | None = None, *, body_read_timeout_ms: float | None = None
) -> AgentRunError:
    """:func:`error_from_response` for a response of an ``httpx.AsyncClient``.

    Raises:
        TypeError: ``resp`` is no ``httpx.Response`` (an untyped caller's
            mistake): the message names the call to make instead.
    """
    given: object = resp
    if not isinstance(given, httpx.Response):
        if other_client(given) == "aiohttp":
            raise TypeError(AWAIT_FIRST.format(client="aiohttp"))
        raise TypeError(
            f"aerror_from_response takes an httpx.Response of an httpx.AsyncClient, not "
            f"{type(given).__module__}.{type(given).__qualname__}: "
            "a sync client's response goes to error_from_response"
        )
    try:
        deadline = deadline_of(body_read_timeout_ms)
        cut = False
        try:
            body = resp.content
        except httpx.ResponseNotRead:
            body, cut = await _aread_bounded(resp, deadline)
        return _error_of(resp.status_code, resp.headers, body, cut, deadline, token)
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
    err = error_from_response(resp, token, body_read_timeout_ms=body_read_timeout_ms)
    del token
    raise err


async def araise_for_status(
    resp: httpx.Response, token: str | None = None, *, body_read_timeout_ms: float | None = None
) -> None:
    """:func:`raise_for_status` for a response of an ``httpx.AsyncClient``."""
    if 200 <= resp.status_code <= 299:
        return
    err = await aerror_from_response(resp, token, body_read_timeout_ms=body_read_timeout_ms)
    del token
    raise err


class ErrorHook:
    """An ``httpx.Client`` response event hook that raises typed errors for 4xx and 5xx responses.

    ``httpx.Client(event_hooks={"response": [ErrorHook(token=key)]})``. Redirects
    and other statuses below 400 pass, so ``follow_redirects`` still works. The
    token is an attribute, not a closure variable, and never shown by ``repr``.
    """

    __slots__ = ("_deadline", "_token")

    def __init__(self, token: str | None = None, *, body_read_timeout_ms: float | None = None) -> None:
        self._token = token
        self._deadline = body_read_timeout_ms

    def __repr__(self) -> str:
        return f"{type(self).__name__}(token={'<hidden>' if self._token else None})"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError(f"{type(self).__name__} holds a credential and is not picklable")

    def __call__(self, response: httpx.Response) -> None:
        if response.status_code >= 400:
            raise error_from_response(response, self._token, body_read_timeout_ms=self._deadline)


class AsyncErrorHook(ErrorHook):
    """:class:`ErrorHook` for an ``httpx.AsyncClient``."""

    __slots__ = ()

    async def __call__(self, response: httpx.Response) -> None:  # type: ignore[override]
        if response.status_code >= 400:
            raise await aerror_from_response(response, self._token, body_read_timeout_ms=self._deadline)


def install_error_hook(
    client: httpx.Client | httpx.AsyncClient,
    *,
    token: str | None = None,
    body_read_timeout_ms: float | None = None,
) -> httpx.Client | httpx.AsyncClient:
    """Make ``client`` raise typed errors on every 4xx and 5xx response; returns ``client``.

    Adds an :class:`ErrorHook` (or :class:`AsyncErrorHook` for an async client)
    after the client's existing response hooks.
    """
    kind = AsyncErrorHook if isinstance(client, httpx.AsyncClient) else ErrorHook
    hook: ErrorHook = kind(token, body_read_timeout_ms=body_read_timeout_ms)
    hooks = dict(client.event_hooks)
    hooks["response"] = [*hooks.get("response", []), hook]
    client.event_hooks = hooks
    return client
