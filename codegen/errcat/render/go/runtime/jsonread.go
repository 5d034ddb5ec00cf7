package apierr

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeWHATWG decodes UTF-8 as the WHATWG decoder does: each maximal
// invalid subsequence becomes one U+FFFD.
func decodeWHATWG(raw []byte) string {
	if utf8.Valid(raw) {
		return string(raw)
	}
	var b strings.Builder
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < 0x80 {
			b.WriteByte(c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c == 0xF4:
			need, hi = 3, 0x8F
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		default:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < need; k++ {
			if j >= len(raw) || raw[j] < lo || raw[j] > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if ok {
			b.Write(raw[i:j])
		} else {
			b.WriteRune(utf8.RuneError)
		}
		i = j
	}
	return b.String()
}

// jsonParser reads one JSON text (RFC 8259) into nil, bool, float64,
// string, map[string]any and []any; NaN and Infinity are not JSON, and
// nesting deeper than JSONMaxDepth is refused. An escaped unpaired
// surrogate is kept as its three WTF-8 bytes, which the sanitizer removes.
type jsonParser struct {
	s     string
	i     int
	depth int
}

type jsonError struct{}

func parseJSON(s string) (v any, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(jsonError); !mine {
				panic(r)
			}
			v, ok = nil, false
		}
	}()
	p := &jsonParser{s: s}
	p.space()
	v = p.value()
	p.space()
	return v, p.i == len(p.s)
}

func (p *jsonParser) fail() { panic(jsonError{}) }

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() any {
	if p.i >= len(p.s) {
		p.fail()
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == 't':
		return p.word("true", true)
	case c == 'f':
		return p.word("false", false)
	case c == 'n':
		return p.word("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	p.fail()
	return nil
}

func (p *jsonParser) word(w string, v any) any {
	if !strings.HasPrefix(p.s[p.i:], w) {
		p.fail()
	}
	p.i += len(w)
	return v
}

func (p *jsonParser) enter() {
	p.depth++
	if p.depth > JSONMaxDepth {
		p.fail()
	}
}

// members reads the members of an object or an array after its opening
// character, up to its closing one, calling member at the start of each;
// the pair counts as one level of nesting.
func (p *jsonParser) members(closing byte, member func()) {
	p.enter()
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == closing {
		p.i++
		p.depth--
		return
	}
	for {
		p.space()
		member()
		p.space()
		if p.i >= len(p.s) {
			p.fail()
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] == closing {
			p.i++
			p.depth--
			return
		}
		p.fail()
	}
}

func (p *jsonParser) object() any {
	out := map[string]any{}
	p.members('}', func() {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			p.fail()
		}
		key := p.str()
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			p.fail()
		}
		p.i++
		p.space()
		out[key] = p.value()
	})
	return out
}

func (p *jsonParser) array() any {
	out := []any{}
	p.members(']', func() { out = append(out, p.value()) })
	return out
}

func (p *jsonParser) number() any {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.fail()
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			p.fail()
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.fail()
		}
	}
	f, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		p.fail()
	}
	return f
}

func hexValue(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), err == nil
}

func (p *jsonParser) str() string {
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.fail()
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String()
		case c < 0x20:
			p.fail()
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			p.fail()
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			p.unicodeEscape(&b)
		default:
			p.fail()
		}
	}
}

// unicodeEscape reads the XXXX of a \uXXXX escape (and the low half of a
// surrogate pair after it) into b. An unpaired surrogate is written as its
// three WTF-8 bytes: not UTF-8, so stage 1 of the sanitizer removes it.
func (p *jsonParser) unicodeEscape(b *strings.Builder) {
	r, ok := hexValue(p.s[p.i:])
	if !ok || strings.ContainsAny(p.s[p.i:p.i+4], "+-") {
		p.fail()
	}
	p.i += 4
	if r >= 0xD800 && r <= 0xDBFF && strings.HasPrefix(p.s[p.i:], `\u`) {
		if low, ok := hexValue(p.s[p.i+2:]); ok && low >= 0xDC00 && low <= 0xDFFF && !strings.ContainsAny(p.s[p.i+2:p.i+6], "+-") {
			p.i += 6
			b.WriteRune(0x10000 + (r-0xD800)<<10 + (low - 0xDC00))
			return
		}
	}
	if r >= 0xD800 && r <= 0xDFFF {
		b.WriteByte(byte(0xE0 | r>>12))
		b.WriteByte(byte(0x80 | (r>>6)&0x3F))
		b.WriteByte(byte(0x80 | r&0x3F))
		return
	}
	b.WriteRune(r)
}
