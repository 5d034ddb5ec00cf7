"""The Python SDK embedded in each HTTP client the way its README shows: one GET, the typed error it gives.

The testee's ``client`` request (tests/README.md) runs one of :data:`DRIVERS`:
each makes its client fetch ``url`` and returns the SDK's error (raised by the
client's hook or middleware, or built by ``error_from_response``), or ``None``
when the client gave no error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import ModuleType
from typing import Any

Driver = Callable[[ModuleType, str, "str | None", "float | None", float], "BaseException | None"]


def _httpx(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> BaseException | None:
    import httpx

    client = sdk.install_error_hook(
        httpx.Client(timeout=timeout_s), token=token, body_read_timeout_ms=ms
    )
    with client:
        try:
            client.get(url)
        except sdk.AgentRunError as err:
            caught: BaseException = err
            return caught
    return None


def _requests(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> BaseException | None:
    import requests

    resp = requests.get(url, stream=True, timeout=timeout_s)
    err: BaseException = sdk.error_from_response(resp, token, body_read_timeout_ms=ms)
    return err


def _urllib3(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> BaseException | None:
    import urllib3

    with urllib3.PoolManager(timeout=timeout_s, retries=False) as pool:
        resp = pool.request("GET", url, preload_content=False)
        err: BaseException = sdk.error_from_response(resp, token, body_read_timeout_ms=ms)
        return err


def _urllib(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> BaseException | None:
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(url, timeout=timeout_s).close()
    except urllib.error.HTTPError as failed:
        err: BaseException = sdk.error_from_response(failed, token, body_read_timeout_ms=ms)
        return err
    return None


async def _aiohttp_get(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> Any:
    import aiohttp

    middleware = sdk.ErrorMiddleware(token=token, body_read_timeout_ms=ms)
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    async with aiohttp.ClientSession(middlewares=(middleware,), timeout=timeout) as session:
        try:
            async with session.get(url):
                return None
        except sdk.AgentRunError as err:
            return err


async def _aiohttp_read(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> Any:
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=timeout_s)
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(url) as resp:
        return await sdk.aerror_from_response(resp, token, body_read_timeout_ms=ms)


def _aiohttp(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> BaseException | None:
    err: BaseException | None = asyncio.run(_aiohttp_get(sdk, url, token, ms, timeout_s))
    return err


def _aiohttp_response(
    sdk: ModuleType, url: str, token: str | None, ms: float | None, timeout_s: float
) -> BaseException | None:
    err: BaseException | None = asyncio.run(_aiohttp_read(sdk, url, token, ms, timeout_s))
    return err


DRIVERS: dict[str, Driver] = {
    "httpx": _httpx,
    "requests": _requests,
    "urllib3": _urllib3,
    "urllib": _urllib,
    "aiohttp": _aiohttp,
    "aiohttp-response": _aiohttp_response,
}
"""Each client by name: ``aiohttp`` through ``ErrorMiddleware``, ``aiohttp-response`` through
``aerror_from_response``, ``httpx`` through ``install_error_hook``, the others ``error_from_response``."""
STREAMED: frozenset[str] = frozenset(DRIVERS)
"""The clients whose error bodies the SDK reads itself (bounded in bytes and time): all of them here."""
