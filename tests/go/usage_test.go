// The generated package used the way the Mitos servers use internal/apierr:
// Get, the With methods and Encode in an HTTP handler, the typed
// constructors, errors.Is, the writer's handling of foreign errors, a client
// reading the response back, and a gRPC round trip.
package usage_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	apierr "github.com/mitos-dev/mitos-errors/go-sdk"
	"github.com/mitos-dev/mitos-errors/go-sdk/apierrgrpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

var errDatabase = errors.New("pq: connect postgres://app:hunter2@db.internal:5432/runs")

// handler answers as a Mitos server does: a catalogue error by code, with a
// cause; a typed constructor; and a wrapped foreign error.
func handler(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/sandboxes/sb-404":
		apierr.Encode(w, apierr.Get(apierr.CodeNotFound).WithCause("no sandbox registered for id sb-404"))
	case "/limited":
		apierr.Encode(w, apierr.RateLimited("sb-1", 1500))
	case "/db":
		apierr.Write(w, fmt.Errorf("load sandbox: %w", errDatabase), apierr.WriteOptions{RequestID: r.Header.Get("X-Request-Id")})
	case "/bad-json":
		apierr.Encode(w, apierr.Get(apierr.CodeInvalidJSON).WithCause("unexpected end of JSON input, Bearer abcdefghijklmnop"))
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func get(t *testing.T, url string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestAHandlerSendsTheEnvelopeAndAClientReadsItBack(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(handler))
	defer server.Close()
	if !strings.HasPrefix(server.URL, "http://127.0.0.1:") {
		t.Fatalf("the test server listens on %s, not on 127.0.0.1", server.URL)
	}

	resp := get(t, server.URL+"/sandboxes/sb-404", nil)
	got := apierr.FromResponse(resp, apierr.ReadOptions{})
	if resp.StatusCode != 404 || got.Code != string(apierr.CodeNotFound) || got.Cause != "no sandbox registered for id sb-404" {
		t.Fatalf("not_found read back as %d %+v", resp.StatusCode, got)
	}
	if got.Message != apierr.Get(apierr.CodeNotFound).Message || !errors.Is(got, apierr.CodeNotFound) {
		t.Fatalf("not_found lost its catalogue texts or code: %+v", got)
	}

	resp = get(t, server.URL+"/limited", nil)
	if resp.Header.Get("Retry-After") != "2" || resp.Header.Get("Retry-After-Ms") != "1500" {
		t.Fatalf("rate_limited headers: %v", resp.Header)
	}
	limited := apierr.FromResponse(resp, apierr.ReadOptions{})
	if ms, ok := limited.RetryAfterMs(); !ok || ms != 1500 || !limited.Retryable() {
		t.Fatalf("rate_limited read back without its delay: %+v", limited)
	}

	resp = get(t, server.URL+"/bad-json", nil)
	bad := apierr.FromResponse(resp, apierr.ReadOptions{})
	if strings.Contains(bad.Cause, "abcdefghijklmnop") || !strings.Contains(bad.Cause, apierr.Redaction) {
		t.Fatalf("the writer sent a credential in the cause: %q", bad.Cause)
	}
}

func TestAForeignErrorIsInternalAndGoesToTheHookOnly(t *testing.T) {
	var logged []error
	apierr.OnForeignError = func(err error) { logged = append(logged, err) }
	defer func() { apierr.OnForeignError = nil }()
	server := httptest.NewServer(http.HandlerFunc(handler))
	defer server.Close()

	resp := get(t, server.URL+"/db", map[string]string{"X-Request-Id": "req-7"})
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "postgres") {
		t.Fatalf("a foreign error's text reached the wire: %s", raw)
	}
	internal := apierr.Get(apierr.InternalCode())
	want := `{"error":{"code":"` + internal.Code + `","message":"` + internal.Message + `","remediation":"` + internal.Remediation + `","request_id":"req-7"}}`
	if string(raw) != want || resp.StatusCode != internal.Status || resp.Header.Get("X-Request-Id") != "req-7" {
		t.Fatalf("foreign error written as %d %s", resp.StatusCode, raw)
	}
	if len(logged) != 1 || !errors.Is(logged[0], errDatabase) {
		t.Fatalf("the hook got %v, want the original error", logged)
	}
}

