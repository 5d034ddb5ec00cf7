"""The caller's token never reaches any field, string form, pickle, log, traceback or JSON."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
import pickle
import random
import re
import string
import traceback
import urllib.parse

import httpx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from testkit.oracle import REFERENCE

import mitos_errors
from mitos_errors import AgentRunError, ErrorHook, error_from_body, raise_for_status, sanitize_text


def _tokens() -> list[str]:
    rng = random.Random(1234)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    fixed = ["mitos_live_Zx81kQ0pLm2Nb7", "sb-token/with+slash=and space", "t\u00f6k\u00e9n-\U0001f511-v4lue"]
    return fixed + ["".join(rng.choice(alphabet) for _ in range(rng.randint(12, 48))) for _ in range(30)]


def _lower_pct(token: str) -> str:
    return re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), urllib.parse.quote(token, safe=""))


def _echoes(token: str) -> list[str]:
    raw = token.encode()
    basic = base64.b64encode(b"user:" + raw).decode()
    half = len(token) // 2
    return [
        token,
        urllib.parse.quote(token, safe=""),
        _lower_pct(token),
        f"Authorization: Basic {basic}",
        f"Authorization: Bearer {token}",
        token[:half] + "\u200b" + token[half:],
        token[:half] + "\u2066" + token[half:],
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    ]


def _hostile_body(echo: str) -> bytes:
    return json.dumps(
        {
            "error": {
                "code": "unauthorized",
                "message": f"bad token {echo}",
                "cause": f"token {echo} rejected",
                "remediation": f"do not send {echo}",
                "context": {echo: echo, "sandbox": echo, "nested": {"t": echo}},
                "request_id": echo,
            }
        }
    ).encode()


def _all_renderings(err: AgentRunError) -> list[str | bytes]:
    log = io.StringIO()
    logger = logging.getLogger("mitos-errors-test")
    handler = logging.StreamHandler(log)
    logger.addHandler(handler)
    try:
        try:
            raise err
        except AgentRunError:
            logger.exception("request failed")
    finally:
        logger.removeHandler(handler)
    tb = "".join(traceback.TracebackException.from_exception(err, capture_locals=True).format())
    fields = [err.code, err.message, err.cause, err.remediation, str(err.request_id), repr(dict(err.context))]
    return [
        *fields,
        str(err),
        repr(err),
        err.to_json(),
        pickle.dumps(err),
        log.getvalue(),
        tb,
        repr(err.args),
    ]


def _leaks(token: str, renderings: list[str | bytes]) -> list[str]:
    forms = {token, urllib.parse.quote(token, safe=""), _lower_pct(token)}
    found = []
    for text in renderings:
        hay = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        found += [form for form in forms if form in hay]
    return found


@pytest.mark.parametrize("token", _tokens())
def test_no_echo_of_the_token_survives_in_any_rendering(token: str) -> None:
    for echo in _echoes(token):
        err = error_from_body(_hostile_body(echo), status=401, headers={"x-request-id": echo}, token=token)
        assert type(err) is mitos_errors.UnauthorizedError
        renderings = _all_renderings(err)
        assert _leaks(token, renderings) == [], echo
        if echo.startswith("Authorization: Basic "):
            assert echo.split()[-1] not in " ".join(map(str, renderings))


def _package_frames_text(err: BaseException) -> str:
    """The traceback with locals, only of the frames inside mitos_errors."""
    te = traceback.TracebackException.from_exception(err, capture_locals=True)
    frames = [f for f in te.stack if "mitos_errors" in f.filename]
    assert frames, "the raise should pass through the package"
    return "".join(traceback.StackSummary.from_list(frames).format())


def test_traceback_locals_of_raise_for_status_hold_no_token() -> None:
    token = "Zq9-very-secret-token-xyz"
    resp = httpx.Response(401, content=_hostile_body(token), request=httpx.Request("GET", "https://x/"))
    with pytest.raises(AgentRunError) as info:
        raise_for_status(resp, token=token)
    text = _package_frames_text(info.value)
    assert "raise_for_status" in text
    assert token not in text


def test_traceback_locals_of_the_client_hook_hold_no_token() -> None:
    token = "Zq9-hook-secret-token-xyz"

    def app(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, content=_hostile_body(request.headers["authorization"]))

    client = httpx.Client(
        transport=httpx.MockTransport(app), event_hooks={"response": [ErrorHook(token=f"Bearer {token}")]}
    )
    with pytest.raises(mitos_errors.UnauthorizedError) as info:
        client.get("https://api/x", headers={"Authorization": f"Bearer {token}"})
    text = _package_frames_text(info.value)
    everything = "".join(
        traceback.TracebackException.from_exception(info.value, capture_locals=True).format()
    )
    assert "ErrorHook(token=<hidden>)" in everything
    assert token not in text
    assert token not in str(info.value) and token not in info.value.to_json()


def test_secret_like_strings_never_reach_an_error() -> None:
    secrets = [
        "Bearer abcdefghijklmnop",
        "sk-" + "a" * 40,
        "ghp_" + "b" * 36,
        "AKIAABCDEFGHIJKLMNOP",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        "postgres://app:Sup3rS3cret@db:5432/x",
    ]
    for secret in secrets:
        err = error_from_body(_hostile_body(secret), status=401)
        needle = secret.split()[-1] if secret.startswith("Bearer") else secret
        needle = needle.split("app:")[-1].split("@")[0] if "://" in needle else needle
        for text in _all_renderings(err):
            hay = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
            assert needle not in hay, (secret, hay[:200])


def _own_characters(encoded: str, start: int, length: int) -> str:
    """The characters of base64 ``encoded`` whose bits all come from bytes ``start`` to ``start + length``."""
    first = -(-8 * start // 6)
    last = (8 * (start + length)) // 6
    return encoded[first:last]


@settings(max_examples=300, deadline=None)
@given(
    token=st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Cf", "Zl", "Zp")),
        min_size=8,
        max_size=40,
    ),
    before=st.binary(max_size=11),
    after=st.binary(max_size=11),
    url_safe=st.booleans(),
    padded=st.booleans(),
)
def test_a_token_inside_base64_is_found_at_every_alignment(
    token: str, before: bytes, after: bytes, url_safe: bool, padded: bool
) -> None:
    # Basic credentials echoed without the scheme word: base64 of "user:token" at any user length.
    assume(REFERENCE.strip(token) == token)  # the token as step 1 leaves it: its bytes are the ones encoded
    raw = token.encode()
    encode = base64.urlsafe_b64encode if url_safe else base64.b64encode
    encoded = encode(before + raw + after).decode()
    if not padded:
        encoded = encoded.rstrip("=")
    own = _own_characters(encoded, len(before), len(raw))
    assume(len(own) >= 8)
    text = f"echo {encoded} end"
    out = sanitize_text(text, token=token)
    assert own not in out, (len(before) % 3, out)
    assert out == REFERENCE.sanitize(text, token)


def _sdk_frame_locals(err: BaseException) -> list[str]:
    """The repr of every local of every package frame in the tracebacks of ``err`` and of what it chains."""
    shown: list[str] = []
    seen: set[int] = set()
    todo: list[BaseException | None] = [err]
    while todo:
        exc = todo.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        todo += [exc.__cause__, exc.__context__]
        for frame, _line in traceback.walk_tb(exc.__traceback__):
            if "mitos_errors" in frame.f_code.co_filename:
                shown += [
                    f"{frame.f_code.co_name} {name}={value!r}" for name, value in frame.f_locals.items()
                ]
    return shown


def _failing_app(kind: str) -> httpx.MockTransport:
    def app(request: httpx.Request) -> httpx.Response:
        if kind == "refused":
            raise httpx.ConnectError("connection refused", request=request)
        if kind == "reset":
            raise httpx.ReadError("connection reset", request=request)
        return httpx.Response(401, content=_hostile_body("bad key"), request=request)

    return httpx.MockTransport(app)


@settings(max_examples=40, deadline=None)
@given(
    token=st.text(
        alphabet=string.ascii_letters + string.digits + "-_.~",
        min_size=12,
        max_size=40,
    ),
    kind=st.sampled_from(["status", "refused", "reset"]),
    where=st.sampled_from(["transport", "async transport", "hook"]),
)
def test_no_frame_the_sdk_raises_from_holds_the_token(token: str, kind: str, where: str) -> None:
    # A request whose URL carries the key (?api_key=), as error trackers such as Sentry record frame locals.
    url = f"https://api.example/v1/x?api_key={token}"
    caught: BaseException | None = None
    try:
        if where == "transport":
            with httpx.Client(
                transport=mitos_errors.ErrorTransport(_failing_app(kind), token=token)
            ) as client:
                client.get(url)
        elif where == "async transport":

            async def call() -> None:
                inner = _failing_app(kind)
                transport = mitos_errors.AsyncErrorTransport(inner, token=token)
                async with httpx.AsyncClient(transport=transport) as client:
                    await client.get(url)

            asyncio.run(call())
        else:
            with httpx.Client(
                transport=_failing_app("status"), event_hooks={"response": [ErrorHook(token=token)]}
            ) as client:
                client.get(url)
    except AgentRunError as err:
        caught = err
    assert caught is not None
    shown = _sdk_frame_locals(caught)
    assert shown, "the error passed through the package's frames"
    leaks = [text for text in shown if token in text]
    assert leaks == [], leaks


def test_repr_does_not_spell_a_token_form_with_an_escape() -> None:
    """Found by the fuzz session (seed 20261205, case 140909): U+12B1 is unassigned in
    Python 3.11's Unicode tables, so ``repr`` of the request id spelled ``\\u12b1BzTndo``,
    which holds ``b1BzTndo``, the base64 of the token, while the id itself does not."""
    body = b'{"error":{"request_id":"\\u12b1BzTndo","code":"V"}}'
    err = error_from_body(body, status=500, token="oPsNwh")
    assert err.request_id == "\u12b1BzTndo"
    assert "b1BzTndo" not in repr(err)
    assert repr(err).endswith("request_id='\u12b1BzTndo')")


_B64_RUN = re.compile(r"[A-Za-z0-9+/=_-]+")


@settings(max_examples=200, deadline=None)
@given(
    message=st.text(max_size=40),
    request_id=st.one_of(st.none(), st.text(max_size=40)),
    code=st.text(max_size=12),
)
def test_repr_writes_no_letter_or_digit_the_texts_do_not_hold(
    message: str, request_id: str | None, code: str
) -> None:
    """Every run of token-alphabet characters in ``repr(err)`` is a run of a text it shows, or of
    the frame around them: the SDK's own string form adds no material to a token form."""
    err = AgentRunError(message, code=code, request_id=request_id)
    held = [err.code, err.message, err.request_id or ""]
    frame = f"{type(err).__name__}(code='', message='', status={err.status!r}, request_id=None)"
    runs = {run for text in (*held, frame) for run in _B64_RUN.findall(text)}
    for run in _B64_RUN.findall(repr(err)):
        assert any(run in r for r in runs), (run, repr(err))
