"""What the three packages declare agrees with itself and with what ships.

* one licence (Apache-2.0): the same full text at the root and in every
  package, and the same SPDX expression in every manifest;
* one repository in every manifest's URLs;
* one version per package in every place that states it, and the SDKs'
  version (the catalogue's) as the newest section of CHANGELOG.md;
* the oldest TypeScript the package states it supports is the one
  ``nox -s ts`` type-checks users' code with;
* a README that ships inside a package links only to absolute URLs or to
  files that ship with it.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
REPOSITORY = "https://github.com/mitos-dev/mitos-errors"
PACKAGES = ("codegen", "python-sdk", "ts-sdk")


def pyproject(package: str) -> dict[str, Any]:
    return tomllib.loads((REPO / package / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def package_json() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        (REPO / "ts-sdk" / "package.json").read_text(encoding="utf-8")
    )
    return loaded


def dunder_version(path: Path) -> str:
    found = re.search(r'^__version__ = "([^"]+)"$', path.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"{path}: no __version__"
    return found.group(1)


def test_every_package_carries_the_full_apache_licence() -> None:
    root = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert root.lstrip().startswith(
        "Apache License\n                           Version 2.0, January 2004"
    )
    assert "END OF TERMS AND CONDITIONS" in root
    assert "APPENDIX: How to apply the Apache License" in root
    for package in PACKAGES:
        assert (REPO / package / "LICENSE").read_text(encoding="utf-8") == root, package


@pytest.mark.parametrize("package", ["codegen", "python-sdk"])
def test_python_manifests_declare_the_licence_and_the_repository(package: str) -> None:
    project = pyproject(package)
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in project["classifiers"]), (
        "PEP 639: the expression only"
    )
    assert all(url.startswith(REPOSITORY) for url in project["urls"].values()), project["urls"]
    build = tomllib.loads((REPO / package / "pyproject.toml").read_text(encoding="utf-8"))[
        "build-system"
    ]
    assert build["requires"] == ["hatchling>=1.27"], "1.27 is the first hatchling with PEP 639"


def test_the_npm_manifest_declares_the_licence_the_repository_and_public_access() -> None:
    manifest = package_json()
    assert manifest["license"] == "Apache-2.0"
    assert manifest["repository"]["url"] == f"git+{REPOSITORY}.git"
    assert manifest["repository"]["directory"] == "ts-sdk"
    assert manifest["bugs"]["url"].startswith(REPOSITORY)
    assert manifest["homepage"].startswith(REPOSITORY)
    assert manifest["publishConfig"] == {"access": "public"}, (
        "a scoped package is private by default"
    )
    assert "LICENSE" in manifest["files"]
    assert manifest["sideEffects"] is False


def test_versions_agree_everywhere_they_are_stated() -> None:
    # tests/sync/test_versions.py ties both manifests to the catalogue's version;
    # these are the other places a version is written.
    generated = REPO / "python-sdk" / "src" / "mitos_errors" / "_generated" / "version.py"
    sdk = dunder_version(generated)
    import mitos_errors  # its __version__ is read from the generated file, not written twice

    assert mitos_errors.__version__ == sdk
    generator = pyproject("codegen")["version"]
    assert dunder_version(REPO / "codegen" / "errcat" / "__init__.py") == generator
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+)$", changelog, re.MULTILINE)
    assert headings, "CHANGELOG.md has no `## X.Y.Z` section"
    assert headings[0] in (sdk, "Unreleased"), (
        f"CHANGELOG.md's newest is {headings[0]}, the SDKs {sdk}"
    )


def test_the_stated_oldest_typescript_is_the_one_tested() -> None:
    manifest = package_json()
    stated = manifest["peerDependencies"]["typescript"]
    assert manifest["peerDependenciesMeta"]["typescript"] == {"optional": True}
    found = re.fullmatch(r">=(\d+\.\d+)", stated)
    assert found, stated
    tools = json.loads((REPO / "tools" / "package.json").read_text(encoding="utf-8"))
    tested = tools["devDependencies"]["typescript-oldest"]
    assert re.fullmatch(rf"npm:typescript@{re.escape(found.group(1))}\.\d+", tested), (
        stated,
        tested,
    )
    assert f"TypeScript {found.group(1)}" in (REPO / "ts-sdk" / "README.md").read_text(
        encoding="utf-8"
    )


LINK = re.compile(
    r"!?\[[^\]]*\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE
)


def links(markdown: str) -> list[str]:
    """Every inline and reference-definition link target of a Markdown text, code spans and blocks left out."""
    prose = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    return [inline or definition for inline, definition in LINK.findall(prose)]


def shipped_readme_problems(package: str) -> list[str]:
    text = (REPO / package / "README.md").read_text(encoding="utf-8")
    problems = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # absolute (https:, mailto:) or an anchor of the README itself
        path = (REPO / package / target.split("#")[0]).resolve()
        if not path.is_relative_to((REPO / package).resolve()) or not path.exists():
            problems.append(target)
    return problems


@pytest.mark.parametrize("package", PACKAGES)
def test_a_shipped_readme_links_only_to_what_ships_or_to_absolute_urls(package: str) -> None:
    assert shipped_readme_problems(package) == []


def test_the_link_reader_finds_relative_links() -> None:
    sample = (
        'See [the contract](../docs/sdk-contract.md "title"), ![logo](img.png), `[not](code.md)`\n'
        "```md\n[nor](block.md)\n```\n\n[ref]: ../LICENSE\n"
    )
    assert links(sample) == ["../docs/sdk-contract.md", "img.png", "../LICENSE"]
    assert "../LICENSE" in [t for t in links(sample) if not t.startswith("http")]
