"""Load a catalogue: strict YAML with the line and column of every node.

The catalogue is parsed with PyYAML's ``compose`` (libyaml when available)
and the node tree is turned into plain Python values here, so the loader
decides what every scalar means rather than YAML 1.1's resolver. Everything a
reader could misread is refused: byte order marks, tabs, invalid UTF-8,
several documents, duplicate keys, anchors, aliases, merge keys, explicit
tags, non-string keys, nulls and YAML 1.1 booleans and numbers. All problems
are collected in one pass and raised together as a
:class:`~errcat.problems.CatalogueError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.reader import ReaderError

from errcat.problems import CatalogueError, Problem
from errcat.source.document import Document, KeyPath, Mark, Span, prefixed
from errcat.source.scalars import resolve_plain
from errcat.source.yamltext import Lines, clean, decode
from errcat.wording import quoted

_Loader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_DEPTH = 32
"""The deepest nesting of mappings and lists a catalogue may have (it needs 6).

Deeper input is refused at the first node past the limit, so no walk over the
data (this loader's, the validator's, the renderers') ever recurses further.
"""
_KEY_KINDS = {
    "bool": "a boolean",
    "int": "a number",
    "float": "a number",
    "yaml11-boolean": "a boolean by YAML 1.1 tools",
    "ambiguous-number": "a number by some YAML tools",
    "special-float": "a floating-point number",
    "null-value": "null",
}
"""What a plain key that is not text is read as, by value type or refusal rule."""

_SYNTAX_FIXES = (
    ("mapping values are not allowed", 'quote the value: a plain value may not contain ": "'),
    ("quoted scalar", "close the quoted string with the same quote it starts with"),
    ("expected ',' or ']'", "close the list with ] or separate its items with commas"),
    ("expected ',' or '}'", "close the mapping with } or separate its entries with commas"),
    ("expected key", "indent this line like the other keys of its mapping"),
    ("expected ':'", 'add ": " after the key, or quote the text'),
    ("cannot start any token", "quote the value: a plain value cannot start with this character"),
    ("block end", "indent this line like the other entries of its block"),
    ("undefined alias", "write the value out in full instead of using an alias"),
    ("maximum nesting depth", "flatten it: a catalogue nests mappings and lists a few levels deep"),
    ("duplicate anchor", "remove the anchors and write every value out in full"),
)


def _mark(node_mark: Any) -> Mark:
    return int(node_mark.line) + 1, int(node_mark.column) + 1


def _kind(node: Any) -> str:
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    return "sequence" if isinstance(node, yaml.SequenceNode) else "scalar"


class _Reader:
    """Runs the checks of one catalogue text and collects every problem."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.marks: dict[KeyPath, Mark] = {}
        self.key_marks: dict[KeyPath, Mark] = {}
        self.spans: dict[KeyPath, Span] = {}
        self.key_starts: dict[KeyPath, int] = {}
        self.tagged: set[int] = set()
        self.visited: set[int] = set()

    def add(self, mark: Mark, rule: str, message: str, fix: str) -> None:
        self.problems.append(Problem(self.file, mark[0], mark[1], rule, message, fix))

    # -- tokens ---------------------------------------------------------------

    def scan_properties(self, text: str) -> None:
        """Report anchors, aliases and tags, and remember which nodes carry a tag."""
        previous: Any = None
        try:
            for token in yaml.scan(text, Loader=_Loader):
                where = _mark(token.start_mark)
                if isinstance(token, yaml.AnchorToken):
                    self.add(
                        where,
                        "yaml-anchor",
                        f"the anchor &{token.value} is not allowed in a catalogue",
                        f"remove &{token.value} and write the value out in full where it is used",
                    )
                elif isinstance(token, yaml.AliasToken):
                    self.add(
                        where,
                        "yaml-alias",
                        f"the alias *{token.value} is not allowed in a catalogue",
                        f"replace *{token.value} with a copy of the value it refers to",
                    )
                elif isinstance(token, yaml.TagToken):
                    handle, suffix = token.value
                    shown = f"{handle}{suffix}" if handle else f"!<{suffix}>"
                    self.add(
                        where,
                        "yaml-tag",
                        f"the explicit tag {shown} is not allowed in a catalogue",
                        f"remove {shown}; quote the value if it must be a string",
                    )
                    self.tagged.add(token.start_mark.index)
                    if isinstance(previous, yaml.AnchorToken):
                        self.tagged.add(previous.start_mark.index)
                previous = token
        except yaml.MarkedYAMLError:
            pass  # compose() reports the syntax error with its position

    # -- nodes ----------------------------------------------------------------

    def compose(self, text: str, lines: Lines) -> Any:
        loader = _Loader(text)
        root: Any = None
        try:
            if not loader.check_node():
                self.add(
                    (1, 1),
                    "empty-catalogue",
                    "the catalogue is empty",
                    "write the catalogue: a mapping with the sections the schema requires",
                )
                return None
            root = loader.get_node()
            if loader.check_node():
                self._second_document(text, root, lines)
        except yaml.MarkedYAMLError as err:
            self._syntax(err)
        except ReaderError as err:
            self.add(
                lines.at(err.position),
                "yaml-syntax",
                f"unreadable YAML: {err.reason}",
                "delete the character at this position",
            )
        except RecursionError:
            self.add((1, 1), "yaml-syntax", "the YAML is nested too deeply to read", "flatten it")
        finally:
            loader.dispose()
        return root

    def _second_document(self, text: str, root: Any, lines: Lines) -> None:
        end = root.end_mark.index
        starts: list[Mark] = []
        ends: list[Mark] = []
        try:
            for token in yaml.scan(text, Loader=_Loader):
                if token.start_mark.index >= end:
                    if isinstance(token, yaml.DocumentStartToken):
                        starts.append(_mark(token.start_mark))
                        break
                    if isinstance(token, yaml.DocumentEndToken):
                        ends.append(_mark(token.start_mark))
        except yaml.MarkedYAMLError:
            pass
        where = (starts or ends or [lines.at(end)])[0]
        self.add(
            where,
            "multiple-documents",
            "a second YAML document starts here; a catalogue is one document",
            "remove the document marker (---) and merge or delete what follows",
        )

    def _syntax(self, err: yaml.MarkedYAMLError) -> None:
        mark = err.problem_mark or err.context_mark
        where = _mark(mark) if mark is not None else (1, 1)
        problem = err.problem or "invalid YAML"
        context = ""
        if err.context and err.context_mark is not None and err.context_mark is not mark:
            line, column = _mark(err.context_mark)
            context = f" ({err.context} at line {line}, column {column})"
        elif err.context:
            context = f" ({err.context})"
        text = f"{problem}{context}"
        fix = next(
            (fix for needle, fix in _SYNTAX_FIXES if needle in text),
            "fix the YAML at this position (check its indentation and quoting)",
        )
        self.add(where, "yaml-syntax", f"YAML syntax error: {text}", fix)

    def convert(self, node: Any, path: KeyPath, record: bool = True) -> Any:
        if id(node) in self.visited:
            return None  # an alias: reported by scan_properties; never expand it twice
        self.visited.add(id(node))
        if record:
            self.marks[path] = _mark(node.start_mark)
            self.spans[path] = Span(
                node.start_mark.index,
                node.end_mark.index,
                _kind(node),
                bool(getattr(node, "flow_style", False)),
            )
        if len(path) >= MAX_DEPTH and not isinstance(node, yaml.ScalarNode):
            self.add(
                _mark(node.start_mark),
                "too-deep",
                prefixed(path[:3], f"the value is nested more than {MAX_DEPTH} levels deep"),
                "flatten it: a catalogue nests mappings and lists at most a few levels deep",
            )
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, record)
        if isinstance(node, yaml.SequenceNode):
            return [
                self.convert(item, (*path, index), record) for index, item in enumerate(node.value)
            ]
        return self._scalar(node, path)

    def _scalar(self, node: Any, path: KeyPath) -> Any:
        if node.style or node.start_mark.index in self.tagged:
            return str(node.value)
        resolved = resolve_plain(str(node.value))
        if resolved.refusal is not None:
            refusal = resolved.refusal
            fix = refusal.fix
            if refusal.rule == "null-value" and path and isinstance(path[-1], int):
                fix = "give the item a value, or remove the item"
            self.add(_mark(node.start_mark), refusal.rule, prefixed(path, refusal.message), fix)
        return resolved.value

    def _mapping(self, node: Any, path: KeyPath, record: bool) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node, path)
            if key is None:
                self.convert(value_node, (*path, "?"), record=False)
                continue
            key_path = (*path, key)
            where = _mark(key_node.start_mark)
            if key in first_line:
                self.add(
                    where,
                    "duplicate-key",
                    prefixed(
                        key_path,
                        f"the key {quoted(key)} is defined twice; first on line {first_line[key]}",
                    ),
                    f"remove one of the two {quoted(key)} entries, or merge them into one",
                )
                self.convert(value_node, key_path, record=False)
                continue
            first_line[key] = where[0]
            if record:
                self.key_marks[key_path] = where
                self.key_starts[key_path] = key_node.start_mark.index
            result[key] = self.convert(value_node, key_path, record)
        return result

    def _key(self, node: Any, path: KeyPath) -> str | None:
        where = _mark(node.start_mark)
        if not isinstance(node, yaml.ScalarNode):
            kind = "mapping" if isinstance(node, yaml.MappingNode) else "list"
            self.add(
                where,
                "non-string-key",
                prefixed(path, f"a {kind} is used as a key"),
                "use a text key",
            )
            self.convert(node, (*path, "?"), record=False)
            return None
        text = str(node.value)
        if node.style or node.start_mark.index in self.tagged:
            return text
        if text == "<<":
            self.add(
                where,
                "yaml-merge-key",
                prefixed(path, "the merge key << is not allowed in a catalogue"),
                "write the merged keys out in this mapping",
            )
            return None
        resolved = resolve_plain(text)
        if resolved.refusal is None and isinstance(resolved.value, str):
            return text
        if text == "":
            self.add(
                where,
                "non-string-key",
                prefixed(path, "a key is empty"),
                "write the key name before the colon",
            )
            return None
        kind = _KEY_KINDS.get(
            resolved.refusal.rule if resolved.refusal else type(resolved.value).__name__, "a number"
        )
        self.add(
            where,
            "non-string-key",
            prefixed(path, f"the key {text} is read as {kind}; mapping keys must be strings"),
            f"quote the key: {quoted(text)}",
        )
        return text


