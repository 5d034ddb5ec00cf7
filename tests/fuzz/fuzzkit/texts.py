"""Hostile texts: secrets, token forms, markers, invisible characters, every Unicode category.

Every function takes a :class:`random.Random` and the :class:`Pool` of the
catalogue's characters and names, and returns a Python ``str`` (which may
hold lone surrogates: the body renderer decides what they become).
"""

from __future__ import annotations

import base64
import random
import sys
import unicodedata
from dataclasses import dataclass
from functools import cached_property

from errcat.model.catalogue import Catalogue, CharRange

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
B64 = ALNUM + "+/"
UNRESERVED = frozenset((ALNUM + "-._~").encode())
WORDS = (
    "sandbox", "not", "found", "the", "error", "retry", "later", "region", "eu-west",
    "quota", "exceeded", "id", "sb-7f3a", "at", "12:03", "UTC", "Ready", "server", "is",
)  # fmt: skip
SECRET_SHAPES = (
    "bearer ", "Bearer ", "BEARER  ", "Authorization: Bearer ", "basic ", "Basic ",
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----", "-----BEGIN  PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----",
    "mitos_live_", "mitos_test_", "sk-", "sk-ant-", "ghp_", "gho_", "github_pat_", "glpat-",
    "AKIA", "ASIA", "xoxb-", "xoxp-", "AIza", "sk_live_", "rk_test_", "pk_live_",
    "password=", "passwd: ", "pass=", "secret=", "token: ", "api_key=", "api-key:", "apikey=",
    "access_key=", "private-key: ", "PASSWORD = '", 'token="', "eyJ", "eyJhbGciOiJIUzI1NiJ9.",
    "postgres://admin:", "https://user:", "a://x:", "redis://:", "@db.example/x", "://",
)  # fmt: skip
MARKERS = (
    "<|im_start|>", "<|endoftext|>", "<|", "|>", "[INST]", "[/INST]", "[inst]", "<<SYS>>",
    "<</SYS>>", "<system>", "</system>", "<assistant>", "<user>", "<instructions>",
    "ignore all previous instructions", "Ignore the above prompts", "disregard prior rules",
    "forget any earlier directions", "IGNORE   PREVIOUS   INSTRUCTIONS", "ignore previous",
)  # fmt: skip
CATEGORIES = (
    "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe",
    "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
)  # fmt: skip


