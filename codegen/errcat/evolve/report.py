"""What ``errcat diff`` prints and decides: change lines, a changelog section, the verdict.

The verdict follows the catalogue's version when both sides have one: the
version must go up by at least the bump the changes need (a wire or sdk
change a major bump, behaviour a minor one, additive and docs a patch), and
a bump that large accepts every change. When either side has no version,
nothing accepts a change and any change at or above ``--fail-on`` fails.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from errcat.evolve import semver
from errcat.evolve.changes import Change, Side
from errcat.evolve.rules import Bump, Level
from errcat.render.markdown import WIDTH, wrap

SECTIONS = {
    Level.WIRE: "Breaking changes on the wire",
    Level.SDK: "Breaking changes in the SDKs",
    Level.BEHAVIOUR: "Changed behaviour",
    Level.ADDITIVE: "Added",
    Level.DOCS: "Documentation",
}
"""The changelog heading of each level, widest-reaching first."""

_MARKDOWN_RE = re.compile(r"([\\`*<>\[\]|#])")


def line(change: Change) -> str:
    """``FILE:LINE:COLUMN: [LEVEL rule] what changed; what it does; how to make it compatible``."""
    return (
        f"{change.file}:{change.line}:{change.column}: "
        f"[{change.level.label} {change.rule}] {change.what}; {change.effect}; {change.fix}"
    )


def needed(changes: list[Change]) -> Bump:
    """The smallest version bump that covers every change."""
    return max((change.level.bump for change in changes), default=Bump.NONE)


def version_of(side: Side) -> semver.Version | None:
    """The side's declared version (the meta-schema checked its form), or ``None``."""
    text = side.raw("version")
    return semver.parse(text) if isinstance(text, str) else None


@dataclass(frozen=True)
class Verdict:
    """The outcome: exit status 0 or 1, and the lines that explain it."""

    status: int
    lines: tuple[str, ...]


def judge(changes: list[Change], old: Side, new: Side, fail_on: Level) -> Verdict:
    """Decide whether ``changes`` pass, by the versions of both sides or else by ``fail_on``."""
    bump = needed(changes)
    counts = Counter(change.level for change in changes)
    summary = ", ".join(f"{counts[level]} {level.label}" for level in SECTIONS if counts[level])
    noun = "change" if len(changes) == 1 else "changes"
    pair = f"from {old.doc.file} to {new.doc.file}"
    head = (
        f"errcat: {len(changes)} {noun} {pair} ({summary}); they need a {bump.label} version bump"
        if changes
        else f"errcat: no changes {pair}"
    )
    before, after = version_of(old), version_of(new)
    if before is not None and after is not None:
        return _by_version(head, bump, before, after)
    missing = old.doc.file if before is None else new.doc.file
    failing = [change for change in changes if change.level >= fail_on]
    if not failing:
        return Verdict(0, (head, f"errcat: nothing at level {fail_on.label} or above changed"))
    count = len(failing)
    return Verdict(
        1,
        (
            head,
            f"errcat: {count} {'change is' if count == 1 else 'changes are'} at level "
            f"{fail_on.label} or above, and {missing} has no version that could accept "
            f"{'it' if count == 1 else 'them'}; make {'it' if count == 1 else 'them'} compatible "
            "as each line says, or give both catalogues a version and bump it",
        ),
    )


def _by_version(head: str, bump: Bump, before: semver.Version, after: semver.Version) -> Verdict:
    made = semver.bump_between(before, after)
    target = semver.bumped(before, bump)
    if made is None:
        return Verdict(
            1,
            (
                head,
                f"errcat: the version went down from {before} to {after}; set version: {target}",
            ),
        )
    if made is Bump.NONE and bump > Bump.NONE:
        return Verdict(
            1,
            (
                head,
                f"errcat: the version stays {after}, but the changes need a {bump.label} "
                f"bump; set version: {target}",
            ),
        )
    if made < bump:
        return Verdict(
            1,
            (
                head,
                f"errcat: version {before} -> {after} is a {made.label} bump, less than the "
                f"{bump.label} bump the changes need; set version: {target}",
            ),
        )
    if made is Bump.NONE:
        return Verdict(0, (head, f"errcat: the version stays {after}, as nothing needs a bump"))
    return Verdict(0, (head, f"errcat: version {before} -> {after} is a {made.label} bump: enough"))


def _escape(text: str) -> str:
    return _MARKDOWN_RE.sub(r"\\\1", text)


def _item(text: str) -> str:
    """A list item wrapped at 80 columns, as the Markdown of the repository is."""
    first, *rest = wrap(text, WIDTH - 2).split("\n")
    return "\n".join([f"- {first}", *(f"  {line}" for line in rest)])


def markdown(changes: list[Change], new: Side) -> str:
    """The changelog section of these changes, headed by the new version (or Unreleased)."""
    version = version_of(new)
    out = [f"## {version if version is not None else 'Unreleased'}", ""]
    if not changes:
        out += ["No changes to the error catalogue.", ""]
    for level, title in SECTIONS.items():
        entries = [change for change in changes if change.level is level]
        if not entries:
            continue
        out += [f"### {title}", ""]
        out += [_item(f"{_escape(change.what)}: {_escape(change.effect)}.") for change in entries]
        out.append("")
    return "\n".join(out)
