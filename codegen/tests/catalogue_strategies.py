"""Hypothesis strategies for valid catalogues of any API, and their YAML.

:func:`catalogues` draws catalogue data within every rule: random code and
field names (unique also when case and separators are ignored, with class
names legal in both languages), any subset of the optional sections and keys
(a gRPC gateway map with channels, condition reasons named in the remediation
of the codes they explain), codes with and without context, and texts from every Unicode category a
catalogue allows, mixed with text that means something in a target language
(``*/``, backticks, ``|``, ``${``, ``\"\"\"``, backslashes, ``<!--``).
:func:`to_yaml` writes it as block YAML, one key per line.

``ERRCAT_FUZZ_EXAMPLES`` raises the number of examples every property test
runs (the defaults are small so a bare ``nox`` stays quick).
"""

from __future__ import annotations

import copy
import os
import unicodedata
from typing import Any

import yaml
from hypothesis import assume
from hypothesis import strategies as st

from errcat.check.limits import ENVELOPE_DEPTH
from errcat.metaschema import meta_enum, meta_schema
from errcat.migrate.formats import CURRENT
from errcat.model.defaults import STANDARD_STATUSES, effective_sanitizer, standard_rule_ids
from errcat.model.refines import MAX_CHAIN
from errcat.model.sanitizer import stage_one
from errcat.model.sdk import ROLES
from errcat.names import naming
from errcat.names.languages import GO, LANGUAGES
from errcat.source.scalars import resolve_plain
from errcat.wording import char_rule, is_blank

FUZZ_SCALE = max(1, int(os.environ.get("ERRCAT_FUZZ_EXAMPLES", "1")))
"""Multiplier of every default example budget (``ERRCAT_FUZZ_EXAMPLES=20`` for a long run)."""

MEANINGFUL = ("*/", "/*", "`", "```", "|", "${x}", '"""', "\\", "\\n", "<!--", "-->", "'", '"')
"""Text that ends a comment, a literal, a code span, a table cell or an HTML comment."""

FOREIGN = ("mitos", "sandbox", "sb-7", "agentrun")
"""Words of the project's own API that no other catalogue's output may contain."""

ACTIONS = meta_enum("recovery_action")
SAME_ARGUMENTS = meta_enum("same_arguments")
SIDE_EFFECTS = meta_enum("side_effects")
ORIGINS = meta_enum("origin")
GRPC = tuple(status for status in meta_enum("grpc_status") if status != "OK")
SANITIZER: dict[str, Any] = {
    "remove": [{"first": "U+0000", "last": "U+0008", "name": "C0 controls before tab"}],
    "to_space": [{"first": "U+0009", "last": "U+000D", "name": "tab and line breaks"}],
    "secrets": [
        {
            "name": "bearer credential",
            "prefix": "[Bb][Ee][Aa][Rr][Ee][Rr] +",
            "pattern": "[A-Za-z0-9._~+/=-]{6,}",
            "triggers": ["bearer"],
        }
    ],
    "injection": [
        {
            "name": "chat template special tokens",
            "pattern": "<\\|[A-Za-z0-9_]{1,32}\\|>",
            "triggers": ["<|"],
        }
    ],
}


_STAGE_ONE = stage_one(effective_sanitizer(None))
"""Stage 1 of the standard sanitizer; the drawn sanitizers' own change no character it does not."""


def _allowed(char: str) -> bool:
    """A character catalogue text may hold, that YAML can carry."""
    return (
        char_rule(char) is None
        and _STAGE_ONE.range_of(char) is None
        and char not in "\ufffe\uffff"
        and unicodedata.category(char) not in ("Cs", "Cc")
    )


_CHARS = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")).filter(
    _allowed
)


def _clean(text: str) -> bool:
    folded = text.casefold()
    return bool(text) and not is_blank(text) and not any(word in folded for word in FOREIGN)


def texts(max_size: int = 40) -> st.SearchStrategy[str]:
    """Non-blank one-line text: any allowed character, and target-meaningful pieces."""
    piece = st.one_of(st.text(_CHARS, min_size=1, max_size=8), st.sampled_from(MEANINGFUL))
    joined = st.lists(piece, min_size=1, max_size=6).map(" ".join)
    words = st.text(st.sampled_from("abcdefghij klm"), min_size=1, max_size=20)
    return st.one_of(joined, words).map(lambda t: t[:max_size]).filter(_clean)


