"""Build hook: ship the catalogue meta-schema inside the errcat package.

The one copy of the meta-schema is the repository's
``schemas/catalogue.schema.json``, next to the envelope schema it describes.
Built from the repository, both the sdist and the wheel get it as
``errcat/catalogue.schema.json``; built from the sdist, where it is already
there and ``../schemas`` is not, the package's own copy is used. Either way
the wheel holds it, and :func:`errcat.metaschema.schema_text` finds it with
``importlib.resources``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NAME = "catalogue.schema.json"
IN_PACKAGE = f"errcat/{NAME}"


class MetaSchemaHook(BuildHookInterface):  # type: ignore[type-arg]  # generic in its config
    """Force-include the repository's meta-schema unless the package already has it."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return  # an editable install reads schemas/ in the repository itself
        root = Path(self.root)
        if (root / IN_PACKAGE).is_file():
            return  # building from the sdist: the file is in the package
        repository_copy = root.parent / "schemas" / NAME
        if not repository_copy.is_file():
            raise FileNotFoundError(
                f"{repository_copy}: the catalogue meta-schema is missing; build errcat from "
                "the repository (codegen/ next to schemas/) or from its sdist"
            )
        build_data["force_include"][str(repository_copy)] = IN_PACKAGE
