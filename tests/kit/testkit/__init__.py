"""The shared test kit: every helper the repository's tests import, and nothing else.

- ``reference`` (with ``reference_text``, ``reference_headers`` and
  ``reference_calls``): the one oracle of docs/sdk-contract.md, written from
  the contract and the catalogue.
- ``record``, ``testee``, ``testee.cjs`` and ``testees``: the one record of an
  error and the one request protocol both SDKs' testees answer, and how a
  test asks a language's SDK (``testees.run``); ``cargo``: the one target
  folder of every cargo build, outside the clone.
- ``vectors``, ``body``, ``expect``, ``results``, ``runs``, ``tally``: the
  conformance vectors, their bodies, how a record is judged against a vector
  and compared across languages, each SDK's answers made once per session.
- ``generate_vectors`` and ``cases*``: the generated vector files.
- ``server``, ``transport_servers``: the loopback server that replays vectors
  over HTTP, and servers that fail the way networks do.
- ``fuzz``, ``mitos_run``, ``contract_readers`` (with ``ts_introspect.cjs``),
  ``oracle``, ``sdk_strategies``, ``static_view``, ``exports_block``: the
  fuzzer's parts, mitos-run's source readers, the artifact readers, and the
  Python SDK tests' view of the oracle, strategies and source readers.

tests/README.md says which folder protects what, and describes the protocol.
"""
