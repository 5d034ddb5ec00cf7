"""The TypeScript package's ``package.json`` and README, from the catalogue.

The manifest is data, printed with :func:`json.dumps`: its first member,
``//``, says it is generated (JSON has no comments). The entry points are
:data:`ENTRY_POINTS` and each ``exports`` entry of the overlay, built for
ESM and CommonJS by the copied ``scripts/bundle.mjs``; the scripts and
devDependencies are the build's, then the overlay's.
"""

from __future__ import annotations

import json
from typing import Any

from errcat.model.catalogue import Catalogue
from errcat.names.languages import TYPESCRIPT
from errcat.render import header_lines, render_template
from errcat.render.package import has_license_file, package_version, readme_prose

BUILD_TOOLS = {"esbuild": "0.28.2", "terser": "5.51.2", "typescript": "5.9.3"}
"""The pinned tools ``npm run build`` runs (scripts/prepare.mjs installs them when missing)."""

OLDEST_TYPESCRIPT = "5.0"
"""The oldest TypeScript the package's types support (``nox -s ts`` checks users' code with it)."""

SCRIPTS = {
    "build": "node scripts/clean.mjs dist && tsc -p tsconfig.esm.json && node scripts/bundle.mjs dist && node scripts/check-dist.mjs",
    "prepare": "node scripts/prepare.mjs",
    "prepack": "node scripts/check-dist.mjs",
    "typecheck": "tsc -p tsconfig.esm.json --noEmit",
}
"""The scripts every package has; an overlay's scripts add to them (and may replace ``typecheck``)."""

ENTRY_POINTS = {".": "index", "./clients": "clients", "./server": "server"}
"""Every package's ``exports`` subpaths and the runtime module each loads (the subpath's name): the main entry (what a
client branches on), the HTTP clients' adapters and the server's envelope writer, which a client
that needs neither never loads (the import budget of docs/benchmarks-typescript.md)."""


def _entry(module: str) -> dict[str, Any]:
    """The ``exports`` conditions of ``src/<module>.ts``."""
    return {
        "import": {"types": f"./dist/esm/{module}.d.ts", "default": f"./dist/esm/{module}.js"},
        "require": {"types": f"./dist/cjs/{module}.d.ts", "default": f"./dist/cjs/{module}.js"},
    }


def manifest(cat: Catalogue) -> dict[str, Any]:
    """The ``package.json`` of ``cat``'s TypeScript package, as data."""
    info = cat.package
    overlay = info.overlay_of(TYPESCRIPT.key).manifest
    name = cat.packages[TYPESCRIPT.key][TYPESCRIPT.install_field]
    data: dict[str, Any] = {
        "//": " ".join(header_lines(cat)),
        "name": name,
        "version": package_version(cat),
        "description": info.description,
        "license": info.license,
    }
    if info.repository:
        data["repository"] = {
            "type": "git",
            "url": f"git+{info.repository.rstrip('/')}.git",
            "directory": TYPESCRIPT.package_dir,
        }
    if cat.url:
        data["homepage"] = cat.url
    if info.repository:
        data["bugs"] = {"url": f"{info.repository.rstrip('/')}/issues"}
    exports: dict[str, Any] = {path: _entry(module) for path, module in ENTRY_POINTS.items()}
    exports |= {path: _entry(module) for path, module in overlay.get("exports", {}).items()}
    exports["./package.json"] = "./package.json"
    files = ["dist/esm", "dist/cjs", "README.md"]
    if has_license_file(cat, TYPESCRIPT):
        files.append("LICENSE")
    data |= {
        "keywords": ["errors", "sdk", "error-envelope"],
        "type": "module",
        "sideEffects": False,
        "engines": {"node": ">=18"},
        "exports": exports,
        "main": "./dist/cjs/index.js",
        "module": "./dist/esm/index.js",
        "types": "./dist/cjs/index.d.ts",
        # The other entry points' types for a checker that reads no "exports" (moduleResolution node10).
        "typesVersions": {
            "*": {
                path.removeprefix("./"): [conditions["require"]["types"]]
                for path, conditions in exports.items()
                if isinstance(conditions, dict) and path != "."
            }
        },
        "files": files,
    }
    if name.startswith("@"):
        data["publishConfig"] = {"access": "public"}  # a scoped package is private by default
    data |= {
        "peerDependencies": {"typescript": f">={OLDEST_TYPESCRIPT}"},
        "peerDependenciesMeta": {"typescript": {"optional": True}},
        "scripts": SCRIPTS | dict(overlay.get("scripts", {})),
        "devDependencies": dict(
            sorted((BUILD_TOOLS | dict(overlay.get("dev_dependencies", {}))).items())
        ),
    }
    return data


def manifest_text(cat: Catalogue) -> str:
    """``package.json``: :func:`manifest`, indented as npm writes it."""
    return json.dumps(manifest(cat), indent=2, ensure_ascii=False) + "\n"


def readme(cat: Catalogue) -> str:
    """The package's README."""
    helpers = (
        "`errorFromBody` builds the error of any response body and its status, and `lookup` "
        "gives the class of a code."
    )
    more = " ESM and CommonJS, with types; no dependency."
    prose = readme_prose(cat, TYPESCRIPT, "throws", helpers, more)
    return render_template("typescript/README.md.jinja", cat, prose=prose)
