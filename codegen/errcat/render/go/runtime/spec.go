package apierr

import "sort"

// Advice is the classification of an error: whether to retry, what to do,
// what may have happened, and where the failure arose.
type Advice struct {
	Retryable   bool
	Recovery    Recovery
	SideEffects string
	Origin      string
}

// Texts are the message and remediation a surface uses instead of the code's own.
type Texts struct {
	Message     string
	Remediation string
}

// Spec and Recovery are declared in record.go, which errcat writes from its
// one definition of a code's record (codegen/errcat/model/record.py).

// Advice is the spec's classification.
func (s *Spec) Advice() Advice {
	return Advice{Retryable: s.Retryable, Recovery: s.Recovery, SideEffects: s.SideEffects, Origin: s.Origin}
}

// texts are the spec's message and remediation on surface (its own where
// the surface has none).
func (s *Spec) texts(surface Surface) (string, string) {
	message, remediation := s.Message, s.Remediation
	if t, ok := s.Surfaces[string(surface)]; ok {
		if t.Message != "" {
			message = t.Message
		}
		if t.Remediation != "" {
			remediation = t.Remediation
		}
	}
	return message, remediation
}

// UnknownAdvice is the classification of a code the catalogue does not define.
func UnknownAdvice() Advice { return unknownSpec }

type runeRange struct{ first, last rune }

type textRule struct {
	Name                string
	Prefix              string
	Pattern             string
	NotAfter            string
	Ahead               string
	FollowedBy          string
	PrefixNotFollowedBy string
	Triggers            []string
	Guards              []string
}

type grpcStatus struct {
	name   string
	number int
	proto  string
}

// SpecOf gives the catalogue's spec of code, and whether the catalogue defines it.
func SpecOf(code string) (*Spec, bool) {
	s, ok := specs[code]
	return s, ok
}

// AllCodes gives every code of the catalogue (SDK-local ones too), sorted.
func AllCodes() []Code {
	out := make([]Code, 0, len(specs))
	for c := range specs {
		out = append(out, Code(c))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Codes gives every code of the Catalogue (the codes a server sends), sorted.
func Codes() []Code {
	out := make([]Code, 0, len(Catalogue))
	for c := range Catalogue {
		out = append(out, Code(c))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Get gives the Catalogue's error of code; a code it does not hold gives the
// error of InternalCode, so a caller always has a well-formed Error.
func Get(code Code) Error {
	return Lookup(string(code))
}

// Lookup gives the Catalogue's error of code, else that of InternalCode.
func Lookup(code string) Error {
	if e, ok := Catalogue[code]; ok {
		return e
	}
	return internalError()
}

// InternalCode is the code an error that is not a catalogue error is written
// as: the code the catalogue's fallback gives a bare 500 response.
func InternalCode() Code { return Code(FallbackCode(500)) }

func internalError() Error {
	code := string(InternalCode())
	if e, ok := Catalogue[code]; ok {
		return e
	}
	var e Error
	if s, ok := specs[code]; ok {
		e.Code, e.Message, e.Remediation, e.Status = s.Code, s.Message, s.Remediation, s.HTTPStatus
	} else {
		e.Code, e.Status = code, 500
	}
	return e
}

// FallbackCode gives the code of a response without an envelope: by its exact
// status, else by its class (4xx, 5xx), else the default.
func FallbackCode(status int) string {
	if code, ok := fallbackByStatus[itoa(int64(status))]; ok {
		return code
	}
	switch {
	case status >= 400 && status <= 499:
		return fallbackClientError
	case status >= 500 && status <= 599:
		return fallbackServerError
	}
	return fallbackDefault
}

// CodeForGRPC gives the code a gateway answers for a gRPC status (its name,
// either spelling, or its number as text), on channel ("" for none). A
// status the map does not list gives the map's default; an unknown channel
// gives false.
func CodeForGRPC(status string, channel string) (string, bool) {
	name := grpcStatusName(status)
	if channel != "" {
		overrides, ok := grpcChannels[channel]
		if !ok {
			return "", false
		}
		if code, ok := overrides[name]; ok {
			return code, true
		}
	}
	if code, ok := grpcByStatus[name]; ok {
		return code, true
	}
	return grpcDefault, true
}

// GRPCStatusNumber gives the number of a gRPC status name (NotFound: 5).
func GRPCStatusNumber(name string) (int, bool) {
	for _, s := range grpcStatuses {
		if s.name == name {
			return s.number, true
		}
	}
	return 0, false
}

func grpcStatusName(status string) string {
	for _, s := range grpcStatuses {
		if status == s.name || status == s.proto || status == itoa(int64(s.number)) {
			return s.name
		}
	}
	return ""
}

// GRPCStatusName gives the name of a gRPC status number ("" for none).
func GRPCStatusName(number int) string {
	for _, s := range grpcStatuses {
		if s.number == number {
			return s.name
		}
	}
	return ""
}

func indexSpecs(list []*Spec) map[string]*Spec {
	out := make(map[string]*Spec, len(list))
	for _, s := range list {
		out[s.Code] = s
	}
	return out
}

// channelOverrides are the statuses one gRPC channel answers otherwise.
type channelOverrides struct {
	name      string
	overrides [][2]string
}

func channelMap(list []channelOverrides) map[string]map[string]string {
	out := make(map[string]map[string]string, len(list))
	for _, c := range list {
		out[c.name] = pairs(c.overrides)
	}
	return out
}

func pairs(list [][2]string) map[string]string {
	out := make(map[string]string, len(list))
	for _, p := range list {
		out[p[0]] = p[1]
	}
	return out
}
