"""Both SDKs' generated pre-filters are the plan's one test, on drawn texts.

errcat computes one pre-filter plan (``errcat/model/prefilter.py``) and
renders it for Python (``has_trigger``) and TypeScript (``plainRules``,
``triggeredRules`` and ``isPlain``). For every catalogue errcat is tested with, and for
drawn texts made of triggers, guard characters, near misses, case variants
and non-ASCII characters, both must agree with the plain definition: a rule
may run exactly when the lower-cased text holds one character of each of its
guards and one of its triggers; and every rule whose pattern matches the text
is one of those (the pre-filter never skips a match). TypeScript's module is
rendered, transpiled and run in one Node process.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.model.catalogue import Catalogue, build_model
from errcat.model.prefilter import Prefilter, prefilter
from errcat.render.python.target import TARGET as PYTHON
from errcat.render.typescript.prefilter import regex_literal
from errcat.render.typescript.target import TARGET as TYPESCRIPT
from errcat.source.load import load_catalogue

REPO = Path(__file__).resolve().parents[2]
TS_COMPILER = REPO / "ts-sdk" / "node_modules" / "typescript"
CATALOGUES = {
    "mitos": REPO / "catalogue" / "errors.yaml",
    "gateway": REPO / "codegen" / "tests" / "fixtures" / "good" / "gateway.yaml",
    "minimal": REPO / "codegen" / "tests" / "fixtures" / "good" / "minimal.yaml",
}
MASK_BITS = 31
# Prose, characters whose lower case is ASCII (KELVIN SIGN, I WITH DOT ABOVE), other
# non-ASCII, and characters step 1 changes.
FILLERS = [
    " ",
    "the request ",
    "Key",
    "\u212a",
    "\u0130",
    "é",
    "ß",
    "\u00a0",
    "😀",
    "\n",
    "\t",
    "\x7f",
]

_NODE = r"""
const ts = require(process.argv[1]);
const lines = require("readline").createInterface({ input: process.stdin });
const modules = new Map();
lines.on("line", (line) => {
  const req = JSON.parse(line);
  if (req.source !== undefined) {
    const js = ts.transpileModule(req.source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
    const module = { exports: {} };
    new Function("module", "exports", "require", js)(module, module.exports, () => ({}));
    modules.set(req.name, module.exports);
    process.stdout.write("[]\n");
    return;
  }
  if (req.regexes !== undefined) {
    // Each literal, evaluated as the generated module would, on its texts.
    const out = req.regexes.map((literal, i) => req.texts[i].map((text) => new Function(`return ${literal};`)().test(text)));
    process.stdout.write(JSON.stringify(out) + "\n");
    return;
  }
  const m = modules.get(req.name);
  const out = req.texts.map((text) => [m.triggeredRules(text), m.plainRules(text), m.isPlain(text)]);
  process.stdout.write(JSON.stringify(out) + "\n");
});
"""


def _model(name: str) -> Catalogue:
    doc = load_catalogue(CATALOGUES[name], display=name)
    return build_model(doc.data, source=name, regenerate="nox -s generate")


@pytest.fixture(scope="module")
def node() -> Iterator[Callable[[dict[str, object]], list[list[object]]]]:
    if shutil.which("node") is None or not (TS_COMPILER / "package.json").is_file():
        pytest.skip("node or TypeScript is not installed (npm ci in ts-sdk)")
    proc = subprocess.Popen(
        ["node", "-e", _NODE, str(TS_COMPILER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def ask(request: dict[str, object]) -> list[list[object]]:
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        answer: list[list[object]] = json.loads(stdout.readline())
        return answer

    yield ask
    stdin.close()
    proc.wait(timeout=10)


def _python_test(cat: Catalogue) -> Callable[[str], bool]:
    (source,) = (text for path, text in PYTHON.sanitizer_rules(cat).items() if path.endswith(".py"))
    namespace: dict[str, object] = {}
    exec(compile(source, "sanitizer_rules.py", "exec"), namespace)
    test = namespace["has_trigger"]
    assert callable(test)
    return test


def _typescript_source(cat: Catalogue) -> str:
    (source,) = (
        text
        for path, text in TYPESCRIPT.sanitizer_rules(cat).items()
        if path.endswith("sanitizer-rules.ts")
    )
    return source


def _near_misses(trigger: str) -> list[str]:
    """The trigger less one character, with one character changed, and split by a space."""
    out = [trigger[:i] + trigger[i + 1 :] for i in range(len(trigger))]
    out += [trigger[:i] + "q" + trigger[i + 1 :] for i in range(len(trigger))]
    out += [trigger[:i] + " " + trigger[i:] for i in range(1, len(trigger))]
    return [t for t in out if t]


def _texts(cat: Catalogue) -> st.SearchStrategy[str]:
    plan = prefilter(cat)
    rules = cat.sanitizer.injection + cat.sanitizer.secrets
    triggers = sorted({t for r in rules for t in r.triggers})
    guards = sorted({ch for g in plan.groups for s in g.guards for ch in s})
    word = st.one_of(
        st.sampled_from(triggers),
        st.sampled_from(sorted({m for t in triggers for m in _near_misses(t)})),
        *(st.from_regex(r.regex) for r in rules),
    )
    cased = st.tuples(word, st.sampled_from([str.upper, str.title, str.lower, str.swapcase]))
    piece = st.one_of(
        cased.map(lambda pair: pair[1](pair[0])),
        st.sampled_from(FILLERS + guards),
        st.text(max_size=3),
    )
    return st.lists(piece, max_size=6).map("".join)


def _plain(cat: Catalogue, plan: Prefilter, low: str) -> int:
    """The plain definition: the rules whose guards and one of whose triggers ``low`` holds.

    ``plan`` is ``prefilter(cat)``, computed once per catalogue by the caller (a plan of the
    Mitos catalogue takes a tenth of a second, and every drawn text is judged with it).
    """
    triggers = [r.triggers for r in cat.sanitizer.injection + cat.sanitizer.secrets]
    mask = 0
    for group in plan.groups:
        if all(not set(g).isdisjoint(low) for g in group.guards):
            for rule in group.rules:
                if any(t in low for t in triggers[rule.index]):
                    mask |= 1 << rule.index
    return mask


def _changed_by_step_1(cat: Catalogue, text: str) -> bool:
    ranges = cat.sanitizer.remove + cat.sanitizer.to_space
    return any(ord(c) >= 0x80 or any(r.first <= ord(c) <= r.last for r in ranges) for c in text)


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_both_generated_prefilters_are_the_plain_definition(
    name: str, node: Callable[[dict[str, object]], list[list[object]]]
) -> None:
    cat = _model(name)
    plan = prefilter(cat)
    has_trigger = _python_test(cat)
    node({"name": name, "source": _typescript_source(cat)})
    patterns = [re.compile(r.regex) for r in cat.sanitizer.injection + cat.sanitizer.secrets]
    bits = (1 << min(MASK_BITS, len(patterns))) - 1
    batch: list[str] = []
    seen = {"matched": 0}

    @settings(
        max_examples=300,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(_texts(cat))
    def draw(text: str) -> None:
        batch.append(text)

    draw()
    answers = node({"name": name, "texts": batch})
    for text, (mask, plain_mask, plain) in zip(batch, answers, strict=True):
        expected = _plain(cat, plan, text.lower())
        matching = sum(1 << i for i, p in enumerate(patterns) if p.search(text))
        seen["matched"] += matching != 0
        assert matching & ~expected == 0, f"a rule matches {text!r} but the plan skips it"
        assert has_trigger(text.lower()) == (expected != 0), repr(text)
        assert mask == expected & bits, (text, mask, expected)
        assert plain == (not _changed_by_step_1(cat, text)), repr(text)
        assert plain_mask == (mask if plain else -1), repr(text)
    assert seen["matched"] >= 50, f"only {seen['matched']} of the texts held a match"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=4), st.text(max_size=3))
def test_a_search_finds_exactly_its_triggers_whatever_they_hold(
    node: Callable[[dict[str, object]], list[list[object]]], triggers: list[str], pad: str
) -> None:
    """Hostile triggers (quotes, slashes, regex syntax, surrogates) are literals in the search."""
    literal = regex_literal(triggers)
    syntax = "\\^$.|?*+()[]{}/"
    misses = [t[:-1] for t in triggers]
    misses += ["".join("x" if c in syntax else c for c in t) for t in triggers]
    (found,) = node({"regexes": [literal], "texts": [[pad + t + pad for t in triggers] + misses]})
    assert found[: len(triggers)] == [True] * len(triggers), literal
    if all(t.isascii() for t in triggers):
        for text, hit in zip(misses, found[len(triggers) :], strict=True):
            assert hit == any(t.lower() in text.lower() for t in triggers), (literal, text)
