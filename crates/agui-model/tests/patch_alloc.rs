//! A patch over budget stops before it allocates: the heap's peak while
//! applying stays near the budget, however far the patch would take the
//! state. A binary of its own, because it counts every allocation of the
//! process (the test is alone in it).

use agui_model::patch::{Budget, PatchBudget, PatchError, apply, json_size};
use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let now = NOW.fetch_add(l.size(), Ordering::Relaxed) + l.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn twenty_root_copies_allocate_no_more_than_the_budget() {
    let mut doc = json!({"a": "x".repeat(1000)});
    let patch: Vec<json_patch::PatchOperation> = serde_json::from_value(Value::Array(
        (0..20)
            .map(|i| json!({"op": "copy", "from": "", "path": format!("/k{i}")}))
            .collect(),
    ))
    .unwrap();
    let mut size = json_size(&doc);
    let budget = PatchBudget {
        state_bytes: 1 << 20,
        work: 1 << 30,
    };
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = apply(&mut doc, &mut size, &patch, &budget);
    let peak = PEAK.load(Ordering::Relaxed) - base;
    // 1 KB doubled 10 times is 1 MiB: operation 10 would pass it.
    assert!(
        matches!(
            r,
            Err(PatchError::OverBudget {
                op: 10,
                budget: Budget::State,
                ..
            })
        ),
        "{r:?}"
    );
    // The state reached at most 1 MiB; the heap holds it plus bookkeeping.
    assert!(peak < 3 << 20, "peak heap growth {peak} bytes");
    assert_eq!(doc, json!({"a": "x".repeat(1000)}));
}
