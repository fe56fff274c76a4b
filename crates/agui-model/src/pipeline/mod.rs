//! The parse-ahead pipeline: a reader thread reads the input, splits it
//! into lines and parses them, and hands batches of parsed lines to the
//! checking thread over a bounded channel, so reading and parsing one
//! stream overlap with checking it (two cores on one file).
//!
//! The reader thread runs the one stream reader ([`stream::read_stream_with`])
//! unchanged: every line is copied once into the batch's text (which
//! travels with the batch) and offered to a [`Stage`], whose parse runs on
//! the reader thread and borrows that text; a line the stage declines
//! becomes the reader's own [`Item`], as it would on one thread. Some
//! lines are handed over raw instead, to be parsed on the checking thread
//! exactly as on one thread: every line read while the checking thread has
//! no batch waiting (it is idle or about to be: the reader, which is then
//! the slower, sheds work to it, and the two threads balance whatever the
//! workload). The checking thread feeds the entries in order; a line,
//! parsed or raw, that the checker does not take there (its fast path
//! applies only inside a run) gets the reader's own item
//! ([`stream::line_item_at`]). Reports are therefore
//! identical to [`crate::check::check_reader`]'s (the differential tests in
//! `agui-bench` compare them).
//!
//! A batch's text never grows past the capacity it had when its first line
//! was parsed (a line that does not fit sends the batch first), so the
//! parsed lines' borrows stay valid while the batch moves between threads;
//! its entries are dropped before its text ([`Batch`]'s field order).
//!
//! The pipeline is generic over the stage, so the typed events it carries
//! can change without touching the threads: [`fast_stage`] is the stage of
//! the checker's borrowed fast path.

pub(crate) mod fast_stage;

use crate::check::Shed;
use crate::checker::Checker;
use crate::stream::{self, Item, LineAt, ReadOptions};
use serde_json::Value;
use std::cell::RefCell;
use std::io::{self, BufRead};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Lines in one batch: large enough that the channel costs nothing per
/// line, small enough that the checker starts at once.
const BATCH_LINES: usize = 2048;

/// Batches in flight between the threads (memory: a few batches of about
/// 2,000 lines each).
const IN_FLIGHT: usize = 4;

/// A batch also goes once the items it holds (values parsed on the reader
/// thread: every element of a JSON array file) hold this much: what is in
/// flight stays a few of these, however large the lines.
const BATCH_ITEM_BYTES: usize = 4 << 20;

/// Under [`Shed::WhenIdle`], the reader hands lines over raw while fewer
/// batches than this wait for the checking thread (2 measured the same).
const RAW_BELOW: usize = 1;

/// What the reader thread makes of a line, and how the checker takes it.
pub(crate) trait Stage: Sync {
    /// A line parsed on the reader thread, borrowing the line's text (which
    /// travels in the batch).
    type Parsed<'a>: Send;

    /// Parses `line` (without its line ending; not yet checked for UTF-8).
    /// `None`: the line is left to the reader (it makes the line's
    /// [`Item`]); so is a line that is not UTF-8.
    fn parse<'a>(&self, line: &'a [u8]) -> Option<Self::Parsed<'a>>;

    /// The parsed line with its borrow's lifetime erased, so it can travel
    /// in the batch that holds its text.
    ///
    /// # Safety
    /// The text `parsed` borrows must stay where it is, unchanged, until
    /// `parsed` is dropped or pushed (the batch's text, see the module).
    unsafe fn erase<'a>(parsed: Self::Parsed<'a>) -> Self::Parsed<'static>;

    /// Feeds a parsed line; `false` if the checker did not take it
    /// (nothing changed). Generic over the borrow, so the checker cannot
    /// keep it past the call; by reference, so it is dropped (its memory
    /// freed) on the reader thread.
    fn push<'a>(&self, checker: &mut Checker, parsed: &Self::Parsed<'a>) -> bool;

    /// Parses `line` on the checking thread and feeds it, as
    /// [`Stage::push`] would have fed the parse; `false` if the checker did
    /// not take it (or the stage would have declined it).
    fn push_line(&self, checker: &mut Checker, line: &[u8]) -> bool;
}

