"""Fixtures of the conformance suite, and its one-line summary.

Each SDK answers every vector once, in one process (Python in this one, the
TypeScript SDK in one ``node testee.cjs``), through the one testee protocol
(testkit.testees), in session-scoped fixtures; the tests then judge the
records vector by vector. The loopback server is started once per SDK and
stopped when its run ends.

At the end of the session a line such as::

    conformance: python 437/437, typescript 437/437, parity 437/437 identical

is printed (and one for the HTTP runs), counting the tests that ran.

The TypeScript side needs ``node`` and a built ``ts-sdk``; when either is
missing its tests fail with the command that fixes it. ``ERRCAT_SKIP_TS=1``
skips them instead, for quick local runs.
"""

from __future__ import annotations

from typing import Any

import pytest

from errcat.cli import load_model
from errcat.model.catalogue import Catalogue
from testkit import paths, testees
from testkit.runs import Runs
from testkit.tally import count
from testkit.vectors import Vector, load_all

Json = Any


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print how many vectors each SDK passed, and the parity result."""
    for label, prefix in (
        ("conformance", ""),
        ("conformance over HTTP", "http-"),
        ("emit vectors", "emit-"),
    ):
        parts = []
        for lang in testees.LANGUAGES:
            passed = count(config, prefix + lang)
            if passed is not None:
                parts.append(f"{lang} {passed}")
            elif lang == "typescript" and paths.skip_typescript():
                parts.append(f"typescript skipped ({paths.SKIP_TS_ENV}=1)")
        parity = count(config, prefix + "parity")
        if parity is not None:
            parts.append(f"parity {parity} identical")
        if parts:
            terminalreporter.write_line(f"{label}: {', '.join(parts)}")


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    """The catalogue model the expectations are judged against."""
    return load_model(paths.CATALOGUE, paths.REPO)


@pytest.fixture(scope="session")
def vectors() -> tuple[Vector, ...]:
    """Every vector of every file."""
    return load_all()


@pytest.fixture(scope="session")
def class_names(catalogue: Catalogue) -> dict[str, str]:
    """TypeScript class name -> Python class name, where a catalogue makes them differ."""
    return testees.typescript_class_names(catalogue)


@pytest.fixture(scope="session")
def runs(vectors: tuple[Vector, ...], class_names: dict[str, str]) -> Runs:
    """Every SDK's answers, in process and over HTTP, each made once."""
    return Runs(vectors, class_names)
