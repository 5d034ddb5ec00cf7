"""Settings every test suite of the repository shares (pytest reads this file first).

Hypothesis fails a test whose example takes longer than its deadline (200 ms by
default). On the 2-core machines CI uses, with pytest running on every core,
an example that takes 6 ms alone can take 350 ms under load, so a deadline
measures the machine, not the code. Speed is the benchmarks' business
(``nox -s bench``); here no property test has a deadline.

The modules of the long tests run first (:data:`LONG_FIRST`). nox runs
pytest-xdist with ``--dist worksteal``: each worker starts with half the
tests in collection order, and a worker that runs out takes half of the
other's queue from its end. A long test collected last would keep one core
busy after the other has run out of work; collected first, the long tests
run at the start and the short ones even out the end.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

settings.register_profile("repository", deadline=None)
settings.load_profile("repository")

LONG_FIRST = (
    "tests/packaging/test_drawn_packages.py",
    "tests/packaging/test_guide.py",
    "codegen/tests/test_generate_linear.py",
    "tests/packaging/test_npm_from_path.py",
    "codegen/tests/test_diff_properties.py",
    "codegen/tests/test_writer_faults.py",
    "codegen/tests/test_rust_crates.py",
    "codegen/tests/test_generated_catalogues.py",
    "tests/conformance/test_from_dict.py",
    "codegen/tests/test_typescript_output.py",
    "codegen/tests/test_golden_typescript.py",
)
"""The test modules that take the longest (seconds of CPU each, building packages or
tracing every line), longest first: measured with ``pytest --durations``."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the modules of :data:`LONG_FIRST` to the front, in its order; keep every other order."""
    rank = {module: index for index, module in enumerate(LONG_FIRST)}
    root = config.rootpath

    def key(item: pytest.Item) -> int:
        module = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        return rank.get(module, len(LONG_FIRST))

    items.sort(key=key)  # stable: each module keeps its own order