/// One entry of a batch, in stream order.
enum Entry<P> {
    /// A line the stage parsed: `text[start..end]`, read where `at` says.
    Line {
        start: usize,
        end: usize,
        at: LineAt,
        parsed: P,
    },
    /// A line handed over unparsed, `text[start..end]`, read where `at`
    /// says: the checking thread parses it.
    Raw {
        start: usize,
        end: usize,
        at: LineAt,
    },
    /// An item of the reader.
    Item(Item),
}

/// Lines handed over at once. `entries` is declared first so it is
/// dropped first: its parsed lines borrow `text`. The checking thread
/// reads the entries in place and sends the batch back; the reader clears
/// it before filling it again, so the memory a parse allocated (a decoded
/// escape, a patch, an outcome) is freed on the thread that allocated it:
/// freed on the other thread, it made glibc's `free` wait on the reader's
/// arena lock, which cost more than the parse (docs/performance-log.md).
struct Batch<P> {
    entries: Vec<Entry<P>>,
    text: Vec<u8>,
    /// What the batch's items hold ([`item_bytes`]).
    item_bytes: usize,
}

impl<P> Batch<P> {
    fn new() -> Self {
        Batch {
            text: Vec::with_capacity(BATCH_LINES * 128),
            entries: Vec::with_capacity(BATCH_LINES),
            item_bytes: 0,
        }
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.text.clear();
        self.item_bytes = 0;
    }
}

/// About what an item of the reader holds in memory.
fn item_bytes(item: &Item) -> usize {
    match item {
        Item::Value { value, .. } => crate::patch::mem_size(value),
        Item::Unparseable { reason, .. } | Item::OverLimit { reason, .. } => reason.len(),
    }
}

/// Reads `input` on a reader thread and feeds every line to `checker` on
/// this one, in order. `stop` is asked after each item that is not a
/// parsed line (as [`crate::check::check_reader_until`] does); `observe`
/// sees each value pushed on the `Value` path, with the checker's event
/// count before it. `stack` is the reader thread's stack size (it builds
/// values nested up to the limit). `shed` says which lines go over raw.
pub(crate) fn feed<S: Stage>(
    stage: &S,
    input: impl BufRead + Send,
    (checker, framing): (&mut Checker, stream::Framing),
    stack: usize,
    shed: Shed,
    mut stop: impl FnMut() -> bool,
    mut observe: impl FnMut(usize, &Value),
) -> io::Result<()> {
    let opts = ReadOptions {
        framing,
        ..checker.limits().read_options()
    };
    let (to_checker, batches) = mpsc::sync_channel::<Batch<S::Parsed<'static>>>(IN_FLIGHT);
    let (to_reader, spent) = mpsc::channel::<Batch<S::Parsed<'static>>>();
    let closed = AtomicBool::new(false);
    let queued = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let link = Link {
            out: to_checker,
            spent,
            closed: &closed,
            queued: &queued,
        };
        let opts_ref = &opts;
        // The link (with the sender) moves to the reader: when it is done,
        // the batches end.
        let reader = std::thread::Builder::new()
            .name("parse-ahead".into())
            .stack_size(stack)
            .spawn_scoped(scope, move || read(stage, input, opts_ref, shed, &link))?;
        'batches: for batch in batches.iter() {
            queued.fetch_sub(1, Ordering::Relaxed);
            let text = &batch.text;
            // The entries are read in place and go back with the batch: what
            // the reader allocated is freed there (see `Batch`).
            for entry in &batch.entries {
                let made;
                let item = match entry {
                    Entry::Line {
                        start,
                        end,
                        at,
                        parsed,
                    } => {
                        if stage.push(checker, parsed) {
                            continue;
                        }
                        made = stream::line_item_at(&text[*start..*end], *at, &opts);
                        &made
                    }
                    Entry::Raw { start, end, at } => {
                        let line = &text[*start..*end];
                        if stage.push_line(checker, line) {
                            continue;
                        }
                        made = stream::line_item_at(line, *at, &opts);
                        &made
                    }
                    Entry::Item(item) => item,
                };
                if let Item::Value { value, .. } = item {
                    observe(checker.events(), value);
                }
                crate::check::push_item_ref(checker, item);
                if stop() {
                    closed.store(true, Ordering::Relaxed);
                    break 'batches;
                }
            }
            // The reader may be gone already (it finished): nothing to do.
            let _ = to_reader.send(batch);
        }
        closed.store(true, Ordering::Relaxed);
        // Unblocks a reader waiting to send.
        drop(batches);
        match reader.join() {
            Ok(result) => result,
            Err(_) => Err(io::Error::other("the parse-ahead thread panicked")),
        }
    })
}

