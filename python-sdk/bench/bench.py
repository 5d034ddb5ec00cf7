"""Benchmark mitos-errors against its floors and its peers, in one run.

Three measurements, each reported as a ratio to a floor measured in the same run:

1. **Building an error** from the same ~300-byte bodies (a 429, a 404 and a 500
   envelope, a 502 HTML page): ``error_from_body(bytes)`` against ``json.loads``
   of the body (the floor; for the HTML page, the failing ``json.loads``), and
   ``error_from_response(httpx.Response)``, with the caller's token and
   without, side by side with ``mitos-run``'s ``error_from_response`` (which
   takes the token too), openai-python's ``_make_status_error_from_response``
   and google-api-core's ``from_http_response`` (which take none). A peer that
   is not installed is skipped, and the table says so.
2. **Sanitizing** a clean 200-character message against returning it unchanged,
   and **pathological inputs** (unclosed strings of escapes, deep nesting, runs
   of partial secrets and markers, long headers: ``worst.json``, shared with
   ts-sdk/bench/worst.mjs) at 1, 8 and 64 KiB: linear time grows about 64x
   from 1 to 64 KiB, and no family may grow more than 80x.
3. **Importing** ``mitos_errors`` (``-X importtime``, in a fresh interpreter, with
   compiled bytecode) against a floor module with the same number of plain
   exception classes and no imports, copied to the same directory (``bench_import.py``).

Run: ``nox -s bench``, or ``python python-sdk/bench/bench.py`` (``--quick`` for a
short run). It prints a table and exits 0; the targets are printed next to the
figures; the exit status is 1 when a pathological family grows more than 80x. The machine's speed cancels out of the ratios, not its noise: run it
a few times.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

import mitos_errors
from mitos_errors._generated import catalogue

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling, however this file is loaded
from bench_import import Row, bench_import

URL = "https://api.mitos.example/v1/sandboxes/sb-7f3a/exec"
# The bodies, headers and token of both SDK benchmarks (ts-sdk/bench/bench.mjs reads them too).
_SHARED = json.loads((Path(__file__).with_name("bodies.json")).read_text(encoding="utf-8"))
TOKEN: str = _SHARED["token"]
BODIES: dict[str, tuple[int, bytes]] = {
    b["name"]: (b["status"], b["body"].encode()) for b in _SHARED["bodies"]
}
HEADERS: dict[str, dict[str, str]] = {b["name"]: b["headers"] for b in _SHARED["bodies"]}

CLEAN_200 = (
    "The sandbox sb-7f3a was not found in region eu-west: confirm the sandbox id exists and is Ready "
    "before calling; the orchestrator reported no sandbox registered under that identifier at 12:03 UTC."
)[:200]

Peers = dict[str, Callable[[int, bytes], Callable[[Any], object]] | None]
"""Each peer's error builder by name (``None``: not installed)."""


def _best(fn: Callable[[], object], number: int, repeat: int) -> float:
    """Best time of ``repeat`` loops of ``number`` calls, in microseconds per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / number * 1e6


def _best_over(fn: Callable[[Any], object], make: Callable[[], Any], number: int, repeat: int) -> float:
    """Like :func:`_best`, calling ``fn`` on a fresh object from ``make`` each time (made outside the clock)."""
    best = float("inf")
    for _ in range(repeat):
        objects = [make() for _ in range(number)]
        start = time.perf_counter()
        for obj in objects:
            fn(obj)
        best = min(best, time.perf_counter() - start)
    return best / number * 1e6


def _json_floor(body: bytes) -> Callable[[], object]:
    def floor() -> object:
        try:
            return json.loads(body)
        except ValueError:
            return None

    return floor


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _peers() -> tuple[Peers, dict[str, Any]]:
    """Each peer's error-building call, or ``None`` (with the reason) when it is not installed."""
    peers: dict[str, Callable[[int, bytes], Callable[[Any], object]] | None] = {}
    makers: dict[str, Any] = {}
    try:
        from mitos import _envelope as mitos_envelope  # mitos-run 0.3.1

        peers[f"mitos-run {_version('mitos-run')} error_from_response"] = lambda s, b: (
            lambda r: mitos_envelope.error_from_response(r, token=TOKEN)
        )
        makers["mitos-run"] = "httpx"
    except ImportError:
        peers["mitos-run error_from_response"] = None
    try:
        import openai

        client = openai.OpenAI(api_key=TOKEN, base_url="https://api.mitos.example/v1")
        peers[f"openai {_version('openai')} _make_status_error_from_response"] = lambda s, b: (
            client._make_status_error_from_response
        )
    except ImportError:
        peers["openai _make_status_error_from_response"] = None
    try:
        import requests
        from google.api_core import exceptions as gexc

        peers[f"google-api-core {_version('google-api-core')} from_http_response"] = lambda s, b: (
            gexc.from_http_response
        )
        makers["requests"] = requests
    except ImportError:
        peers["google-api-core from_http_response"] = None
    return peers, makers


