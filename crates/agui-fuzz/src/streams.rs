//! Streams for the differential target: from the generator (agui-gen),
//! valid or broken by one violation rule, chosen by the first byte.

use arbitrary::{Result, Unstructured};
use serde_json::Value;

/// A generated stream and a label saying how it was made.
#[derive(Debug, Clone)]
pub struct Stream {
    pub label: String,
    pub events: Vec<Value>,
}

/// A valid or mutated stream.
pub fn any(u: &mut Unstructured) -> Result<Stream> {
    let g = if u.arbitrary::<bool>()? {
        agui_gen::valid_stream(u)?
    } else {
        agui_gen::invalid_stream(u)?
    };
    // A stream only raw text carries (`lines`: a duplicate key, a lone
    // surrogate) is not a list of values; this target compares values.
    if g.lines.is_some() {
        return Err(arbitrary::Error::IncorrectFormat);
    }
    let label = match (g.rule, g.index) {
        (Some(r), Some(i)) => format!("fuzz/{r}@{i}"),
        _ => "fuzz/valid".to_owned(),
    };
    Ok(Stream {
        label,
        events: g.events,
    })
}
