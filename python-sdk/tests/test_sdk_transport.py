"""Transport exceptions become typed errors: every httpx class mapped, no secret shown."""

from __future__ import annotations

import inspect
import json

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mitos_errors
from mitos_errors import _transport
from mitos_errors._classes import CLASSES
from mitos_errors._generated.catalogue import TEXT_MAX_CHARS

HTTPX_EXCEPTIONS = sorted(
    (obj for obj in vars(httpx).values() if inspect.isclass(obj) and issubclass(obj, Exception)),
    key=lambda cls: cls.__name__,
)
TRANSPORT_CODES = {"connection_failed", "connection_lost", "response_timeout"}
SECRETS = st.sampled_from(
    [
        "Bearer abcDEF123456789xyz",
        "https://user:hunter2pass@proxy.example:3128/",
        "api_key=sk_live_51HxyzABCDEF",
    ]
)
TOKEN = "tok-9f8e7d6c5b4a"


def test_every_httpx_exception_is_mapped_or_named_as_not_a_transport_failure() -> None:
    offenders = [
        cls.__name__
        for cls in HTTPX_EXCEPTIONS
        if cls not in _transport.HTTPX_ROLES and not issubclass(cls, _transport.NOT_TRANSPORT)
    ]
    assert not offenders, f"httpx exceptions with no deliberate mapping: {offenders}"


def test_every_transport_error_subclass_has_its_own_row() -> None:
    """A class is mapped by name, not by falling through to a base's row."""
    rows = [cls.__name__ for cls in HTTPX_EXCEPTIONS if issubclass(cls, httpx.TransportError)]
    assert [name for name in rows if getattr(httpx, name) not in _transport.HTTPX_ROLES] == []


@pytest.mark.parametrize(
    ("cls", "code"),
    [
        (httpx.ConnectError, "connection_failed"),
        (httpx.ConnectTimeout, "connection_failed"),
        (httpx.PoolTimeout, "connection_failed"),
        (httpx.ReadTimeout, "response_timeout"),
        (httpx.WriteTimeout, "response_timeout"),
        (httpx.ReadError, "connection_lost"),
        (httpx.RemoteProtocolError, "connection_lost"),
        (ConnectionRefusedError, "connection_failed"),
        (ConnectionResetError, "connection_lost"),
    ],
)
def test_the_code_says_whether_the_request_can_have_arrived(cls: type[Exception], code: str) -> None:
    err = mitos_errors.error_from_exception(cls("boom"))
    assert err is not None and err.code == code and err.status is None


@pytest.mark.parametrize(
    "exc", [httpx.InvalidURL("x"), httpx.StreamConsumed(), ValueError("bug"), KeyError("k")]
)
def test_other_exceptions_are_not_transport_failures(exc: Exception) -> None:
    assert mitos_errors.error_from_exception(exc) is None


transport_classes = st.sampled_from([c for c in HTTPX_EXCEPTIONS if c in _transport.HTTPX_ROLES])


@settings(max_examples=200, deadline=None)
@given(cls=transport_classes, before=st.text(max_size=40), secret=SECRETS, after=st.text(max_size=3000))
def test_the_cause_names_the_failure_and_never_a_secret(
    cls: type[Exception], before: str, secret: str, after: str
) -> None:
    exc = cls(f"{before} {secret} {TOKEN} {after}")
    err = mitos_errors.error_from_exception(exc, token=TOKEN)
    assert err is not None
    assert err.code in TRANSPORT_CODES
    assert err.cause.startswith(cls.__name__)
    assert len(err.cause) <= TEXT_MAX_CHARS
    shown = json.dumps(err.to_dict()) + str(err) + repr(err)
    for needle in (TOKEN, "hunter2pass", "abcDEF123456789xyz", "sk_live_51HxyzABCDEF"):
        assert needle not in shown


context_values = st.one_of(
    st.text(max_size=60), st.integers(-(2**53) + 1, 2**53 - 1), st.booleans(), st.none()
)


@settings(max_examples=200, deadline=None)
@given(
    code=st.sampled_from(sorted(CLASSES)),
    message=st.text(max_size=80),
    secret=SECRETS,
    context=st.dictionaries(st.from_regex(r"[a-z_]{1,12}", fullmatch=True), context_values, max_size=6),
)
def test_to_dict_is_plain_json_with_nothing_secret(
    code: str, message: str, secret: str, context: dict[str, object]
) -> None:
    context = {**context, "note": f"{secret} {TOKEN}"}
    err = mitos_errors.error_for_code(code, f"{message} {secret}", cause=secret, context=context)
    data = err.to_dict()
    text = json.dumps(data)
    assert json.loads(text) == data
    assert json.loads(json.dumps(err.context)) == dict(err.context)
    for needle in ("hunter2pass", "abcDEF123456789xyz", "sk_live_51HxyzABCDEF"):
        assert needle not in text


def test_the_context_stays_read_only() -> None:
    err = mitos_errors.NotFoundError("gone", context={"sandbox": "sb-1"})
    for change in (
        lambda c: c.__setitem__("sandbox", "x"),
        lambda c: c.update(a=1),
        lambda c: c.pop("sandbox"),
        lambda c: c.clear(),
        lambda c: c.setdefault("a", 1),
    ):
        with pytest.raises(TypeError):
            change(err.context)
    assert err.context == {"sandbox": "sb-1"}


def test_a_transport_never_shows_its_token() -> None:
    transport = mitos_errors.ErrorTransport(token=TOKEN)
    assert TOKEN not in repr(transport)
    with pytest.raises(TypeError):
        __import__("pickle").dumps(transport)


def test_a_failed_response_through_the_transport_is_its_typed_error() -> None:
    inner = httpx.MockTransport(lambda r: httpx.Response(429, json={"error": {"code": "rate_limited"}}))
    client = httpx.Client(transport=mitos_errors.ErrorTransport(inner))
    with client, pytest.raises(mitos_errors.RateLimitedError) as info:
        client.get("http://127.0.0.1:9/")
    assert info.value.status == 429


def test_a_2xx_response_passes_through_whole() -> None:
    inner = httpx.MockTransport(lambda r: httpx.Response(200, json={"ok": True}))
    with httpx.Client(transport=mitos_errors.ErrorTransport(inner)) as client:
        assert client.get("http://127.0.0.1:9/").json() == {"ok": True}
