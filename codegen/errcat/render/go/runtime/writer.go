package apierr

import (
	"encoding/json"
	"math"
	"net/http"
	"reflect"
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
// bytes (docs/sdk-contract.md section 6). A code that is not a server code
// of the catalogue is written as InternalCode with its texts and no cause,
// context or own texts. The cause, the request id, own texts and every
// string of the context are sanitized with opts.Token and bounded.
func (e Error) Envelope(opts WriteOptions) Response {
	p := e.parts(opts)
	text := p.bounded()
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	if visibleASCII(p.idHeader) {
		h.Set("X-Request-Id", p.idHeader)
	}
	if ms, ok := retryAfterMs(p.raw); ok {
		h.Set("Retry-After", strconv.FormatInt((ms+999)/1000, 10))
		h.Set("Retry-After-Ms", strconv.FormatInt(ms, 10))
	}
	return Response{Status: p.status, Header: h, Body: []byte(text)}
}

// envelopeParts are the members of one envelope, sanitized, before the bounds.
type envelopeParts struct {
	spec                       *Spec
	status                     int
	message, remediation       string // the catalogue's, on the error's surface
	ownMessage, ownRemediation string // the caller's own, sanitized ("" for none)
	cause, requestID, idHeader string
	raw, ctx                   map[string]any // the caller's context, and as written
}

func (e Error) parts(opts WriteOptions) *envelopeParts {
	forms := TokenForms(opts.Token)
	clean := func(s string) string {
		if s == "" {
			return ""
		}
		return capLength(hide(strip(s), forms), forms)
	}
	requestID := opts.RequestID
	if requestID == "" {
		requestID = e.RequestID
	}
	p := &envelopeParts{status: e.Status, requestID: clean(requestID)}
	p.idHeader = p.requestID
	spec, known := specs[e.Code]
	if !known || spec.SDKLocal {
		p.spec = specs[string(InternalCode())]
		p.message, p.remediation, p.status = p.spec.Message, p.spec.Remediation, p.spec.HTTPStatus
		return p
	}
	p.spec = spec
	p.message, p.remediation = spec.texts(e.surface)
	if e.Message != p.message {
		p.ownMessage = clean(e.Message)
	}
	if e.Remediation != p.remediation {
		p.ownRemediation = clean(e.Remediation)
	}
	p.cause, p.raw = clean(e.Cause), e.Context
	p.ctx = contextMembers(p.raw, clean, contextDepth)
	if p.status == 0 {
		p.status = spec.HTTPStatus
	}
	return p
}

// bounded is the body, with the context, then the cause, then the request
// id, then the caller's own texts left out while it is longer than
// ErrorBodyMaxBytes.
func (p *envelopeParts) bounded() string {
	body := func() string {
		m, r := p.message, p.remediation
		if p.ownMessage != "" {
			m = p.ownMessage
		}
		if p.ownRemediation != "" {
			r = p.ownRemediation
		}
		return envelopeBody(p.spec.Code, m, p.cause, r, p.ctx, p.requestID, p.spec.Refines)
	}
	text := body()
	for _, drop := range []func(){
		func() { p.ctx = nil },
		func() { p.cause = "" },
		func() { p.requestID = "" },
		func() { p.ownMessage, p.ownRemediation = "", "" },
	} {
		if len(text) <= ErrorBodyMaxBytes {
			break
		}
		drop()
		text = body()
	}
	return text
}

// contextDepth is the depth of the context object in {"error":{"context":{...}}}.
const contextDepth = 3

func visibleASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// retryAfterMs is the context's retry_after_ms when it is a number >= 0 (an
// infinity counts), as whole milliseconds: the ceiling, at most RetryAfterMaxMs.
func retryAfterMs(ctx map[string]any) (int64, bool) {
	v, ok := ctx["retry_after_ms"]
	if !ok {
		return 0, false
	}
	f, isNumber := number(v)
	if !isNumber || math.IsNaN(f) || f < 0 {
		return 0, false
	}
	return int64(math.Ceil(math.Min(f, RetryAfterMaxMs))), true
}

// contextMembers is one object of the context as section 6 writes it: the
// members whose key is not empty and not changed by sanitizing, in key
// order, the first ContextMaxKeys of them kept; nil when none is.
func contextMembers(obj map[string]any, clean func(string) string, depth int) map[string]any {
	out := map[string]any{}
	for _, key := range sortedKeys(obj) {
		if len(out) == ContextMaxKeys {
			break
		}
		if key == "" || clean(key) != key {
			continue
		}
		if v, ok := contextValueOut(obj[key], clean, depth+1); ok {
			out[key] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// contextValueOut is a context value sanitized and bounded; false drops it
// (a NaN, nesting deeper than JSONMaxDepth, a type JSON has no value of).
func contextValueOut(v any, clean func(string) string, depth int) (any, bool) {
	switch t := v.(type) {
	case nil, bool:
		return t, true
	case string:
		return clean(t), true
	}
	if f, ok := number(v); ok {
		return f, !math.IsNaN(f)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return clean(rv.String()), true
	case reflect.Bool:
		return rv.Bool(), true
	case reflect.Map:
		if depth > JSONMaxDepth || rv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		members := make(map[string]any, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			members[iter.Key().String()] = iter.Value().Interface()
		}
		out := contextMembers(members, clean, depth)
		if out == nil {
			out = map[string]any{}
		}
		return out, true
	case reflect.Slice, reflect.Array:
		if depth > JSONMaxDepth {
			return nil, false
		}
		out := make([]any, 0, rv.Len())
		for i := 0; i < rv.Len(); i++ {
			if item, ok := contextValueOut(rv.Index(i).Interface(), clean, depth+1); ok {
				out = append(out, item)
			}
		}
		return out, true
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, true
		}
		return contextValueOut(rv.Elem().Interface(), clean, depth)
	}
	return nil, false
}

// number gives a Go number as the double a writer holds.
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case float32:
		return float64(t), true
	case int:
		return float64(t), true
	case int8:
		return float64(t), true
	case int16:
		return float64(t), true
	case int32:
		return float64(t), true
	case int64:
		return float64(t), true
	case uint:
		return float64(t), true
	case uint8:
		return float64(t), true
	case uint16:
		return float64(t), true
	case uint32:
		return float64(t), true
	case uint64:
		return float64(t), true
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		return f, err == nil || math.IsInf(f, 0)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
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
