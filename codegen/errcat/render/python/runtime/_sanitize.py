"""The sanitizer (docs/sdk-contract.md section 2): :func:`sanitize_text` and :func:`token_forms`.

Every table, pattern and limit comes from the generated ``sanitizer_rules``
and ``catalogue`` modules. A fast path proves, with a few ``str`` operations
and the generated trigger test, that the steps would leave a text as it is;
anything it cannot prove goes through the steps as the contract writes them.
"""

from __future__ import annotations

from binascii import b2a_base64

from ._covers import find_covers, rewrite, rule_covers
from ._generated import catalogue as _cat
from ._generated import sanitizer_rules as _rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

    from ._covers import Covers, Reader

    _Rule = tuple[re.Pattern[str] | None, re.Pattern[str], tuple[str, ...]]

__all__ = ["sanitize_text", "token_forms"]

CAP = _cat.TEXT_MAX_CHARS
"""Every text is at most this many code points."""
REDACTION = _rules.REDACTION
_MARKER = _rules.TRUNCATION_MARKER
_KEEP = CAP - len(_MARKER)
# A form never holds NUL (step 1 removes it), so it is inside one of the markers
# exactly when it is inside this NUL-joined string.
_RESERVED_JOINED = "\0".join((_rules.REDACTION, _rules.FILTERED, _rules.TRUNCATION_MARKER))
_UNRESERVED = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
# bytes.translate table: unreserved bytes to themselves, every other byte to 0x80.
_UNRESERVED_TABLE = bytes(b if b in _UNRESERVED else 0x80 for b in range(256))
has_trigger = _rules.has_trigger


def _lower_or_mark_table() -> bytes:
    """A ``bytes.translate`` table: ASCII upper case to lower case, step-1 characters to 0x80.

    ``text.encode().translate(LOWER_OR_MARK)`` of ASCII text is ASCII exactly
    when step 1 leaves the text as it is, and then it is the text in lower case.
    """
    table = bytearray(range(256))
    table[0x41:0x5B] = bytes(range(0x61, 0x7B))
    for first, last in _rules.REMOVE + _rules.TO_SPACE:
        for c in range(first, min(last, 0x7F) + 1):
            table[c] = 0x80
    return bytes(table)


LOWER_OR_MARK = _lower_or_mark_table()
STEP1_PRINTABLE = tuple(chr(c) for c in range(0x20, 0x80) if LOWER_OR_MARK[c] == 0x80)
"""The printable ASCII characters step 1 changes; a JSON string can hold them raw (the others it escapes)."""


class _Patterns:
    """The compiled character classes and rules, built for the first text that needs them."""

    __slots__ = ("remove", "to_space", "injection", "secrets")

    def __init__(self) -> None:
        import re

        def char_class(ranges: tuple[tuple[int, int], ...]) -> str:
            return "[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in ranges) + "]"

        def rules(table: tuple[tuple[str, str, str, tuple[str, ...]], ...]) -> tuple[_Rule, ...]:
            return tuple(
                (re.compile(prefix) if prefix else None, re.compile(pattern), triggers)
                for _name, prefix, pattern, triggers in table
            )

        self.remove: re.Pattern[str] | None = (
            re.compile(char_class(_rules.REMOVE) + "+") if _rules.REMOVE else None
        )
        self.to_space: re.Pattern[str] | None = (
            re.compile(char_class(_rules.TO_SPACE)) if _rules.TO_SPACE else None
        )
        self.injection = rules(_rules.INJECTION_RULES)
        self.secrets = rules(_rules.SECRET_RULES)


_patterns: list[_Patterns] = []


def _compiled() -> _Patterns:
    if not _patterns:
        _patterns.append(_Patterns())
    return _patterns[0]


def step1_keeps(text: str) -> bool:
    """Whether step 1 leaves ``text`` as it is (decided for ASCII; non-ASCII text says no)."""
    return text.isascii() and text.encode().translate(LOWER_OR_MARK).isascii()


def strip(text: str) -> str:
    """Step 1: delete the removed characters, turn the spacing ones into spaces."""
    if step1_keeps(text):
        return text
    c = _compiled()
    if c.remove is not None:
        text = c.remove.sub("", text)
    if c.to_space is not None:
        text = c.to_space.sub(" ", text)
    return text


