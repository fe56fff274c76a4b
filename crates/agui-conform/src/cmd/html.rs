//! `check --html PATH`: the stream drawn as lanes ([`agui_view`]).
//!
//! The page needs every event, which the checker does not keep, so the
//! input is read into memory first and both the checker and the page read
//! that one copy (standard input can be read only once).

use agui_model::{Checker, Limits};
use anyhow::Context;
use std::cell::RefCell;
use std::io::{BufRead, Cursor, Read, Write};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

/// The stream's bytes, when the page needs them (`Arc`: the checker's
/// input may be handed to a reader thread).
pub type Kept = Option<Arc<[u8]>>;

/// The input as the checker should read it, and the bytes kept for the
/// page when `on`.
pub fn keep(
    mut input: Box<dyn BufRead + Send>,
    on: bool,
) -> anyhow::Result<(Box<dyn BufRead + Send>, Kept)> {
    if !on {
        return Ok((input, None));
    }
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .context("reading the stream")?;
    let bytes: Arc<[u8]> = bytes.into();
    Ok((Box::new(Cursor::new(Arc::clone(&bytes))), Some(bytes)))
}

/// Writes the lanes page of the kept stream to `path`. The printed report
/// streamed its violations away, so the page's are found again here (up
/// to the kept-violations limit).
pub fn write(path: &Path, kept: Arc<[u8]>, limits: &Limits, title: &str) -> anyhow::Result<()> {
    let report = agui_model::check::check_bytes(
        &kept[..],
        Checker::without_projection().with_limits(*limits),
    );
    write_found(path, kept, &report.violations, limits, title)
}

/// Writes the lanes page of the kept stream with `violations` as found by
/// the check that read it (`check FILE --html`: no second check).
pub fn write_found(
    path: &Path,
    kept: Arc<[u8]>,
    violations: &[agui_model::Violation],
    limits: &Limits,
    title: &str,
) -> anyhow::Result<()> {
    let events =
        agui_view::read_items(&kept[..], &limits.read_options()).context("reading the stream")?;
    let options = agui_view::Options {
        title: title.to_owned(),
        ..agui_view::Options::default()
    };
    let page = agui_view::render_lanes(&events, violations, &options);
    std::fs::write(path, page).with_context(|| format!("writing {}", path.display()))
}

/// The events of a live check as its capture writes them (`check --url
/// --html`): the same JSON Lines `--save` writes, kept in memory so that
/// the page draws exactly what was checked.
#[derive(Clone, Default)]
pub struct Recorded(Rc<RefCell<Vec<u8>>>);

impl Recorded {
    /// The bytes recorded so far.
    pub fn bytes(&self) -> Arc<[u8]> {
        self.0.borrow().as_slice().into()
    }
}

impl Write for Recorded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes to both: the `--save` file and the page's copy.
pub struct Tee<A, B>(pub A, pub B);

impl<A: Write, B: Write> Write for Tee<A, B> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write_all(buf)?;
        self.1.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()?;
        self.1.flush()
    }
}
