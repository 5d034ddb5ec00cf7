"""Both SDKs' testees behind one interface: requests in, one answer each out, read by :func:`testkit.record.read`.

:class:`NodeTestee` keeps one ``node testee.cjs`` process and sends it batches
(the whole conformance suite is one batch; the fuzzer sends batch after
batch); :class:`~testkit.testee.PythonTestee` answers in this process;
:func:`python_subprocess` runs ``python -m testkit.testee`` for an SDK that is
not the installed one. :func:`run` picks by language, and is what a test
calls. The languages are :data:`LANGUAGES`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import pytest

from errcat.names import languages
from testkit import cargo, paths
from testkit.record import Record, read
from testkit.testee import PythonTestee, Request

TESTEE_JS = Path(__file__).resolve().parent / "testee.cjs"
LANGUAGES: tuple[str, ...] = tuple(language.key for language in languages.LANGUAGES)
"""The SDKs every testee-driven test runs: the generator's language record, in its order."""


class TesteeError(RuntimeError):
    """A testee exited, or printed something that is not an answer."""


class NodeTestee:
    """One ``node testee.cjs ENTRY`` process: :meth:`send` a batch, :meth:`receive` its answers."""

    def __init__(
        self,
        entry: Path | None = None,
        *,
        concurrency: int = 4,
        class_names: dict[str, str] | None = None,
    ) -> None:
        self.entry = entry or paths.typescript_entry()
        self.class_names = class_names
        command = [paths.node_binary(), str(TESTEE_JS), str(self.entry)]
        self._proc = subprocess.Popen(
            [*command, "--concurrency", str(concurrency)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="surrogatepass",
            bufsize=1 << 20,
        )
        self._sent = 0
        self._writer: threading.Thread | None = None

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self._proc.stdin is not None
        assert self._proc.stdout is not None
        return self._proc.stdin, self._proc.stdout

    def send(self, requests: Sequence[Request]) -> None:
        """Hand the testee requests (it starts at once; :meth:`receive` collects the answers).

        They are written from a thread: the testee answers while it reads, and
        a full pipe each way would otherwise stop both processes.
        """
        stdin, _ = self._pipes()
        if self._writer is not None:
            self._writer.join()
        lines = [json.dumps(request) + "\n" for request in requests]
        self._sent += len(lines)

        def write() -> None:
            with contextlib.suppress(BrokenPipeError):  # receive() reports the exit
                stdin.writelines(lines)
                stdin.flush()

        self._writer = threading.Thread(target=write, daemon=True)
        self._writer.start()

    def receive(self, count: int | None = None) -> list[Record]:
        """The next ``count`` answers (every one outstanding by default), in request order."""
        _, stdout = self._pipes()
        wanted = self._sent if count is None else count
        out = []
        for _ in range(wanted):
            line = stdout.readline()
            if not line:
                stderr = self._proc.stderr.read() if self._proc.stderr else ""
                raise TesteeError(f"testee.cjs exited {self._proc.wait()}:\n{stderr[-4000:]}")
            try:
                out.append(read(json.loads(line), self.class_names))
            except json.JSONDecodeError as exc:
                raise TesteeError(f"testee.cjs printed {line[:200]!r}") from exc
        self._sent -= wanted
        return out

    def run(self, requests: Sequence[Request]) -> list[Record]:
        """Send a batch and wait for its answers."""
        self.send(requests)
        return self.receive(len(requests))

    def close(self) -> None:
        """End the testee (closing its input ends it) and wait for it."""
        stdin, _ = self._pipes()
        if self._writer is not None:
            self._writer.join()
        with contextlib.suppress(BrokenPipeError):
            stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> NodeTestee:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def require_typescript() -> None:
    """Skip under ``ERRCAT_SKIP_TS=1``; fail, with the command that fixes it, when node or the build is missing."""
    if paths.skip_typescript():
        pytest.skip(f"{paths.SKIP_TS_ENV}=1: the TypeScript SDK is left out of this run")
    try:
        paths.node_binary()
        paths.typescript_entry()
    except paths.TypeScriptUnavailableError as exc:
        pytest.fail(str(exc), pytrace=False)


def run(
    language: str,
    requests: Sequence[Request],
    *,
    class_names: dict[str, str] | None = None,
    concurrency: int = 4,
) -> list[Record]:
    """Every request answered by the SDK of ``language`` (one of :data:`LANGUAGES`), in one process."""
    if language not in RUNNERS:
        raise ValueError(f"no testee for {language!r}; the testees are {', '.join(RUNNERS)}")
    return RUNNERS[language](requests, class_names, concurrency)


def _python(requests: Sequence[Request], _names: dict[str, str] | None, _n: int) -> list[Record]:
    testee = PythonTestee()
    try:
        return [read(answer) for answer in testee.run(requests)]
    finally:
        testee.close()


def _typescript(
    requests: Sequence[Request], class_names: dict[str, str] | None, concurrency: int
) -> list[Record]:
    require_typescript()
    with NodeTestee(concurrency=concurrency, class_names=class_names) as node:
        return node.run(requests)


RUST_TESTEE = paths.REPO / "tests" / "rust" / "Cargo.toml"
"""The Rust crate's testee (``tests/rust``, binary ``testee``), built and run with cargo."""


def _rust(requests: Sequence[Request], class_names: dict[str, str] | None, _n: int) -> list[Record]:
    exe = shutil.which("cargo")
    if exe is None:
        pytest.fail("cargo is not on PATH: install Rust (rustup) to run the Rust crate's testee")
    command = [exe, "run", "--quiet", "--manifest-path", str(RUST_TESTEE), "--bin", "testee"]
    env = cargo.environment()  # the one target folder of every cargo build
    return _answered(command, "Rust", requests, class_names, timeout=1800, env=env)


def _answered(
    command: list[str],
    label: str,
    requests: Sequence[Request],
    class_names: dict[str, str] | None,
    *,
    timeout: int,
    env: dict[str, str] | None = None,
) -> list[Record]:
    """Run a testee process that reads one request per line and answers each with one JSON line
    (the Go and Rust testees), and read its answers; a nonzero exit raises :class:`TesteeError`."""
    done = subprocess.run(
        command,
        env=env,
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise TesteeError(f"the {label} testee exited {done.returncode}:\n{done.stderr[-4000:]}")
    return [
        read(json.loads(line), class_names) for line in done.stdout.splitlines() if line.strip()
    ]


GO_TESTS = paths.REPO / "tests" / "go"
"""The Go module of the hand-written Go tests; its ``testee`` command is the Go package's testee."""


@functools.cache
def go_testee() -> Path:
    """The Go testee built once per process (``go build ./testee`` in tests/go); fails without ``go``."""
    go = shutil.which("go")
    if go is None:
        pytest.fail(
            "the Go testee needs the go command (https://go.dev/dl/) on PATH", pytrace=False
        )
    out = Path(tempfile.mkdtemp(prefix="errcat-go-testee-")) / "testee"
    done = subprocess.run(
        [go, "build", "-o", str(out), "./testee"],
        cwd=GO_TESTS,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"go build ./testee in tests/go failed:\n{done.stderr[-3000:]}", pytrace=False)
    return out


@functools.cache
def go_class_names() -> dict[str, str]:
    """The Go testee's class names (each code's Go name; the base ``Error``) -> the Python class names."""
    from errcat.cli import load_model

    cat = load_model(paths.CATALOGUE, paths.REPO)
    names = {c.class_names["go"]: c.class_names["python"] for c in cat.codes}
    return {**names, "Error": cat.base_class}


def _go(requests: Sequence[Request], _names: dict[str, str] | None, _n: int) -> list[Record]:
    return _answered([str(go_testee())], "Go", requests, go_class_names(), timeout=600)


RUNNERS: dict[str, Callable[[Sequence[Request], dict[str, str] | None, int], list[Record]]] = {
    "python": _python,
    "typescript": _typescript,
    "go": _go,
    "rust": _rust,
}
"""The testee of each language key of the language record (a new language adds its own)."""


NOT_APPLICABLE: dict[str, dict[str, str]] = {
    "go": {
        "construct": "Go has no error classes: a code's errors come from Get, its constructor or ErrorForCode",
        "fetch": "the Go package wraps no HTTP client: a Go caller reads a response with FromResponse",
        "error_for_exit": "the Go package is a server package: it makes no SDK-side exec deadline error",
        "validate_timeout": "the Go package is a server package: it makes no SDK-side timeout check",
        "from_dict": "Go errors cross a process boundary as their envelope (FromBody), not as a dict",
        "client": "the Go package wraps no HTTP client of another library",
    },
    "rust": {
        "response": "the Rust crate wraps no HTTP client: a caller reads the bytes and calls from_response",
        "fetch": "the Rust crate wraps no HTTP client: a caller reads the bytes and calls from_response",
        "error_for_exit": "the Rust crate has no exec helpers: it makes no SDK-side exec deadline error",
        "validate_timeout": "the Rust crate has no exec helpers: it makes no SDK-side timeout check",
        "from_dict": "Rust errors cross a process boundary as their envelope, not as a dict",
        "client": "the Rust crate wraps no HTTP client of another library",
    },
}
"""The requests a language's package has no call for, and why: its testee answers them
with ``threw`` (as any testee answers a request it does not know), and the tests skip
them for that language, saying so."""


def applies(language: str, op: str | None) -> bool:
    """Whether the package of ``language`` has a call for requests of ``op``."""
    return op not in NOT_APPLICABLE.get(language, {})


def skip_unless_applies(language: str, op: str | None) -> None:
    """Skip the running test, with the reason, when ``op`` has no call in ``language``'s package."""
    if not applies(language, op):
        pytest.skip(f"{language}: no {op} request: {NOT_APPLICABLE[language][str(op)]}")


def python_subprocess(
    src: Path, requests: Sequence[Request], timeout_s: float = 120
) -> list[Record]:
    """The requests answered by the Python SDK in ``src`` (first on the path), in a new interpreter."""
    done = subprocess.run(
        [sys.executable, "-m", "testkit.testee", "--sdk-under", str(src)],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(src)},
        timeout=timeout_s,
    )
    if done.returncode != 0:
        raise TesteeError(
            f"python -m testkit.testee exited {done.returncode}:\n{done.stderr[-3000:]}"
        )
    return [read(json.loads(line)) for line in done.stdout.splitlines() if line.strip()]


def node_entry(entry: Path, requests: Sequence[Request]) -> list[Record]:
    """The requests answered by the TypeScript SDK built at ``entry`` (CommonJS or ESM)."""
    with NodeTestee(entry) as node:
        return node.run(requests)


def answers_by_id(records: Iterable[Record]) -> dict[str, Record]:
    """Answers keyed by their request's ``id``."""
    return {str(r["id"]): r for r in records}


def typescript_class_names(cat: Any) -> dict[str, str]:
    """TypeScript class name -> Python class name, where the catalogue ``cat`` makes them differ."""
    names = [(c.class_names["typescript"], c.class_names["python"]) for c in cat.codes]
    return {ts: py for ts, py in names if ts != py}
