package apierr

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const maxSafe = 1<<53 - 1

// FromBody turns an error response into its Error, as the contract's section
// 1 says; it never fails. It reads at most ErrorBodyMaxBytes of body: a JSON
// envelope {"error": {"code": ...}} gives its code (a code the catalogue does
// not define keeps its code and is classified as the first code of the
// envelope's refines chain the catalogue defines); any other body gives the
// code the catalogue's fallback gives status, with the catalogue's texts.
// Every text is sanitized, with every form of token redacted.
func FromBody(body []byte, status int, header http.Header, token string) Error {
	return fromBody(body, status, header, TokenForms(token), time.Now().UnixMilli())
}

func fromBody(body []byte, status int, header http.Header, forms []string, nowMs int64) Error {
	if len(body) > ErrorBodyMaxBytes {
		body = body[:ErrorBodyMaxBytes]
	}
	text := strings.TrimPrefix(decodeWHATWG(body), "\ufeff")
	var envelope map[string]any
	if strings.HasPrefix(strings.TrimLeft(text, " \t\n\r"), "{") {
		if v, ok := parseJSON(text); ok {
			if top, ok := v.(map[string]any); ok {
				envelope, _ = top["error"].(map[string]any)
			}
		}
	}
	raw, _ := envelope["code"].(string)
	code := ""
	if raw != "" {
		code = clean(raw, forms)
	}
	if code == "" {
		return fill(FallbackCode(status), nil, status, header, forms, nowMs)
	}
	return fill(code, envelope, status, header, forms, nowMs)
}

func clean(text string, forms []string) string {
	return capLength(hide(strip(text), forms), forms)
}

// refinedCode is the first code of an envelope's refines chain the catalogue defines.
func refinedCode(chain any) string {
	list, ok := chain.([]any)
	if !ok {
		return ""
	}
	if len(list) > RefinesMax {
		list = list[:RefinesMax]
	}
	for _, entry := range list {
		if s, ok := entry.(string); ok {
			if _, known := specs[s]; known {
				return s
			}
		}
	}
	return ""
}

func memberText(members map[string]any, name string, forms []string) string {
	if s, ok := members[name].(string); ok {
		return clean(s, forms)
	}
	return ""
}

// contextValue says whether a context keeps a value, and as what.
func contextValue(v any, forms []string) (any, bool) {
	switch t := v.(type) {
	case string:
		return clean(t, forms), true
	case nil, bool:
		return t, true
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return nil, false
		}
		if t == math.Trunc(t) && math.Abs(t) > maxSafe {
			return nil, false
		}
		return t, true
	}
	return nil, false
}

func normalizeContext(raw map[string]any, forms []string) map[string]any {
	out := map[string]any{}
	for key, v := range raw {
		if len(raw) > ContextMaxKeys {
			if _, named := contextFieldTypes[key]; !named {
				continue
			}
		}
		if key == "" || clean(key, forms) != key {
			continue
		}
		if kept, ok := contextValue(v, forms); ok {
			out[key] = kept
		}
	}
	return out
}

// fill is steps 5 to 7 of section 1: the class, the texts, the context, the
// request id and the retry delay of the error of code.
func fill(code string, members map[string]any, status int, header http.Header, forms []string, nowMs int64) Error {
	kind := ""
	if _, ok := specs[code]; ok {
		kind = code
	} else if members != nil {
		kind = refinedCode(members["refines"])
	}
	defaults := specs[kind]
	if defaults == nil {
		defaults = specs[FallbackCode(status)]
	}
	// Not a composite literal: a server's lint may ask every Error literal
	// for a literal remediation, which an error read from a response has not.
	var e Error
	e.Code, e.Status, e.known, e.fromWire = code, status, kind, true
	if defaults != nil {
		e.Message, e.Cause, e.Remediation = defaults.Message, defaults.Cause, defaults.Remediation
	}
	e.Context = map[string]any{}
	if members != nil {
		if s := memberText(members, "message", forms); s != "" {
			e.Message = s
		}
		if s := memberText(members, "cause", forms); s != "" {
			e.Cause = s
		}
		if s := memberText(members, "remediation", forms); s != "" {
			e.Remediation = s
		}
		if raw, ok := members["context"].(map[string]any); ok && len(raw) > 0 {
			e.Context = normalizeContext(raw, forms)
		}
	}
	if id, ok := headerValue(header, "X-Request-Id"); ok && id != "" {
		e.RequestID = clean(id, forms)
	}
	if e.RequestID == "" && members != nil {
		e.RequestID = memberText(members, "request_id", forms)
	}
	if v, ok := e.Context["retry_after_ms"].(float64); ok && v >= 0 && v == math.Trunc(v) {
		e.retryMs, e.retrySet = boundedDelay(int64(v)), true
	} else if ms, ok := headerDelay(header, nowMs); ok {
		e.retryMs, e.retrySet = ms, true
	}
	return e
}

