"""The rules on limits: the timeout defaults and the bounds of timeout fields stay within the
ceiling, the helper that checks a timeout (``sdk.validation``) has a ceiling to check it against,
and ``json_max_depth`` lets the envelope itself through."""

from __future__ import annotations

from errcat.check.context import Context
from errcat.source.document import KeyPath, as_mapping

CEILING_FIELDS = ("max_timeout_s", "timeout_s")
"""Context fields whose values the timeout ceiling ``limits.max_exec_timeout_s`` bounds.

``max_timeout_s`` is that ceiling (``validate_timeout`` puts it in the context),
``timeout_s`` a deadline within it; a ``maximum`` of either must be the ceiling.
"""


ENVELOPE_DEPTH = 3
"""How deeply the error envelope itself nests arrays and objects: the body, its ``error``, and the
error's ``context``, ``recovery`` and ``refines`` (a context field holds a scalar, by the
meta-schema's ``context_fields`` types).

The envelope schemas (:mod:`errcat.render.schema`) draw the structure; the codegen tests measure
the depth of the schemas rendered for generated catalogues and hold it to this value.
"""


def timeout_ceiling(ctx: Context) -> None:
    """The default timeouts are at most the ceiling; a timeout field's ``maximum`` is the ceiling."""
    limits = ctx.section("limits")
    ceiling = limits.get("max_exec_timeout_s")
    if not isinstance(ceiling, int) or not ctx.ok(("limits", "max_exec_timeout_s")):
        return
    for key in ("default_exec_timeout_s", "default_run_code_timeout_s"):
        value = limits.get(key)
        path = ("limits", key)
        if isinstance(value, int) and ctx.ok(path) and value > ceiling:
            ctx.add(
                path,
                "timeout-above-ceiling",
                f"{value} is above the ceiling limits.max_exec_timeout_s ({ceiling})",
                f"lower it to {ceiling} or less, or raise max_exec_timeout_s",
            )
    fields = ctx.section("context_fields")
    for name in CEILING_FIELDS:
        high = as_mapping(fields.get(name)).get("maximum")
        at: KeyPath = ("context_fields", name, "maximum")
        if type(high) in (int, float) and high != ceiling and ctx.ok(at):
            ctx.add(
                at,
                "maximum-not-ceiling",
                f"{high} is not the timeout ceiling limits.max_exec_timeout_s ({ceiling}), "
                f"which bounds {name}",
                f"set it to {ceiling}, or remove it",
            )


def validation_ceiling(ctx: Context) -> None:
    """An ``sdk.validation`` group needs ``limits.max_exec_timeout_s``: ``validate_timeout`` checks against it."""
    if "validation" not in ctx.section("sdk") or not ctx.ok(("sdk", "validation")):
        return
    if "max_exec_timeout_s" in ctx.section("limits") or not ctx.ok(("limits",)):
        return
    ctx.add(
        ("sdk", "validation"),
        "validation-without-ceiling",
        "sdk.validation gives the SDKs validate_timeout, which needs the timeout ceiling "
        "limits.max_exec_timeout_s; the catalogue has none",
        "add limits.max_exec_timeout_s (the longest timeout a request may ask for), "
        "or remove sdk.validation",
    )


def json_depth(ctx: Context) -> None:
    """``json_max_depth`` is at least :data:`ENVELOPE_DEPTH`: a shallower bound reads a valid
    envelope with a context, a recovery or a refines chain as not JSON."""
    path = ("limits", "json_max_depth")
    depth = ctx.section("limits").get("json_max_depth")
    if not isinstance(depth, int) or depth >= ENVELOPE_DEPTH or not ctx.ok(path):
        return
    ctx.add(
        path,
        "json-depth-below-envelope",
        f"{depth} is below the depth of the error envelope itself ({ENVELOPE_DEPTH}: the body, "
        "error, and its context, recovery or refines); the SDKs would read a valid envelope "
        "as not JSON",
        f"raise it to {ENVELOPE_DEPTH} or more (64 leaves room for what a server adds)",
    )
