"""Hostile bodies as small trees, so that the shrinker can drop a member or shorten a string.

A node is a JSON-ready list whose first item is its kind:

- ``["raw", text]``: text as it stands (as bytes: UTF-8, a lone surrogate as its
  three invalid bytes);
- ``["bytes", hex]``: raw bytes (in a text body: one character per byte);
- ``["str", pieces, closed]``: a JSON string; each piece is ``["t", text]``
  (escaped as JSON must: quote, backslash, controls), ``["u", text]`` (every
  UTF-16 unit as ``\\uXXXX``, lone surrogates included), ``["e", text]`` (an
  escape or broken escape, verbatim) or ``["b", hex]`` (raw bytes);
- ``["num", literal]``, ``["obj", [[key, value], ...]]`` (a key is a ``str``
  node; a key may repeat), ``["arr", [node, ...]]``, ``["seq", [node, ...]]``
  (nodes one after another).
"""

from __future__ import annotations

import codecs
import random
import re
from typing import Any

from testkit.fuzz import texts
from testkit.fuzz.texts import Pool

Node = list[Any]
ESCAPES = (
    "\\/",
    '\\"',
    "\\\\",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\\u00",
    "\\x41",
    "\\",
    "\\u12",
    "\\U0041",
)
NUMBERS = (
    "0", "-0", "1", "1.0", "1e3", "1E+2", "-1", "0.1", "1e400", "-1e400", "1e-400", "9007199254740991",
    "9007199254740992", "-9007199254740993", "12345678901234567890", "NaN", "Infinity", "-Infinity",
    "01", "1.", ".5", "+1", "0x10", "1e", "2.5e-3", "4.9e-324", "1.7976931348623157e308",
)  # fmt: skip
BAD_BYTES = ("ff", "fe", "c3", "e282", "f09f98", "c0af", "eda080", "f4908080", "80", "c328")


def jstr(text: str, closed: bool = True) -> Node:
    """A string node holding ``text`` escaped the ordinary way."""
    return ["str", [["t", text]], closed]


