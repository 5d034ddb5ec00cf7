package apierr

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// A span of a text (byte offsets, end excluded); a text stage 1 left is valid
// UTF-8, so every span starts and ends on a code point.
type span struct{ start, end int }

// compiledRule is one rule of the catalogue compiled for RE2, which has no
// lookaround: each side condition is a pattern of its own, tested as the
// contract (section 2, the pattern dialect) says an engine without
// lookaround does.
type compiledRule struct {
	triggers   []string
	guards     []string
	prefix     *regexp.Regexp // nil: a rule without a prefix
	anchored   *regexp.Regexp // ^(?:pattern), matched at a prefix's end
	withAfter  *regexp.Regexp // [^C](pattern): the scan of a rule with not_after
	notAfter   *regexp.Regexp // ^(?:C)$: the class of not_after
	ahead      *regexp.Regexp // ^(?:ahead)
	followed   *regexp.Regexp // ^(pattern)(?:followed_by)
	notFollow  *regexp.Regexp // ^(?:prefix_not_followed_by)
	scan       *regexp.Regexp // pattern: the scan of a rule without a prefix
	scanAnchor *regexp.Regexp // ^(pattern): a not_after match at a stretch's start
}

func compileRule(r textRule) compiledRule {
	c := compiledRule{triggers: r.Triggers, guards: r.Guards}
	if r.Prefix != "" {
		c.prefix = regexp.MustCompile(r.Prefix)
		c.anchored = regexp.MustCompile("^(?:" + r.Pattern + ")")
		if r.Ahead != "" {
			c.ahead = regexp.MustCompile("^(?:" + r.Ahead + ")")
		}
		if r.FollowedBy != "" {
			c.followed = regexp.MustCompile("^(" + r.Pattern + ")(?:" + r.FollowedBy + ")")
		}
		if r.PrefixNotFollowedBy != "" {
			c.notFollow = regexp.MustCompile("^(?:" + r.PrefixNotFollowedBy + ")")
		}
		if r.NotAfter != "" {
			c.notAfter = regexp.MustCompile("^(?:" + r.NotAfter + ")$")
		}
		return c
	}
	c.scan = regexp.MustCompile(r.Pattern)
	if r.NotAfter != "" {
		c.withAfter = regexp.MustCompile(negateClass(r.NotAfter) + "(" + r.Pattern + ")")
		c.scanAnchor = regexp.MustCompile("^(" + r.Pattern + ")")
	}
	return c
}

// negateClass turns the class [X] into [^X] (and [^X] into [X]).
func negateClass(class string) string {
	if strings.HasPrefix(class, "[^") {
		return "[" + class[2:]
	}
	return "[^" + class[1:]
}

// nextRune is the offset one code point after at.
func nextRune(text string, at int) int {
	if at >= len(text) {
		return at + 1
	}
	_, size := utf8.DecodeRuneInString(text[at:])
	return at + size
}

// scanAll appends every non-empty match of the global scan of re on text.
func scanAll(re *regexp.Regexp, text string, out []span, offset int) []span {
	pos := 0
	for pos <= len(text) {
		loc := re.FindStringIndex(text[pos:])
		if loc == nil {
			return out
		}
		start, end := pos+loc[0], pos+loc[1]
		if end > start {
			out = append(out, span{start + offset, end + offset})
			pos = end
		} else {
			pos = nextRune(text, start)
		}
	}
	return out
}

// scanNotAfter is the global scan of a rule with not_after: the leftmost
// match whose preceding character (in the stretch) is not in the class.
func (c *compiledRule) scanNotAfter(text string, out []span, offset int) []span {
	pos := 0
	for pos <= len(text) {
		start, end := -1, -1
		if pos == 0 {
			if loc := c.scanAnchor.FindStringSubmatchIndex(text); loc != nil {
				start, end = loc[2], loc[3]
			}
		}
		if start < 0 {
			from := pos
			if pos > 0 {
				_, size := utf8.DecodeLastRuneInString(text[:pos])
				from = pos - size
			}
			loc := c.withAfter.FindStringSubmatchIndex(text[from:])
			if loc == nil {
				return out
			}
			start, end = from+loc[2], from+loc[3]
		}
		if end > start {
			out = append(out, span{start + offset, end + offset})
			pos = end
		} else {
			pos = nextRune(text, start)
		}
	}
	return out
}