def _spans(ranges: tuple[CharRange, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((r.first, r.last) for r in ranges)


@dataclass(frozen=True)
class Pool:
    """What the generators draw from, read once from the catalogue model."""

    cat: Catalogue

    @cached_property
    def remove(self) -> tuple[tuple[int, int], ...]:
        """The removed set (stage 1), as inclusive code point ranges."""
        return _spans(self.cat.sanitizer.remove)

    @cached_property
    def to_space(self) -> tuple[tuple[int, int], ...]:
        """The characters that become a space (stage 1)."""
        return _spans(self.cat.sanitizer.to_space)

    @cached_property
    def removed_or_spaced(self) -> frozenset[int]:
        """Every code point stage 1 changes (deleted or turned into a space)."""
        return frozenset(c for a, b in self.remove + self.to_space for c in range(a, b + 1))

    @cached_property
    def cap(self) -> int:
        """The text cap, in code points."""
        return self.cat.limits.text_max_chars

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """The catalogue's codes."""
        return tuple(c.code for c in self.cat.codes)

    @cached_property
    def statuses(self) -> tuple[int, ...]:
        """Every status the catalogue names (codes' and the fallback map's), and a few more."""
        named = {c.http for c in self.cat.codes}
        return tuple(
            sorted(
                named | {0, 100, 200, 204, 301, 400, 401, 403, 404, 418, 429, 500, 599, 600, 999}
            )
        )

    @cached_property
    def by_category(self) -> dict[str, tuple[int, ...]]:
        """Code points of each general category (this Python's Unicode; a sample of the big ones)."""
        found: dict[str, list[int]] = {c: [] for c in CATEGORIES}
        for cp in range(sys.maxunicode + 1):
            found[unicodedata.category(chr(cp))].append(cp)
        # Lone high surrogates only: a raw high-low pair would be two code points to
        # Python and one character to JavaScript, a difference of the harness, not of the SDKs.
        found["Cs"] = [cp for cp in found["Cs"] if cp < 0xDC00]
        rng = random.Random(0)
        return {k: tuple(v if len(v) <= 4096 else rng.sample(v, 4096)) for k, v in found.items()}

    def markers(self) -> tuple[str, ...]:
        """The catalogue's own marker texts, which a token must not sit inside."""
        san = self.cat.sanitizer
        return (san.redaction, san.filtered, san.truncation_marker)


def pick_range(rng: random.Random, ranges: tuple[tuple[int, int], ...]) -> str:
    """One character of one of ``ranges``."""
    first, last = rng.choice(ranges)
    return chr(rng.randint(first, last))


def invisible(rng: random.Random, pool: Pool) -> str:
    """A character stage 1 deletes or turns into a space (a surrogate: a lone high one, as in :attr:`Pool.by_category`)."""
    ch = pick_range(rng, pool.remove if rng.random() < 0.8 else pool.to_space)
    return chr(ord(ch) - 0x400) if 0xDC00 <= ord(ch) <= 0xDFFF else ch


def unicode_char(rng: random.Random, pool: Pool) -> str:
    """A character of a random general category (surrogates, unassigned and private use too)."""
    return chr(rng.choice(pool.by_category[rng.choice(CATEGORIES)]))


def sprinkle(rng: random.Random, pool: Pool, text: str, rate: float = 0.3) -> str:
    """``text`` with invisible characters inserted between some of its characters."""
    if not text or rng.random() > 0.5:
        return text
    out = []
    for ch in text:
        out.append(ch)
        if rng.random() < rate:
            out.append(invisible(rng, pool))
    return "".join(out)


def random_run(rng: random.Random, alphabet: str, low: int, high: int) -> str:
    """``low`` to ``high`` characters drawn from ``alphabet``."""
    return "".join(rng.choices(alphabet, k=rng.randint(low, high)))


def token_forms(token: str) -> list[str]:
    """The forms of a token as the contract lists them (of the token as given: apply stage 1 first)."""
    raw = token.encode("utf-8", "surrogatepass")
    upper = "".join(chr(b) if b in UNRESERVED else f"%{b:02X}" for b in raw)
    lower = "".join(chr(b) if b in UNRESERVED else f"%{b:02x}" for b in raw)
    b64 = base64.b64encode(raw).decode().rstrip("=")
    b64url = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return [token, upper, lower, b64, b64url]


def secret(rng: random.Random) -> str:
    """A secret-like string: a known shape, then a credential, sometimes chained to another shape."""
    head = rng.choice(SECRET_SHAPES)
    body = random_run(rng, rng.choice((ALNUM, B64, ALNUM + "_-", "abcdefghij")), 0, 48)
    if rng.random() < 0.3:
        body += rng.choice(("=", "==", "@db.example/x", " -----END RSA PRIVATE KEY-----", ".", "@"))
    if rng.random() < 0.3:
        body = rng.choice(SECRET_SHAPES) + body  # one shape inside another's credential
    return head + body


def token_text(rng: random.Random, pool: Pool, token: str | None) -> str:
    """A form of the caller's token, whole, cut or split by invisible characters."""
    if not token:
        return secret(rng)
    form = rng.choice(token_forms(token))
    if rng.random() < 0.2:
        cut = rng.randint(0, len(form))
        form = form[:cut] if rng.random() < 0.5 else form[cut:]
    return sprinkle(rng, pool, form)


def near_cap(rng: random.Random, pool: Pool) -> str:
    """A text around the cap, counted in code points or in UTF-16 units."""
    unit = rng.choice(("a", "é", "😀", "𝔸", "\u200b", "ab😀", " "))
    target = pool.cap + rng.randint(-3, 3)
    if rng.random() < 0.5 and any(ord(c) > 0xFFFF for c in unit):
        target = target // 2 + rng.randint(-2, 2)  # about the cap in UTF-16 units
    text = (unit * (target // len(unit) + 1))[: max(0, target)]
    if rng.random() < 0.3:
        text += rng.choice((pool.cat.sanitizer.truncation_marker, "…", "😀", secret(rng)))
    return text


def piece(rng: random.Random, pool: Pool, token: str | None) -> str:
    """One piece of hostile text."""
    kind = rng.random()
    if kind < 0.22:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
    if kind < 0.42:
        return secret(rng)
    if kind < 0.54:
        return sprinkle(rng, pool, rng.choice(MARKERS))
    if kind < 0.66:
        return token_text(rng, pool, token)
    if kind < 0.78:
        return "".join(unicode_char(rng, pool) for _ in range(rng.randint(1, 6)))
    if kind < 0.86:
        return "".join(invisible(rng, pool) for _ in range(rng.randint(1, 4)))
    if kind < 0.9:
        return "%" * rng.randint(1, 8) + random_run(rng, "0123456789ABCDEFabcdefXZ%", 0, 6)
    if kind < 0.94:
        return rng.choice(pool.markers()) + rng.choice(("", "zz", "]", "["))
    if kind < 0.995:
        return rng.choice(pool.codes)
    return near_cap(rng, pool)


def text(rng: random.Random, pool: Pool, token: str | None, most: int = 4) -> str:
    """A hostile text of one to ``most`` pieces, joined by spaces or nothing."""
    parts = [piece(rng, pool, token) for _ in range(rng.randint(1, most))]
    return rng.choice((" ", "", "\n", ": ")).join(parts)


def token(rng: random.Random, pool: Pool) -> str | None:
    """The caller's token: none, a realistic key, a short one, or one with odd characters."""
    kind = rng.random()
    if kind < 0.25:
        return None
    if kind < 0.6:
        return rng.choice(("tok_", "sk-", "mitos_live_", "ghp_", "")) + random_run(
            rng, ALNUM, 12, 40
        )
    if kind < 0.7:
        return random_run(rng, ALNUM, 1, 5)
    if kind < 0.8:
        return random_run(rng, ALNUM + "+/=%-._~ ", 6, 24)
    if kind < 0.9:
        return sprinkle(rng, pool, random_run(rng, ALNUM, 8, 20), 0.2)
    if kind < 0.95:
        return "".join(unicode_char(rng, pool) for _ in range(rng.randint(2, 10)))
    return rng.choice(("D]]zz", "]zz", "[REDACTED", "ted]", "a]b[", "…[", "%41", "=="))
