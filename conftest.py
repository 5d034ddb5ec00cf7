"""Settings every test suite of the repository shares (pytest reads this file first).

Hypothesis fails a test whose example takes longer than its deadline (200 ms by
default). On the 2-core machines CI uses, with pytest running on every core,
an example that takes 6 ms alone can take 350 ms under load, so a deadline
measures the machine, not the code. Speed is the benchmarks' business
(``nox -s bench``); here no property test has a deadline.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("repository", deadline=None)
settings.load_profile("repository")
