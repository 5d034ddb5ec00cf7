"""Both packages carry the catalogue's version.

The Python package reads it at build time from the file errcat generates
(hatch's ``[tool.hatch.version]``); npm has no such hook, so the TypeScript
package states it and this test keeps it equal, naming the command that fixes it.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from errcat.source.load import load_catalogue

REPO = Path(__file__).resolve().parents[2]
VERSION_FILE = "src/mitos_errors/_generated/version.py"


def catalogue_version() -> str:
    version = load_catalogue(REPO / "catalogue" / "errors.yaml").data.get("version")
    assert isinstance(version, str), "catalogue/errors.yaml has no version: key"
    return version


def test_the_python_package_takes_its_version_from_the_generated_file() -> None:
    project = tomllib.loads((REPO / "python-sdk" / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "python-sdk/pyproject.toml: remove version ="
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == VERSION_FILE
    text = (REPO / "python-sdk" / VERSION_FILE).read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    assert found is not None
    assert found[1] == catalogue_version(), "run nox -s generate"


def test_the_typescript_package_states_the_catalogue_version() -> None:
    version = catalogue_version()
    package = json.loads((REPO / "ts-sdk" / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((REPO / "ts-sdk" / "package-lock.json").read_text(encoding="utf-8"))
    stated = {
        "package.json": package["version"],
        "package-lock.json": lock["version"],
        'package-lock.json packages[""]': lock["packages"][""]["version"],
    }
    wrong = {where: value for where, value in stated.items() if value != version}
    assert not wrong, (
        f"ts-sdk states {wrong}, the catalogue {version}; fix: "
        f"(cd ts-sdk && npm version {version} --no-git-tag-version)"
    )
