//! A patch over budget stops before it allocates: the heap's peak while
//! applying stays near the budget, however far the patch would take the
//! state. A binary of its own, because it counts every allocation of the
//! process (the test is alone in it).

use agui_model::patch::{Budget, PatchBudget, PatchError, apply, mem_size};
use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// What a block of `size` bytes takes from glibc's heap: an 8-byte
/// header, rounded up to 16, 32 at least.
fn footprint(size: usize) -> usize {
    ((size + 8 + 15) & !15).max(32)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let n = footprint(l.size());
        let now = NOW.fetch_add(n, Ordering::Relaxed) + n;
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(footprint(l.size()), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(p, l) }
    }
}

/// The tests share the counters: one at a time.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The heap `make` leaves held (its result's), with `make`'s own
/// temporaries freed.
fn held<T>(make: impl FnOnce() -> T) -> (T, usize) {
    let before = NOW.load(Ordering::Relaxed);
    let v = make();
    (v, NOW.load(Ordering::Relaxed).saturating_sub(before))
}

#[test]
fn mem_size_is_never_below_what_a_value_holds_on_the_heap() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let texts = [
        r#"{}"#.to_owned(),
        r#"{"a":1}"#.to_owned(),
        r#"[[],[],[],{}]"#.to_owned(),
        format!("[{}]", vec!["1"; 10_000].join(",")),
        format!("[{}]", vec![r#"{"a":1}"#; 5_000].join(",")),
        format!("[{}]", vec![r#""x""#; 5_000].join(",")),
        format!(
            "{{{}}}",
            (0..5_000)
                .map(|i| format!(r#""key{i}":[{i},"v"]"#))
                .collect::<Vec<_>>()
                .join(",")
        ),
        format!(r#"{{"s":"{}"}}"#, "y".repeat(100_000)),
        format!("{}1{}", "[".repeat(100), "]".repeat(100)),
    ];
    for text in &texts {
        // Parsed by both parsers the checker uses, and cloned as the
        // patch applier clones.
        let (v, n) = held(|| serde_json::from_str::<Value>(text).unwrap());
        assert!(
            mem_size(&v) >= n,
            "{} bytes measured, {n} held: {:.60}",
            mem_size(&v),
            text
        );
        let opts = agui_model::json::ParseOptions { max_depth: 1000 };
        let (p, n) = held(|| agui_model::json::parse(text, &opts).unwrap().value);
        assert!(
            mem_size(&p) >= n,
            "{} measured, {n} held (json::parse)",
            mem_size(&p)
        );
        let (c, n) = held(|| agui_model::patch::clone_value(&v));
        assert!(
            mem_size(&c) >= n,
            "{} measured, {n} held (clone)",
            mem_size(&c)
        );
    }
    // A state built by a chain of root copies, as a STATE_DELTA builds it.
    let (doc, n) = held(|| {
        let mut doc = json!({"a": [1, 2, 3], "b": {"c": "d"}});
        let mut size = mem_size(&doc);
        let patch: Vec<json_patch::PatchOperation> = serde_json::from_value(Value::Array(
            (0..12)
                .map(|i| json!({"op": "copy", "from": "", "path": format!("/k{i}")}))
                .collect(),
        ))
        .unwrap();
        let budget = PatchBudget {
            state_bytes: 1 << 30,
            work: 1 << 30,
        };
        apply(&mut doc, &mut size, &patch, &budget).unwrap();
        assert_eq!(size, mem_size(&doc));
        doc
    });
    assert!(
        mem_size(&doc) >= n,
        "{} measured, {n} held (copies)",
        mem_size(&doc)
    );
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn twenty_root_copies_allocate_no_more_than_the_budget() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let mut doc = json!({"a": "x".repeat(1000)});
    let patch: Vec<json_patch::PatchOperation> = serde_json::from_value(Value::Array(
        (0..20)
            .map(|i| json!({"op": "copy", "from": "", "path": format!("/k{i}")}))
            .collect(),
    ))
    .unwrap();
    let mut size = mem_size(&doc);
    let budget = PatchBudget {
        state_bytes: 1 << 20,
        work: 1 << 30,
    };
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = apply(&mut doc, &mut size, &patch, &budget);
    let peak = PEAK.load(Ordering::Relaxed) - base;
    // The document holds 1,897 bytes in memory; doubled by each copy
    // (plus a member), operation 8 would take it to 1,054,046, past 1 MiB.
    assert!(
        matches!(
            r,
            Err(PatchError::OverBudget {
                op: 8,
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
