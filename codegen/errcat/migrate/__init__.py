"""Catalogue formats and ``errcat migrate``: formats, edits, steps, upgrade, cli.

:mod:`~errcat.migrate.formats` numbers every format errcat has accepted and
tells which one a catalogue is written in; :mod:`~errcat.migrate.edits`
changes a catalogue's text at the loader's offsets; :mod:`~errcat.migrate.steps`
holds the step from each format to the next; :mod:`~errcat.migrate.upgrade`
reads an older catalogue in memory for every other command; and
:mod:`~errcat.migrate.cli` is ``python -m errcat migrate``.
"""