func TestTheMitosCallPatternsHold(t *testing.T) {
	base := apierr.Get(apierr.CodeBudgetExhausted)
	withCtx := base.WithContext(map[string]any{"sandbox": "sb-7", "dimension": "maxForks", "remaining": 0})
	if withCtx.Code != base.Code || withCtx.Remediation != base.Remediation || base.Context != nil {
		t.Fatal("WithContext must keep the code and remediation and leave the entry alone")
	}
	if apierr.Lookup("no_such_code").Code != string(apierr.InternalCode()) {
		t.Fatal("Lookup of an unknown code must give the internal error")
	}
	codes := apierr.Codes()
	if len(codes) != len(apierr.Catalogue) {
		t.Fatalf("Codes() has %d codes, Catalogue %d", len(codes), len(apierr.Catalogue))
	}
	for i, c := range codes {
		e := apierr.Get(c)
		if e.Code != string(c) || strings.TrimSpace(e.Remediation) == "" || e.Status < 400 || e.Status > 599 {
			t.Errorf("catalogue entry %q: %+v", c, e)
		}
		if i > 0 && codes[i-1] >= c {
			t.Errorf("Codes() is not sorted at %q", c)
		}
	}
	built := apierr.TimeoutTooLarge("sb-1", 90000, 86400)
	if built.Context["requested_s"] != 90000.0 || built.Context["max_timeout_s"] != 86400.0 {
		t.Fatalf("TimeoutTooLarge context: %v", built.Context)
	}
	if !errors.Is(fmt.Errorf("wrapped: %w", built), apierr.CodeTimeoutTooLarge) || errors.Is(built, apierr.CodeNotFound) {
		t.Fatal("errors.Is must match the code and only it")
	}
	console := apierr.Get(apierr.CodeUnauthorized).ForSurface(apierr.SurfaceConsole)
	if console.Code != "unauthorized" || console.Message == apierr.Get(apierr.CodeUnauthorized).Message {
		t.Fatalf("ForSurface did not take the console texts: %+v", console)
	}
}

func TestErrorsIsMatchesACodeTheWireErrorRefines(t *testing.T) {
	body := []byte(`{"error":{"code":"sandbox_reaped","refines":["idle_timeout"]}}`)
	e := apierr.FromBody(body, 410, nil, "")
	if e.Code != "sandbox_reaped" || !errors.Is(e, apierr.CodeIdleTimeout) || errors.Is(e, apierr.CodeNotFound) {
		t.Fatalf("a finer code must match the code it refines: %+v", e)
	}
	if known, ok := e.Known(); !ok || known != apierr.CodeIdleTimeout {
		t.Fatalf("classified as %q", known)
	}
}

// emitVector is one case of tests/conformance/vectors/emit.json.
type emitVector struct {
	Name  string `json:"name"`
	Input struct {
		Code        *string        `json:"code"`
		Surface     *string        `json:"surface"`
		Message     *string        `json:"message"`
		Remediation *string        `json:"remediation"`
		Cause       string         `json:"cause"`
		Context     map[string]any `json:"context"`
		RequestID   *string        `json:"request_id"`
		Token       *string        `json:"token"`
	} `json:"input"`
	Expected struct {
		Status  int        `json:"status"`
		Headers [][]string `json:"headers"`
		Body    string     `json:"body"`
	} `json:"expected"`
}

