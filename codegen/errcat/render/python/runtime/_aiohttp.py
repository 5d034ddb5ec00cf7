"""aiohttp integration: typed errors from ``aiohttp.ClientResponse``, per call or for a whole session.

``await aerror_from_response(resp)`` (``_responses``) reads an aiohttp
response here, and :class:`ErrorMiddleware` is aiohttp's own idiom for a
session (a client middleware, aiohttp 3.12 and later):
``aiohttp.ClientSession(middlewares=(ErrorMiddleware(token=key),))``. The body
is read as aiohttp decodes it, no further than the body cap, within the read
deadline (docs/sdk-contract.md section 2c), and the response is then closed.
aiohttp itself is never imported here: the response it made is all this
module reads.
"""

from __future__ import annotations

from ._bounded import CHUNK, HookBase, acollect, deadline_of, error_of, joined
from ._generated.catalogue import ERROR_BODY_MAX_BYTES
from ._parse import fallback_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    import aiohttp

    from ._base import AgentRunError

__all__ = ["ErrorMiddleware"]


async def _read_bounded(resp: aiohttp.ClientResponse, deadline: float) -> tuple[bytes, bool]:
    """At most the body cap of ``resp`` within ``deadline`` ms in all; then closed."""
    import asyncio

    read: bytes | None = getattr(resp, "_body", None)  # what ``await resp.read()`` kept, if it ran
    if isinstance(read, bytes):
        return read[:ERROR_BODY_MAX_BYTES], False
    parts: list[bytes] = []
    cut = False
    try:
        async with asyncio.timeout(deadline / 1000):
            await acollect(resp.content.iter_chunked(CHUNK), parts)
    except TimeoutError:
        cut = True
    finally:
        try:
            resp.close()
        except Exception:
            pass
    return joined(parts), cut


async def aiohttp_error(resp: aiohttp.ClientResponse, token: str | None, deadline: float) -> AgentRunError:
    """The error of an aiohttp response, read or not; never raises (``aerror_from_response``)."""
    try:
        body, cut = await _read_bounded(resp, deadline)
        return error_of(resp.status, resp.headers, body, cut, deadline, token)
    except Exception:
        return fallback_error(resp.status)


class ErrorMiddleware(HookBase):
    """An aiohttp client middleware that raises typed errors for 4xx and 5xx responses.

    ``aiohttp.ClientSession(middlewares=(ErrorMiddleware(token=key),))``, or
    per request (``session.get(url, middlewares=...)``). Statuses below 400
    pass. The token is an attribute, never shown by ``repr``, and the
    middleware is not picklable.
    """

    __slots__ = ()

    async def __call__(
        self, request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType
    ) -> aiohttp.ClientResponse:
        """Send ``request`` through ``handler``; raise the typed error of a 4xx or 5xx response."""
        response = await handler(request)
        del request  # no frame the error is raised from holds the request (contract section 4)
        if response.status < 400:
            return response
        err = await aiohttp_error(response, self._token, deadline_of(self._deadline))
        del response
        raise err
