//! The machine form of a [`Report`] (`agui-conform check --format json`)
//! written as text without building a `Value` of it first: all at once
//! ([`Report::write_json`]), or run by run while the stream is still being
//! read ([`JsonStream`]). Both give the bytes of `Report::to_json()`.

use super::Report;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use std::io::{self, Write};

impl Report {
    /// Writes [`Report::to_json`] as compact JSON text, the same bytes; the
    /// projection of a long stream is serialized where it lies.
    pub fn write_json(&self, w: impl Write) -> io::Result<()> {
        serde_json::to_writer(w, &JsonForm(self)).map_err(io::Error::from)
    }

    /// The violations as the `Value` form has them (its key order).
    pub(super) fn violation_values(&self) -> Vec<Value> {
        self.violations
            .iter()
            .filter_map(|v| serde_json::to_value(v).ok())
            .collect()
    }
}

/// `{"projection", "verdict", "violations"}`: the sorted key order of the
/// `Value` form.
struct JsonForm<'a>(&'a Report);

impl Serialize for JsonForm<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(p) = &self.0.projection {
            m.serialize_entry("projection", &RunsForm(&p.runs))?;
        }
        m.serialize_entry("verdict", self.0.verdict().as_str())?;
        m.serialize_entry("violations", &self.0.violation_values())?;
        m.end()
    }
}

/// `{"runs": [...]}` over borrowed runs.
struct RunsForm<'a>(&'a [Value]);

impl Serialize for RunsForm<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("runs", self.0)?;
        m.end()
    }
}

/// Writes the machine form of a projected report while the stream is read:
/// each run as it ends (feed it from [`super::Checker::with_projection_sink`]),
/// the verdict and violations at the end. Because `projection` sorts first,
/// the bytes are those of `Report::to_json()` of a checker that kept its
/// runs, and memory stays that of one run. The first write error is kept
/// and returned by [`JsonStream::finish`]; nothing is written after it.
#[derive(Debug)]
pub struct JsonStream<W: Write> {
    out: W,
    runs: usize,
    error: Option<io::Error>,
}

impl<W: Write> JsonStream<W> {
    pub fn new(out: W) -> Self {
        JsonStream {
            out,
            runs: 0,
            error: None,
        }
    }

    /// One run's projection, as it ends.
    pub fn run(&mut self, run: &Value) {
        if self.error.is_some() {
            return;
        }
        let sep: &[u8] = if self.runs == 0 {
            br#"{"projection":{"runs":["#
        } else {
            b","
        };
        self.runs += 1;
        let written = self
            .out
            .write_all(sep)
            .and_then(|()| serde_json::to_writer(&mut self.out, run).map_err(io::Error::from));
        if let Err(e) = written {
            self.error = Some(e);
        }
    }

    /// Ends the text with `report`'s verdict and violations (its own
    /// projection, empty when its runs came through [`JsonStream::run`], is
    /// not written) and hands back the writer.
    pub fn finish(mut self, report: &Report) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.runs == 0 {
            self.out.write_all(br#"{"projection":{"runs":["#)?;
        }
        self.out.write_all(br#"]},"verdict":"#)?;
        serde_json::to_writer(&mut self.out, report.verdict().as_str())?;
        self.out.write_all(br#","violations":"#)?;
        serde_json::to_writer(&mut self.out, &report.violation_values())?;
        self.out.write_all(b"}")?;
        Ok(self.out)
    }
}
