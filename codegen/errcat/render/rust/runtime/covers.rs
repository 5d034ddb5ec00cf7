//! Covers (docs/sdk-contract.md section 2, stage 2): the spans a rule or a
//! token form matched, found stretch by stretch, with each rule's side
//! conditions tested as the contract's dialect says an engine without
//! lookaround does. Spans are byte offsets on character boundaries.

use regex::Regex;

/// One sanitizer rule of the catalogue, in the portable dialect.
pub(crate) struct Rule {
    pub prefix: &'static str,
    pub pattern: &'static str,
    pub not_after: &'static str,
    pub ahead: &'static str,
    pub followed_by: &'static str,
    pub prefix_not_followed_by: &'static str,
    pub triggers: &'static [&'static str],
    /// Sets of characters the pattern requires, one of each in every match.
    pub guards: &'static [&'static str],
}

/// A rule compiled for the searches the contract makes.
pub(crate) struct Compiled {
    prefix: Option<Regex>,
    /// Without a prefix: `(P)`, or `(?:^|[^C])(P)` with `not_after`.
    scan: Regex,
    /// With a prefix: `^(?:P)`, or `^(P)(?:F)` with `followed_by`.
    anchored: Regex,
    not_after: Option<Regex>,
    ahead: Option<Regex>,
    not_followed: Option<Regex>,
    triggers: &'static [&'static str],
    guards: &'static [&'static str],
}

fn regex(source: &str) -> Regex {
    // The catalogue's patterns are checked to be in the dialect Rust's regex reads.
    Regex::new(source).unwrap_or_else(|e| panic!("a catalogue pattern does not compile: {e}"))
}

fn anchored(source: &str) -> Option<Regex> {
    (!source.is_empty()).then(|| regex(&format!("^(?:{source})")))
}

fn negated(class: &str) -> String {
    match class.strip_prefix("[^") {
        Some(rest) => format!("[{rest}"),
        None => format!("[^{}", &class[1..]),
    }
}

impl Compiled {
    pub(crate) fn new(rule: &Rule) -> Compiled {
        let p = rule.pattern;
        let scan = if rule.not_after.is_empty() {
            format!("({p})")
        } else {
            format!("(?:^|{})({p})", negated(rule.not_after))
        };
        let anchored_source = if rule.followed_by.is_empty() {
            format!("^({p})")
        } else {
            format!("^({p})(?:{})", rule.followed_by)
        };
        Compiled {
            prefix: (!rule.prefix.is_empty()).then(|| regex(rule.prefix)),
            scan: regex(&scan),
            anchored: regex(&anchored_source),
            not_after: (!rule.not_after.is_empty())
                .then(|| regex(&format!("^(?:{})$", rule.not_after))),
            ahead: anchored(rule.ahead),
            not_followed: anchored(rule.prefix_not_followed_by),
            triggers: rule.triggers,
            guards: rule.guards,
        }
    }

    /// The trigger pre-filter of errcat's plan (codegen/README.md, "The
    /// trigger pre-filter"): whether a lower-cased stretch holds a character
    /// of each of the rule's guards and one of its triggers (else the rule
    /// cannot match it).
    pub(crate) fn triggered(&self, low: &str) -> bool {
        self.guards
            .iter()
            .all(|g| low.contains(|c: char| g.contains(c)))
            && self.triggers.iter().any(|t| low.contains(t))
    }

    /// Append the rule's covers on `text`, shifted by `offset`.
    pub(crate) fn covers(&self, text: &str, offset: usize, out: &mut Vec<(usize, usize)>) {
        match &self.prefix {
            None => self.scan_covers(text, offset, out),
            Some(prefix) => self.prefixed_covers(prefix, text, offset, out),
        }
    }

    fn scan_covers(&self, text: &str, offset: usize, out: &mut Vec<(usize, usize)>) {
        let mut pos = 0;
        while pos <= text.len() {
            let from = if self.not_after.is_some() {
                back_one(text, pos)
            } else {
                pos
            };
            let Some(caps) = self.scan.captures_at(text, from) else {
                return;
            };
            let Some(m) = caps.get(1) else { return };
            if m.end() > m.start() {
                out.push((m.start() + offset, m.end() + offset));
                pos = m.end();
            } else {
                pos = next_char(text, m.start());
            }
        }
    }

