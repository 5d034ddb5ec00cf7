"""``limits.json_max_depth`` lets the envelope itself through: the rule ``json-depth-below-envelope``.

The least depth is :data:`~errcat.check.limits.ENVELOPE_DEPTH`; here it is measured
on the envelope schemas rendered for generated catalogues, so a member that nests
deeper (or a context field of a nested type) fails the test rather than the SDKs.
"""

from __future__ import annotations

from typing import Any

from catalogue_strategies import FUZZ_SCALE, catalogues, to_yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.check.limits import ENVELOPE_DEPTH
from errcat.check.validate import validate
from errcat.model.catalogue import build_model
from errcat.render.schema import envelope_schema
from errcat.source.load import parse_catalogue

SETTINGS = settings(
    max_examples=15 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def nesting(schema: Any, defs: dict[str, Any], seen: frozenset[str] = frozenset()) -> int:
    """How deeply a value the schema describes nests arrays and objects, through its named members.

    Follows local ``$ref`` (a reference already on the path counts as no deeper),
    ``properties``, ``items``, ``allOf`` and ``if``/``then``; members a schema leaves
    open (``additionalProperties: true``) are what a server adds, not the envelope.
    """
    if not isinstance(schema, dict):
        return 0
    ref = schema.get("$ref")
    if isinstance(ref, str):
        parts = ref.removeprefix("#/$defs/").split("/")
        if parts[0] in seen:
            return 0
        target: Any = defs[parts[0]]
        for part in parts[1:]:
            target = target[part]
        return nesting(target, defs, seen | {parts[0]})
    inner = [nesting(member, defs, seen) for member in schema.get("properties", {}).values()]
    inner.append(nesting(schema.get("items"), defs, seen))
    inner += [nesting(part, defs, seen) for part in schema.get("allOf", [])]
    inner.append(nesting(schema.get("then"), defs, seen))
    own = 1 if schema.get("type") in ("object", "array") else 0
    return own + max(inner)


@SETTINGS
@given(data=catalogues())
def test_the_least_depth_is_the_depth_of_the_rendered_envelope(data: dict[str, Any]) -> None:
    cat = build_model(data, source="catalogue.yaml", regenerate="x")
    for strict in (False, True):
        schema = envelope_schema(cat, strict=strict)
        assert nesting(schema, schema["$defs"]) == ENVELOPE_DEPTH


def test_the_measure_sees_a_deeper_member() -> None:
    # The measure itself can fail: a member one level deeper is counted.
    deeper = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}
    defs = {"A": {"type": "array", "items": {"type": "object", "properties": {"b": {}}}}}
    assert nesting(deeper, defs) == 3


@SETTINGS
@given(data=catalogues(), depth=st.integers(2, ENVELOPE_DEPTH + 2))
def test_a_depth_below_the_envelope_is_refused_where_it_is_written(
    data: dict[str, Any], depth: int
) -> None:
    data["limits"]["json_max_depth"] = depth
    text = to_yaml(data)
    problems = validate(parse_catalogue(text, "drawn.yaml"))
    if depth >= ENVELOPE_DEPTH:
        assert problems == []
        return
    line = text.splitlines().index(f"  json_max_depth: {depth}") + 1
    assert [(p.rule, p.line, p.column) for p in problems] == [
        ("json-depth-below-envelope", line, 19)
    ]
    (problem,) = problems
    assert f"{depth} is below the depth of the error envelope itself ({ENVELOPE_DEPTH}" in (
        problem.message
    )
    assert problem.fix.startswith(f"raise it to {ENVELOPE_DEPTH} or more")
    assert str(problem).startswith(f"drawn.yaml:{line}:19: ")
    assert str(problem).endswith(f"[json-depth-below-envelope]; fix: {problem.fix}")
