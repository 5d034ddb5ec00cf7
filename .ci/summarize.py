"""Add up the test counts of every suite in a CI log into one closing line.

Reads pytest's summary lines (``== 12 passed, 1 failed in 3.0s ==``),
node --test's (``# pass 40`` / ``# fail 0``), ``go test -v``'s
(``--- PASS: TestName (0.01s)``, one line per test and subtest) and cargo
test's (``test result: ok. 12 passed; 0 failed; 1 ignored; ...``), and prints
``N passed, N failed`` as the last line. A suite that ran no test, or a
non-zero exit status with no counted failure, is reported as a failure.

Before it, one line gives each nox session's wall time and CPU time, as the
session's last line says them (``nox > tests took 250 s, 480 s of CPU``), and
their sums: CPU time does not depend on what else the machine runs.
"""

from __future__ import annotations

import re
import sys

PYTEST = re.compile(r"^=+ (?P<body>.*?) in [0-9.]+s(?: \([^)]*\))? =+$")
PYTEST_PART = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)")
NODE = re.compile(r"^[#ℹ] (pass|fail|skipped|cancelled) (\d+)$")
CARGO = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;")
GO = re.compile(r"^\s*--- (PASS|FAIL|SKIP): ")
SESSION = re.compile(r"^nox > (?P<name>[\w.-]+) took (?P<wall>\d+) s, (?P<cpu>\d+) s of CPU$")


def times(sessions: list[tuple[str, int, int]]) -> str:
    """``sessions: lint 13 s (20 s CPU), ...; in all 420 s (700 s CPU)``."""
    parts = [f"{name} {wall} s ({cpu} s CPU)" for name, wall, cpu in sessions]
    wall, cpu = sum(s[1] for s in sessions), sum(s[2] for s in sessions)
    return f"sessions: {', '.join(parts)}; in all {wall} s ({cpu} s CPU)"


def main(log_path: str, status: str) -> int:
    passed = failed = skipped = 0
    sessions: list[tuple[str, int, int]] = []
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for raw in log:
            line = re.sub(r"\x1b\[[0-9;]*m", "", raw.rstrip("\n"))
            took = SESSION.match(line)
            if took:
                sessions.append((took["name"], int(took["wall"]), int(took["cpu"])))
                continue
            match = PYTEST.match(line)
            if match:
                for count, kind in PYTEST_PART.findall(match.group("body")):
                    if kind == "passed" or kind == "xfailed":
                        passed += int(count)
                    elif kind == "skipped":
                        skipped += int(count)
                    else:
                        failed += int(count)
                continue
            cargo = CARGO.match(line.strip())
            if cargo:
                passed += int(cargo.group(1))
                failed += int(cargo.group(2))
                skipped += int(cargo.group(3))
                continue
            match = GO.match(line)
            if match:
                kind = match.group(1)
                if kind == "PASS":
                    passed += 1
                elif kind == "FAIL":
                    failed += 1
                else:
                    skipped += 1
                continue
            match = NODE.match(line.strip())
            if match:
                kind, count = match.group(1), int(match.group(2))
                if kind == "pass":
                    passed += count
                elif kind in ("fail", "cancelled"):
                    failed += count
                else:
                    skipped += count
    if status != "0" and failed == 0:
        failed = 1
    if sessions:
        print(times(sessions))
    tail = f", {skipped} skipped" if skipped else ""
    print(f"{passed} passed, {failed} failed{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "0"))
