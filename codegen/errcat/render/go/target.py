"""Render the Go package, ``go-sdk/``: the whole folder is errcat's output.

The catalogue's parts are generated (``codes.go``: the ``Code`` constants,
the ``Catalogue`` map of the codes a server sends and one constructor per
such code; ``record.go``: the ``Spec`` and ``Recovery`` types, from the
record every SDK declares (:mod:`errcat.render.go.record`);
``catalogue.go``: every code's spec, the limits, the fallback and gRPC
maps; ``sanitizer_rules.go``; ``context_fields.go``), and the parts
that are the same for every catalogue (the sanitizer engine, the envelope
writer and its JSON writer, the reader) are the hand-written files of
``runtime/``, copied with the generated header and the catalogue's package
name. The gRPC support is a module of its own, ``go-sdk/<package>grpc/``, so
only its users pull in ``google.golang.org/grpc``.

Every value lands in Go source through :mod:`errcat.render.go.syntax`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.model.prefilter import prefilter
from errcat.model.record import RECOVERY
from errcat.names.go_names import go_name as go_identifier
from errcat.names.go_names import go_parameters
from errcat.names.languages import GO
from errcat.render import header_lines, render_template
from errcat.render.go import record as go_record
from errcat.render.go.syntax import comment, string, strings
from errcat.render.target import SdkTarget

GO_VERSION = "1.22"
"""The ``go`` line of the package's module: the oldest Go the runtime builds with."""
GRPC_GO_VERSION = "1.26.0"
"""The ``go`` line of the gRPC module: the newest its requirements ask for (``go mod tidy``)."""

GRPC_REQUIRES = (
    ("google.golang.org/genproto/googleapis/rpc", "v0.0.0-20260817212433-ac3dfec99bb1"),
    ("google.golang.org/grpc", "v1.85.0"),
    ("google.golang.org/protobuf", "v1.36.12"),
)
"""The gRPC module's direct requirements (``go.sum`` beside it is committed, made by ``go mod tidy``)."""

GRPC_INDIRECT: tuple[tuple[str, str], ...] = (
    ("golang.org/x/net", "v0.60.0"),
    ("golang.org/x/sys", "v0.48.0"),
    ("golang.org/x/text", "v0.42.0"),
)
"""The gRPC module's indirect requirements, as ``go mod tidy`` lists them."""

RUNTIME_PACKAGE = "package apierr\n"
"""The package clause the runtime files are written with; the catalogue's package replaces it."""
RUNTIME_MODULE = "errcat.invalid/module"
"""The import path the gRPC runtime file names its parent with; the catalogue's module replaces it."""


def go_name(entry: ErrorCode) -> str:
    """The Go name of a code (its constructor; ``Code`` + it is its constant)."""
    return entry.class_names[GO.key]


@dataclass(frozen=True)
class GoCode:
    """One code, every value already Go source."""

    code: str
    name: str
    doc: str
    server: bool
    http: int
    message: str
    remediation: str
    params: str
    """The constructor's parameters (``sandbox string, step int``)."""
    context: str
    """The constructor's context map literal (empty when the code has no context)."""
    ctor_doc: str


def _code(entry: ErrorCode) -> GoCode:
    fields = go_parameters([(f.name, f.type) for f in entry.context])
    params = ", ".join(f"{p} {t}" for p, t, _ in fields)
    context = ", ".join(f"{string(n)}: {p}" for p, _, n in fields)
    where = "an SDK-local code: no server sends it" if entry.sdk_local else f"HTTP {entry.http}"
    name = go_name(entry)
    return GoCode(
        code=string(entry.code),
        name=name,
        doc=comment(f"Code{name} ({entry.code}, {where}): {entry.cause}", "\t"),
        server=not entry.sdk_local,
        http=entry.http,
        message=string(entry.message),
        remediation=string(entry.remediation),
        params=params,
        context=context,
        ctor_doc=comment(
            f"{name} is the {entry.code} error ({entry.message})"
            + (f" with its context: {', '.join(f.name for f in entry.context)}." if fields else ".")
        ),
    )


