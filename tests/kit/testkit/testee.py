"""The Python SDK's testee: the request protocol of ``testee.cjs``, answered with :func:`~testkit.record.python_record`.

In process, :class:`PythonTestee` answers requests one by one; as a program,
``python -m testkit.testee < requests.jsonl`` answers each line of stdin with
one line on stdout, for an SDK other than the installed one (put its source on
``PYTHONPATH``). The requests are those of testee.cjs (its header lists them;
tests/README.md describes each); ``fetch`` also takes ``"async": true`` (the
SDK's ``AsyncErrorTransport``) and ``"http2": true``. ``emit`` (an emit vector's
input; ``code`` null for an error that is not a catalogue error) answers
``{"status", "headers", "body"}``, the body's bytes as Latin-1 text.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from testkit.body import expand
from testkit.record import Record, python_record

Json = Any
Request = dict[str, Json]

TEXT_OPTIONS = ("cause", "remediation", "status")
EMIT_OPTIONS = ("surface", "message", "remediation", "cause", "context", "request_id", "token")
"""The members of an ``emit`` request (an emit vector's input) passed to ``envelope_bytes`` by name."""


def _sdk() -> ModuleType:
    """The Python SDK first on the path; raises ``ImportError`` with the fix when there is none."""
    try:
        import mitos_errors
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "mitos_errors is not importable: install it (`pip install ./python-sdk`) or put"
            " python-sdk/src on PYTHONPATH"
        ) from exc
    return mitos_errors


def headers_of(headers: Json) -> dict[str, str]:
    """Headers given as a mapping or as ``[name, value]`` pairs, as a dict (a name repeated exactly: the last)."""
    if isinstance(headers, dict):
        return dict(headers)
    return {str(name): str(value) for name, value in headers or ()}