// prefixMarks is the global scan of the prefix, without the prefix matches
// after which prefix_not_followed_by matches (the scan goes on one code
// point after such a match's start).
func (c *compiledRule) prefixMarks(text string) []span {
	var marks []span
	pos := 0
	for pos <= len(text) {
		loc := c.prefix.FindStringIndex(text[pos:])
		if loc == nil {
			return marks
		}
		start, end := pos+loc[0], pos+loc[1]
		if end == start || (c.notFollow != nil && c.notFollow.MatchString(text[end:])) {
			pos = nextRune(text, start)
			continue
		}
		marks = append(marks, span{start, end})
		pos = end
	}
	return marks
}

// covers appends the covers of the rule on text, shifted by offset.
func (c *compiledRule) covers(text string, out []span, offset int) []span {
	if c.prefix == nil {
		if c.withAfter != nil {
			return c.scanNotAfter(text, out, offset)
		}
		return scanAll(c.scan, text, out, offset)
	}
	marks := c.prefixMarks(text)
	for i, m := range marks {
		cut := len(text)
		if i+1 < len(marks) {
			cut = marks[i+1].start
		}
		piece := text[m.end:cut]
		if c.notAfter != nil && m.end > 0 {
			r, _ := utf8.DecodeLastRuneInString(text[:m.end])
			if c.notAfter.MatchString(string(r)) {
				continue
			}
		}
		if c.ahead != nil && !c.ahead.MatchString(piece) {
			continue
		}
		var length int
		if c.followed != nil {
			loc := c.followed.FindStringSubmatchIndex(piece)
			if loc == nil {
				continue
			}
			length = loc[3]
		} else {
			loc := c.anchored.FindStringIndex(piece)
			if loc == nil {
				continue
			}
			length = loc[1]
		}
		if length > 0 {
			out = append(out, span{m.end + offset, m.end + length + offset})
		}
	}
	return out
}

// formCovers appends every occurrence of every form (overlapping ones too).
func formCovers(text string, forms []string, out []span) []span {
	for _, form := range forms {
		from := 0
		for {
			at := strings.Index(text[from:], form)
			if at < 0 {
				break
			}
			out = append(out, span{from + at, from + at + len(form)})
			from = nextRune(text, from+at)
			if from > len(text) {
				break
			}
		}
	}
	return out
}

func occurrences(text, marker string) []span {
	var out []span
	if marker == "" {
		return out
	}
	from := 0
	for {
		at := strings.Index(text[from:], marker)
		if at < 0 {
			return out
		}
		out = append(out, span{from + at, from + at + len(marker)})
		from += at + len(marker)
	}
}

// free gives the non-empty stretches of [0, size) outside every span of taken (sorted).
func free(size int, taken []span) []span {
	var out []span
	pos := 0
	for _, s := range taken {
		if s.start > pos {
			out = append(out, span{pos, s.start})
		}
		if s.end > pos {
			pos = s.end
		}
	}
	if size > pos {
		out = append(out, span{pos, size})
	}
	return out
}

func mergeCovers(covers []span) []span {
	if len(covers) <= 1 {
		return append([]span(nil), covers...)
	}
	ordered := append([]span(nil), covers...)
	sort.Slice(ordered, func(i, j int) bool {
		if ordered[i].start != ordered[j].start {
			return ordered[i].start < ordered[j].start
		}
		return ordered[i].end < ordered[j].end
	})
	out := []span{ordered[0]}
	for _, s := range ordered[1:] {
		last := &out[len(out)-1]
		if s.start < last.end {
			if s.end > last.end {
				last.end = s.end
			}
		} else {
			out = append(out, s)
		}
	}
	return out
}

// findCovers gives the merged covers of one step on text: the rules read
// reads on each stretch, and the token forms; stretches between the step's
// marker first, then each stretch the covers leave free, until none is new.
func findCovers(text string, read func(piece string, offset int, out []span) []span, forms []string, marker string) []span {
	barriers := occurrences(text, marker)
	covers := formCovers(text, forms, nil)
	done := map[span]bool{}
	merged := mergeCovers(covers)
	pending := free(len(text), barriers)
	for len(pending) > 0 {
		for _, s := range pending {
			done[s] = true
			covers = read(text[s.start:s.end], s.start, covers)
		}
		merged = mergeCovers(covers)
		taken := merged
		if len(barriers) > 0 {
			taken = sortedSpans(append(append([]span(nil), merged...), barriers...))
		}
		next := pending[:0:0]
		for _, s := range free(len(text), taken) {
			if !done[s] {
				next = append(next, s)
			}
		}
		pending = next
	}
	return merged
}

func sortedSpans(spans []span) []span {
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end < spans[j].end
	})
	return spans
}

func rewrite(text string, merged []span, marker string) string {
	var b strings.Builder
	pos := 0
	for _, s := range merged {
		b.WriteString(text[pos:s.start])
		b.WriteString(marker)
		pos = s.end
	}
	b.WriteString(text[pos:])
	return b.String()
}