func or(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestTheWriterSendsEveryEmitVector(t *testing.T) {
	raw, err := os.ReadFile("../conformance/vectors/emit.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []emitVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) == 0 {
		t.Fatal("no emit vectors")
	}
	for _, v := range file.Vectors {
		in := v.Input
		opts := apierr.WriteOptions{RequestID: or(in.RequestID), Token: or(in.Token)}
		var resp apierr.Response
		if in.Code == nil {
			resp = apierr.ResponseFor(errors.New(in.Cause), opts)
		} else {
			e := apierr.Lookup(*in.Code)
			if _, ok := apierr.Catalogue[*in.Code]; !ok {
				e = apierr.Error{Code: *in.Code, Remediation: "an error of a code this server does not define"}
			}
			if in.Surface != nil {
				e = e.ForSurface(apierr.Surface(*in.Surface))
			}
			if in.Message != nil {
				e = e.WithMessage(*in.Message)
			}
			if in.Remediation != nil {
				e = e.WithRemediation(*in.Remediation)
			}
			resp = e.WithCause(in.Cause).WithContext(in.Context).Envelope(opts)
		}
		var headers []string
		for name, values := range resp.Header {
			for _, value := range values {
				headers = append(headers, strings.ToLower(name)+": "+value)
			}
		}
		var want []string
		for _, h := range v.Expected.Headers {
			want = append(want, h[0]+": "+h[1])
		}
		if resp.Status != v.Expected.Status || string(resp.Body) != v.Expected.Body || !sameSet(headers, want) {
			t.Errorf("%s:\n got  %d %v %s\n want %d %v %s", v.Name, resp.Status, headers, resp.Body, v.Expected.Status, want, v.Expected.Body)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// health answers Check with the error it is given, as a gRPC handler returns one.
type health struct {
	grpc_health_v1.UnimplementedHealthServer
	err error
}

func (h health) Check(context.Context, *grpc_health_v1.HealthCheckRequest) (*grpc_health_v1.HealthCheckResponse, error) {
	return nil, h.err
}

func roundTrip(t *testing.T, err error) error {
	t.Helper()
	lis, listenErr := net.Listen("tcp", "127.0.0.1:0")
	if listenErr != nil {
		t.Fatal(listenErr)
	}
	server := grpc.NewServer(grpc.UnaryInterceptor(apierrgrpc.UnaryServerInterceptor()))
	grpc_health_v1.RegisterHealthServer(server, health{err: err})
	go func() { _ = server.Serve(lis) }()
	defer server.Stop()
	conn, dialErr := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if dialErr != nil {
		t.Fatal(dialErr)
	}
	defer conn.Close()
	_, callErr := grpc_health_v1.NewHealthClient(conn).Check(context.Background(), &grpc_health_v1.HealthCheckRequest{})
	return callErr
}

func TestAGRPCRoundTripKeepsTheError(t *testing.T) {
	sent := apierr.RateLimited("sb-1", 2500).WithCause("42 requests in the last second")
	callErr := roundTrip(t, sent)
	if status.Code(callErr) != codes.ResourceExhausted {
		t.Fatalf("gRPC status %v, want ResourceExhausted", status.Code(callErr))
	}
	got := apierrgrpc.FromError(callErr, "")
	if got.Code != sent.Code || got.Message != sent.Message || got.Cause != sent.Cause || got.Remediation != sent.Remediation {
		t.Fatalf("round trip changed the error: %+v", got)
	}
	if got.Context["sandbox"] != "sb-1" || got.Context["retry_after_ms"] != 2500.0 {
		t.Fatalf("round trip changed the context: %v", got.Context)
	}
	if ms, ok := got.RetryAfterMs(); !ok || ms != 2500 {
		t.Fatalf("round trip lost the delay: %v %v", ms, ok)
	}
	// Four codes share ResourceExhausted; the ErrorInfo reason tells them apart.
	quota := apierrgrpc.FromError(roundTrip(t, apierr.QuotaExceeded("sandboxes.create", "concurrent_sandboxes", 10)), "")
	if quota.Code != string(apierr.CodeQuotaExceeded) {
		t.Fatalf("quota_exceeded came back as %q", quota.Code)
	}
}

func TestAGRPCStatusWithoutErrorInfoTakesTheGatewayMap(t *testing.T) {
	plain := status.New(codes.PermissionDenied, "no certificate for this identity")
	if got := apierrgrpc.FromStatus(plain, ""); got.Code != "forbidden" {
		t.Fatalf("PermissionDenied gives %q, want forbidden", got.Code)
	}
	if got := apierrgrpc.FromStatus(plain, "mtls"); got.Code != "unauthorized" {
		t.Fatalf("PermissionDenied on mtls gives %q, want unauthorized", got.Code)
	}
	foreign := roundTrip(t, errDatabase)
	got := apierrgrpc.FromError(foreign, "")
	if got.Code != string(apierr.InternalCode()) || strings.Contains(got.Cause+got.Message, "hunter2") {
		t.Fatalf("a foreign error crossed gRPC as %+v", got)
	}
}