/// The reader thread's ends of the channels.
struct Link<'s, P> {
    out: mpsc::SyncSender<Batch<P>>,
    spent: mpsc::Receiver<Batch<P>>,
    /// Set when either side stops early.
    closed: &'s AtomicBool,
    /// Batches sent and not yet taken by the checking thread.
    queued: &'s AtomicUsize,
}

/// The reader thread: the stream reader, its lines offered to `stage`,
/// batched.
fn read<S: Stage>(
    stage: &S,
    input: impl BufRead,
    opts: &ReadOptions,
    shed: Shed,
    link: &Link<'_, S::Parsed<'static>>,
) -> io::Result<()> {
    let closed = link.closed;
    let batch = RefCell::new(Batch::new());
    // Sends the batch when full (or `force`d); false once the checking
    // side is gone.
    let send = |force: bool| -> bool {
        let mut b = batch.borrow_mut();
        if b.entries.is_empty()
            || (!force && b.entries.len() < BATCH_LINES && b.item_bytes < BATCH_ITEM_BYTES)
        {
            return true;
        }
        let next = match link.spent.try_recv() {
            Ok(mut spent) => {
                spent.clear();
                spent
            }
            Err(_) => Batch::new(),
        };
        let full = std::mem::replace(&mut *b, next);
        link.queued.fetch_add(1, Ordering::Relaxed);
        if link.out.send(full).is_err() {
            closed.store(true, Ordering::Relaxed);
            return false;
        }
        true
    };
    let take = |text: &[u8], at: LineAt| {
        if closed.load(Ordering::Relaxed) {
            // The next item stops the reader.
            return false;
        }
        let full = {
            let b = batch.borrow();
            b.text.capacity() - b.text.len() < text.len()
        };
        if full {
            // A line that does not fit: the batch goes first (its text
            // must not move), and the next one is made large enough while
            // nothing borrows its text.
            if !send(true) {
                return false;
            }
            let mut b = batch.borrow_mut();
            if b.text.capacity() - b.text.len() < text.len() {
                debug_assert!(b.text.is_empty(), "a batch with text was sent");
                b.text.reserve(text.len());
            }
        }
        {
            let mut b = batch.borrow_mut();
            let start = b.text.len();
            b.text.extend_from_slice(text);
            let end = b.text.len();
            // SAFETY: the capacity sufficed, so `extend_from_slice` did not
            // move the text; bytes `start..end` are not written again until
            // the batch is cleared, after its entries are gone (module docs).
            let line: &[u8] =
                unsafe { std::slice::from_raw_parts(b.text.as_ptr().add(start), end - start) };
            let raw = Entry::Raw { start, end, at };
            let shedding = match shed {
                Shed::WhenIdle => link.queued.load(Ordering::Relaxed) < RAW_BELOW,
                Shed::Never => false,
                Shed::Always => true,
            };
            if shedding {
                b.entries.push(raw);
            } else if let Some(parsed) = stage.parse(line) {
                // SAFETY: as above; the entry travels with the batch's text.
                let parsed = unsafe { S::erase(parsed) };
                b.entries.push(Entry::Line {
                    start,
                    end,
                    at,
                    parsed,
                });
            } else {
                b.text.truncate(start);
                return false;
            }
        }
        send(false);
        true
    };
    let result = stream::read_stream_with(input, opts, take, |item| {
        if closed.load(Ordering::Relaxed) {
            return ControlFlow::Break(());
        }
        {
            let mut b = batch.borrow_mut();
            b.item_bytes += item_bytes(&item);
            b.entries.push(Entry::Item(item));
        }
        if send(false) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    // What was read before an error is checked before the error is told.
    send(true);
    result.map(drop)
}
