package apierr

import (
	"math"
	"net/http"
	"strconv"
	"strings"
)

// WriteOptions are what a writer knows of the request: its id (sent as
// X-Request-Id and in the body) and its own credential (every form of it is
// redacted from the cause and the context).
type WriteOptions struct {
	RequestID string
	Token     string
}

// Response is an error response as the writer sends it: the status, the
// headers and the body bytes (the contract's canonical envelope).
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// OnForeignError, when set, is given every error Write turns into the
// internal error (an error that is not an Error): the place to log it, since
// its text never reaches the wire.
var OnForeignError func(err error)

// Encode writes e as the envelope, with e.Status (the code's status when it
// is zero), Content-Type application/json and no trailing newline. The cause
// and the context are sanitized first.
func Encode(w http.ResponseWriter, e Error) {
	EncodeWith(w, e, WriteOptions{RequestID: e.RequestID})
}

// EncodeWith is Encode with the request's id and token.
func EncodeWith(w http.ResponseWriter, e Error, opts WriteOptions) {
	send(w, e.Envelope(opts))
}

// Write writes any error: an Error (or one wrapped in err) as Encode does,
// any other error as the internal error with the catalogue's texts and no
// cause; that error goes to OnForeignError, never to the wire.
func Write(w http.ResponseWriter, err error, opts WriteOptions) {
	send(w, ResponseFor(err, opts))
}

// ResponseFor is the response Write sends for err.
func ResponseFor(err error, opts WriteOptions) Response {
	if e, ok := As(err); ok {
		return e.Envelope(opts)
	}
	if OnForeignError != nil && err != nil {
		OnForeignError(err)
	}
	return internalError().Envelope(opts)
}

func send(w http.ResponseWriter, r Response) {
	h := w.Header()
	for name, values := range r.Header {
		h[name] = values
	}
	w.WriteHeader(r.Status)
	_, _ = w.Write(r.Body)
}

// Envelope gives e's response: its status, headers and the canonical body
// bytes (docs/sdk-contract.md section 6).
func (e Error) Envelope(opts WriteOptions) Response {
	status := e.Status
	spec, known := specs[e.Code]
	if status == 0 {
		status = 500
		if known {
			status = spec.HTTPStatus
		}
	}
	forms := TokenForms(opts.Token)
	clean := func(s string) string { return capLength(hide(strip(s), forms), forms) }
	requestID := opts.RequestID
	if requestID == "" {
		requestID = e.RequestID
	}
	requestID = clean(requestID)
	cause := clean(e.Cause)
	ctx := cleanContext(e.Context, clean)
	var refines []string
	if known {
		refines = spec.Refines
	}
	body := envelopeBody(e.Code, e.Message, cause, e.Remediation, ctx, requestID, refines)
	if len(body) > ErrorBodyMaxBytes && ctx != nil {
		ctx = nil
		body = envelopeBody(e.Code, e.Message, cause, e.Remediation, ctx, requestID, refines)
	}
	if len(body) > ErrorBodyMaxBytes {
		body = envelopeBody(e.Code, e.Message, "", e.Remediation, ctx, requestID, refines)
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	if requestID != "" {
		h.Set("X-Request-Id", requestID)
	}
	if ms, ok := retryAfterMs(ctx); ok {
		h.Set("Retry-After", strconv.FormatInt(int64(math.Ceil(ms/1000)), 10))
		h.Set("Retry-After-Ms", FormatNumber(ms))
	}
	return Response{Status: status, Header: h, Body: []byte(body)}
}

// retryAfterMs is the context's numeric retry_after_ms when it is >= 0, cut
// to RetryAfterMaxMs.
func retryAfterMs(ctx map[string]any) (float64, bool) {
	v, ok := plain(ctx["retry_after_ms"])
	f, isNumber := v.(float64)
	if !ok || !isNumber || math.IsNaN(f) || f < 0 {
		return 0, false
	}
	return math.Min(f, RetryAfterMaxMs), true
}

// cleanContext sanitizes every key and string of ctx (recursively) and keeps
// its first ContextMaxKeys keys in sorted order; nil when nothing is left.
func cleanContext(ctx map[string]any, clean func(string) string) map[string]any {
	if len(ctx) == 0 {
		return nil
	}
	out := map[string]any{}
	for _, k := range sortedKeys(ctx) {
		v, ok := plain(ctx[k])
		if ok {
			out[clean(k)] = cleanValue(v, clean)
		}
	}
	if len(out) > ContextMaxKeys {
		for _, k := range sortedKeys(out)[ContextMaxKeys:] {
			delete(out, k)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func cleanValue(v any, clean func(string) string) any {
	switch t := v.(type) {
	case string:
		return clean(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for _, k := range sortedKeys(t) {
			out[clean(k)] = cleanValue(t[k], clean)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = cleanValue(x, clean)
		}
		return out
	}
	return v
}

func envelopeBody(code, message, cause, remediation string, ctx map[string]any, requestID string, refines []string) string {
	var b strings.Builder
	b.WriteString(`{"error":{"code":`)
	writeString(&b, code)
	b.WriteString(`,"message":`)
	writeString(&b, message)
	if cause != "" {
		b.WriteString(`,"cause":`)
		writeString(&b, cause)
	}
	b.WriteString(`,"remediation":`)
	writeString(&b, remediation)
	if len(ctx) > 0 {
		b.WriteString(`,"context":`)
		writeValue(&b, ctx)
	}
	if requestID != "" {
		b.WriteString(`,"request_id":`)
		writeString(&b, requestID)
	}
	if len(refines) > 0 {
		b.WriteString(`,"refines":[`)
		for i, r := range refines {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(&b, r)
		}
		b.WriteByte(']')
	}
	b.WriteString("}}")
	return b.String()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
