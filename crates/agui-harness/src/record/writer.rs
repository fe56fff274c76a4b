//! A run record written as the run goes (`run --record`): the header as
//! soon as the implementation has answered its handshake, each case's line
//! in the suite's order once it and every case before it are settled, the
//! footer at the end, each line flushed whole. A run killed part-way
//! leaves whole lines (at worst one cut last line), which `report` reads
//! ([`super::Record::parse_bytes`]); and no line waits in memory longer
//! than the cases before it take.

use super::{Case, Footer, Line, Meta, Shrunk, case_line, case_text, header};
use crate::implementation::ImplInfo;
use crate::runner::CaseResult;
use crate::suite::SuiteCase;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;

/// A line waiting for the cases before it.
enum Slot {
    Line(String),
    /// The case could not be made: no line.
    Lost,
    /// Written at the end, with its shrunk stream (`run --save-failures`).
    Deferred(Box<Case>),
}

struct State<W> {
    out: W,
    meta: Meta,
    suite: String,
    planned: usize,
    header: bool,
    /// The plan index of the next line to write.
    next: usize,
    waiting: BTreeMap<usize, Slot>,
    error: Option<std::io::Error>,
}

/// The record of one run, written to `W` as it goes.
pub struct Writer<W: Write + Send> {
    state: Mutex<State<W>>,
}

impl<W: Write + Send> Writer<W> {
    /// A record of `suite`, whose plan has `planned` cases.
    pub fn new(out: W, suite: &str, planned: usize, meta: Meta) -> Self {
        Writer {
            state: Mutex::new(State {
                out,
                meta,
                suite: suite.to_owned(),
                planned,
                header: false,
                next: 0,
                waiting: BTreeMap::new(),
                error: None,
            }),
        }
    }

    /// The implementation answered its handshake: the header goes out
    /// (once), then whatever lines were waiting for it.
    pub fn header(&self, info: &ImplInfo) {
        if let Ok(mut st) = self.state.lock() {
            st.write_header(info);
            st.flush_ready(false);
        }
    }

    /// Case `r.case` of the plan settled; `defer` keeps its line (and the
    /// lines after it) until [`Writer::finish`], which adds its shrunk
    /// stream.
    pub fn case(&self, r: &CaseResult, c: &SuiteCase, defer: bool) {
        let index = r.case;
        let slot = if defer {
            Slot::Deferred(Box::new(case_line(r, c, None)))
        } else {
            match case_text(r, c) {
                Ok(text) => Slot::Line(text),
                Err(e) => {
                    self.fail(e.into());
                    Slot::Lost
                }
            }
        };
        if let Ok(mut st) = self.state.lock() {
            st.waiting.insert(index, slot);
            st.flush_ready(false);
        }
    }

    /// Case `index` of the plan could not be made: it has no line.
    pub fn lost(&self, index: usize) {
        if let Ok(mut st) = self.state.lock() {
            st.waiting.insert(index, Slot::Lost);
            st.flush_ready(false);
        }
    }

    fn fail(&self, e: std::io::Error) {
        if let Ok(mut st) = self.state.lock() {
            st.error.get_or_insert(e);
        }
    }

    /// Writes what is left (the header if no implementation started, the
    /// deferred lines with their shrunk streams, by case id) and the footer;
    /// returns the writer, or the first error met.
    pub fn finish(
        self,
        info: &ImplInfo,
        footer: Footer,
        shrunk: &BTreeMap<String, Shrunk>,
    ) -> std::io::Result<W> {
        let mut st = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        st.write_header(info);
        for slot in st.waiting.values_mut() {
            if let Slot::Deferred(case) = slot {
                case.shrunk = shrunk.get(&case.id).cloned();
            }
        }
        st.flush_ready(true);
        st.write_line(&Line::Footer(footer));
        match st.error.take() {
            Some(e) => Err(e),
            None => Ok(st.out),
        }
    }
}

impl<W: Write> State<W> {
    fn write_header(&mut self, info: &ImplInfo) {
        if self.header {
            return;
        }
        self.header = true;
        let h = header(info, &self.suite, self.planned, &self.meta);
        self.write_line(&Line::Header(h));
    }

    /// Writes the waiting lines that are next in order (all of them at the
    /// end, `all`: a case that never settled leaves no gap then).
    fn flush_ready(&mut self, all: bool) {
        if !self.header {
            return;
        }
        loop {
            let slot = if all {
                match self.waiting.pop_first() {
                    Some((_, s)) => s,
                    None => return,
                }
            } else {
                match self.waiting.first_key_value() {
                    Some((k, s)) if *k == self.next && !matches!(s, Slot::Deferred(_)) => {
                        self.next += 1;
                        match self.waiting.pop_first() {
                            Some((_, s)) => s,
                            None => return,
                        }
                    }
                    _ => return,
                }
            };
            match slot {
                Slot::Line(text) => self.write_text(&text),
                Slot::Lost => {}
                Slot::Deferred(case) => self.write_line(&Line::Case(*case)),
            }
        }
    }

    fn write_line(&mut self, line: &Line) {
        match serde_json::to_string(line) {
            Ok(text) => self.write_text(&text),
            Err(e) => {
                self.error.get_or_insert(e.into());
            }
        }
    }

    /// One whole line, flushed at once.
    fn write_text(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        let r = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
            .and_then(|()| self.out.flush());
        if let Err(e) = r {
            self.error = Some(e);
        }
    }
}