// ErrorForCode builds the error of code as the contract's section 3 says: a
// catalogue code takes its texts for those left empty; any other code the
// texts of the code status falls back to (the default fallback for status
// 0). The code and the given texts and context are sanitized (with token).
func ErrorForCode(code, message, cause, remediation string, ctx map[string]any, status int, token string) Error {
	forms := TokenForms(token)
	code = clean(code, forms)
	members := map[string]any{"message": message, "cause": cause, "remediation": remediation}
	if len(ctx) > 0 {
		plainCtx := map[string]any{}
		for k, v := range ctx {
			switch t := v.(type) {
			case nil, bool, string:
				plainCtx[k] = t
			default:
				if f, ok := number(v); ok {
					plainCtx[k] = f
				}
			}
		}
		members["context"] = plainCtx
	}
	fallbackStatus := status
	if status == 0 {
		fallbackStatus = -1
	}
	e := fill(code, members, fallbackStatus, nil, forms, time.Now().UnixMilli())
	e.Status = status
	return e
}

// ReadOptions bound how FromResponse reads a body: Token is the caller's
// credential; BodyReadTimeout (0: the catalogue's ErrorBodyReadTimeoutMs)
// is the deadline of the whole read.
type ReadOptions struct {
	Token           string
	BodyReadTimeout time.Duration
}

// FromResponse reads resp's body (at most ErrorBodyMaxBytes, within the
// read deadline) and gives FromBody's error; it closes the body. A body cut
// short is read as the bytes that arrived; one cut by the deadline gets a
// cause that says so (contract section 2c).
func FromResponse(resp *http.Response, opts ReadOptions) Error {
	deadline := opts.BodyReadTimeout
	if deadline <= 0 {
		deadline = ErrorBodyReadTimeoutMs * time.Millisecond
	}
	forms := TokenForms(opts.Token)
	body, timedOut := readBounded(resp.Body, deadline)
	e := fromBody(body, resp.StatusCode, latin1Header(resp.Header), forms, time.Now().UnixMilli())
	if timedOut {
		ms := float64(deadline) / float64(time.Millisecond)
		note := " (the error body was cut short: it did not arrive within " + plainNumber(ms) + " ms)"
		e.Cause = capLength(e.Cause+note, forms)
	}
	return e
}

func readBounded(body io.ReadCloser, deadline time.Duration) ([]byte, bool) {
	if body == nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	var buf []byte
	chunks := make(chan []byte, 16)
	go func() {
		defer close(chunks)
		p := make([]byte, 32*1024)
		total := 0
		for total < ErrorBodyMaxBytes {
			n, err := body.Read(p)
			if n > 0 {
				c := append([]byte(nil), p[:n]...)
				total += n
				chunks <- c
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				body.Close()
				return capBytes(buf), false
			}
			buf = append(buf, c...)
		case <-ctx.Done():
			body.Close()
			go func() {
				for range chunks {
				}
			}()
			return capBytes(buf), !errors.Is(ctx.Err(), context.Canceled)
		}
	}
}

func capBytes(b []byte) []byte {
	if len(b) > ErrorBodyMaxBytes {
		return b[:ErrorBodyMaxBytes]
	}
	return b
}

// plainNumber writes a number in a text (contract section 2c): plain
// decimal, the shortest digits, no exponent.
func plainNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
