"""Reading an error body within the body cap and the read deadline, whatever the client (contract section 2c).

Every client's reader (httpx in ``_http``, requests, urllib3 and urllib in
``_clients``, aiohttp in ``_aiohttp``) hands its body's raw chunks to the same
pieces: :class:`Inflater` undoes the ``Content-Encoding`` never past the cap,
:func:`collect` (or :func:`acollect`) keeps at most the cap of them within
the deadline, and :func:`error_of` builds the error, saying in its cause when
the deadline cut the body short.
"""

from __future__ import annotations

import time

from ._fields import plain_number
from ._generated.catalogue import ERROR_BODY_MAX_BYTES, ERROR_BODY_READ_TIMEOUT_MS
from ._headers import pick_headers
from ._parse import make_error
from ._sanitize import cap_length, token_forms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator

    from ._base import AgentRunError

CHUNK = 16_384
"""How many raw bytes a reader asks its client for at a time."""
_SLACK_S = 0.01
"""A read that fails this close to the deadline failed because of it (a lowered socket timeout)."""


def deadline_of(body_read_timeout_ms: object) -> int | float:
    """The read deadline of a call: the option when it is a number >= 0, else the catalogue's."""
    ms = body_read_timeout_ms
    if isinstance(ms, (int, float)) and not isinstance(ms, bool) and 0 <= ms <= 2_147_483_647:
        return int(ms) if float(ms).is_integer() else ms
    return ERROR_BODY_READ_TIMEOUT_MS


def cut_note(deadline: int | float) -> str:
    """What a cause gains when the deadline stopped the read (contract section 2c)."""
    return f" (the error body was cut short: it did not arrive within {plain_number(deadline)} ms)"


def note_cut(err: AgentRunError, note: str) -> None:
    """Append ``note`` to the cause of ``err`` and cap it (contract section 2c: a body cut short)."""
    err.__dict__["cause"] = cap_length(err.cause + note)


def error_of(
    status: int, headers: object, body: bytes, cut: bool, deadline: float, token: str | None
) -> AgentRunError:
    """The error of a response's body; a body the deadline cut says so in its cause."""
    forms = token_forms(token) if token else ()
    err = make_error(body, status, pick_headers(headers), forms)
    if cut:
        note_cut(err, cut_note(deadline))
    return err


class Inflater:
    """A body's ``Content-Encoding`` undone as the body arrives, never more than asked for per call.

    ``identity``, ``gzip`` and ``deflate`` (zlib-wrapped, or raw as some
    servers send it: the first two bytes decide, :func:`is_zlib_header`) are
    decoded with a bound on each call's output, so a small compressed chunk
    never inflates past the body cap in memory (a decoder that inflates
    whole chunks spends ~128 MB on one 128 KB chunk).
    """

    __slots__ = ("_coding", "_head", "_zlib")

    _CODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
    """The codings read; a body in any other (``br``, ``zstd``, several at once) is not read."""

    def __init__(self, coding: str) -> None:
        import zlib

        self._coding = coding
        self._head = b""
        """A ``deflate`` body's first bytes, kept until there are two (its format is not known before)."""
        wbits = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS}
        self._zlib = zlib.decompressobj(wbits[coding]) if coding in wbits else None

    @classmethod
    def of(cls, headers: object) -> Inflater | None:
        """The inflater of the headers' ``Content-Encoding``; ``None`` if not one of :attr:`_CODINGS`.

        ``headers`` is any client's (a mapping or a message with ``get``).
        """
        try:
            found = headers.get("content-encoding") or headers.get("Content-Encoding")  # type: ignore[attr-defined]
        except Exception:
            found = None
        coding = found.strip().lower() if isinstance(found, str) else ""
        return cls(coding) if coding in cls._CODINGS else None

    def feed(self, raw: bytes, room: int) -> bytes:
        """At most ``room`` bytes of what ``raw`` (the next bytes as sent) decodes to."""
        if self._coding == "deflate" and self._zlib is None:
            import zlib

            self._head += raw
            if len(self._head) < 2:
                return b""
            raw, self._head = self._head, b""
            wbits = zlib.MAX_WBITS if is_zlib_header(raw[0], raw[1]) else -zlib.MAX_WBITS
            self._zlib = zlib.decompressobj(wbits)
        if self._zlib is None:
            return raw[:room]
        return self._zlib.decompress(raw, room)


