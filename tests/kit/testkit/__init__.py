"""The shared test kit: every helper the repository's tests import, and nothing else.

- ``reference`` (with ``reference_text`` and ``reference_headers``): the one
  oracle of docs/sdk-contract.md, written from the contract and the catalogue.
- ``vectors``, ``expect``, ``cases*``: the conformance vectors, how a result is
  judged against them, and how the generated ones are made.
- ``record`` and ``testees``: the one record of an error and the one request
  protocol both SDKs' testees answer (``testee.cjs`` for TypeScript,
  ``testkit.testee`` for Python).
- ``server``, ``transport_servers``: the loopback server that replays vectors
  over HTTP, and servers that fail the way networks do.
- ``fuzz``, ``mitos_run``, ``contract_readers``, ``static_view``,
  ``exports_block``, ``oracle``: the parts of the fuzzer, of the mitos-run
  compatibility run, of the artifact readers and of the Python SDK's own tests.
"""
