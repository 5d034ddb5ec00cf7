"""errcat: generate typed SDK errors, docs and schemas from one error catalogue.

The pipeline is load -> check -> model -> render -> write (or check), and
each stage is a subpackage:

* :mod:`errcat.source` reads the YAML with the line and column of every node;
* :mod:`errcat.check` checks it against the meta-schema
  (:mod:`errcat.metaschema`, read once for every stage) and every catalogue
  rule, collecting every problem (:mod:`errcat.problems`);
* :mod:`errcat.model` builds the frozen model, where every name is decided
  by :mod:`errcat.names` (derived names, target languages, reserved names);
* :mod:`errcat.render` turns the model into files, one folder per SDK target;
* :mod:`errcat.write` writes changed files atomically, or diffs them.

:mod:`errcat.evolve` compares two catalogues (``errcat diff``);
:mod:`errcat.migrate` reads every catalogue format and rewrites an older
catalogue in the current one (``errcat migrate``), between loading and
checking; :mod:`errcat.starter` writes a starter catalogue (``errcat init``).
Run it as ``python -m errcat generate|check|validate|diff|migrate|init``.
"""

__version__ = "1.0.0"
