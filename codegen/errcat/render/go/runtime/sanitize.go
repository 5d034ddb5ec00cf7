package apierr

import (
	"encoding/base64"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

var (
	compileOnce sync.Once
	secrets     []compiledRule
	injections  []compiledRule
)

func compiled() {
	compileOnce.Do(func() {
		for _, r := range secretRules {
			secrets = append(secrets, compileRule(r))
		}
		for _, r := range injectionRules {
			injections = append(injections, compileRule(r))
		}
	})
}

func inRanges(r rune, ranges []runeRange) bool {
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i].last >= r })
	return i < len(ranges) && ranges[i].first <= r
}

// strip is stage 1: the removed characters deleted, the spacing ones made
// spaces. A byte that is not UTF-8 (an unpaired surrogate a JSON escape
// made, or a caller's invalid text) is removed too.
func strip(text string) string {
	clean := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x80 || inRanges(rune(c), removeRanges) || inRanges(rune(c), toSpaceRanges) {
			clean = false
			break
		}
	}
	if clean {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
		case inRanges(r, toSpaceRanges):
			b.WriteByte(' ')
		case inRanges(r, removeRanges):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lowerASCII lowers the ASCII letters only: what the trigger test reads.
func lowerASCII(text string) string {
	b := []byte(text)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// triggered is the trigger pre-filter of errcat's plan (codegen/README.md,
// "The trigger pre-filter"): a rule can match a lower-cased stretch only if
// it holds a character of each of the rule's guards and one of its triggers.
func (r *compiledRule) triggered(low string) bool {
	for _, g := range r.guards {
		if !strings.ContainsAny(low, g) {
			return false
		}
	}
	for _, t := range r.triggers {
		if strings.Contains(low, t) {
			return true
		}
	}
	return false
}

func reader(rules []compiledRule) func(string, int, []span) []span {
	return func(piece string, offset int, out []span) []span {
		low := lowerASCII(piece)
		for i := range rules {
			if rules[i].triggered(low) {
				out = rules[i].covers(piece, out, offset)
			}
		}
		return out
	}
}

// hide is stages 2 and 3 but the cap, on a text stage 1 leaves as it is.
func hide(text string, forms []string) string {
	compiled()
	markers := findCovers(text, reader(injections), nil, Filtered)
	if len(markers) > 0 {
		text = rewrite(text, markers, Filtered)
	}
	found := findCovers(text, reader(secrets), forms, Redaction)
	if len(found) > 0 {
		text = rewrite(text, found, Redaction)
		for _, form := range forms {
			text = strings.ReplaceAll(text, form, Redaction)
		}
	}
	return text
}

// capLength is stage 3, step 4: a text longer than the cap keeps a start the
// steps leave as it is, followed by the truncation marker.
func capLength(text string, forms []string) string {
	if utf8.RuneCountInString(text) <= TextMaxChars {
		return text
	}
	runes := []rune(text)
	cut := TextMaxChars - utf8.RuneCountInString(TruncationMarker)
	for cut > 0 {
		kept := string(runes[:cut]) + TruncationMarker
		again := hide(kept, forms)
		if again == kept {
			return kept
		}
		same := 0
		k, a := []rune(kept), []rune(again)
		for same < len(k) && same < len(a) && k[same] == a[same] {
			same++
		}
		if cut-1 < same {
			cut = cut - 1
		} else {
			cut = same
		}
	}
	return TruncationMarker
}

// Sanitize cleans one piece of text as the contract's section 2 says: the
// control, bidi and invisible characters removed (line breaks become
// spaces), prompt-injection markers replaced by Filtered, every secret-like
// string and every form of token replaced by Redaction, and the length cut
// to TextMaxChars code points. token may be empty.
func Sanitize(text string, token string) string {
	forms := TokenForms(token)
	return capLength(hide(strip(text), forms), forms)
}

const unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

func percent(raw []byte, digits string) string {
	var b strings.Builder
	for _, c := range raw {
		if strings.IndexByte(unreserved, c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
	}
	return b.String()
}

func urlForm(s string) string {
	return strings.NewReplacer("+", "-", "/", "_").Replace(s)
}

// coreMinChars is the shortest core looked for (contract section 2): a
// shorter one (a token of one or two bytes) holds at most 12 bits of the
// token and would match base64 text by chance.
const coreMinChars = 3

// TokenForms gives the forms of token the sanitizer redacts, longest first:
// the token after stage 1, its UTF-8 bytes percent-encoded in upper and in
// lower case, base64 and base64url without padding, and the token's core at
// each of the three alignments inside longer base64 text (a core shorter than
// coreMinChars is left out). Forms found inside a marker are left out.
func TokenForms(token string) []string {
	if token == "" {
		return nil
	}
	token = strip(token)
	raw := []byte(token)
	candidates := []string{token, percent(raw, "0123456789ABCDEF"), percent(raw, "0123456789abcdef")}
	b64 := strings.TrimRight(base64.StdEncoding.EncodeToString(raw), "=")
	candidates = append(candidates, b64, urlForm(b64))
	n := len(raw)
	for k := 0; k < 3; k++ {
		start, end := (8*k+5)/6, (8*k+8*n)/6
		if end-start < coreMinChars {
			continue // a token of one or two bytes: so short a core is found by chance
		}
		padded := append(append(make([]byte, k), raw...), 0, 0)
		core := base64.StdEncoding.EncodeToString(padded)[start:end]
		candidates = append(candidates, core, urlForm(core))
	}
	reserved := Redaction + "\x00" + Filtered + "\x00" + TruncationMarker
	seen := map[string]bool{}
	var out []string
	for _, f := range candidates {
		if f == "" || seen[f] || strings.Contains(reserved, f) {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return utf8.RuneCountInString(out[i]) > utf8.RuneCountInString(out[j])
	})
	return out
}
