package apierr

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Error is one error of the catalogue's envelope: a stable code, a one-line
// message, the cause, an actionable remediation and structured context.
// Status is the HTTP status to send (not written into the body). An Error is
// a value: every With method returns a changed copy, so a Catalogue entry
// can be reused safely.
//
// An Error read from a response (FromBody, FromResponse) also has the
// request id and is classified by its code: see Spec, Advice and RetryAfter.
type Error struct {
	Code        string         `json:"code"`
	Message     string         `json:"message"`
	Cause       string         `json:"cause,omitempty"`
	Remediation string         `json:"remediation"`
	Context     map[string]any `json:"context,omitempty"`
	Status      int            `json:"-"`
	RequestID   string         `json:"request_id,omitempty"`

	surface  Surface
	known    string // the catalogue code the error is classified as ("" for none)
	retryMs  int64
	retrySet bool
	fromWire bool
}

// WithCause returns a copy of e with the cause set. The writer sanitizes it
// before it reaches the wire.
func (e Error) WithCause(cause string) Error {
	e.Cause = cause
	return e
}

// WithMessage returns a copy of e with the message replaced.
func (e Error) WithMessage(message string) Error {
	e.Message = message
	return e
}

// WithRemediation returns a copy of e with the remediation replaced.
func (e Error) WithRemediation(remediation string) Error {
	e.Remediation = remediation
	return e
}

// WithContext returns a copy of e with the context map set.
func (e Error) WithContext(ctx map[string]any) Error {
	e.Context = ctx
	return e
}

// WithRequestID returns a copy of e with the request id set (the writer
// sends it as X-Request-Id and in the body).
func (e Error) WithRequestID(id string) Error {
	e.RequestID = id
	return e
}

// ForSurface returns a copy of e with the texts the catalogue gives its code
// on surface (a surface the code has no texts for leaves e as it is). The
// code, the status and the envelope stay the same.
func (e Error) ForSurface(surface Surface) Error {
	if s, ok := specs[e.Code]; ok {
		e.surface = surface
		e.Message, e.Remediation = s.texts(surface)
	}
	return e
}

// Error gives "code: message", and ": cause" when there is one.
func (e Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.Cause != "" {
		b.WriteString(": ")
		b.WriteString(e.Cause)
	}
	return b.String()
}

// GoString gives the %#v form: the fields as Go writes a struct, except that
// every text (code, message, cause, remediation, request id, context keys and
// strings) is written between quotes as e holds it, with only `\` and `"`
// escaped. Go's own quoting spells a rune it cannot print as \uXXXX, whose
// letters and digits join the text after it and could complete a token form
// the sanitizer never saw in the text (docs/sdk-contract.md, section 4).
func (e Error) GoString() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%T{Code:", e)
	writeHeld(&b, e.Code)
	b.WriteString(", Message:")
	writeHeld(&b, e.Message)
	b.WriteString(", Cause:")
	writeHeld(&b, e.Cause)
	b.WriteString(", Remediation:")
	writeHeld(&b, e.Remediation)
	b.WriteString(", Context:")
	if e.Context == nil {
		b.WriteString("map[string]interface {}(nil)")
	} else {
		writeHeldValue(&b, e.Context)
	}
	fmt.Fprintf(&b, ", Status:%d, RequestID:", e.Status)
	writeHeld(&b, e.RequestID)
	b.WriteString("}")
	return b.String()
}

// writeHeld writes text between double quotes with only `\` and `"` escaped.
func writeHeld(b *strings.Builder, text string) {
	b.WriteByte('"')
	for _, r := range text {
		if r == '\\' || r == '"' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
}

// writeHeldValue writes a context value as %#v would, its strings by writeHeld
// and its map keys in sorted order.
func writeHeldValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case string:
		writeHeld(b, x)
	case map[string]any:
		b.WriteString("map[string]interface {}{")
		for i, k := range sortedKeys(x) {
			if i > 0 {
				b.WriteString(", ")
			}
			writeHeld(b, k)
			b.WriteByte(':')
			writeHeldValue(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteString("[]interface {}{")
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeHeldValue(b, item)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%#v", x)
	}
}

// Known gives the catalogue code e is classified as: its own code when the
// catalogue defines it, else (for an error read from a response) the first
// code of its refines chain the catalogue defines; false when there is none.
func (e Error) Known() (Code, bool) {
	if e.fromWire {
		return Code(e.known), e.known != ""
	}
	if _, ok := specs[e.Code]; ok {
		return Code(e.Code), true
	}
	return "", false
}

// Spec gives the catalogue's spec of the code e is classified as (nil for none).
func (e Error) Spec() *Spec {
	if code, ok := e.Known(); ok {
		return specs[string(code)]
	}
	return nil
}

// Advice is e's classification: its code's, else the catalogue's catch-all.
func (e Error) Advice() Advice {
	if s := e.Spec(); s != nil {
		return s.Advice()
	}
	return unknownSpec
}

// Retryable says whether the same call may succeed if tried again later.
func (e Error) Retryable() bool { return e.Advice().Retryable }

// IsAuthFailure says whether the credentials are missing, invalid or insufficient.
func (e Error) IsAuthFailure() bool {
	s := e.Spec()
	return s != nil && s.AuthFailure
}

// IsCancelled says whether the call was cancelled.
func (e Error) IsCancelled() bool {
	s := e.Spec()
	return s != nil && s.Cancelled
}

// RetryAfter gives the delay before a retry when one is known: read from a
// response (context retry_after_ms, Retry-After-Ms, Retry-After), or the
// context's retry_after_ms of an error made here.
func (e Error) RetryAfter() (time.Duration, bool) {
	if e.fromWire {
		return time.Duration(e.retryMs) * time.Millisecond, e.retrySet
	}
	if ms, ok := retryAfterMs(e.Context); ok {
		return time.Duration(ms) * time.Millisecond, true
	}
	return 0, false
}

// RetryAfterMs gives RetryAfter in whole milliseconds.
func (e Error) RetryAfterMs() (int64, bool) {
	d, ok := e.RetryAfter()
	return int64(d / time.Millisecond), ok
}

// chain is e's code followed by the codes its class refines, nearest first.
func (e Error) chain() []string {
	out := []string{e.Code}
	if code, ok := e.Known(); ok {
		if string(code) != e.Code {
			out = append(out, string(code))
		}
		out = append(out, specs[string(code)].Refines...)
	}
	return out
}

// Is matches a Code, or an Error by its code, when it is e's code or a code
// e's code refines: errors.Is(err, CodeIdleTimeout) holds for an error whose
// code refines idle_timeout.
func (e Error) Is(target error) bool {
	var want string
	switch t := target.(type) {
	case Code:
		want = string(t)
	case Error:
		want = t.Code
	case *Error:
		if t == nil {
			return false
		}
		want = t.Code
	default:
		return false
	}
	for _, code := range e.chain() {
		if code == want {
			return true
		}
	}
	return false
}

// Error makes a Code an error value for errors.Is.
func (c Code) Error() string { return string(c) }

// As finds the Error in err's chain (an Error or a *Error).
func As(err error) (Error, bool) {
	var e Error
	if errors.As(err, &e) {
		return e, true
	}
	var p *Error
	if errors.As(err, &p) && p != nil {
		return *p, true
	}
	var none Error
	return none, false
}
