package apierr

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// headerValue is the value of header name (looked up case-insensitively;
// values given more than once joined with ", " in order); false when absent.
func headerValue(h http.Header, name string) (string, bool) {
	var values []string
	for k, vs := range h {
		if strings.EqualFold(k, name) {
			values = append(values, vs...)
		}
	}
	if len(values) == 0 {
		return "", false
	}
	return strings.Join(values, ", "), true
}

// latin1Header is h with every value's bytes read as Latin-1, as fetch reads
// the bytes of a header on the wire.
func latin1Header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		for _, v := range values {
			var b strings.Builder
			for i := 0; i < len(v); i++ {
				b.WriteRune(rune(v[i]))
			}
			out[name] = append(out[name], b.String())
		}
	}
	return out
}

func plainDigits(v string) bool {
	if len(v) == 0 || len(v) > 15 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

func boundedDelay(ms int64) int64 {
	if ms > RetryAfterMaxMs {
		return RetryAfterMaxMs
	}
	return ms
}

// headerDelay is the retry delay of the headers: Retry-After-Ms, else
// Retry-After (seconds or an HTTP date), cut to RetryAfterMaxMs.
func headerDelay(h http.Header, nowMs int64) (int64, bool) {
	if v, ok := headerValue(h, "Retry-After-Ms"); ok && plainDigits(v) {
		n, _ := strconv.ParseInt(v, 10, 64)
		return boundedDelay(n), true
	}
	v, ok := headerValue(h, "Retry-After")
	if !ok {
		return 0, false
	}
	if plainDigits(v) {
		n, _ := strconv.ParseInt(v, 10, 64)
		return boundedDelay(n * 1000), true
	}
	when, ok := httpDateMs(v, nowMs)
	if !ok {
		return 0, false
	}
	if when < nowMs {
		return 0, true
	}
	return boundedDelay(when - nowMs), true
}

var (
	months    = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	dateForms = []struct {
		re    *regexp.Regexp
		order [6]int // day, month, year, hour, minute, second: their groups
	}{
		{regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`), [6]int{1, 2, 3, 4, 5, 6}},
		{regexp.MustCompile(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([0-9]{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`), [6]int{1, 2, 3, 4, 5, 6}},
		{regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([0-9]{2}| [0-9]) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})$`), [6]int{2, 1, 6, 3, 4, 5}},
	}
)

const msPerDay = 86400000

func leap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func monthDays(y int64, m int) int {
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if m == 2 && leap(y) {
		return 29
	}
	return days[m-1]
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mm := int64(m)
	if m > 2 {
		mm -= 3
	} else {
		mm += 9
	}
	doy := (153*mm+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// httpDateMs reads an HTTP date (contract section 2b) as ms since the epoch.
func httpDateMs(value string, nowMs int64) (int64, bool) {
	for _, form := range dateForms {
		m := form.re.FindStringSubmatch(value)
		if m == nil {
			continue
		}
		dayText, monthName, yearText := m[form.order[0]], m[form.order[1]], m[form.order[2]]
		day, _ := strconv.Atoi(strings.TrimSpace(dayText))
		hour, _ := strconv.Atoi(m[form.order[3]])
		minute, _ := strconv.Atoi(m[form.order[4]])
		second, _ := strconv.Atoi(m[form.order[5]])
		month := 0
		for i, name := range months {
			if name == monthName {
				month = i + 1
			}
		}
		if day < 1 || hour > 23 || minute > 59 || second > 60 {
			return 0, false
		}
		year, _ := strconv.ParseInt(yearText, 10, 64)
		if len(yearText) == 2 {
			year = twoDigitYear(year, [5]int{month, day, hour, minute, second}, nowMs)
		}
		if day > monthDays(year, month) {
			return 0, false
		}
		return daysFromCivil(year, month, day)*msPerDay + int64((hour*60+minute)*60+second)*1000, true
	}
	return 0, false
}

// twoDigitYear is the latest year ending in yy whose timestamp is not more
// than 50 years after now (RFC 9110).
func twoDigitYear(yy int64, rest [5]int, nowMs int64) int64 {
	now := time.UnixMilli(nowMs).UTC()
	limit := [6]int64{int64(now.Year()) + 50, int64(now.Month()), int64(now.Day()), int64(now.Hour()), int64(now.Minute()), int64(now.Second())}
	year := limit[0] - ((limit[0]-yy)%100+100)%100
	for {
		cand := [6]int64{year, int64(rest[0]), int64(rest[1]), int64(rest[2]), int64(rest[3]), int64(rest[4])}
		if !after(cand, limit) {
			return year
		}
		year -= 100
	}
}

func after(a, b [6]int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}