def parse_catalogue(source: bytes | str, display: str = "<string>") -> Document:
    """Load a catalogue from its bytes (or text).

    Args:
        source: the file's bytes; a ``str`` is encoded as UTF-8 first.
        display: the path to show in problems.

    Returns:
        The document, with plain data and the marks of every node.

    Raises:
        CatalogueError: with every problem found, if there is any.
    """
    raw = source.encode("utf-8") if isinstance(source, str) else source
    reader = _Reader(display)
    text = decode(raw, display, reader.problems)
    lines = Lines(text)
    work = clean(text, lines, display, reader.problems, _Loader)
    reader.scan_properties(work)
    root = reader.compose(work, lines)
    data = reader.convert(root, ()) if root is not None else None
    if reader.problems:
        raise CatalogueError(reader.problems)
    return Document(
        file=display,
        data=data,
        marks=reader.marks,
        key_marks=reader.key_marks,
        spans=reader.spans,
        key_starts=reader.key_starts,
        text=text,
    )


def load_catalogue(path: Path, display: str | None = None) -> Document:
    """Load the catalogue file at ``path``.

    Args:
        path: the catalogue file.
        display: the path to show in problems; defaults to ``str(path)``.

    Returns:
        The document, with plain data and the marks of every node.

    Raises:
        CatalogueError: with every problem found (including an unreadable file).
    """
    shown = str(path) if display is None else display
    try:
        raw = path.read_bytes()
    except OSError as err:
        reason = err.strerror or str(err)
        raise CatalogueError(
            [
                Problem(
                    shown,
                    1,
                    1,
                    "unreadable",
                    f"cannot read the catalogue: {reason}",
                    "check the path given with --catalogue",
                )
            ]
        ) from err
    return parse_catalogue(raw, shown)
