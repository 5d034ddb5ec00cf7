"""The envelope ``TypedDict`` models of the Python SDK, from the generated JSON Schema.

datamodel-code-generator converts the schema's Python view
(:func:`errcat.render.schema.language_schema`); it is imported only when this
target is rendered.
"""

from __future__ import annotations

import json

from errcat.model.catalogue import Catalogue
from errcat.names.languages import PYTHON
from errcat.names.naming import ENVELOPE_TYPE
from errcat.render import header_lines
from errcat.render.python.text import WIDTH, prose
from errcat.render.schema import language_schema


def envelope_models(cat: Catalogue) -> str:
    """The envelope ``TypedDict`` models, made by datamodel-code-generator from the schema.

    The import is here, not at the top, so only rendering this target pays for it.
    """
    from datamodel_code_generator import InputFileType, LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import DataModelType
    from datamodel_code_generator.format import Formatter

    header = "\n".join(f"# {line}" for line in header_lines(cat))
    doc = prose("python/envelope_doc.txt.jinja", cat)
    out = generate(
        json.dumps(language_schema(cat, PYTHON.key)),
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.TypingTypedDict,
        target_python_version=PythonVersion.PY_311,
        disable_timestamp=True,
        formatters=[Formatter.BUILTIN],
        builtin_format_line_length=WIDTH,
        custom_file_header=f"{header}\n{doc}",
        class_name=ENVELOPE_TYPE,
        use_schema_description=True,
        use_field_description=True,
        use_single_line_docstring=True,
        enum_field_as_literal=LiteralType.All,
        use_double_quotes=True,
        use_standard_collections=True,
        use_union_operator=True,
    )
    if not isinstance(out, str):
        raise TypeError("datamodel-code-generator returned several modules for one schema")
    return out if out.endswith("\n") else out + "\n"
