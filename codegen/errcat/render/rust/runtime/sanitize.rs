//! The sanitizer (docs/sdk-contract.md section 2): [`sanitize_text`] and
//! [`token_forms`]. Every table, pattern and limit is the catalogue's.

use std::sync::OnceLock;

use crate::catalogue::TEXT_MAX_CHARS;
use crate::covers::{find_covers, rewrite, Compiled};
use crate::sanitizer_rules::{
    FILTERED, INJECTION_RULES, REDACTION, REMOVE, SECRET_RULES, TO_SPACE, TRUNCATION_MARKER,
};

struct Rules {
    injection: Vec<Compiled>,
    secrets: Vec<Compiled>,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| Rules {
        injection: INJECTION_RULES.iter().map(Compiled::new).collect(),
        secrets: SECRET_RULES.iter().map(Compiled::new).collect(),
    })
}

fn within(ranges: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    ranges.iter().any(|&(first, last)| first <= c && c <= last)
}

/// A character stage 1 removes, which stands in for a lone surrogate escape
/// in a parsed body (the other SDKs keep the surrogate, which stage 1 removes).
pub(crate) fn surrogate_stand_in() -> char {
    if !REMOVE
        .iter()
        .any(|&(first, last)| first <= 0xD800 && 0xD800 <= last)
    {
        return '\u{FFFD}';
    }
    REMOVE
        .iter()
        .flat_map(|&(first, last)| (first..=last.min(first + 0x800)).filter_map(char::from_u32))
        .next()
        .unwrap_or('\u{FFFD}')
}

/// Stage 1: delete the removed characters, turn the spacing ones into spaces.
pub(crate) fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if within(TO_SPACE, c) {
            out.push(' ');
        } else if !within(REMOVE, c) {
            out.push(c);
        }
    }
    out
}

/// Stages 2 and 3 without the cap, on a text stage 1 leaves as it is.
fn hide(text: &str, forms: &[String]) -> String {
    let r = rules();
    let mut text = text.to_owned();
    let markers = find_covers(&text, &r.injection, &[], FILTERED);
    if !markers.is_empty() {
        text = rewrite(&text, &markers, FILTERED);
    }
    let secrets = find_covers(&text, &r.secrets, forms, REDACTION);
    if !secrets.is_empty() {
        text = rewrite(&text, &secrets, REDACTION);
        for form in forms {
            if text.contains(form.as_str()) {
                text = text.replace(form.as_str(), REDACTION);
            }
        }
    }
    text
}

/// Stage 3, step 4: a text over the cap keeps a start that the steps leave as it is.
fn cap(text: String, forms: &[String]) -> String {
    let cap = TEXT_MAX_CHARS as usize;
    if text.chars().count() <= cap {
        return text;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut cut = cap.saturating_sub(TRUNCATION_MARKER.chars().count());
    while cut > 0 {
        let kept: String = chars[..cut].iter().collect::<String>() + TRUNCATION_MARKER;
        let again = hide(&kept, forms);
        if again == kept {
            return kept;
        }
        let same = kept
            .chars()
            .zip(again.chars())
            .take_while(|(a, b)| a == b)
            .count();
        cut = (cut - 1).min(same);
    }
    TRUNCATION_MARKER.to_owned()
}

/// Clean one piece of server-controlled text: controls, bidi and invisible
/// characters removed (line breaks become spaces), injection markers
/// replaced, every secret-like string and every form of `token` redacted,
/// the length capped at the catalogue's text cap. Never fails.
pub fn sanitize_text(text: &str, token: Option<&str>) -> String {
    let forms = token.map(token_forms).unwrap_or_default();
    sanitize_with(text, &forms)
}

/// [`sanitize_text`] with the token's forms already made.
pub(crate) fn sanitize_with(text: &str, forms: &[String]) -> String {
    cap(hide(&strip(text), forms), forms)
}

const UNRESERVED: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn percent(raw: &[u8], digits: &[u8; 16]) -> String {
    let mut out = String::new();
    for &b in raw {
        if UNRESERVED.contains(&b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(digits[(b >> 4) as usize] as char);
            out.push(digits[(b & 15) as usize] as char);
        }
    }
    out
}

/// Base64 of `raw` with its padding.
pub(crate) fn base64(raw: &[u8]) -> String {
    let mut out = String::new();
    for chunk in raw.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn url_safe(text: &str) -> String {
    text.replace('+', "-").replace('/', "_")
}

/// The shortest core looked for (contract section 2): a shorter one (a token
/// of one or two bytes) holds at most 12 bits of the token and would match
/// base64 text by chance.
const CORE_MIN_CHARS: usize = 3;

/// The base64 forms of `raw`: unpadded, then the token's core at each of the
/// three alignments (a core shorter than [`CORE_MIN_CHARS`] is left out).
/// Each form is listed in base64, then in base64url.
fn base64_forms(raw: &[u8]) -> Vec<String> {
    let n = raw.len();
    let b64 = base64(raw).trim_end_matches('=').to_owned();
    let mut forms = vec![url_safe(&b64), b64];
    forms.reverse();
    for k in 0..3usize {
        let (start, end) = ((8 * k).div_ceil(6), (8 * k + 8 * n) / 6);
        if end < start + CORE_MIN_CHARS {
            continue; // a token of one or two bytes: so short a core is found by chance
        }
        let mut padded = vec![0u8; k];
        padded.extend_from_slice(raw);
        padded.extend_from_slice(&[0, 0]);
        let core = base64(&padded)
            .get(start..end)
            .unwrap_or_default()
            .to_owned();
        forms.push(core.clone());
        forms.push(url_safe(&core));
    }
    forms
}

/// The forms of `token` that are redacted from text, longest first: the
/// token after stage 1, its UTF-8 bytes percent-encoded (upper and lower
/// case), in base64 and base64url without padding, and their cores at each
/// of the three alignments inside longer base64 text. Empty forms, and forms
/// inside the markers, are left out.
pub fn token_forms(token: &str) -> Vec<String> {
    let token = strip(token);
    let raw = token.as_bytes();
    let mut candidates = vec![
        token.clone(),
        percent(raw, b"0123456789ABCDEF"),
        percent(raw, b"0123456789abcdef"),
    ];
    candidates.extend(base64_forms(raw));
    let reserved = [REDACTION, FILTERED, TRUNCATION_MARKER].join("\0");
    let mut kept: Vec<String> = Vec::new();
    for form in candidates {
        if !form.is_empty() && !reserved.contains(form.as_str()) && !kept.contains(&form) {
            kept.push(form);
        }
    }
    kept.sort_by_key(|f| std::cmp::Reverse(f.chars().count()));
    kept
}