RECOVERY = st.fixed_dictionaries(
    {
        "action": st.sampled_from(ACTIONS),
        "same_arguments": st.sampled_from(SAME_ARGUMENTS),
        "guidance": texts(),
    }
)
SNAKE = st.from_regex(r"[a-z][a-z0-9]{0,5}(?:_[a-z0-9]{1,5}){0,2}", fullmatch=True)


def _legal_class(name: str, base: str) -> bool:
    return all(naming.class_problem(lang.key, name, base) is None for lang in LANGUAGES)


def _legal_base(name: str) -> bool:
    return all(naming.base_class_problem(lang.key, name) is None for lang in LANGUAGES)


@st.composite
def _codes(draw: st.DrawFn, fields: list[str], base: str) -> dict[str, dict[str, Any]]:
    # A code is at least 3 characters: a gRPC ErrorInfo reason (grpc-reason).
    names = draw(st.lists(SNAKE.filter(lambda c: len(c) >= 3), min_size=1, max_size=6))
    codes: dict[str, dict[str, Any]] = {}
    taken = {naming.fold(base), naming.fold(naming.known_type_name(base))}
    for code in names:
        cls = naming.class_name_for(code)
        go = GO.derive_class_name(code) if GO.derive_class_name else cls
        keys = {naming.fold(code), naming.fold(cls), naming.fold(naming.context_type_name(cls))}
        keys |= {
            naming.fold(name) for name in (GO.class_exports(go) if GO.class_exports else (go,))
        }
        if keys & taken or not _legal_class(cls, base) or naming.class_problem(GO.key, go, base):
            continue
        taken |= keys
        codes[code] = draw(_code(fields))
    if not codes:
        codes["failure"] = draw(_code(fields))
    return draw(refinement_forests(codes))


