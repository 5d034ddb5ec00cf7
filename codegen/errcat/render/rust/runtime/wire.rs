//! Codes as they arrive: a known [`Code`] or a newer server's code kept as
//! sent, the refines walk, and the status fallback.

use std::fmt;

use crate::catalogue::{
    FALLBACK_BY_STATUS, FALLBACK_CLIENT_ERROR, FALLBACK_DEFAULT, FALLBACK_SERVER_ERROR, REFINES_MAX,
};
use crate::code::Code;
use crate::value::Value;

/// A code as a server sent it: one of the catalogue's, or one this crate
/// does not know, kept as sent (sanitized).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WireCode {
    /// A code of the catalogue.
    Known(Code),
    /// A code the catalogue does not define (a newer server's).
    Unknown(String),
}

impl WireCode {
    /// The code of `text`: known when the catalogue defines it, else kept as it is.
    pub fn parse(text: &str) -> WireCode {
        text.parse()
            .map_or_else(|_| WireCode::Unknown(text.to_owned()), WireCode::Known)
    }

    /// The code as it is written on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            WireCode::Known(code) => code.as_str(),
            WireCode::Unknown(text) => text,
        }
    }

    /// The known code, if it is one.
    pub fn known(&self) -> Option<Code> {
        match self {
            WireCode::Known(code) => Some(*code),
            WireCode::Unknown(_) => None,
        }
    }
}

impl fmt::Display for WireCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The refines walk: the first code of an envelope's `refines` member (its
/// first [`REFINES_MAX`] entries) that the catalogue defines, exactly as written.
pub fn refines_walk(refines: Option<&Value>) -> Option<Code> {
    let Some(Value::Array(chain)) = refines else {
        return None;
    };
    chain
        .iter()
        .take(REFINES_MAX)
        .find_map(|entry| match entry {
            Value::String(text) => text.parse().ok(),
            _ => None,
        })
}

/// The code of a response without an envelope, by its status.
pub fn fallback_code(status: Option<u16>) -> Code {
    let Some(status) = status else {
        return FALLBACK_DEFAULT;
    };
    if let Some(&(_, code)) = FALLBACK_BY_STATUS.iter().find(|(s, _)| *s == status) {
        return code;
    }
    match status {
        400..=499 => FALLBACK_CLIENT_ERROR,
        500..=599 => FALLBACK_SERVER_ERROR,
        _ => FALLBACK_DEFAULT,
    }
}
