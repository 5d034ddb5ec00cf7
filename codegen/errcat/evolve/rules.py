"""The rules of ``errcat diff``: every kind of catalogue change, one entry each.

A rule has a level (how far the change reaches), and three texts that
:mod:`errcat.evolve.report` prints in order: what changed, what it does to
deployed SDKs or servers, and how to make the change compatible. The texts
are ``str.format`` templates over the values of one change (``subject``,
``old``, ``new`` and the names a rule's comparison adds). The levels and the
record of a rule are :mod:`errcat.evolve.levels`.
"""

from __future__ import annotations

from errcat.evolve.levels import Bump as Bump
from errcat.evolve.levels import Level as Level
from errcat.evolve.levels import Rule as Rule

_WIRE = Level.WIRE
_SDK = Level.SDK
_BEHAVIOUR = Level.BEHAVIOUR
_ADDITIVE = Level.ADDITIVE
_DOCS = Level.DOCS

_TABLE: tuple[Rule, ...] = (
    # -- wire: breaks a deployed SDK or server ---------------------------------
    Rule(
        "code-removed",
        _WIRE,
        "the code {subject} was removed without being retired",
        "deployed servers still send it and SDKs built from this catalogue raise the base "
        "class for it; it may later come back with another meaning",
        "keep the code, or retire it: move it under retired: with a reason (and replaced_by)",
    ),
    Rule(
        "code-renamed",
        _WIRE,
        "the code {old} was renamed to {new}",
        "deployed SDKs do not know {new} and raise the base class for it; deployed servers "
        "still send {old}, which new SDKs no longer know",
        "keep {old} beside {new}, or retire {old} with replaced_by: {new}",
    ),
    Rule(
        "http-changed",
        _WIRE,
        "{subject}: HTTP status changed from {old} to {new}",
        "deployed SDKs and gateways that branch on the status see another one, and responses "
        "without an envelope fall back to another code",
        "keep HTTP {old}; add a new code for the new status instead",
    ),
    Rule(
        "grpc-changed",
        _WIRE,
        "{subject}: gRPC status changed from {old} to {new}",
        "deployed gRPC clients and servers that map this code see another status",
        "keep gRPC {old}; add a new code for the new status instead",
    ),
    Rule(
        "context-field-removed",
        _WIRE,
        "{subject}: the context field {field} was removed",
        "deployed SDKs and callers that read {field} from this error no longer get it",
        "keep {field} in the code's context (a server may leave it out of one response)",
    ),
    Rule(
        "context-type-changed",
        _WIRE,
        "the context field {subject} changed type from {old} to {new} (carried by {codes})",
        "deployed SDKs type the value as {old} and deployed servers send {old}",
        "keep the type; define a new context field with the new type",
    ),
    Rule(
        "fallback-changed",
        _WIRE,
        "responses with status {subject} and no envelope now fall back to {new} instead of {old}",
        "deployed SDKs raise {old} for such a response and SDKs built from this catalogue "
        "raise {new}: the two disagree on one response",
        "keep {subject} mapped to {old}",
    ),
    Rule(
        "grpc-gateway-changed",
        _WIRE,
        "the gRPC status {subject} now maps to {new} instead of {old}{channel}",
        "gateways built from this catalogue answer that status with another code than deployed ones",
        "keep {subject} mapped to {old}",
    ),
    Rule(
        "sdk-code-added",
        _ADDITIVE,
        "{subject} now names {new}",
        "SDKs built from this catalogue raise {new} for that role, or gain its helper; "
        "nothing deployed changes",
        "nothing to do",
    ),
    Rule(
        "sdk-code-changed",
        _SDK,
        "{subject} changed from {old} to {new}",
        "deployed SDKs raise {old} for that role and SDKs built from this catalogue raise {new} "
        "(none: they let the failure through, or lose the helper): a caller's except for {old} "
        "no longer catches it",
        "keep {subject} at {old}",
    ),
    Rule(
        "sdk-exit-status-changed",
        _BEHAVIOUR,
        "sdk.exec_deadline.exit_status changed from {old} to {new}",
        "SDKs built from this catalogue take exit status {new}, not {old}, for a command stopped "
        "at its deadline",
        "keep {old}, or release a minor version that says why",
    ),
    Rule(
        "grpc-gateway-added",
        _ADDITIVE,
        "the gRPC gateway map was added",
        "gateways can take each gRPC status's code from the catalogue; nothing deployed changes",
        "nothing to do",
    ),
    Rule(
        "timeout-ceiling-lowered",
        _WIRE,
        "limits.max_exec_timeout_s was lowered from {old} to {new}",
        "deployed SDKs accept timeouts up to {old} that servers built from this catalogue "
        "now reject",
        "keep the ceiling at {old} or above",
    ),
    Rule(
        "contract-version-changed",
        _WIRE,
        "contract_version changed from {old} to {new}",
        "deployed SDKs and servers speak envelope version {old}",
        "keep contract_version {old}; make envelope changes additive",
    ),
    Rule(
        "retirement-withdrawn",
        _WIRE,
        "the retired code {subject} is no longer retired",
        "nothing stops {subject} from coming back with another meaning, which deployed SDKs "
        "that knew the old one would misread",
        "keep {subject} under retired:",
    ),
    Rule(
        "unclassified-change",
        _WIRE,
        "{subject} changed",
        "no rule of errcat diff compares this part of the catalogue, so it counts as breaking",
        "check what it does to deployed SDKs and servers by hand, and give errcat diff a rule "
        "for it (codegen/errcat/diffrules.py)",
    ),
    # -- sdk: breaks code written against an SDK --------------------------------
    Rule(
        "class-renamed",
        _SDK,
        "{subject}: the {language} class was renamed from {old} to {new}",
        "code that catches or imports {old} no longer finds it",
        "keep the class name {old} with class_name: (or release a new major version)",
    ),
    Rule(
        "constructor-changed",
        _SDK,
        "{subject}: the {language} constructor {name} changed from ({old}) to ({new})",
        "server code that calls {name}({old}) no longer compiles",
        "keep the code's context fields, their order and their types (add a new code for "
        "another signature), or release a new major version",
    ),
    Rule(
        "base-class-renamed",
        _SDK,
        "base_class was renamed from {old} to {new}",
        "code that catches {old}, the base of every error, no longer finds it",
        "keep base_class: {old} (or release a new major version)",
    ),
    Rule(
        "package-renamed",
        _SDK,
        "the {language} {subject} was renamed from {old} to {new}",
        "installs and imports of {old} stop getting new releases",
        "keep {old} (or release a new major version under the new name)",
    ),
    Rule(
        "export-removed",
        _SDK,
        "the {language} SDK no longer exports {subject}",
        "code that imports {subject} fails",
        "keep what defines {subject} (or release a new major version)",
    ),
    Rule(
        "class-moved",
        _SDK,
        "{subject}: the class moved in the hierarchy, from under {old} to under {new}",
        "code that catches {old} no longer catches {subject}, and deployed SDKs that do not "
        "know {subject} follow the chain servers send to another class",
        "keep refines as it was (or release a new major version)",
    ),
    Rule(
        "version-removed",
        _SDK,
        "the catalogue version {old} was removed",
        "the packages built from this catalogue lose their version",
        "keep a version: key, bumped as the changes need",
    ),
    # -- behaviour: the same wire, other advice ----------------------------------
    Rule(
        "context-bound-narrowed",
        _BEHAVIOUR,
        "the context field {subject}: {bound} changed from {old} to {new}",
        "the envelope schemas now reject values that deployed servers may still send; "
        "the SDKs do not check ranges",
        "keep the {bound} at {old}, or release a minor version that says why",
    ),
    Rule(
        "retryable-changed",
        _BEHAVIOUR,
        "{subject}: retryable changed from {old} to {new}",
        "callers and agents that retry by the SDK's advice now retry differently",
        "keep retryable: {old}, or release a minor version that says why",
    ),
    Rule(
        "recovery-action-changed",
        _BEHAVIOUR,
        "{subject}: the recovery action changed from {old} to {new}",
        "agents that follow the recovery advice now do something else",
        "keep action: {old}, or release a minor version that says why",
    ),
    Rule(
        "same-arguments-changed",
        _BEHAVIOUR,
        "{subject}: same_arguments changed from {old} to {new}",
        "agents that resend the same request by this advice now decide differently",
        "keep same_arguments: {old}, or release a minor version that says why",
    ),
    Rule(
        "side-effects-changed",
        _BEHAVIOUR,
        "{subject}: side_effects changed from {old} to {new}",
        "callers that decide whether to check for partial effects now decide differently",
        "keep side_effects: {old}, or release a minor version that says why",
    ),
    Rule(
        "origin-changed",
        _BEHAVIOUR,
        "{subject}: the origin changed from {old} to {new}",
        "callers that branch on where the failure arose now branch differently",
        "keep the origin {old}, or release a minor version that says why",
    ),
    Rule(
        "refinement-added",
        _BEHAVIOUR,
        "{subject} now refines {new}",
        "its class now derives from the class of {new}: code that catches that class "
        "catches {subject} too, and a server may send {subject} where it sent {new}",
        "leave refines out, or release a minor version that says why",
    ),
    Rule(
        "classifier-changed",
        _BEHAVIOUR,
        "{subject}: {field} changed from {old} to {new}",
        "the SDK classifier of that name now answers {new} for this code",
        "keep {field}: {old}, or release a minor version that says why",
    ),
    Rule(
        "emitted-by-changed",
        _BEHAVIOUR,
        "{subject}: emitted_by changed from {old} to {new}",
        "the SDKs and docs now say the code comes from the {new}, and list it with those codes",
        "keep emitted_by: {old}, or release a minor version that says why",
    ),
    Rule(
        "unknown-advice-changed",
        _BEHAVIOUR,
        "unknown_code: {field} changed from {old} to {new}",
        "SDKs now advise callers differently for codes they do not know",
        "keep {field}: {old}, or release a minor version that says why",
    ),
    Rule(
        "limit-changed",
        _BEHAVIOUR,
        "limits.{subject} changed from {old} to {new}",
        "SDKs built from this catalogue use {new} where deployed ones use {old}",
        "keep {old}, or release a minor version that says why",
    ),
    Rule(
        "sanitizer-changed",
        _BEHAVIOUR,
        "sanitizer: {subject} {new}",
        "SDKs built from this catalogue show server text differently from deployed ones",
        "keep the sanitizer as it was, or release a minor version that says why",
    ),
    # -- additive: safe ------------------------------------------------------
    Rule(
        "code-added",
        _ADDITIVE,
        "the code {subject} was added",
        "deployed SDKs raise the base class for it, keeping the code as sent",
        "nothing to do",
    ),
    Rule(
        "refined-code-added",
        _ADDITIVE,
        "the code {subject} was added, refining {new}",
        "deployed SDKs raise the class of the nearest code they know of the chain servers send "
        "({chain}), keeping the code as sent",
        "nothing to do; servers send error.refines with the chain",
    ),
    Rule(
        "context-field-added",
        _ADDITIVE,
        "{subject}: the context field {field} was added",
        "deployed SDKs keep the extra field as an untyped context value",
        "nothing to do",
    ),
    Rule(
        "context-field-defined",
        _ADDITIVE,
        "the context field {subject} was defined",
        "none until a code carries it",
        "nothing to do",
    ),
    Rule(
        "surface-added",
        _ADDITIVE,
        "{subject}: the surface override {field} was added",
        "deployed SDKs show the code's own message and remediation on that surface",
        "nothing to do",
    ),
    Rule(
        "code-retired",
        _ADDITIVE,
        "the code {subject} was retired",
        "{subject} can never be reintroduced with another meaning",
        "nothing to do",
    ),
    Rule(
        "context-bound-widened",
        _ADDITIVE,
        "the context field {subject}: {bound} changed from {old} to {new}",
        "validators built from the older envelope schemas reject the values it now allows",
        "nothing to do",
    ),
    Rule(
        "timeout-ceiling-raised",
        _ADDITIVE,
        "limits.max_exec_timeout_s was raised from {old} to {new}",
        "deployed SDKs still refuse timeouts above {old} before sending them",
        "nothing to do",
    ),
    # -- docs: text only -------------------------------------------------------
    Rule(
        "text-changed",
        _DOCS,
        "{subject}: the text changed",
        "none on the wire; docs, llms.txt and the SDKs' texts change",
        "nothing to do",
    ),
    Rule(
        "surface-removed",
        _DOCS,
        "{subject}: the surface override {field} was removed",
        "that surface now shows the code's own message and remediation",
        "nothing to do",
    ),
    Rule(
        "family-changed",
        _DOCS,
        "families: {subject} {new}",
        "none on the wire; the docs group codes differently",
        "nothing to do",
    ),
    Rule(
        "context-reordered",
        _DOCS,
        "{subject}: the context fields were reordered",
        "none on the wire; the docs list them in the new order",
        "nothing to do",
    ),
)

RULES: dict[str, Rule] = {rule.name: rule for rule in _TABLE}
"""Every rule by name."""