@st.composite
def refinement_forests(draw: st.DrawFn, codes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``codes`` where some refine an earlier one (a forest), each in its parent's status class.

    Every chain stays within :data:`errcat.model.refines.MAX_CHAIN`, so the result is valid.
    """
    depth: dict[str, int] = {}
    for index, (code, spec) in enumerate(codes.items()):
        earlier = [c for c in list(codes)[:index] if depth[c] < MAX_CHAIN]
        parent = draw(st.none() | st.sampled_from(earlier)) if earlier else None
        depth[code] = 0 if parent is None else depth[parent] + 1
        if parent is not None:
            spec["refines"] = parent
            spec["http"] = codes[parent]["http"] // 100 * 100 + spec["http"] % 100
    return codes


MINIMAL_CODE: dict[str, Any] = {
    "message": "quota used up",
    "cause": "The quota is used up.",
    "remediation": "Wait for the quota window.",
    "http": 429,
    "grpc": "ResourceExhausted",
    "context": [],
    "retryable": True,
    "recovery": {
        "action": "retry_later",
        "same_arguments": "safe",
        "guidance": "Wait, then retry.",
    },
    "side_effects": "none_expected",
    "origin": "budget",
}
"""Every field a code must have, with a valid value: the one place the tests' codes get a new
required field (read it through :func:`minimal_code`)."""


def minimal_code(**fields: Any) -> dict[str, Any]:
    """A valid code of the required fields only (a fresh copy), ``fields`` replacing or adding."""
    return {**copy.deepcopy(MINIMAL_CODE), **fields}


def code_yaml(name: str, spec: dict[str, Any]) -> str:
    """The code ``name`` as a catalogue writes it under ``codes:`` (two spaces in), then a blank line."""
    lines = to_yaml({name: spec}).splitlines()
    return "".join(f"  {line}\n" for line in lines) + "\n"


@st.composite
def _code(draw: st.DrawFn, fields: list[str]) -> dict[str, Any]:
    context = draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []
    spec: dict[str, Any] = minimal_code(
        message=draw(texts()),
        cause=draw(texts()),
        remediation=draw(texts()),
        http=draw(st.integers(400, 599)),
        grpc=draw(st.sampled_from(GRPC)),
        context=context,
        retryable=draw(st.booleans()),
        recovery=draw(RECOVERY),
        side_effects=draw(st.sampled_from(SIDE_EFFECTS)),
        origin=draw(st.sampled_from(ORIGINS)),
    )
    optional = {
        "emitted_by": st.sampled_from(("server", "sdk")),
        "auth_failure": st.booleans(),
        "cancelled": st.booleans(),
        "since": st.integers(1, 9),
        "deprecated": texts(),
        "surfaces": st.dictionaries(
            SNAKE, st.fixed_dictionaries({}, optional={"message": texts()}), max_size=2
        ).map(lambda d: {k: v or {"remediation": "Do it."} for k, v in d.items()}),
    }
    for key in draw(st.lists(st.sampled_from(sorted(optional)), unique=True)):
        spec[key] = draw(optional[key])
    return spec


_EXAMPLES = {
    "string": texts(20),
    "integer": st.integers(-(2**31), 2**31),
    "number": st.one_of(st.integers(-1000, 1000), st.sampled_from([0.5, 1.25, -3.75])),
    "boolean": st.booleans(),
}


_BOUNDS = st.fixed_dictionaries(
    {}, optional={"minimum": st.integers(-1000, 0), "maximum": st.integers(0, 1000)}
)
"""Any, one or both bounds of a numeric field, the least never above the greatest."""


def _example(kind: str, low: int | None, high: int | None) -> st.SearchStrategy[Any]:
    """An example of ``kind`` within the bounds, when the field has any."""
    if low is None and high is None:
        return _EXAMPLES[kind]
    # The unbounded side stays within ±2^31, as the unbounded examples do.
    low, high = -(2**31) if low is None else low, 2**31 if high is None else high
    whole = st.integers(low, high)
    return (
        whole
        if kind == "integer"
        else st.one_of(whole, st.floats(low, high, allow_nan=False, allow_infinity=False))
    )


@st.composite
def _fields(draw: st.DrawFn) -> dict[str, dict[str, Any]]:
    names = draw(st.lists(SNAKE, max_size=4, unique_by=naming.fold))
    fields: dict[str, dict[str, Any]] = {}
    for name in names:
        kind = draw(st.sampled_from(sorted(_EXAMPLES)))
        entry: dict[str, Any] = {"type": kind, "meaning": draw(texts())}
        if kind in ("integer", "number"):
            entry.update(draw(_BOUNDS))
        if draw(st.booleans()):
            entry["example"] = draw(_example(kind, entry.get("minimum"), entry.get("maximum")))
        fields[name] = entry
    return fields


OPTIONAL_SECTIONS = ("families", "retired", "unknown_code", "grpc_gateway", "conditions", "sdk")


@st.composite
def catalogues(draw: st.DrawFn, require: tuple[str, ...] = ()) -> dict[str, Any]:
    """A valid catalogue of a random API, as plain data, with each section of ``require``."""
    word = draw(st.from_regex(r"[a-z]{2,8}", fullmatch=True).filter(lambda w: w != "mitos"))
    base = word.capitalize() + draw(st.sampled_from(("Error", "Failure", "Problem")))
    assume(_legal_base(base))
    fields = draw(_fields())
    codes = draw(_codes(sorted(fields), base))
    # A code and a context field whose words join into one identifier (a_0 and a0) would name
    # one Go type twice: the class-collision rule refuses that, so a valid catalogue avoids it.
    joined = {name.replace("_", "").lower() for name in fields}
    assume(not any(code.replace("_", "").lower() in joined for code in codes))
    names = sorted(codes)
    target = st.sampled_from(names)
    ceiling = draw(st.integers(2, 10**6))
    data: dict[str, Any] = {
        "format": CURRENT,
        "contract_version": draw(st.integers(1, 9)),
        "api": {
            "name": draw(texts(30)),
            "summary": draw(texts(200)),
            **draw(st.fixed_dictionaries({}, optional={"url": st.just("https://example.com/x")})),
        },
        "packages": {
            "python": {"distribution": f"{word}-errors", "module": f"{word}_errors"},
            "typescript": {"package": f"@{word}/errors"},
            "go": {"module": f"example.com/{word}/go-sdk", "package": f"{word}err"},
        },
        "base_class": base,
        "limits": draw(_limits(ceiling)),
        "context_fields": fields,
        "codes": codes,
        "fallback": {
            # Some standard statuses left out: errcat's defaults answer them.
            "by_status": {
                status: draw(target)
                for status in draw(st.lists(st.sampled_from(STANDARD_STATUSES), unique=True))
            },
            "by_class": {"4xx": draw(target), "5xx": draw(target)},
            "default": draw(target),
        },
    }
    sanitizer = draw(sanitizer_sections())
    if sanitizer is not None:
        data["sanitizer"] = sanitizer
    data.update(draw(_optional_sections(codes, target, require)))
    if "validation" not in data.get("sdk", {}) and draw(st.booleans()):
        for key in EXEC_LIMITS:  # only an API that runs commands or code has them
            del data["limits"][key]
    return data


OWN_RULES = (
    {
        "id": "bearer_credential",
        "name": "bearer credential",
        "prefix": "[Bb][Ee][Aa][Rr][Ee][Rr] +",
        "pattern": "[A-Za-z0-9._~+/=-]{12,}",
        "triggers": ["bearer"],
    },
    {
        "id": "drawn_token",
        "name": "drawn token",
        "pattern": "tok_[a-z0-9]{8,}",
        "triggers": ["tok_"],
    },
)
"""Rules a section that builds on the standard sanitizer may add: the first replaces the
standard rule with its id, the second is the catalogue's own."""


@st.composite
def sanitizer_sections(draw: st.DrawFn) -> dict[str, Any] | None:
    """A ``sanitizer`` section: left out (the standard one), the whole sanitizer
    (``standard: false``), or one that builds on the standard one (some markers, rules by id,
    standard rules left out by ``omit``)."""
    markers = {
        "redaction": "[" + draw(st.sampled_from(("REDACTED", "hidden", "x"))) + "]",
        "filtered": "[" + draw(st.sampled_from(("filtered", "removed"))) + "]",
        "truncation_marker": draw(st.sampled_from(("…", "...[cut]", "…[truncated]"))),
    }
    kind = draw(st.sampled_from(("standard", "whole", "builds_on")))
    if kind == "standard":
        return None
    if kind == "whole":
        return {"standard": False, **markers, **SANITIZER}
    section: dict[str, Any] = draw(
        st.fixed_dictionaries({}, optional={k: st.just(v) for k, v in markers.items()})
    )
    own = draw(st.lists(st.sampled_from(OWN_RULES), unique_by=lambda rule: rule["id"]))
    if own:
        section["secrets"] = [dict(rule) for rule in own]
    replaced = {rule["id"] for rule in own}
    omit = draw(st.lists(st.sampled_from(sorted(set(standard_rule_ids()) - replaced)), unique=True))
    if omit:
        section["omit"] = omit
    return section


EXEC_LIMITS = ("max_exec_timeout_s", "default_exec_timeout_s", "default_run_code_timeout_s")
"""The limits only some APIs have; a catalogue whose ``sdk`` has no ``validation`` may leave them out."""


@st.composite
def _limits(draw: st.DrawFn, ceiling: int) -> dict[str, int]:
    """The ``limits`` section, with ``ceiling`` as the largest timeout."""
    return {
        "max_exec_timeout_s": ceiling,
        "default_exec_timeout_s": draw(st.integers(1, ceiling)),
        "default_run_code_timeout_s": draw(st.integers(1, ceiling)),
        "error_body_max_bytes": draw(st.integers(1024, 2**24)),
        "text_max_chars": draw(st.integers(256, 4096)),
        "json_max_depth": draw(st.integers(ENVELOPE_DEPTH, 512)),
        "context_max_keys": draw(st.integers(1, 4096)),
    }


@st.composite
def _optional_sections(
    draw: st.DrawFn, codes: dict[str, Any], target: st.SearchStrategy[str], require: tuple[str, ...]
) -> dict[str, Any]:
    """Some of the optional sections (:data:`OPTIONAL_SECTIONS`), each of ``require`` among them."""
    drawn = {
        "families": lambda: {
            family: {
                "title": draw(texts(30)),
                "summary": draw(texts()),
                "codes": draw(st.lists(target, min_size=1, unique=True)),
            }
            for family in draw(st.lists(SNAKE, min_size=1, max_size=2, unique=True))
        },
        "retired": lambda: _retired(draw, codes, target),
        "unknown_code": lambda: _unknown(draw),
        "grpc_gateway": lambda: draw(grpc_gateways(codes, target)),
        "conditions": lambda: draw(condition_reasons(codes, target)),
        "sdk": lambda: draw(sdk_sections(codes)),
    }
    return {name: make() for name, make in drawn.items() if name in require or draw(st.booleans())}


@st.composite
def sdk_sections(draw: st.DrawFn, codes: dict[str, Any]) -> dict[str, Any]:
    """An ``sdk`` section: some of its groups, each role a code of its role's status class.

    A group whose roles need a status class no code has is left out, as is an optional role
    (``transport.aborted``) at random; the section may be empty.
    """
    by_class = {c: [code for code, s in codes.items() if s["http"] // 100 == c] for c in (4, 5)}
    groups = meta_schema()["properties"]["sdk"]["properties"]
    section: dict[str, Any] = {}
    for group, roles in ROLES.items():
        if not all(by_class[c] for c in roles.values()) or not draw(st.booleans()):
            continue
        required = groups[group]["required"]
        section[group] = {
            role: draw(st.sampled_from(by_class[c]))
            for role, c in roles.items()
            if role in required or draw(st.booleans())
        }
        if group == "exec_deadline":
            section[group]["exit_status"] = draw(st.integers(1, 255))
    return section


def _retired(draw: st.DrawFn, codes: dict[str, Any], target: st.SearchStrategy[str]) -> Any:
    folded = {naming.fold(c) for c in codes}
    retired = draw(
        st.lists(SNAKE.filter(lambda r: naming.fold(r) not in folded), max_size=2, unique=True)
    )
    return {r: {"reason": draw(texts()), "replaced_by": draw(target)} for r in retired}


def _unknown(draw: st.DrawFn) -> dict[str, Any]:
    unknown: dict[str, Any] = {
        "retryable": draw(st.booleans()),
        "recovery": draw(RECOVERY),
        "side_effects": draw(st.sampled_from(SIDE_EFFECTS)),
    }
    if draw(st.booleans()):
        unknown["origin"] = draw(st.sampled_from(ORIGINS))
    return unknown


@st.composite
def grpc_gateways(
    draw: st.DrawFn, codes: dict[str, Any], target: st.SearchStrategy[str]
) -> dict[str, Any]:
    """A valid ``grpc_gateway``: each listed status names a code that carries it; some channels."""
    carriers: dict[str, list[str]] = {}
    for code, spec in codes.items():
        carriers.setdefault(spec["grpc"], []).append(code)
    listed = draw(st.lists(st.sampled_from(sorted(carriers)), min_size=1, unique=True))
    override = st.fixed_dictionaries({"code": target, "meaning": texts()})
    channel = st.fixed_dictionaries(
        {
            "summary": texts(),
            "by_status": st.dictionaries(st.sampled_from(GRPC), override, min_size=1, max_size=3),
        }
    )
    gateway: dict[str, Any] = {
        "by_status": {status: draw(st.sampled_from(carriers[status])) for status in listed},
        "default": draw(target),
    }
    if draw(st.booleans()):
        gateway["channels"] = draw(st.dictionaries(SNAKE, channel, min_size=1, max_size=2))
    return gateway


CONDITION_NAMES = st.from_regex(r"[A-Z][a-z]{1,6}(?:[A-Z][a-z]{1,5}){0,2}", fullmatch=True)


@st.composite
def condition_reasons(
    draw: st.DrawFn, codes: dict[str, Any], target: st.SearchStrategy[str]
) -> dict[str, Any]:
    """Valid ``conditions``; each code a reason explains gets the reason in its remediation.

    The name goes in parentheses, so no sanitizer pattern reads it with the text before it.
    """
    names = draw(
        st.lists(CONDITION_NAMES.filter(_clean), min_size=1, max_size=3, unique_by=naming.fold)
    )
    reasons: dict[str, Any] = {}
    for name in names:
        explained = draw(st.lists(target, min_size=1, max_size=3, unique=True))
        for code in explained:
            if name not in codes[code]["remediation"]:
                codes[code]["remediation"] += f" ({name})"
        reasons[name] = {"codes": explained, "where": draw(texts()), "read": draw(texts())}
    return reasons


class _Dumper(yaml.SafeDumper):
    """PyYAML's dumper, quoting every string the catalogue loader would not read back as text."""


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    if resolve_plain(text).value != text:
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
    return dumper.represent_str(text)


_Dumper.add_representer(str, _represent_str)


def to_yaml(data: dict[str, Any]) -> str:
    """Block YAML, one key per line; strings quoted wherever a plain one would be misread."""
    return yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10**6, indent=2
    )
