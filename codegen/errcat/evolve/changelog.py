"""Put a section printed by ``errcat diff --format markdown`` into CHANGELOG.md.

``python -m errcat.evolve.changelog CHANGELOG.md [SECTION.md]`` (the section from
standard input when no file is named) adds the section
above the newest one, or replaces the section with the same heading (so
running it again before a release changes nothing). Everything else in the
file is kept as it is. Exit status 2 when the section has no ``## `` heading
or the file cannot be read or written.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

TITLE = "# Changelog\n"
"""The first line of a changelog this command creates."""


def _heading(line: str) -> bool:
    return line.startswith("## ")


def insert(changelog: str, section: str) -> str:
    """Return ``changelog`` with ``section`` in place, newest first.

    Raises:
        ValueError: when ``section`` does not start with a ``## `` heading.
    """
    lines = section.strip("\n").splitlines()
    if not lines or not _heading(lines[0]):
        raise ValueError("the section must start with a '## ' heading")
    block = "\n".join(lines) + "\n"
    existing = changelog.splitlines(keepends=True)
    starts = [i for i, line in enumerate(existing) if _heading(line)]
    same = [i for i in starts if existing[i].rstrip("\n") == lines[0]]
    if same:
        begin = same[0]
        end = next((i for i in starts if i > begin), len(existing))
    else:
        begin = end = starts[0] if starts else len(existing)
    before = "".join(existing[:begin]).rstrip("\n")
    after = "".join(existing[end:]).strip("\n")
    parts = [before, block.rstrip("\n")] + ([after] if after else [])
    return "\n\n".join(part for part in parts if part) + "\n"


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` all at once: a reader sees the old file or the new one."""
    handle, temp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    """Put a section (from the file named second, else stdin) into the changelog named first."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2):
        print("usage: python -m errcat.evolve.changelog CHANGELOG.md [SECTION.md]", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        section = Path(args[1]).read_text(encoding="utf-8") if len(args) == 2 else sys.stdin.read()
        current = path.read_text(encoding="utf-8") if path.exists() else TITLE
        _replace(path, insert(current, section))
    except (OSError, UnicodeError, ValueError) as exc:
        print(f"errcat.evolve.changelog: {path}: {exc}", file=sys.stderr)
        return 2
    print(f"errcat.evolve.changelog: {path} updated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
