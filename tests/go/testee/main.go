// Command testee is the Go package's testee of the one test protocol
// (tests/README.md): one JSON request per line on stdin, one answer per line
// on stdout, each error answered with its record (testkit.record). Class
// names are the Go names of the codes (the base: "Error"); the test kit maps
// them to the catalogue's Python class names.
//
// The Go package is a server package: it has no error classes (construct),
// no HTTP client wrapper (fetch) and no SDK-made exec or timeout errors
// (error_for_exit, validate_timeout); testkit.testees.NOT_APPLICABLE says
// so and why, and this testee answers them as any request it does not know.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	apierr "github.com/mitos-dev/mitos-errors/go-sdk"
)

type request map[string]any

func (r request) str(name string) string {
	s, _ := r[name].(string)
	return s
}

func (r request) has(name string) bool {
	v, ok := r[name]
	return ok && v != nil
}

func (r request) int(name string) int {
	f, _ := r[name].(float64)
	return int(f)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	client := &http.Client{}
	for in.Scan() {
		line := in.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		var r request
		if err := json.Unmarshal(markSurrogates(line), &r); err != nil {
			write(out, map[string]any{"threw": "bad request: " + err.Error()})
			continue
		}
		if pairs, ok := orderedHeaders(markSurrogates(line)); ok {
			r["headers"] = pairs
		}
		answer := answer(r, client)
		answer["id"] = r["id"]
		write(out, answer)
	}
	_ = out.Flush()
}

func write(out *bufio.Writer, v map[string]any) {
	line, err := json.Marshal(v)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"id": v["id"], "threw": "unencodable answer: " + err.Error()})
	}
	_, _ = out.Write(line)
	_ = out.WriteByte('\n')
	_ = out.Flush()
}

func answer(r request, client *http.Client) (out map[string]any) {
	defer func() {
		if p := recover(); p != nil {
			out = map[string]any{"threw": fmt.Sprintf("panic: %v", p)}
		}
	}()
	op, _ := r["op"].(string)
	body := r["body"]
	r = walk(map[string]any(r), wtf8).(map[string]any)
	r["body"] = walk(body, replaced)
	token := r.str("token")
	switch op {
	case "body":
		body, isBytes := expand(r["body"])
		headers := headersOf(r["headers"])
		status := r.int("status")
		rec := timed(token, func() apierr.Error { return apierr.FromBody(body, status, headers, token) }, true)
		if isBytes {
			sum := sha256.Sum256(body)
			rec["body_sha256"] = hex.EncodeToString(sum[:])
		}
		return rec
	case "response":
		timeout := 20 * time.Second
		if r.has("timeout_ms") {
			timeout = time.Duration(r.int("timeout_ms")) * time.Millisecond
		}
		client.Timeout = timeout
		resp, err := client.Get(r.str("url"))
		if err != nil {
			return map[string]any{"threw": err.Error()}
		}
		opts := apierr.ReadOptions{Token: token}
		if r.has("body_read_timeout_ms") {
			if ms, ok := r["body_read_timeout_ms"].(float64); ok && ms >= 0 {
				opts.BodyReadTimeout = time.Duration(ms * float64(time.Millisecond))
				if opts.BodyReadTimeout == 0 {
					opts.BodyReadTimeout = time.Nanosecond
				}
			}
		}
		return timed(token, func() apierr.Error { return apierr.FromResponse(resp, opts) }, true)
	case "error_for_code":
		ctx, _ := r["context"].(map[string]any)
		status := 0
		if r.has("status") {
			status = r.int("status")
		}
		rec := timed(token, func() apierr.Error {
			e := apierr.ErrorForCode(r.str("code"), r.str("message"), r.str("cause"), r.str("remediation"), ctx, status, token)
			if r.has("request_id") {
				e = e.WithRequestID(apierr.Sanitize(r.str("request_id"), token))
			}
			return e
		}, r.has("status"))
		return rec
	case "code_for_grpc":
		status := grpcStatus(r["status"])
		code, ok := apierr.CodeForGRPC(status, r.str("channel"))
		if !ok {
			return map[string]any{"threw": "unknown channel " + r.str("channel")}
		}
		return timed("", func() apierr.Error { return apierr.ErrorForCode(code, "", "", "", nil, 0, "") }, false)
	case "sanitize":
		return map[string]any{"text": apierr.Sanitize(r.str("text"), token)}
	case "emit":
		return emit(r)
	}
	return map[string]any{"threw": "no such request: " + op}
}