def is_zlib_header(b0: int, b1: int) -> bool:
    """Whether two bytes open a zlib stream (RFC 1950), rather than raw deflate (RFC 1951).

    Compression method 8, a window of at most 32 KiB, and a header check that
    makes them, read as one big-endian number, a multiple of 31. Raw deflate
    from any encoder never opens so: its first block's type bits would have
    to be a stored block's, whose padding bits are zero.
    """
    return b0 & 0x0F == 8 and b0 >> 4 <= 7 and (b0 * 256 + b1) % 31 == 0


def inflated(headers: object, raw: Iterable[bytes]) -> Iterator[bytes]:
    """The body's decoded chunks, from its raw ones, until the body cap; nothing if its coding is not read."""
    inflater = Inflater.of(headers)
    if inflater is None:
        return
    size = 0
    for chunk in raw:
        piece = inflater.feed(chunk, ERROR_BODY_MAX_BYTES - size)
        size += len(piece)
        yield piece
        if size >= ERROR_BODY_MAX_BYTES:
            return


async def ainflated(headers: object, raw: AsyncIterable[bytes]) -> AsyncIterator[bytes]:
    """:func:`inflated` of an async body's raw chunks."""
    inflater = Inflater.of(headers)
    if inflater is None:
        return
    size = 0
    async for chunk in raw:
        piece = inflater.feed(chunk, ERROR_BODY_MAX_BYTES - size)
        size += len(piece)
        yield piece
        if size >= ERROR_BODY_MAX_BYTES:
            return


def collect(chunks: Iterable[bytes], end: float) -> tuple[bytes, bool]:
    """At most the body cap of ``chunks``, read until ``end`` (a ``time.monotonic()``); the one read loop.

    Returns the bytes and whether the deadline stopped the read: the clock is
    checked after each chunk, and a read that fails at the deadline (a
    socket timeout lowered to the time left) was stopped by it. A body that
    fails half-way for any other reason is read as far as it went.
    """
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
        cut = time.monotonic() >= end - _SLACK_S
    return joined(parts), cut


async def acollect(chunks: AsyncIterable[bytes], parts: list[bytes]) -> None:
    """:func:`collect` of an async body into ``parts``, to the cap; the caller cancels it at the deadline.

    ``parts`` keeps what arrived when the read is cancelled (anyio's scope
    for httpx, ``asyncio.timeout`` for aiohttp); :func:`joined` caps them.
    """
    size = 0
    try:
        async for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size >= ERROR_BODY_MAX_BYTES:
                return
    except Exception:
        pass


def joined(parts: list[bytes]) -> bytes:
    """The chunks read, as one body of at most the cap."""
    return b"".join(parts)[:ERROR_BODY_MAX_BYTES]


def end_of(deadline: float) -> float:
    """The ``time.monotonic()`` at which a read of ``deadline`` ms starting now must stop."""
    return time.monotonic() + deadline / 1000


class HookBase:
    """What every client hook holds: the token and the read deadline (``ErrorHook``, ``ErrorMiddleware``).

    The token is an attribute, not a closure variable: ``repr`` hides it, and
    pickling refuses the hook.
    """

    __slots__ = ("_deadline", "_token")

    def __init__(self, token: str | None = None, *, body_read_timeout_ms: float | None = None) -> None:
        self._token = token
        self._deadline = body_read_timeout_ms

    def __repr__(self) -> str:
        return f"{type(self).__name__}(token={'<hidden>' if self._token else None})"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError(f"{type(self).__name__} holds a credential and is not picklable")