def _httpx_response(status: int, body: bytes, headers: dict[str, str]) -> Callable[[], httpx.Response]:
    request = httpx.Request("POST", URL, headers={"Authorization": f"Bearer {TOKEN}"})
    return lambda: httpx.Response(status, content=body, headers=headers, request=request)


def _requests_response(requests: Any, status: int, body: bytes, headers: dict[str, str]) -> Callable[[], Any]:
    prepared = requests.Request("POST", URL, headers={"Authorization": f"Bearer {TOKEN}"}).prepare()

    def make() -> Any:
        resp = requests.Response()
        resp.status_code = status
        resp._content = body
        resp.headers.update(headers)
        resp.request = prepared
        resp.url = URL
        return resp

    return make


def bench_errors(number: int, repeat: int) -> list[Row]:
    """Error construction: ours against json.loads, and side by side with the peers."""
    rows: list[Row] = []
    ratios: list[float] = []
    peers, makers = _peers()
    for name, (status, body) in BODIES.items():
        body_rows, ratio = _body_rows(name, status, body, peers, makers, number, repeat)
        rows += body_rows
        ratios.append(ratio)
    rows.append(
        (
            "all four bodies",
            "error_from_body / json.loads, median",
            "",
            f"{statistics.median(ratios):.2f}x  (range {min(ratios):.2f}x to {max(ratios):.2f}x;"
            " target <= 2.5x)",
        )
    )
    return rows


def _body_rows(
    name: str, status: int, body: bytes, peers: Peers, makers: dict[str, Any], number: int, repeat: int
) -> tuple[list[Row], float]:
    """One body's rows (the floor, ours four ways, each peer) and ours over the floor."""
    efb = mitos_errors.error_from_body
    efr = mitos_errors.error_from_response
    headers = HEADERS[name]
    floor = _best(_json_floor(body), number, repeat)
    ours = _best(lambda: efb(body, status=status), number, repeat)
    ours_token = _best(lambda: efb(body, status=status, token=TOKEN), number, repeat)
    ours_resp = _best_over(
        lambda r: efr(r, token=TOKEN), _httpx_response(status, body, headers), number, repeat
    )
    ours_resp_plain = _best_over(efr, _httpx_response(status, body, headers), number, repeat)
    rows: list[Row] = [
        (f"{name} ({len(body)} B)", "json.loads (floor)", f"{floor:8.2f}", "1.00x"),
        ("", "error_from_body(bytes)", f"{ours:8.2f}", f"{ours / floor:.2f}x"),
        ("", "error_from_body(bytes, token=)", f"{ours_token:8.2f}", f"{ours_token / floor:.2f}x"),
        ("", "error_from_response(httpx, token=)", f"{ours_resp:8.2f}", f"{ours_resp / floor:.2f}x"),
        ("", "error_from_response(httpx)", f"{ours_resp_plain:8.2f}", f"{ours_resp_plain / floor:.2f}x"),
    ]
    for peer, build in peers.items():
        if build is None:
            rows.append(("", peer, "skipped", "not installed"))
            continue
        make = (
            _requests_response(makers["requests"], status, body, headers)
            if "google" in peer
            else _httpx_response(status, body, headers)
        )
        cost = _best_over(build(status, body), make, number, repeat)
        # Ours with the token (what the SDK's callers pass), then without (as these peers take none).
        verdict = "faster" if ours_resp < cost else "SLOWER"
        plain = "faster" if ours_resp_plain < cost else "SLOWER"
        rows.append(
            (
                "",
                peer,
                f"{cost:8.2f}",
                f"{cost / floor:.2f}x  (ours {verdict}: {cost / ours_resp:.2f}x;"
                f" without token {plain}: {cost / ours_resp_plain:.2f}x)",
            )
        )
    return rows, ours / floor


def bench_sanitize(number: int, repeat: int) -> list[Row]:
    """A clean 200-character message through the sanitizer against returning it."""
    from mitos_errors import sanitize_text

    text = CLEAN_200
    assert sanitize_text(text) == text

    def identity(value: str) -> str:
        return value

    base = _best(lambda: identity(text), number, repeat)
    clean = _best(lambda: sanitize_text(text), number, repeat)
    dirty_text = text[:150] + " Authorization: Bearer abcdef0123456789"
    dirty = _best(lambda: sanitize_text(dirty_text), number, repeat)
    return [
        ("clean 200-char message", "return it unchanged (floor)", f"{base:8.3f}", ""),
        ("", "sanitize_text", f"{clean:8.3f}", f"+{clean - base:.3f} us  (target < +2 us)"),
        ("with a bearer token", "sanitize_text (full steps)", f"{dirty:8.3f}", f"+{dirty - base:.3f} us"),
    ]


