//! `schema::validate` allocates nothing on a valid event (it runs on every
//! event of million-event streams): counted with a global allocator, armed
//! only on this test's thread.

use agui_model::schema::validate;
use serde_json::json;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARMED.with(Cell::get) {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.load(Ordering::Relaxed);
    ARMED.with(|a| a.set(true));
    f();
    ARMED.with(|a| a.set(false));
    ALLOCS.load(Ordering::Relaxed) - before
}

#[test]
fn valid_events_validate_without_allocating() {
    let events = [
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "hi", "subagentRunId": "s", "timestamp": 1.0}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a~1b", "value": 1}, {"op": "move", "from": "/a", "path": "/b"}]}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "a", "role": "assistant", "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}]},
            {"id": "u", "role": "user", "content": [{"type": "image", "source": {"type": "data", "value": "A", "mimeType": "image/png"}}]}
        ]}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "r", "subagentRunId": "s"}]},
            "usage": [{"inputTokens": 3}]}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "suspended", "interruptIds": ["i"]}}),
    ];
    for e in &events {
        let mut n_issues = usize::MAX;
        let n = allocations(|| n_issues = validate(e).len());
        assert_eq!(n_issues, 0, "{e}");
        assert_eq!(n, 0, "validate allocated {n} times on {e}");
    }
    // The counter does count: an issue allocates its path and message.
    let bad = json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m"});
    assert!(allocations(|| assert_eq!(validate(&bad).len(), 1)) > 0);
}
