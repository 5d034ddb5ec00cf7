package apierr

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// writeString writes s as the contract's JSON text: " and \ escaped, \b \f
// \n \r \t as such, every other character outside printable ASCII as
// \uXXXX (lowercase hex; above U+FFFF as a surrogate pair).
func writeString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	u := func(v rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[v>>12&15])
		b.WriteByte(hex[v>>8&15])
		b.WriteByte(hex[v>>4&15])
		b.WriteByte(hex[v&15])
	}
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			u(0xd800 + (r >> 10))
			u(0xdc00 + (r & 0x3ff))
		default:
			u(r)
		}
	}
	b.WriteByte('"')
}

// FormatNumber writes f as ECMAScript's Number::toString does (what
// JSON.stringify writes): the shortest digits that read back to f, 30 not
// 30.0, 1e-7, 1e+21; -0 as 0; a non-finite number as 1e400 or -1e400.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 1):
		return "1e400"
	case math.IsInf(f, -1):
		return "-1e400"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + out + "e+" + strconv.Itoa(n-1)
	}
	return sign + out + "e-" + strconv.Itoa(1-n)
}

// writeValue writes a value plain gave (objects with their keys sorted by
// code point, which is the order of their UTF-8 bytes).
func writeValue(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case float64:
		b.WriteString(FormatNumber(t))
	case string:
		writeString(b, t)
	case map[string]any:
		keys := sortedKeys(t)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeValue(b, t[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, x)
		}
		b.WriteByte(']')
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