// grpcStatus is a request's status as CodeForGRPC reads it: a name, its
// decimal text, or a number (an integral one; anything else is no status).
func grpcStatus(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		if t == float64(int64(t)) {
			return fmt.Sprint(int64(t))
		}
	}
	return ""
}

func emit(r request) map[string]any {
	opts := apierr.WriteOptions{RequestID: r.str("request_id"), Token: r.str("token")}
	var resp apierr.Response
	if !r.has("code") {
		resp = apierr.ResponseFor(errors.New(r.str("cause")), opts)
	} else {
		var e apierr.Error
		e.Code = r.str("code")
		if r.has("surface") {
			e = e.ForSurface(apierr.Surface(r.str("surface")))
		}
		if r.has("message") {
			e = e.WithMessage(r.str("message"))
		}
		if r.has("remediation") {
			e = e.WithRemediation(r.str("remediation"))
		}
		ctx, _ := r["context"].(map[string]any)
		e = e.WithCause(r.str("cause")).WithContext(ctx)
		resp = e.Envelope(opts)
	}
	headers := [][]string{}
	for name, values := range resp.Header {
		for _, v := range values {
			headers = append(headers, []string{strings.ToLower(name), v})
		}
	}
	sortPairs(headers)
	return map[string]any{"status": resp.Status, "headers": headers, "body": string(resp.Body)}
}

func sortPairs(p [][]string) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && (p[j][0] < p[j-1][0] || (p[j][0] == p[j-1][0] && p[j][1] < p[j-1][1])); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// expand gives a vector's body as the SDK is handed it, and whether it is
// bytes (a text body is its UTF-8).
func expand(v any) ([]byte, bool) {
	body, _ := v.(map[string]any)
	if len(body) == 0 {
		return nil, false
	}
	if text, ok := body["text"].(string); ok {
		return []byte(text), false
	}
	if b64, ok := body["base64"].(string); ok {
		raw, _ := base64.StdEncoding.DecodeString(b64)
		return raw, true
	}
	parts, _ := body["parts"].([]any)
	asText := body["as"] == "text"
	var b strings.Builder
	for _, part := range parts {
		switch t := part.(type) {
		case string:
			b.WriteString(t)
		case map[string]any:
			if b64, ok := t["base64"].(string); ok {
				raw, _ := base64.StdEncoding.DecodeString(b64)
				b.Write(raw)
			} else if unit, ok := t["repeat"].(string); ok {
				times, _ := t["times"].(float64)
				b.WriteString(strings.Repeat(unit, int(times)))
			}
		}
	}
	return []byte(b.String()), !asText
}

// orderedHeaders reads a request's "headers" object as [name, value] pairs in
// the order they were sent: a Go map would join repeated headers (X-Request-Id
// and x-request-id) in a random order.
func orderedHeaders(line []byte) ([]any, bool) {
	var holder struct {
		Headers json.RawMessage `json:"headers"`
	}
	if json.Unmarshal(line, &holder) != nil || len(holder.Headers) == 0 || holder.Headers[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(string(holder.Headers)))
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	var pairs []any
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var value any
		if dec.Decode(&value) != nil {
			return nil, false
		}
		pairs = append(pairs, []any{key, value})
	}
	return pairs, true
}

func headersOf(v any) http.Header {
	h := http.Header{}
	switch t := v.(type) {
	case map[string]any:
		for name, value := range t {
			h.Add(name, fmt.Sprint(value))
		}
	case []any:
		for _, pair := range t {
			p, _ := pair.([]any)
			if len(p) == 2 {
				h.Add(fmt.Sprint(p[0]), fmt.Sprint(p[1]))
			}
		}
	}
	return h
}

// timed makes the error and answers its record; withStatus false records
// the status as none (an error made without one).
func timed(token string, make func() apierr.Error, withStatus bool) map[string]any {
	before := time.Now()
	e := make()
	elapsed := time.Since(before)
	rec := record(e, token, withStatus)
	rec["elapsed_ms"] = float64(elapsed.Microseconds()) / 1000
	rec["before"] = before.UnixMilli()
	rec["after"] = time.Now().UnixMilli()
	return rec
}

