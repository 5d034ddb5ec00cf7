package apierrgrpc

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	apierr "errcat.invalid/module"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Domain is the ErrorInfo domain of every status this package makes (AIP-193:
// the service that sends the error). Set it once at start-up.
var Domain = apierr.APIName

// The ErrorInfo metadata keys that carry the envelope's other members, so a
// status read back gives the same error.
const (
	MetaCause       = "cause"
	MetaRemediation = "remediation"
	MetaContext     = "context" // the context as the envelope's canonical JSON
	MetaRequestID   = "request_id"
)

// Status gives err as a gRPC status: an Error with its code's gRPC status,
// its message, an ErrorInfo whose reason is the code (with the cause,
// remediation, context and request id as metadata, each sanitized as the
// HTTP writer does) and a RetryInfo when a delay is known. Any other error is
// the internal error (apierr.Write's rule: its text never reaches the wire).
func Status(err error, opts apierr.WriteOptions) *status.Status {
	e, ok := apierr.As(err)
	if !ok {
		if apierr.OnForeignError != nil && err != nil {
			apierr.OnForeignError(err)
		}
		e = apierr.Get(apierr.InternalCode())
	}
	code := codes.Unknown
	if spec, known := apierr.SpecOf(e.Code); known {
		if n, ok := apierr.GRPCStatusNumber(spec.GRPCStatus); ok {
			code = codes.Code(n)
		}
	}
	var body struct {
		Error struct {
			Cause     string         `json:"cause"`
			Context   map[string]any `json:"context"`
			RequestID string         `json:"request_id"`
		} `json:"error"`
	}
	resp := e.Envelope(opts)
	_ = json.Unmarshal(resp.Body, &body)
	meta := map[string]string{MetaRemediation: e.Remediation}
	if body.Error.Cause != "" {
		meta[MetaCause] = body.Error.Cause
	}
	if body.Error.RequestID != "" {
		meta[MetaRequestID] = body.Error.RequestID
	}
	if len(body.Error.Context) > 0 {
		meta[MetaContext] = string(contextJSON(resp.Body))
	}
	st := status.New(code, e.Message)
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: e.Code, Domain: Domain, Metadata: meta}}
	if ms := resp.Header.Get("Retry-After-Ms"); ms != "" {
		if d, err := time.ParseDuration(ms + "ms"); err == nil {
			details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(d)})
		}
	}
	if with, err := st.WithDetails(details...); err == nil {
		return with
	}
	return st
}

// contextJSON cuts the context member out of a canonical body, byte for byte.
func contextJSON(body []byte) []byte {
	var raw struct {
		Error map[string]json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &raw) != nil {
		return nil
	}
	return raw.Error["context"]
}

// FromStatus gives the error of a gRPC status: the code of its ErrorInfo's
// reason when it has one (with the texts and context its metadata carries,
// sanitized as a response's are), else the code the catalogue's gateway map
// gives its status on channel ("" for none), with the status message as the
// cause. An unknown channel is the map's default.
func FromStatus(st *status.Status, channel string) apierr.Error {
	for _, d := range st.Details() {
		info, ok := d.(*errdetails.ErrorInfo)
		if !ok || info.GetReason() == "" {
			continue
		}
		meta := info.GetMetadata()
		var ctx map[string]any
		if text := meta[MetaContext]; text != "" {
			_ = json.Unmarshal([]byte(text), &ctx)
		}
		e := apierr.ErrorForCode(info.GetReason(), st.Message(), meta[MetaCause], meta[MetaRemediation], ctx, 0, "")
		return e.WithRequestID(apierr.Sanitize(meta[MetaRequestID], ""))
	}
	code, ok := apierr.CodeForGRPC(st.Code().String(), channel)
	if !ok {
		code, _ = apierr.CodeForGRPC(st.Code().String(), "")
	}
	return apierr.ErrorForCode(code, "", st.Message(), "", nil, 0, "")
}

// FromError is FromStatus of err's status (an error that carries none is Unknown).
func FromError(err error, channel string) apierr.Error {
	st, _ := status.FromError(err)
	return FromStatus(st, channel)
}

// UnaryServerInterceptor turns every error a handler returns into Status's status.
func UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if err == nil {
			return resp, nil
		}
		var already interface{ GRPCStatus() *status.Status }
		if errors.As(err, &already) {
			return resp, err
		}
		return resp, Status(err, apierr.WriteOptions{}).Err()
	}
}
