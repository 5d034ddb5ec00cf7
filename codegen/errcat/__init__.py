"""errcat: generate typed SDK errors, docs and schemas from one error catalogue.

The pipeline is load -> validate -> model -> render -> write (or check):

* :mod:`errcat.load` reads the YAML with the line and column of every node;
* :mod:`errcat.validate` checks it against ``schemas/catalogue.schema.json``
  and the semantic rules, collecting every problem;
* :mod:`errcat.model` builds the frozen model where every name is decided;
* :mod:`errcat.render` turns the model into files, one renderer per target;
* :mod:`errcat.write` writes changed files atomically, or diffs them.

Run it as ``python -m errcat generate|check``.
"""

__version__ = "1.0.0"
