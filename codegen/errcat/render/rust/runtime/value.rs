//! JSON values: the parser of an error body (docs/sdk-contract.md section 1,
//! step 3) and the writer of the canonical envelope bytes.

use std::collections::BTreeMap;

use crate::number::js_number;

/// A JSON value as an error carries it: every number a double, object keys
/// sorted by code point (a repeated key keeps its last value).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as an IEEE-754 double.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(BTreeMap<String, Value>),
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::String(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::String(text)
    }
}

impl From<i64> for Value {
    fn from(number: i64) -> Self {
        Value::Number(number as f64)
    }
}

impl From<f64> for Value {
    fn from(number: f64) -> Self {
        Value::Number(number)
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Value::Bool(flag)
    }
}

/// Whether `text` nests arrays and objects deeper than `max_depth` (outside strings).
pub(crate) fn too_deep(text: &str, max_depth: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for b in text.bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// The value of a JSON text (RFC 8259), or `None` when it is not JSON.
///
/// A lone surrogate escape becomes `stand_in` (a character the sanitizer
/// removes, as it removes the surrogate in the other SDKs).
pub(crate) fn parse(text: &str, stand_in: char) -> Option<Value> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
        stand_in,
    };
    p.ws();
    let v = p.value()?;
    p.ws();
    (p.at == p.s.len()).then_some(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    stand_in: char,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &[u8]) -> bool {
        let found = self.s[self.at..].starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self) -> Option<Value> {
        match *self.s.get(self.at)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string().map(Value::String),
            b't' => self.eat(b"true").then_some(Value::Bool(true)),
            b'f' => self.eat(b"false").then_some(Value::Bool(false)),
            b'n' => self.eat(b"null").then_some(Value::Null),
            _ => self.number(),
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.at += 1;
        let mut out = BTreeMap::new();
        self.ws();
        if self.eat(b"}") {
            return Some(Value::Object(out));
        }
        loop {
            self.ws();
            if self.s.get(self.at) != Some(&b'"') {
                return None;
            }
            let key = self.string()?;
            self.ws();
            if !self.eat(b":") {
                return None;
            }
            self.ws();
            let v = self.value()?;
            out.insert(key, v);
            self.ws();
            if self.eat(b"}") {
                return Some(Value::Object(out));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn array(&mut self) -> Option<Value> {
        self.at += 1;
        let mut out = Vec::new();
        self.ws();
        if self.eat(b"]") {
            return Some(Value::Array(out));
        }
        loop {
            self.ws();
            out.push(self.value()?);
            self.ws();
            if self.eat(b"]") {
                return Some(Value::Array(out));
            }
            if !self.eat(b",") {
                return None;
            }
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        self.eat(b"-");
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.s.get(p.at).is_some_and(u8::is_ascii_digit) {
                p.at += 1;
            }
            p.at - from
        };
        let first = *self.s.get(self.at)?;
        let int = digits(self);
        if int == 0 || (first == b'0' && int > 1) {
            return None;
        }
        if self.eat(b".") && digits(self) == 0 {
            return None;
        }
        if matches!(self.s.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.s.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return None;
            }
        }
        let lexeme = std::str::from_utf8(&self.s[start..self.at]).ok()?;
        lexeme.parse::<f64>().ok().map(Value::Number)
    }

    fn hex4(&mut self) -> Option<u32> {
        let hex = self.s.get(self.at..self.at + 4)?;
        let text = std::str::from_utf8(hex).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(text, 16).ok()
    }

    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&b) = self.s.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.at]).ok()?);
            match *self.s.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                _ => return None,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Option<()> {
        let b = *self.s.get(self.at)?;
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode()?,
            _ => return None,
        };
        out.push(c);
        Some(())
    }

    fn unicode(&mut self) -> Option<char> {
        let unit = self.hex4()?;
        if (0xD800..0xDC00).contains(&unit) && self.s[self.at..].starts_with(b"\\u") {
            let save = self.at;
            self.at += 2;
            let low = self.hex4()?;
            if (0xDC00..0xE000).contains(&low) {
                return char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
            }
            self.at = save;
        }
        Some(char::from_u32(unit).unwrap_or(self.stand_in))
    }
}

/// Append `text` as a JSON string: printable ASCII as it is (but `"` and `\`),
/// `\b \f \n \r \t`, and every other character as lowercase `\uXXXX` (UTF-16).
pub(crate) fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

/// Append `value` as compact JSON, keys sorted, numbers as ECMAScript writes them.
pub(crate) fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&js_number(*n)),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(k, out);
                out.push(':');
                write_value(v, out);
            }
            out.push('}');
        }
    }
}
