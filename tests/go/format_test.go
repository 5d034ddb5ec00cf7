// The %#v form of an error adds no letter or digit to the texts it shows
// (docs/sdk-contract.md, section 4): Go's own quoting would spell a rune it
// cannot print as \uXXXX, which could complete a token form with the text
// after it.
package usage_test

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	apierr "github.com/mitos-dev/mitos-errors/go-sdk"
)

// tokenRun is a run of the characters of a token's forms (base64 of both
// alphabets, percent-encoding's letters and digits).
var tokenRun = regexp.MustCompile(`[A-Za-z0-9+/=_-]+`)

// heldRunes are the runes the drawn texts are made of: ASCII, runes Go cannot
// print (unassigned, private use, no-break space, a lone surrogate's
// replacement), quotes and backslashes.
var heldRunes = []rune{
	'a', 'b', '1', 'B', 'z', 'T', 'n', 'd', 'o', '+', '/', '=', '_', '-', ' ',
	'"', '\\', '\'', 'é', '\u00a0', '\u12b1', '\ue000', '\U000f0000', '\ufffd',
	'\u0378', '\U0010ffff', '\u2028', '{', '}',
}

func drawText(rng *rand.Rand) string {
	var b strings.Builder
	for n := rng.Intn(12); n > 0; n-- {
		b.WriteRune(heldRunes[rng.Intn(len(heldRunes))])
	}
	return b.String()
}

func TestGoStringWritesNoRunTheTextsDoNotHold(t *testing.T) {
	rng := rand.New(rand.NewSource(20261205))
	for i := 0; i < 5000; i++ {
		e := apierr.Error{
			Code: drawText(rng), Message: drawText(rng), Cause: drawText(rng),
			Remediation: drawText(rng), RequestID: drawText(rng), Status: 400 + rng.Intn(200),
		}
		texts := []string{e.Code, e.Message, e.Cause, e.Remediation, e.RequestID}
		if rng.Intn(2) == 0 {
			e.Context = map[string]any{}
			for n := rng.Intn(3); n > 0; n-- {
				key, value := drawText(rng), drawText(rng)
				e.Context[key] = value
				texts = append(texts, key, value)
			}
			e.Context["n"] = 7
			texts = append(texts, "n")
		}
		frame := fmt.Sprintf(
			"%T{Code:, Message:, Cause:, Remediation:, Context:map[string]interface {}(nil), Status:%d, RequestID:} 7",
			e, e.Status)
		held := append(tokenRun.FindAllString(frame, -1), texts...)
		shown := fmt.Sprintf("%#v", e)
		for _, run := range tokenRun.FindAllString(shown, -1) {
			found := false
			for _, h := range held {
				for _, r := range tokenRun.FindAllString(h, -1) {
					if strings.Contains(r, run) {
						found = true
					}
				}
			}
			if !found {
				t.Fatalf("%%#v wrote the run %q that no text holds: %s", run, shown)
			}
		}
	}
}

func TestGoStringOfTheFuzzCase(t *testing.T) {
	// Fuzz seed 20261205, case 140909 (found in Python): U+12B1 then BzTndo;
	// quoted by Go, \u12b1BzTndo holds b1BzTndo, the base64 of the token.
	e := apierr.Error{Code: "V", Message: "m", RequestID: "\u12b1BzTndo"}
	if shown := fmt.Sprintf("%#v", e); strings.Contains(shown, "b1BzTndo") {
		t.Fatalf("%%#v spelled the token's base64: %s", shown)
	}
	if naive := fmt.Sprintf("%q", e.RequestID); !strings.Contains(naive, "b1BzTndo") {
		t.Fatalf("the case no longer shows what Go's own quoting does: %s", naive)
	}
}