def _reader(rules: tuple[_Rule, ...]) -> Reader:
    """Read one stretch: the covers of the ``rules`` with a trigger in it (lower-cased)."""

    def read(piece: str, offset: int, out: Covers) -> None:
        low = piece.lower()
        if not has_trigger(low):
            return
        for prefix, pattern, triggers in rules:
            for trigger in triggers:
                if trigger in low:
                    rule_covers(prefix, pattern, piece, out, offset)
                    break

    return read


def sanitize_steps(text: str, forms: tuple[str, ...]) -> str:
    """Section 2 as the contract writes it: characters; markers; secrets and the token together; the cap."""
    return cap_length(_hide(strip(text), forms), forms)


def _hide(text: str, forms: tuple[str, ...]) -> str:
    """Stages 2 and 3 without the cap (steps 1 to 3 of stage 3) on a text stage 1 leaves as it is.

    A rule is skipped when none of its triggers is in the lower-cased stretch
    it reads, which the contract allows for any text: lower-casing maps ASCII
    letters to ASCII letters and the triggers are ASCII, so it never hides one.
    """
    if has_trigger(text.lower()):
        c = _compiled()
        markers = find_covers(text, _reader(c.injection), (), _rules.FILTERED)
        if markers:
            text = rewrite(text, markers, _rules.FILTERED)
        secrets = find_covers(text, _reader(c.secrets), forms, REDACTION)
    else:
        secrets = find_covers(text, _read_nothing, forms, REDACTION) if forms else []
    if secrets:
        text = rewrite(text, secrets, REDACTION)
        # Stage 3, step 3: a form made across a marker's edge (a token holding a marker's characters).
        for form in forms:
            if form in text:
                text = text.replace(form, REDACTION)
    return text


def _read_nothing(_piece: str, _offset: int, _out: Covers) -> None:
    """The reader of a text that holds no trigger: no rule can cover any of it."""


def cap_length(text: str, forms: tuple[str, ...] = ()) -> str:
    """Stage 3, step 4: text longer than the cap keeps a start that sanitizing leaves as it is.

    ``text`` is the result of steps 1 to 3 with the token ``forms`` (so stage
    1 leaves it and every start of it with the marker as they are). The kept
    start is its first ``cut`` code points, ``cut`` first ``_KEEP``: while the
    steps change the start followed by the truncation marker, ``cut`` becomes
    the smaller of ``cut - 1`` and the length of what the steps left of it
    unchanged. ``cut`` only decreases and the marker alone is left as it is,
    so this ends, and the result is one the steps (and so a second pass) keep.
    """
    if len(text) <= CAP:
        return text
    cut = _KEEP
    while cut > 0:
        kept = text[:cut] + _MARKER
        again = _hide(kept, forms)
        if again == kept:
            return kept
        same = 0
        for a, b in zip(kept, again, strict=False):
            if a != b:
                break
            same += 1
        cut = min(cut - 1, same)
    return _MARKER


def holds_any(text: str, forms: tuple[str, ...]) -> bool:
    """Whether ``text`` holds one of the token ``forms``."""
    for form in forms:  # noqa: SIM110  (a loop costs less than any() and its generator)
        if form in text:
            return True
    return False


def untouched_ascii(text: str) -> bool:
    """Whether ``text`` is ASCII that every step but the token's leaves as it is, by the cheap tests.

    True only for ASCII within the cap that step 1 leaves and in which no rule
    can match (the generated trigger test); False says nothing either way.
    """
    if text.isascii() and len(text) <= CAP:
        low = text.encode().translate(LOWER_OR_MARK)
        return low.isascii() and not has_trigger(low.decode())
    return False


# Catalogue texts and names, each mapped to whether the steps without a token
# leave it as it is; None until the steps first ran on it.
_CATALOGUE_TEXTS: dict[str, bool | None] = dict.fromkeys(
    text
    for row in _cat.SPECS.values()
    for text in (row["message"], row["cause"], row["remediation"], *row["context_fields"])
)
_CATALOGUE_TEXTS.update(dict.fromkeys(_cat.SPECS))
_CATALOGUE_TEXTS.update(dict.fromkeys(_cat.CONTEXT_FIELDS))


def catalogue_text_untouched(text: str) -> bool:
    """Whether ``text`` is a catalogue text or name that the steps (without a token) leave as it is."""
    state = _CATALOGUE_TEXTS.get(text, False)
    if state is None:
        state = _CATALOGUE_TEXTS[text] = sanitize_steps(text, ()) == text
    return state