def hostile_string(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """A JSON string node of hostile text, with escapes and bad bytes among its pieces."""
    pieces: list[Node] = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        value = texts.text(rng, pool, token, 2)
        if kind < 0.7:
            pieces.append(["t", value])
        elif kind < 0.85:
            pieces.append(["u", value])
        elif kind < 0.93:
            pieces.append(["e", rng.choice(ESCAPES)])
        else:
            pieces.append(["b", rng.choice(BAD_BYTES)])
    return ["str", pieces, rng.random() > 0.02]


def number(rng: random.Random) -> Node:
    """An ordinary, odd or invalid number literal."""
    if rng.random() < 0.1:
        return ["num", "9" * rng.choice((16, 400, 4301, 5000))]
    if rng.random() < 0.3:
        return ["num", str(rng.randint(-(2**60), 2**60))]
    return ["num", rng.choice(NUMBERS)]


def value(rng: random.Random, pool: Pool, token: str | None, depth: int = 0) -> Node:
    """A context value: text, a number, a literal, or (rarely) a nested value."""
    kind = rng.random()
    if kind < 0.45:
        return hostile_string(rng, pool, token)
    if kind < 0.7:
        return number(rng)
    if kind < 0.85 or depth > 2:
        return ["raw", rng.choice(("true", "false", "null"))]
    if kind < 0.93:
        return ["arr", [value(rng, pool, token, depth + 1) for _ in range(rng.randint(0, 3))]]
    return [
        "obj",
        [
            [key(rng, pool, token), value(rng, pool, token, depth + 1)]
            for _ in range(rng.randint(0, 3))
        ],
    ]


def key(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """A context key: a catalogue field name, a plain name, or hostile text."""
    kind = rng.random()
    if kind < 0.3:
        return jstr(rng.choice([f.name for f in pool.cat.context_fields] or ["retry_after_ms"]))
    if kind < 0.5:
        return jstr(
            rng.choice(("retry_after_ms", "sandbox_id", "", "0", "1", "__proto__", "constructor"))
        )
    return hostile_string(rng, pool, token)


def context(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """A context object: a few members, sometimes more than the key limit, sometimes a retry delay."""
    count = (
        rng.choice((0, 1, 2, 3, 5))
        if rng.random() < 0.95
        else pool.cat.limits.context_max_keys + rng.randint(-1, 2)
    )
    members = [[key(rng, pool, token), value(rng, pool, token)] for _ in range(count)]
    if rng.random() < 0.25:
        delay = rng.choice((["num", str(rng.randint(0, 10**6))], number(rng), jstr("5000")))
        members.append([jstr("retry_after_ms"), delay])
    return ["obj", members]


def code(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """The envelope's code: a catalogue code (maybe disguised), unknown text, or not a string."""
    kind = rng.random()
    if kind < 0.5:
        return jstr(texts.sprinkle(rng, pool, rng.choice(pool.codes), 0.1))
    if kind < 0.8:
        return hostile_string(rng, pool, token)
    if kind < 0.9:
        return jstr(rng.choice(("", " ", "\u200b", "\u202e", "[REDACTED]")))
    return value(rng, pool, token)


def refines(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """The chain of codes an unknown code refines: catalogue codes among others, maybe past the
    entries an SDK reads, or a value that is not an array."""
    if rng.random() < 0.1:
        return value(rng, pool, token)
    entries: list[Node] = []
    for _ in range(rng.choice((0, 1, 2, 3, 15, 16, 17, 20))):
        kind = rng.random()
        if kind < 0.35:
            entries.append(jstr(rng.choice(pool.codes)))
        elif kind < 0.7:
            entries.append(hostile_string(rng, pool, token))
        else:
            entries.append(value(rng, pool, token))
    return ["arr", entries]


def error_members(rng: random.Random, pool: Pool, token: str | None) -> list[list[Node]]:
    """The members of an envelope's ``error`` object, odd ones and repeats included."""
    members: list[list[Node]] = []
    if rng.random() < 0.95:
        members.append([jstr("code"), code(rng, pool, token)])
    for name in ("message", "cause", "remediation", "request_id"):
        if rng.random() < 0.6:
            member = (
                hostile_string(rng, pool, token) if rng.random() < 0.9 else value(rng, pool, token)
            )
            members.append([jstr(name), member])
    if rng.random() < 0.6:
        members.append(
            [
                jstr("context"),
                context(rng, pool, token) if rng.random() < 0.9 else value(rng, pool, token),
            ]
        )
    if rng.random() < 0.4:
        members.append([jstr("refines"), refines(rng, pool, token)])
    if rng.random() < 0.15:
        members.append(
            [
                jstr(rng.choice(("code", "message", "context", "extra", "details"))),
                value(rng, pool, token),
            ]
        )
    rng.shuffle(members)
    return members


def nest(rng: random.Random, inner: Node, depth: int) -> Node:
    """``inner`` wrapped in ``depth`` arrays or objects."""
    for _ in range(depth):
        inner = ["arr", [inner]] if rng.random() < 0.5 else ["obj", [[jstr("a"), inner]]]
    return inner


def envelope(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """An envelope, maybe with odd members around it, deep nesting or a repeated ``error``."""
    error: Node = ["obj", error_members(rng, pool, token)]
    outer = [[jstr("error"), error]]
    if rng.random() < 0.1:
        outer.insert(
            0, [jstr("error"), value(rng, pool, token)]
        )  # a repeated key: the last one counts
    if rng.random() < 0.1:
        outer.append(
            [
                jstr("extra"),
                nest(rng, ["arr", []], pool.cat.limits.json_max_depth + rng.randint(-3, 1)),
            ]
        )
    if rng.random() < 0.1 and error[1]:
        member = rng.choice(error[1])
        member[1] = nest(rng, member[1], pool.cat.limits.json_max_depth + rng.randint(-4, 1))
    return ["obj", outer]


def not_envelope(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """A body without an envelope: HTML, text, other JSON, broken JSON."""
    return rng.choice(
        (
            [
                "raw",
                "<html><body><h1>502 Bad Gateway</h1>"
                + texts.text(rng, pool, token)
                + "</body></html>",
            ],
            ["raw", texts.text(rng, pool, token)],
            ["raw", ""],
            ["arr", [value(rng, pool, token)]],
            ["obj", [[jstr("error"), hostile_string(rng, pool, token)]]],
            ["obj", [[jstr("error"), ["obj", [[jstr("code"), number(rng)]]]]]],
            [
                "seq",
                [
                    ["raw", "{"],
                    ["raw", '"error":{"code":"internal"'],
                    ["raw", rng.choice(("", ",", "}", "}}}"))],
                ],
            ],
            [
                "raw",
                rng.choice(("NaN", "{NaN}", '{"error":NaN}', "null", "true", "[]", "{}", "{,}")),
            ],
        )
    )


def body(rng: random.Random, pool: Pool, token: str | None) -> Node:
    """A whole body: mostly envelopes, with whitespace, a BOM or garbage around it, and sometimes padded past the cap."""
    node = envelope(rng, pool, token) if rng.random() < 0.8 else not_envelope(rng, pool, token)
    if rng.random() < 0.1:
        node = [
            "seq",
            [["raw", rng.choice(("\ufeff", " \n\t", "\ufeff\ufeff", "\u00a0", "\ufeff "))], node],
        ]
    if rng.random() < 0.05:
        node = ["seq", [node, ["raw", rng.choice((" ", "\n", "x", "}", "{}", "\x00"))]]]
    if rng.random() < 0.01:
        pad = pool.cat.limits.error_body_max_bytes + rng.randint(-64, 64)
        node = [
            "obj",
            [
                [
                    jstr("error"),
                    [
                        "obj",
                        [
                            [jstr("code"), jstr("internal")],
                            [jstr("cause"), jstr("é" * (pad // 2), rng.random() < 0.5)],
                        ],
                    ],
                ]
            ],
        ]
    return node


# -- rendering ---------------------------------------------------------------


_CONTROLS = re.compile("[\x00-\x1f]")


def _escape(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def _units(text: str) -> str:
    out = []
    for ch in text:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            out.append(f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04X}")
        else:
            out.append(f"\\u{cp:04x}")
    return "".join(out)


def _bytes_text(hexed: str, as_text: bool) -> str:
    data = bytes.fromhex(hexed)
    return data.decode("latin-1") if as_text else data.decode("utf-8", "surrogateescape")


def _piece(p: Node, as_text: bool) -> str:
    kind, content = p
    if kind == "t":
        return _escape(content)
    if kind == "u":
        return _units(content)
    if kind == "e":
        return str(content)
    return _bytes_text(content, as_text)


def render_text(node: Node, as_text: bool) -> str:
    """The node as one string; raw bytes are smuggled as surrogate escapes unless ``as_text``."""
    kind = node[0]
    if kind == "raw" or kind == "num":
        return str(node[1])
    if kind == "bytes":
        return _bytes_text(node[1], as_text)
    if kind == "str":
        inner = "".join(_piece(p, as_text) for p in node[1])
        return '"' + inner + ('"' if node[2] else "")
    if kind == "obj":
        return (
            "{"
            + ",".join(render_text(k, as_text) + ":" + render_text(v, as_text) for k, v in node[1])
            + "}"
        )
    if kind == "arr":
        return "[" + ",".join(render_text(v, as_text) for v in node[1]) + "]"
    return "".join(render_text(v, as_text) for v in node[1])


def render(node: Node, as_text: bool) -> bytes | str:
    """The body handed to the SDKs: a string for a text body, else its bytes."""
    text = render_text(node, as_text)
    if as_text:
        return text
    return text.encode("utf-8", "fuzz-smuggled")


def _smuggled(err: UnicodeError) -> tuple[bytes, int]:
    """U+DC80-U+DCFF are the raw bytes they smuggle; any other surrogate is its three bytes."""
    assert isinstance(err, UnicodeEncodeError)
    out = bytearray()
    for ch in err.object[err.start : err.end]:
        cp = ord(ch)
        out += (
            bytes([cp - 0xDC00]) if 0xDC80 <= cp <= 0xDCFF else ch.encode("utf-8", "surrogatepass")
        )
    return bytes(out), err.end


codecs.register_error("fuzz-smuggled", _smuggled)
