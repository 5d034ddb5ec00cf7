//! From a gRPC status to a catalogue code (docs/sdk-contract.md section 3a).

use crate::catalogue::{GRPC_CHANNELS, GRPC_DEFAULT, GRPC_MAP, GRPC_STATUSES};
use crate::code::Code;

/// The status name (`NotFound`) of a number, a decimal text, or either spelling of a name.
pub(crate) fn status_name(status: &str) -> Option<&'static str> {
    GRPC_STATUSES
        .iter()
        .find(|(number, name, proto)| {
            status == *name || status == *proto || status == number.to_string()
        })
        .map(|(_, name, _)| *name)
}

/// The number of a gRPC status name.
#[cfg_attr(not(feature = "tonic"), allow(dead_code))]
pub(crate) fn number_of(name: &str) -> Option<u8> {
    GRPC_STATUSES
        .iter()
        .find(|(_, n, _)| *n == name)
        .map(|(number, _, _)| *number)
}

/// A channel the catalogue does not define (a gateway's configuration, not input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChannel(pub String);

impl std::fmt::Display for UnknownChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is not a channel of the catalogue's grpc_gateway",
            self.0
        )
    }
}

impl std::error::Error for UnknownChannel {}

/// The code a gateway answers for a gRPC status (its number as text, or its
/// name in either spelling) on `channel`; any other value gets the default.
pub fn code_for_grpc(status: &str, channel: Option<&str>) -> Result<Code, UnknownChannel> {
    let name = status_name(status);
    if let Some(channel) = channel {
        let Some((_, overrides)) = GRPC_CHANNELS.iter().find(|(n, _)| *n == channel) else {
            return Err(UnknownChannel(channel.to_owned()));
        };
        if let Some(&(_, code)) = overrides.iter().find(|(s, _)| Some(*s) == name) {
            return Ok(code);
        }
    }
    Ok(GRPC_MAP
        .iter()
        .find(|(s, _)| Some(*s) == name)
        .map_or(GRPC_DEFAULT, |(_, code)| *code))
}