func record(e apierr.Error, token string, withStatus bool) map[string]any {
	advice := e.Advice()
	spec := e.Spec()
	class, lineage := "Error", []string{"Error"}
	var httpStatus, grpcStatus any
	if spec != nil {
		class = spec.Name
		lineage = []string{spec.Name}
		for _, code := range spec.Refines {
			parent, _ := apierr.SpecOf(code)
			lineage = append(lineage, parent.Name)
		}
		lineage = append(lineage, "Error")
		httpStatus, grpcStatus = spec.HTTPStatus, spec.GRPCStatus
	}
	var status, retry, requestID any
	if withStatus {
		status = e.Status
	}
	if ms, ok := e.RetryAfterMs(); ok {
		retry = ms
	}
	if e.RequestID != "" {
		requestID = e.RequestID
	}
	ctx := e.Context
	if ctx == nil {
		ctx = map[string]any{}
	}
	rec := map[string]any{
		"class":          class,
		"lineage":        lineage,
		"code":           e.Code,
		"message":        e.Message,
		"cause":          e.Cause,
		"remediation":    e.Remediation,
		"status":         status,
		"context":        ctx,
		"retryable":      advice.Retryable,
		"retry_after_ms": retry,
		"request_id":     requestID,
		"recovery": map[string]any{
			"action":         advice.Recovery.Action,
			"same_arguments": advice.Recovery.SameArguments,
			"guidance":       advice.Recovery.Guidance,
		},
		"side_effects":    advice.SideEffects,
		"origin":          advice.Origin,
		"is_auth_failure": e.IsAuthFailure(),
		"is_cancelled":    e.IsCancelled(),
		"http_status":     httpStatus,
		"grpc_status":     grpcStatus,
		"base_instance":   true,
		"chained":         false,
		"revives":         nil,
	}
	again := map[string]any{}
	for _, name := range []string{"code", "message", "cause", "remediation"} {
		again[name] = apierr.Sanitize(rec[name].(string), token)
	}
	if e.RequestID != "" {
		again["request_id"] = apierr.Sanitize(e.RequestID, token)
	}
	for key, value := range ctx {
		again["context key:"+key] = apierr.Sanitize(key, token)
		if s, ok := value.(string); ok {
			again["context value:"+key] = apierr.Sanitize(s, token)
		}
	}
	rec["resanitized"] = again
	asJSON, _ := json.Marshal(e)
	rec["forms"] = map[string]any{
		"str":  e.Error(),
		"repr": fmt.Sprintf("%#v", e),
		"json": string(asJSON),
	}
	return rec
}

// A JSON request can hold an unpaired surrogate (\ud800), which a Go string
// cannot; markSurrogates writes each as a marker that walk then turns into
// its three WTF-8 bytes (text the package reads: stage 1 of the sanitizer
// removes them, as it removes a surrogate) or into U+FFFD (a body, which is
// encoded as UTF-8 first, each unpaired surrogate as U+FFFD).
var escape = regexp.MustCompile(`\\+u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\+u[dD][89a-fA-F][0-9a-fA-F]{2}`)

func markSurrogates(line []byte) []byte {
	return escape.ReplaceAllFunc(line, func(m []byte) []byte {
		slashes := 0
		for slashes < len(m) && m[slashes] == '\\' {
			slashes++
		}
		if slashes%2 == 0 || len(m) > slashes+5 {
			return m // an escaped backslash, or a surrogate pair
		}
		hex := strings.ToLower(string(m[slashes+1:]))
		return []byte(string(m[:slashes-1]) + `\ufdd0` + hex + `\ufdd1`)
	})
}

var marker = regexp.MustCompile("\ufdd0([0-9a-f]{4})\ufdd1")

func wtf8(s string) string {
	return marker.ReplaceAllStringFunc(s, func(m string) string {
		var v rune
		fmt.Sscanf(marker.FindStringSubmatch(m)[1], "%x", &v)
		return string([]byte{byte(0xE0 | v>>12), byte(0x80 | (v>>6)&0x3F), byte(0x80 | v&0x3F)})
	})
}

func replaced(s string) string { return marker.ReplaceAllString(s, "\ufffd") }

func walk(v any, f func(string) string) any {
	switch t := v.(type) {
	case string:
		return f(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[f(k)] = walk(x, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = walk(x, f)
		}
		return out
	}
	return v
}
