"""The hand-written runtimes name no code of the catalogue and no exit status: they read them.

A code the SDK raises itself (a transport failure, a rejected timeout, the
exec deadline) and the exit status that means a deadline come from the
catalogue's ``sdk`` section through the generated data, so another API's
catalogue gets its own codes, or no such helper. This test reads every
hand-written file of both runtimes and fails on a string literal that is a
catalogue code, and on the number of the exec deadline's exit status.

``mitos_errors/compat`` is not among them: it is the Mitos packages' overlay,
reproducing mitos-run's own module, whose seven classes are named by their
Mitos codes by definition.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
import yaml

from errcat.names.languages import LANGUAGES

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = yaml.safe_load((REPO / "catalogue" / "errors.yaml").read_text(encoding="utf-8"))
CODES = frozenset(CATALOGUE["codes"])
EXIT_STATUS = CATALOGUE["sdk"]["exec_deadline"]["exit_status"]
# The runtimes as errcat ships them (each language record's runtime_dir), before they are copied.
RUNTIMES = {lang.suffix: REPO / lang.runtime_dir for lang in LANGUAGES}
TS_STRING = re.compile(r"""(["'`])([a-z][a-z0-9_]*)\1""")
TS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\w\\])//[^\n]*", re.DOTALL)


def runtime_files() -> list[Path]:
    """Every hand-written source file of both runtimes (not the generated ones, not ``compat``)."""
    return sorted(path for suffix, root in RUNTIMES.items() for path in root.glob(f"*{suffix}"))


def python_literals(text: str) -> list[tuple[int, str, object]]:
    """Each string and number token of Python source: its line, its text and its value."""
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.STRING, tokenize.NUMBER):
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):  # an f-string: its parts are no whole literal
                continue
            found.append((tok.start[0], tok.string, value))
    return found


def typescript_literals(text: str) -> list[tuple[int, str, object]]:
    """Each code-like string and each integer of TypeScript source outside its comments."""
    # A comment keeps its line breaks, so that line numbers stay right.
    code = TS_COMMENT.sub(lambda m: "\n" * m[0].count("\n"), text)
    found: list[tuple[int, str, object]] = []
    for number, line in enumerate(code.splitlines(), 1):
        found += [(number, m[0], m[2]) for m in TS_STRING.finditer(line)]
        found += [
            (number, m[0], int(m[0])) for m in re.finditer(r"(?<![\w.])[0-9]+(?![\w.])", line)
        ]
    return found


def named(text: str, suffix: str) -> list[str]:
    """Each catalogue code written as a string literal, and the exit status as a number, by line."""
    literals = python_literals(text) if suffix == ".py" else typescript_literals(text)
    return [
        f"{line}: {source}"
        for line, source, value in literals
        if (type(value) is str and value in CODES) or (type(value) is int and value == EXIT_STATUS)
    ]


def test_the_scan_finds_a_code_and_the_exit_status() -> None:
    """The scan fails where it should: each way of writing a code or the status is found."""
    code = sorted(CODES)[0]
    python = f"A = \"{code}\"\nB = '{code}'  # '{code}'\nif x == {EXIT_STATUS}:\n    pass\n"
    assert named(python, ".py") == [f'1: "{code}"', f"2: '{code}'", f"3: {EXIT_STATUS}"]
    typescript = (
        f"const a = \"{code}\";\nconst b = '{code}'; // '{code}'\n"
        f"/** `{code}` {EXIT_STATUS} */\nconst c = `{code}`;\nif (x === {EXIT_STATUS}) {{}}\n"
    )
    assert named(typescript, ".ts") == [
        f'1: "{code}"',
        f"2: '{code}'",
        f"4: `{code}`",
        f"5: {EXIT_STATUS}",
    ]
    clean = f'x = "{code}_x" + "a {code}" + 1{EXIT_STATUS} + {EXIT_STATUS}.5\n'
    assert named(clean, ".py") == []
    assert named(clean, ".ts") == []


def test_the_runtimes_are_scanned() -> None:
    names = {p.name for p in runtime_files()}
    assert {"_local.py", "_transport.py", "local.ts", "transport.ts"} <= names
    assert not any("generated" in p.parts or "_generated" in p.parts for p in runtime_files())


@pytest.mark.parametrize("path", runtime_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_a_runtime_file_names_no_catalogue_code_and_no_exit_status(path: Path) -> None:
    found = named(path.read_text(encoding="utf-8"), path.suffix)
    assert found == [], (
        f"{path.relative_to(REPO)} writes catalogue codes or the exit status {EXIT_STATUS}: {found}; "
        "read them from the generated data (the catalogue's sdk section) instead"
    )