def sanitize_with(text: str, forms: tuple[str, ...]) -> str:
    """:func:`sanitize_text` with the token forms already computed by :func:`token_forms`.

    The fast path: a text the cheap tests or the catalogue prove untouched,
    and without a token form, is returned as it is; any other takes the steps.
    """
    if (untouched_ascii(text) or catalogue_text_untouched(text)) and not holds_any(text, forms):
        return text
    return sanitize_steps(text, forms)


def sanitize_text(text: str, *, token: str | bytes | None = None) -> str:
    """Clean one piece of server-controlled text; never raises.

    In the contract's order: removes control, bidi and invisible characters
    (line breaks become spaces, so no text can forge a log line), replaces
    prompt-injection markers, then finds every secret-like string and every
    form of ``token`` in that same text and redacts the union of what they
    cover, and caps the length at the catalogue's text cap, ending in
    ``…[truncated]``. Idempotent for a token without a character of the
    markers (``[REDACTED]``, ``[filtered]``, ``…[truncated]``).

    Args:
        text: the text; anything else is turned into text with ``str()``.
        token: the caller's credential, to be redacted in every form.

    Returns:
        The cleaned text.
    """
    if type(text) is not str:
        text = str(text)  # a caller may pass anything
    if not token and untouched_ascii(text):
        return text  # the common case, decided before any token machinery
    return sanitize_with(text, token_forms(token) if token else ())


def _percent(raw: bytes, digits: str) -> str:
    return "".join(chr(b) if b in _UNRESERVED else f"%{digits[b >> 4]}{digits[b & 15]}" for b in raw)


def utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``, each unpaired surrogate as U+FFFD (as JavaScript's TextEncoder)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8")


CORE_MIN_CHARS = 3
"""The shortest core looked for (contract section 2): a shorter one (a token of one or two bytes)
holds at most 12 bits of the token and would match base64 text by chance."""


def base64_forms(raw: bytes) -> list[str]:
    """The base64 forms of ``raw``: unpadded, then the token's core at each of the three alignments.

    Base64 of a longer text holds ``raw`` at one of three alignments (the
    number of bytes before it in its group of three). At alignment ``k`` the
    characters whose six bits all come from ``raw`` are the same whatever
    surrounds it: characters ``ceil(8k/6)`` up to ``floor((8k+8n)/6)`` of the
    encoding of ``k`` zero bytes, ``raw`` and two zero bytes; a core shorter
    than :data:`CORE_MIN_CHARS` is left out. Each form is listed in base64,
    then in base64url.
    """
    n = len(raw)
    b64 = b2a_base64(raw, newline=False).rstrip(b"=").decode()
    forms = [b64, b64.replace("+", "-").replace("/", "_")]
    for k in range(3):
        start, end = -(-8 * k // 6), (8 * k + 8 * n) // 6
        if end - start < CORE_MIN_CHARS:
            continue  # a token of one or two bytes: so short a core is found by chance
        core = b2a_base64(bytes(k) + raw + bytes(2), newline=False).decode()[start:end]
        forms += (core, core.replace("+", "-").replace("/", "_"))
    return forms


def token_forms(token: str | bytes | None) -> tuple[str, ...]:
    """The forms of ``token`` that are redacted from text, longest first.

    The token after step 1 of the sanitizer; its UTF-8 bytes percent-encoded
    (every byte outside ``A-Z a-z 0-9 - . _ ~`` as ``%XX``) in upper and in
    lower case; and its UTF-8 bytes in base64 and base64url without padding,
    and the characters of them that depend on the token alone at each of the
    three alignments inside longer base64 text (:func:`base64_forms`).
    Empty forms and forms found inside the redaction, filtered or truncation
    markers are left out, so sanitizing stays idempotent. Forms of the same
    length keep that order.
    """
    if isinstance(token, bytes):
        token = token.decode("utf-8", "replace")
    elif not isinstance(token, str):
        return ()
    token = str(token)
    raw = token.encode() if token.isascii() else b""
    if raw and raw.translate(_UNRESERVED_TABLE).isascii():
        # Step 1 leaves a token of unreserved ASCII, and both percent-encodings are the token.
        candidates = dict.fromkeys((token, *base64_forms(raw)))
    else:
        token = strip(token)
        raw = utf8(token)
        candidates = dict.fromkeys(
            (
                token,
                _percent(raw, "0123456789ABCDEF"),
                _percent(raw, "0123456789abcdef"),
                *base64_forms(raw),
            )
        )
    kept = (form for form in candidates if form and form not in _RESERVED_JOINED)
    return tuple(sorted(kept, key=len, reverse=True))