def _header(cat: Catalogue) -> tuple[str, ...]:
    return header_lines(cat)


class GoTarget(SdkTarget):
    """The Go package and its gRPC module."""

    language = GO

    def _package(self, cat: Catalogue) -> str:
        return cat.packages[GO.key]["package"]

    def _file(self, cat: Catalogue, name: str, text: str) -> dict[str, str]:
        return {f"{self.output_dir(cat)}/{name}": text}

    def errors(self, cat: Catalogue) -> dict[str, str]:
        """``codes.go``: the constants, the ``Catalogue`` of server codes, the constructors, the surfaces."""
        codes = [_code(c) for c in sorted(cat.codes, key=lambda c: c.code)]
        surfaces = sorted({s.surface for c in cat.codes for s in c.surfaces})
        text = render_template(
            "go/codes.go.jinja",
            cat,
            package=self._package(cat),
            codes=codes,
            server_codes=[c for c in codes if c.server],
            surfaces=[(GO_SURFACE_PREFIX + _pascal(s), string(s)) for s in surfaces],
        )
        return self._file(cat, "codes.go", text)

    def catalogue_data(self, cat: Catalogue) -> dict[str, str]:
        """``record.go``: ``Spec`` and ``Recovery`` (:mod:`errcat.render.go.record`);
        ``catalogue.go``: every code's spec, the catch-all, limits, fallback and gRPC maps."""
        record = render_template(
            "go/record.go.jinja",
            cat,
            package=self._package(cat),
            recovery=go_record.recovery_fields(),
            spec=go_record.spec_fields(),
        )
        limits = [
            (
                go_identifier(name),
                value,
                comment(f"{go_identifier(name)} is the catalogue's limits.{name}."),
            )
            for name, value, _ in cat.limits.items()  # the limits this catalogue has
        ]
        gw = cat.grpc_gateway
        channels = [
            (
                string(ch.name),
                ", ".join(f"{{{string(o.status)}, {string(o.code)}}}" for o in ch.overrides),
            )
            for ch in gw.channels
        ]
        u = cat.unknown
        advice = {a.name: getattr(u.recovery, a.name) for a in RECOVERY}
        unknown = (
            f"{{Retryable: {str(u.retryable).lower()}, Recovery: {go_record.recovery(advice)},"
            f" SideEffects: {string(u.side_effects)}, Origin: {string(u.origin)}}}"
        )
        text = render_template(
            "go/catalogue.go.jinja",
            cat,
            package=self._package(cat),
            specs=[go_record.spec_literal(c) for c in sorted(cat.codes, key=lambda c: c.code)],
            limits=limits,
            by_status=[(status, string(code)) for status, code in cat.fallback.by_status],
            client_error=string(cat.fallback.client_error),
            server_error=string(cat.fallback.server_error),
            fallback_default=string(cat.fallback.default),
            grpc_by_status=[(string(s), string(c)) for s, c in gw.by_status],
            grpc_default=string(gw.default),
            grpc_statuses=[(string(s.name), s.number, string(s.proto_name)) for s in gw.statuses],
            channels=channels,
            unknown=unknown,
            api_name=string(cat.api_name),
            version=string(cat.version or ""),
            contract_version=cat.contract_version,
        )
        return self._file(cat, "record.go", record) | self._file(cat, "catalogue.go", text)

    def sanitizer_rules(self, cat: Catalogue) -> dict[str, str]:
        """``sanitizer_rules.go``: the character table, the rules with their side conditions and triggers."""
        san = cat.sanitizer
        plan = prefilter(cat)

        def rules(table: tuple[object, ...], first: int) -> list[str]:
            out = []
            for index, rule in enumerate(table, first):
                side = rule.conditions  # type: ignore[attr-defined]
                out.append(
                    "{"
                    + ", ".join(
                        [
                            f"Name: {string(rule.name)}",  # type: ignore[attr-defined]
                            f"Prefix: {string(rule.portable_prefix)}",  # type: ignore[attr-defined]
                            f"Pattern: {string(rule.portable_pattern)}",  # type: ignore[attr-defined]
                            f"NotAfter: {string(side.not_after)}",
                            f"Ahead: {string(side.ahead)}",
                            f"FollowedBy: {string(side.followed_by)}",
                            f"PrefixNotFollowedBy: {string(side.prefix_not_followed_by)}",
                            f"Triggers: {strings(rule.triggers)}",  # type: ignore[attr-defined]
                            f"Guards: {strings(plan.guards_of(index))}",
                        ]
                    )
                    + "}"
                )
            return out

        text = render_template(
            "go/sanitizer_rules.go.jinja",
            cat,
            package=self._package(cat),
            unicode_version=string(san.unicode_version),
            redaction=string(san.redaction),
            filtered=string(san.filtered),
            truncation=string(san.truncation_marker),
            remove=[
                (f"0x{r.first:04X}", f"0x{r.last:04X}", comment(r.name, "\t")) for r in san.remove
            ],
            to_space=[
                (f"0x{r.first:04X}", f"0x{r.last:04X}", comment(r.name, "\t")) for r in san.to_space
            ],
            secrets=rules(san.secrets, len(san.injection)),
            injection=rules(san.injection, 0),
        )
        return self._file(cat, "sanitizer_rules.go", text)

    def envelope_types(self, cat: Catalogue) -> dict[str, str]:
        """``context_fields.go``: each context field's JSON type, as the reader and writer check it."""
        fields = [
            (string(f.name), string(f.type), comment(f"{f.name}: {f.meaning}", "\t"))
            for f in cat.context_fields
        ]
        text = render_template(
            "go/context_fields.go.jinja", cat, package=self._package(cat), fields=fields
        )
        return self._file(cat, "context_fields.go", text)

    def package_files(self, cat: Catalogue) -> dict[str, str]:
        """``go.mod``, the runtime files, and the gRPC module (``<package>grpc/``)."""
        package = self._package(cat)
        module = cat.packages[GO.key]["module"]
        out = self._file(
            cat,
            "go.mod",
            render_template(
                "go/go.mod.jinja",
                cat,
                module=module,
                go_version=GO_VERSION,
                requires=[],
                indirect=[],
                replace="",
            ),
        )
        header = "".join(f"// {line}\n" for line in _header(cat))
        runtime = resources.files("errcat.render.go") / "runtime"
        for item in sorted(runtime.iterdir(), key=lambda p: p.name):
            if item.name.endswith(".go"):
                body = item.read_text(encoding="utf-8")
                assert body.startswith(RUNTIME_PACKAGE), item.name
                text = header + "\n" + f"package {package}\n" + body[len(RUNTIME_PACKAGE) :]
                out |= self._file(cat, item.name, text)
        grpc_dir = f"{package}grpc"
        grpc_source = (runtime / "grpc" / "grpc.go").read_text(encoding="utf-8")
        grpc_text = (
            header
            + "\n"
            + grpc_source.replace("package apierrgrpc\n", f"package {grpc_dir}\n", 1).replace(
                RUNTIME_MODULE, module
            )
        )
        out |= self._file(cat, f"{grpc_dir}/grpc.go", grpc_text)
        out |= self._file(
            cat,
            f"{grpc_dir}/go.mod",
            render_template(
                "go/go.mod.jinja",
                cat,
                module=f"{module}/{grpc_dir}",
                go_version=GRPC_GO_VERSION,
                requires=[(module, "v0.0.0"), *GRPC_REQUIRES],
                indirect=GRPC_INDIRECT,
                replace=f"{module} => ../",
            ),
        )
        return out


GO_SURFACE_PREFIX = "Surface"


def _pascal(snake: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in snake.split("_") if w)


TARGET = GoTarget()