class PythonTestee:
    """Answers requests with the Python SDK ``sdk`` (the installed one by default), in this process."""

    def __init__(self, sdk: ModuleType | None = None) -> None:
        self.sdk = sdk or _sdk()
        self._client: Any = None

    def close(self) -> None:
        """Close the HTTP client the ``response`` requests share, if one was opened."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def run(self, requests: Iterable[Request]) -> list[Record]:
        """The answer of every request, in order."""
        return [self.answer(r) for r in requests]

    def answer(self, request: Request) -> Record:
        """The answer of one request: a record, ``{"none": true}``, ``{"threw"}`` or ``{"text"}``."""
        op: Callable[[Request], Record] | None = getattr(self, f"_op_{request.get('op')}", None)
        try:
            if op is None:
                raise TypeError(f"no such request: {request.get('op')!r}")
            out = op(request)
        except BaseException as exc:  # a conformance failure, reported as data
            if isinstance(exc, KeyboardInterrupt):
                raise
            out = {"threw": f"{type(exc).__name__}: {exc}"}
        return {"id": request.get("id"), **out}

    def _timed(self, token: str | None, call: Callable[[], BaseException | None]) -> Record:
        before = int(time.time() * 1000)
        started = time.perf_counter()
        err = call()
        elapsed_ms = (time.perf_counter() - started) * 1000
        after = int(time.time() * 1000)
        if err is None:
            return {"none": True}
        record = python_record(self.sdk, err, token)
        return {**record, "elapsed_ms": elapsed_ms, "before": before, "after": after}

    def _thrown(self, token: str | None, call: Callable[[], Json]) -> Record:
        try:
            value = call()
        except self.sdk.AgentRunError as err:
            caught: BaseException = err
            return self._timed(token, lambda: caught)
        status = getattr(value, "status_code", None)
        return {"none": True} if status is None else {"none": True, "status": status}

    def _op_body(self, r: Request) -> Record:
        body = expand(r.get("body"))
        headers = headers_of(r.get("headers"))
        token = r.get("token")
        out = self._timed(
            token,
            lambda: self.sdk.error_from_body(
                body, status=r["status"], headers=headers, token=token
            ),
        )
        if isinstance(body, bytes):
            out["body_sha256"] = hashlib.sha256(body).hexdigest()
        return out

    def _op_response(self, r: Request) -> Record:
        import httpx

        if self._client is None:
            self._client = httpx.Client(timeout=r.get("timeout_ms", 20000) / 1000)
        token, deadline = r.get("token"), r.get("body_read_timeout_ms")
        with self._client.stream("GET", r["url"]) as resp:
            return self._timed(
                token,
                lambda: self.sdk.error_from_response(
                    resp, token=token, body_read_timeout_ms=deadline
                ),
            )

    def _op_fetch(self, r: Request) -> Record:
        import httpx

        http2 = bool(r.get("http2"))
        token = r.get("token")
        content = b"a" * r["body_bytes"] if r.get("body_bytes") else None
        send = {
            "method": r.get("method", "GET"),
            "url": r["url"],
            "content": content,
            "headers": {"authorization": f"Bearer {token}"},
        }
        timeout = r.get("timeout_ms", 20000) / 1000
        if r.get("async"):

            async def run() -> Json:
                inner = httpx.AsyncHTTPTransport(http1=not http2, http2=http2)
                transport = self.sdk.AsyncErrorTransport(inner, token=token)
                async with httpx.AsyncClient(transport=transport, timeout=timeout) as client:
                    return await client.request(**send)

            return self._thrown(token, lambda: asyncio.run(run()))
        inner = httpx.HTTPTransport(http1=not http2, http2=http2)
        transport = self.sdk.ErrorTransport(inner, token=token)
        with httpx.Client(transport=transport, timeout=timeout) as client:
            return self._thrown(token, lambda: client.request(**send))

    def _texts(self, r: Request) -> dict[str, Json]:
        return {name: r[name] for name in TEXT_OPTIONS if r.get(name) is not None}

    def _op_error_for_code(self, r: Request) -> Record:
        kwargs = self._texts(r)
        for name in ("context", "request_id", "token"):
            if r.get(name) is not None:
                kwargs[name] = r[name]
        return self._timed(
            r.get("token"),
            lambda: self.sdk.error_for_code(r["code"], r.get("message") or "", **kwargs),
        )

    def _op_construct(self, r: Request) -> Record:
        cls = self.sdk.AgentRunError if r.get("class") is None else self.sdk.lookup(r["class"])
        kwargs = self._texts(r)
        return self._timed(None, lambda: cls(r.get("message") or "", r.get("code"), **kwargs))

    def _op_code_for_grpc(self, r: Request) -> Record:
        code = self.sdk.code_for_grpc(r["status"], channel=r.get("channel"))
        return self._timed(None, lambda: self.sdk.error_for_code(code, ""))

    def _op_error_for_exit(self, r: Request) -> Record:
        kwargs = {
            k: r[k] for k in ("timeout_s", "stdout", "stderr", "token") if r.get(k) is not None
        }
        return self._timed(
            r.get("token"), lambda: self.sdk.error_for_exit(r["exit_code"], **kwargs)
        )

    def _op_validate_timeout(self, r: Request) -> Record:
        kwargs = {} if r.get("max_timeout_s") is None else {"max_timeout_s": r["max_timeout_s"]}
        return self._thrown(None, lambda: self.sdk.validate_timeout(r["timeout_s"], **kwargs))

    def _op_sanitize(self, r: Request) -> Record:
        return {"text": self.sdk.sanitize_text(r["text"], token=r.get("token"))}

    def _op_emit(self, r: Request) -> Record:
        code = r.get("code")
        sent = self.sdk.envelope_bytes(
            RuntimeError(r.get("cause") or "") if code is None else code,
            **{name: r[name] for name in EMIT_OPTIONS if r.get(name) is not None},
        )
        return {
            "status": sent.status,
            "headers": [list(h) for h in sent.headers],
            "body": sent.body.decode("latin-1"),
        }


def main(argv: list[str] | None = None) -> int:
    """Answer each JSON line of stdin with one JSON line on stdout.

    ``--sdk-under DIR``: refuse to start unless the SDK imported is the one in ``DIR``.
    """
    args = argv if argv is not None else sys.argv[1:]
    testee = PythonTestee()
    if args[:1] == ["--sdk-under"]:
        where = str(testee.sdk.__file__)
        if not where.startswith(args[1]):
            print(f"the SDK imported is {where}, not the one under {args[1]}", file=sys.stderr)
            return 2
    try:
        for line in sys.stdin:
            if line.strip():
                answer = testee.answer(json.loads(line))
                print(json.dumps(answer, ensure_ascii=False), flush=True)
    finally:
        testee.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
