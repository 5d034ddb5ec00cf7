"""Drop-in modules for mitos-run's error layer, built on mitos_errors.

mitos-run 0.3.1's ``mitos/errors.py`` and ``mitos/_envelope.py`` can each
become one line::

    from mitos_errors.compat.errors import *      # mitos/errors.py
    from mitos_errors.compat.envelope import *    # mitos/_envelope.py

Every name those modules have is here, private ones included (``_redact``,
``_status_code``, ...), so mitos-run's own modules keep importing them. What
a caller can see change is listed in docs/migrating-from-mitos-run.md.
"""