# The worst-case families, shared with ts-sdk/bench/worst.mjs (docs/sdk-contract.md section 2a).
_WORST = json.loads((Path(__file__).with_name("worst.json")).read_text(encoding="utf-8"))
WORST_CASE_FAMILIES: dict[str, dict[str, Any]] = {f["name"]: f for f in _WORST["families"]}
"""Pathological inputs: a head, a unit repeated to the size, a tail (``python-sdk/tests`` runs them too)."""
WORST_CASE_SIZES: tuple[int, ...] = tuple(_WORST["sizes"])
WORST_CASE_TOKEN: str = _WORST["token"]
"""The caller's token of the worst-case runs (both SDKs')."""
PLAIN_ENVELOPE = b'{"error":{"code":"internal"}}'
DEEP = "{" * (catalogue.JSON_MAX_DEPTH + 1)
ENVELOPE_CAUSE = '{"error":{"code":"internal","cause":"'


def _worst_fill(family: str, size: int) -> str:
    spec = WORST_CASE_FAMILIES[family]
    head = (DEEP if spec.get("deep") else "") + spec["head"]
    unit, tail = spec["unit"], spec["tail"]
    return head + unit * max(0, (size - len(head) - len(tail)) // len(unit)) + tail


def worst_case_body(family: str, size: int) -> bytes:
    """The body of ``family`` at about ``size`` bytes (the plain envelope when the family fills a header)."""
    if "header" in WORST_CASE_FAMILIES[family]:
        return PLAIN_ENVELOPE
    return _worst_fill(family, size).encode()


def worst_case_headers(family: str, size: int) -> dict[str, str]:
    """The headers of ``family`` at ``size``: the shared ones, and the filled one when the family fills a header."""
    headers = dict(_WORST["headers"])
    name = WORST_CASE_FAMILIES[family].get("header")
    if name:
        headers[name] = _worst_fill(family, size)
    return headers


def bench_worst_case(repeat: int) -> tuple[list[Row], dict[str, float]]:
    """Each pathological family at 1, 8 and 64 KiB (with the shared token and headers), and its growth.

    Linear time gives about 64x from 1 to 64 KiB; the contract allows 80x.
    """
    efb = mitos_errors.error_from_body
    token = WORST_CASE_TOKEN
    rows: list[Row] = []
    growths: dict[str, float] = {}
    for family in WORST_CASE_FAMILIES:
        costs = []
        for size in WORST_CASE_SIZES:
            body, headers = worst_case_body(family, size), worst_case_headers(family, size)
            number = max(1, 2_000_000 // size // 16)
            costs.append(
                _best(lambda b=body, h=headers: efb(b, status=500, headers=h, token=token), number, repeat)
            )
        growth = growths[family] = costs[-1] / costs[0]
        verdict = "ok" if growth <= 80 else "OVER 80x"
        rows.append(
            (
                family,
                "1 KiB / 8 KiB / 64 KiB",
                " / ".join(f"{c:.0f}" for c in costs),
                f"{growth:.0f}x from 1 to 64 KiB  (limit 80x: {verdict})",
            )
        )
    return rows, growths


def _table(title: str, unit: str, rows: list[Row]) -> str:
    header: Row = ("case", "what", unit, "ratio")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    line = "  ".join("-" * w for w in widths)
    out = [title, line, "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)), line]
    out += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join([*out, line, ""])


def main() -> int:
    """Run every benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations, for a smoke run")
    parser.add_argument(
        "--worst-json", type=Path, help="also write each worst-case family's 64/1 KiB growth here"
    )
    parser.add_argument("--worst-only", action="store_true", help="only the pathological inputs")
    args = parser.parse_args()
    number, repeat, runs = (500, 3, 5) if args.quick else (5000, 7, 31)
    print(
        f"mitos-errors {_version('mitos-errors')}, Python {sys.version.split()[0]}, "
        f"httpx {httpx.__version__}, {os.cpu_count()} CPUs\n"
    )
    if not args.worst_only:
        print(
            _table(
                "Building an error (microseconds per call, best of runs)",
                "us/call",
                bench_errors(number, repeat),
            )
        )
        print(_table("Sanitizing (microseconds per call)", "us/call", bench_sanitize(number * 20, repeat)))
    worst_rows, growths = bench_worst_case(repeat)
    print(_table("Pathological inputs (microseconds per call, best of runs)", "us/call", worst_rows))
    if args.worst_json:
        args.worst_json.write_text(json.dumps(growths, indent=1) + "\n", encoding="utf-8")
    if not args.worst_only:
        print(
            _table(f"Importing (microseconds, median of {runs} fresh interpreters)", "us", bench_import(runs))
        )
    return 1 if max(growths.values()) > 80 else 0


if __name__ == "__main__":
    sys.exit(main())
