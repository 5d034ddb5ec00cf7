"""Two class names that differ but make one identifier in some language are a ``class-collision``.

Each language record says what it makes of a class name besides the class
(:attr:`~errcat.names.languages.Language.code_identifier`, Rust's
``Code::RateLimited``; the context type ``RateLimitedContext``). Here a
generated catalogue gets one code whose ``class_name`` is another code's class
without its ``Error`` suffix: two classes in Python, but one Rust variant, and
one context type wherever both codes carry context.
"""

from __future__ import annotations

from typing import Any

from catalogue_strategies import FUZZ_SCALE, catalogues, to_yaml
from catalogue_variants import edited
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errcat.check.validate import validate
from errcat.names import naming
from errcat.names.languages import LANGUAGES, RUST
from errcat.problems import Problem
from errcat.source.document import KeyPath
from errcat.source.load import parse_catalogue


def _problems(text: str) -> tuple[list[Problem], Any]:
    doc = parse_catalogue(text, "drawn.yaml")
    return validate(doc), doc


@settings(
    max_examples=30 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=catalogues(), picks=st.data(), shared=st.booleans())
def test_one_identifier_from_two_class_names_is_refused_in_every_language_that_makes_it(
    data: dict[str, Any], picks: st.DataObject, shared: bool
) -> None:
    codes = list(data["codes"])
    assume(len(codes) >= 2)
    first, second = picks.draw(st.permutations(codes))[:2]
    stem = naming.class_name_for(first).removesuffix("Error")
    langs = [lang for lang in LANGUAGES if lang.shared_class_name] if shared else [RUST]
    assume(all(naming.class_problem(lang.key, stem, data["base_class"]) is None for lang in langs))
    data["codes"][second]["class_name"] = stem if shared else {RUST.key: stem}
    problems, doc = _problems(to_yaml(data))

    # The later of the two codes is reported, naming the earlier one's line.
    later, earlier = (
        (second, first) if codes.index(second) > codes.index(first) else (first, second)
    )
    at: KeyPath = ("codes", second, "class_name") + (() if shared else (RUST.key,))
    where = doc.mark(at) if later == second else doc.key_mark(("codes", first))
    made = [p for p in problems if " is also the " in p.message and "whose class name" in p.message]
    expected = {(RUST.label, "code identifier", f'"Code::{stem}"')}
    if data["codes"][first]["context"] and data["codes"][second]["context"]:
        expected |= {(lang.label, "context type", f'"{stem}Context"') for lang in langs}
    found = set()
    for problem in made:
        assert (problem.rule, (problem.line, problem.column)) == ("class-collision", where)
        assert f"of codes.{earlier} (line {doc.key_mark(('codes', earlier))[0]})" in problem.message
        head = problem.message.split(": the ", 1)[1]
        labels, rest = head.split(
            " code identifier " if "code identifier" in head else " context type ", 1
        )
        what = "code identifier" if "code identifier" in head else "context type"
        found |= {(label, what, rest.split(" ", 1)[0]) for label in labels.split(", ")}
        assert problem.fix.endswith(f"whose {what} is not {rest.split(' ', 1)[0]}")
    assert found == expected
    # Nothing else is wrong with the drawn catalogue but what the edited code's class name says.
    assert all(p.line == where[0] for p in problems), [str(p) for p in problems]


def test_a_class_name_whose_rust_variant_is_another_codes_is_refused() -> None:
    problems, _ = _problems(
        edited(("  internal:\n", "  internal:\n    class_name: {rust: RateLimited}\n"))
    )
    assert [str(p) for p in problems] == [
        "drawn.yaml:63:24: codes.internal.class_name.rust: the Rust code identifier "
        '"Code::RateLimited" of the class name "RateLimited" is also the code identifier of '
        'codes.rate_limited (line 47), whose class name is "RateLimitedError" [class-collision]; '
        "fix: change codes.internal.class_name.rust to a name whose code identifier is not "
        '"Code::RateLimited"'
    ]


def test_two_codes_with_one_context_type_are_refused_in_each_language_that_declares_it() -> None:
    problems, _ = _problems(
        edited(
            ("  internal:\n", "  internal:\n    class_name: RateLimited\n"),
            (
                "    grpc: Internal\n    context: []\n",
                "    grpc: Internal\n    context: [retry_after_ms]\n",
            ),
        )
    )
    assert [p.message.split(": ", 1)[1].split(" of the class")[0] for p in problems] == [
        'the Python, TypeScript, Rust context type "RateLimitedContext"',
        'the Rust code identifier "Code::RateLimited"',
    ]