    fn prefix_marks(&self, prefix: &Regex, text: &str) -> Vec<(usize, usize)> {
        let mut marks = Vec::new();
        let mut pos = 0;
        while pos <= text.len() {
            let Some(m) = prefix.find_at(text, pos) else {
                break;
            };
            if m.end() == m.start() {
                pos = next_char(text, m.start());
                continue;
            }
            if let Some(n) = &self.not_followed {
                if n.is_match(&text[m.end()..]) {
                    pos = next_char(text, m.start());
                    continue;
                }
            }
            marks.push((m.start(), m.end()));
            pos = m.end();
        }
        marks
    }

    fn prefixed_covers(
        &self,
        prefix: &Regex,
        text: &str,
        offset: usize,
        out: &mut Vec<(usize, usize)>,
    ) {
        let marks = self.prefix_marks(prefix, text);
        for (i, &(_, end)) in marks.iter().enumerate() {
            let cut = marks.get(i + 1).map_or(text.len(), |next| next.0);
            let piece = &text[end..cut];
            if let Some(c) = &self.not_after {
                let before = &text[back_one(text, end)..end];
                if !before.is_empty() && c.is_match(before) {
                    continue;
                }
            }
            if let Some(a) = &self.ahead {
                if !a.is_match(piece) {
                    continue;
                }
            }
            let Some(caps) = self.anchored.captures(piece) else {
                continue;
            };
            if let Some(m) = caps.get(1).filter(|m| m.end() > 0) {
                out.push((end + offset, end + m.end() + offset));
            }
        }
    }
}

/// The offset one character before `pos` (0 at the start).
fn back_one(text: &str, pos: usize) -> usize {
    text[..pos].char_indices().next_back().map_or(0, |(i, _)| i)
}

/// The offset one character after `pos`, or past the end.
pub(crate) fn next_char(text: &str, pos: usize) -> usize {
    text[pos..]
        .chars()
        .next()
        .map_or(text.len() + 1, |c| pos + c.len_utf8())
}

/// Every occurrence of every form in `text`, overlapping ones too.
fn form_covers(text: &str, forms: &[String], out: &mut Vec<(usize, usize)>) {
    for form in forms {
        let mut from = 0;
        while let Some(at) = text[from..].find(form.as_str()) {
            let start = from + at;
            out.push((start, start + form.len()));
            from = next_char(text, start);
            if from > text.len() {
                break;
            }
        }
    }
}

fn occurrences(text: &str, marker: &str) -> Vec<(usize, usize)> {
    if marker.is_empty() {
        return Vec::new();
    }
    text.match_indices(marker)
        .map(|(at, m)| (at, at + m.len()))
        .collect()
}

fn free(size: usize, taken: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    for &(start, end) in taken {
        if start > pos {
            out.push((pos, start));
        }
        pos = pos.max(end);
    }
    if size > pos {
        out.push((pos, size));
    }
    out
}

/// `covers` sorted and merged where they share a position (touching covers stay apart).
pub(crate) fn merge(covers: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut sorted = covers.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (start, end) in sorted {
        match out.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The merged covers of one step: the `rules` read stretch by stretch, and the token `forms`.
pub(crate) fn find_covers(
    text: &str,
    rules: &[Compiled],
    forms: &[String],
    marker: &str,
) -> Vec<(usize, usize)> {
    let barriers = occurrences(text, marker);
    let mut covers = Vec::new();
    form_covers(text, forms, &mut covers);
    let mut done: Vec<(usize, usize)> = Vec::new();
    let mut merged = merge(&covers);
    let mut pending = free(text.len(), &barriers);
    while !pending.is_empty() {
        for &(start, end) in &pending {
            done.push((start, end));
            let piece = &text[start..end];
            let low = piece.to_ascii_lowercase();
            for rule in rules.iter().filter(|r| r.triggered(&low)) {
                rule.covers(piece, start, &mut covers);
            }
        }
        merged = merge(&covers);
        let mut taken = merged.clone();
        taken.extend_from_slice(&barriers);
        taken.sort_unstable();
        pending = free(text.len(), &taken)
            .into_iter()
            .filter(|s| !done.contains(s))
            .collect();
    }
    merged
}

/// `text` with each merged cover written as `marker`.
pub(crate) fn rewrite(text: &str, merged: &[(usize, usize)], marker: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for &(start, end) in merged {
        out.push_str(&text[pos..start]);
        out.push_str(marker);
        pos = end;
    }
    out.push_str(&text[pos..]);
    out
}
