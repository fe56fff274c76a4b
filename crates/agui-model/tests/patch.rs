//! The RFC 6902 applier (`agui_model::patch`): RFC 6902's Appendix A, every
//! operation on objects, arrays and the root, escapes, the budget, and the
//! two defects of `json_patch::patch` it replaces (a panic in its undo, a
//! copy chain that exhausts memory). Expected documents are written from
//! the RFC or by hand.

use agui_model::patch::{
    Budget, PatchBudget, PatchError, apply, clone_value, drop_value, json_eq, mem_size,
};
use json_patch::PatchOperation;
use serde_json::{Value, json};

fn ops(v: Value) -> Vec<PatchOperation> {
    serde_json::from_value(v).expect("a patch document")
}

/// Applies `patch` to `doc` with the default budget; on success checks that
/// the tracked size is the measured one, on failure that nothing changed.
fn run(doc: &Value, patch: Value) -> Result<Value, PatchError> {
    run_with(doc, patch, &PatchBudget::default())
}

fn run_with(doc: &Value, patch: Value, budget: &PatchBudget) -> Result<Value, PatchError> {
    let mut d = doc.clone();
    let mut size = mem_size(&d);
    let before = size;
    match apply(&mut d, &mut size, &ops(patch), budget) {
        Ok(()) => {
            assert_eq!(size, mem_size(&d), "tracked size of {d}");
            Ok(d)
        }
        Err(e) => {
            assert_eq!(&d, doc, "a failed patch changed the document ({e})");
            assert_eq!(size, before, "a failed patch changed the size");
            Err(e)
        }
    }
}

fn fails_at(doc: &Value, patch: Value) -> (usize, String) {
    match run(doc, patch) {
        Err(PatchError::Fails { op, reason, .. }) => (op, reason),
        other => panic!("expected Fails, got {other:?}"),
    }
}

// ---- RFC 6902, Appendix A ----

#[test]
fn a1_adding_an_object_member() {
    let r = run(
        &json!({"foo": "bar"}),
        json!([{"op": "add", "path": "/baz", "value": "qux"}]),
    );
    assert_eq!(r.unwrap(), json!({"baz": "qux", "foo": "bar"}));
}

#[test]
fn a2_adding_an_array_element() {
    let r = run(
        &json!({"foo": ["bar", "baz"]}),
        json!([{"op": "add", "path": "/foo/1", "value": "qux"}]),
    );
    assert_eq!(r.unwrap(), json!({"foo": ["bar", "qux", "baz"]}));
}

#[test]
fn a3_removing_an_object_member() {
    let r = run(
        &json!({"baz": "qux", "foo": "bar"}),
        json!([{"op": "remove", "path": "/baz"}]),
    );
    assert_eq!(r.unwrap(), json!({"foo": "bar"}));
}

#[test]
fn a4_removing_an_array_element() {
    let r = run(
        &json!({"foo": ["bar", "qux", "baz"]}),
        json!([{"op": "remove", "path": "/foo/1"}]),
    );
    assert_eq!(r.unwrap(), json!({"foo": ["bar", "baz"]}));
}

#[test]
fn a5_replacing_a_value() {
    let r = run(
        &json!({"baz": "qux", "foo": "bar"}),
        json!([{"op": "replace", "path": "/baz", "value": "boo"}]),
    );
    assert_eq!(r.unwrap(), json!({"baz": "boo", "foo": "bar"}));
}

#[test]
fn a6_moving_a_value() {
    let r = run(
        &json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}),
        json!([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]),
    );
    assert_eq!(
        r.unwrap(),
        json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}})
    );
}

#[test]
fn a7_moving_an_array_element() {
    let r = run(
        &json!({"foo": ["all", "grass", "cows", "eat"]}),
        json!([{"op": "move", "from": "/foo/1", "path": "/foo/3"}]),
    );
    assert_eq!(r.unwrap(), json!({"foo": ["all", "cows", "eat", "grass"]}));
}

#[test]
fn a8_testing_a_value_success() {
    let doc = json!({"baz": "qux", "foo": ["a", 2, "c"]});
    let r = run(
        &doc,
        json!([
            {"op": "test", "path": "/baz", "value": "qux"},
            {"op": "test", "path": "/foo/1", "value": 2}
        ]),
    );
    assert_eq!(r.unwrap(), doc);
}

#[test]
fn a9_testing_a_value_error() {
    let (op, reason) = fails_at(
        &json!({"baz": "qux"}),
        json!([{"op": "test", "path": "/baz", "value": "bar"}]),
    );
    assert_eq!(
        (op, reason.as_str()),
        (0, "the value at /baz is not the test value")
    );
}

#[test]
fn a10_adding_a_nested_member_object() {
    let r = run(
        &json!({"foo": "bar"}),
        json!([{"op": "add", "path": "/child", "value": {"grandchild": {}}}]),
    );
    assert_eq!(
        r.unwrap(),
        json!({"foo": "bar", "child": {"grandchild": {}}})
    );
}

#[test]
fn a11_ignoring_unrecognized_elements() {
    let r = run(
        &json!({"foo": "bar"}),
        json!([{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]),
    );
    assert_eq!(r.unwrap(), json!({"foo": "bar", "baz": "qux"}));
}

#[test]
fn a12_adding_to_a_nonexistent_target() {
    let (op, reason) = fails_at(
        &json!({"foo": "bar"}),
        json!([{"op": "add", "path": "/baz/bat", "value": "qux"}]),
    );
    assert_eq!(op, 0);
    assert_eq!(
        reason,
        "path /baz/bat does not exist (the root has no member \"baz\")"
    );
}

// A.13 (a duplicate "op" member) is a parse error, judged by the schema
// before any patch is applied.

#[test]
fn a14_escape_ordering() {
    let doc = json!({"/": 9, "~1": 10});
    let r = run(&doc, json!([{"op": "test", "path": "/~01", "value": 10}]));
    assert_eq!(r.unwrap(), doc);
}

#[test]
fn a15_comparing_strings_and_numbers() {
    let (op, _) = fails_at(
        &json!({"/": 9, "~1": 10}),
        json!([{"op": "test", "path": "/~01", "value": "10"}]),
    );
    assert_eq!(op, 0);
}

#[test]
fn a16_adding_an_array_value() {
    let r = run(
        &json!({"foo": ["bar"]}),
        json!([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]),
    );
    assert_eq!(r.unwrap(), json!({"foo": ["bar", ["abc", "def"]]}));
}

// ---- each operation: objects, arrays, the root ----

#[test]
fn add_overwrites_an_existing_member() {
    let r = run(
        &json!({"a": [1, 2]}),
        json!([{"op": "add", "path": "/a", "value": 0}]),
    );
    assert_eq!(r.unwrap(), json!({"a": 0}));
}

#[test]
fn add_array_index_rules() {
    let doc = json!({"a": [1, 2]});
    let add = |p: &str| json!([{"op": "add", "path": p, "value": 9}]);
    assert_eq!(run(&doc, add("/a/0")).unwrap(), json!({"a": [9, 1, 2]}));
    assert_eq!(run(&doc, add("/a/2")).unwrap(), json!({"a": [1, 2, 9]}));
    assert_eq!(run(&doc, add("/a/-")).unwrap(), json!({"a": [1, 2, 9]}));
    // One past the end, a leading zero, a sign, an empty token: no index.
    for bad in ["/a/3", "/a/01", "/a/+1", "/a/", "/a/1e0", "/a/-1"] {
        assert_eq!(fails_at(&doc, add(bad)).0, 0, "{bad}");
    }
    assert_eq!(
        fails_at(&doc, add("/a/3")).1,
        "path /a/3 does not exist (/a has 2 elements)"
    );
    assert_eq!(
        fails_at(&doc, add("/a/01")).1,
        "path /a/01 does not exist (\"01\" is not an array index)"
    );
}

#[test]
fn dash_names_no_element_outside_add() {
    let doc = json!({"a": [1, 2]});
    for patch in [
        json!([{"op": "remove", "path": "/a/-"}]),
        json!([{"op": "replace", "path": "/a/-", "value": 0}]),
        json!([{"op": "test", "path": "/a/-", "value": 2}]),
        json!([{"op": "copy", "from": "/a/-", "path": "/b"}]),
        json!([{"op": "move", "from": "/a/-", "path": "/b"}]),
    ] {
        assert_eq!(fails_at(&doc, patch.clone()).0, 0, "{patch}");
    }
    // In an object, "-" is just a key.
    let r = run(&json!({}), json!([{"op": "add", "path": "/-", "value": 1}]));
    assert_eq!(r.unwrap(), json!({"-": 1}));
}

#[test]
fn remove_replace_test_need_the_element() {
    let doc = json!({"a": [1, 2]});
    assert_eq!(
        fails_at(&doc, json!([{"op": "remove", "path": "/a/2"}])).0,
        0
    );
    assert_eq!(
        fails_at(&doc, json!([{"op": "replace", "path": "/a/2", "value": 0}])).0,
        0
    );
    assert_eq!(
        fails_at(&doc, json!([{"op": "replace", "path": "/b", "value": 0}])).0,
        0
    );
    assert_eq!(fails_at(&doc, json!([{"op": "remove", "path": "/b"}])).0, 0);
    assert_eq!(
        run(&doc, json!([{"op": "replace", "path": "/a/1", "value": 0}])).unwrap(),
        json!({"a": [1, 0]})
    );
    assert_eq!(
        run(&doc, json!([{"op": "remove", "path": "/a/0"}])).unwrap(),
        json!({"a": [2]})
    );
}

#[test]
fn a_scalar_has_no_children() {
    let (_, reason) = fails_at(
        &json!({"b": 3}),
        json!([{"op": "add", "path": "/b/c", "value": 1}]),
    );
    assert_eq!(reason, "path /b/c does not exist (/b is a number)");
}

#[test]
fn root_operations() {
    let doc = json!({"a": {"b": 1}, "c": [2]});
    assert_eq!(
        run(&doc, json!([{"op": "add", "path": "", "value": [1]}])).unwrap(),
        json!([1])
    );
    assert_eq!(
        run(&doc, json!([{"op": "replace", "path": "", "value": "x"}])).unwrap(),
        json!("x")
    );
    assert_eq!(
        run(&doc, json!([{"op": "move", "from": "/a", "path": ""}])).unwrap(),
        json!({"b": 1})
    );
    assert_eq!(
        run(&doc, json!([{"op": "copy", "from": "/c", "path": ""}])).unwrap(),
        json!([2])
    );
    assert_eq!(
        run(&doc, json!([{"op": "copy", "from": "", "path": "/d"}])).unwrap(),
        json!({"a": {"b": 1}, "c": [2], "d": {"a": {"b": 1}, "c": [2]}})
    );
    assert_eq!(
        run(
            &doc,
            json!([{"op": "test", "path": "", "value": {"c": [2.0], "a": {"b": 1}}}])
        )
        .unwrap(),
        doc
    );
    assert_eq!(
        fails_at(&doc, json!([{"op": "remove", "path": ""}])).1,
        "the root cannot be removed"
    );
    // "" is a proper prefix of every other path.
    assert_eq!(
        fails_at(&doc, json!([{"op": "move", "from": "", "path": "/x"}])).1,
        "from \"\" is a proper prefix of path /x: a value cannot move into itself"
    );
    // A move onto itself is a remove and an add back: a no-op.
    assert_eq!(
        run(&doc, json!([{"op": "move", "from": "", "path": ""}])).unwrap(),
        doc
    );
}

#[test]
fn move_into_itself_fails_but_not_into_a_sibling_with_a_longer_name() {
    let doc = json!({"a": {"x": 1}, "b": 2});
    assert_eq!(
        fails_at(&doc, json!([{"op": "move", "from": "/a", "path": "/a/y"}])).0,
        0
    );
    assert_eq!(
        run(&doc, json!([{"op": "move", "from": "/a", "path": "/ab"}])).unwrap(),
        json!({"ab": {"x": 1}, "b": 2})
    );
    assert_eq!(
        run(&doc, json!([{"op": "move", "from": "/a", "path": "/a"}])).unwrap(),
        doc
    );
    assert_eq!(
        fails_at(&doc, json!([{"op": "move", "from": "/z", "path": "/z"}])).0,
        0
    );
    // Onto an ancestor: the parent is replaced by its own child.
    assert_eq!(
        run(&doc, json!([{"op": "move", "from": "/a/x", "path": "/a"}])).unwrap(),
        json!({"a": 1, "b": 2})
    );
}

#[test]
fn copy_into_its_own_subtree_copies_the_value_as_it_was() {
    let r = run(
        &json!({"a": {"x": 1}}),
        json!([{"op": "copy", "from": "/a", "path": "/a/y"}]),
    );
    assert_eq!(r.unwrap(), json!({"a": {"x": 1, "y": {"x": 1}}}));
}

#[test]
fn escapes_in_keys() {
    let doc = json!({"a/b": 1, "m~n": 2, "~1": 3});
    let r = run(
        &doc,
        json!([
            {"op": "test", "path": "/a~1b", "value": 1},
            {"op": "test", "path": "/m~0n", "value": 2},
            {"op": "test", "path": "/~01", "value": 3},
            {"op": "move", "from": "/a~1b", "path": "/~0~1"},
            {"op": "copy", "from": "/m~0n", "path": "/x~1y"},
            {"op": "remove", "path": "/~01"}
        ]),
    );
    assert_eq!(r.unwrap(), json!({"~/": 1, "m~n": 2, "x/y": 2}));
}

#[test]
fn test_compares_numbers_by_value_and_objects_in_any_order() {
    let doc = json!({"n": 1, "f": 1.5, "o": {"a": [1, {"b": null}], "c": true}});
    let ok =
        |path: &str, v: Value| run(&doc, json!([{"op": "test", "path": path, "value": v}])).is_ok();
    assert!(ok("/n", json!(1.0)));
    assert!(ok("/n", serde_json::from_str("1e0").unwrap()));
    assert!(ok("/f", json!(1.5)));
    assert!(ok("/o", json!({"c": true, "a": [1.0, {"b": null}]})));
    assert!(!ok("/n", json!(1.0000001)));
    assert!(!ok("/n", json!("1")));
    assert!(!ok("/n", json!(true)));
    assert!(!ok("/o", json!({"c": true, "a": [{"b": null}, 1]})));
    assert!(!ok("/o", json!({"c": true})));
    assert!(!ok("/o", json!({"c": true, "a": [1, {"b": null}], "d": 0})));
}

#[test]
fn number_equality_at_the_edges() {
    let n = |s: &str| -> Value { serde_json::from_str(s).unwrap() };
    assert!(json_eq(&n("-0"), &n("0")));
    assert!(json_eq(&n("0.0"), &n("-0.0")));
    assert!(json_eq(
        &n("18446744073709551615"),
        &n("18446744073709551615")
    ));
    assert!(!json_eq(&n("-1"), &n("18446744073709551615")));
    // 2^63 as an integer and as a float.
    assert!(json_eq(
        &n("9223372036854775808"),
        &n("9223372036854775808.0")
    ));
    // 2^53 + 1 is no f64; 2^53 is.
    let two53 = Value::from(9007199254740992.0_f64);
    assert!(!json_eq(&Value::from(9007199254740993_u64), &two53));
    assert!(json_eq(&Value::from(9007199254740992_u64), &two53));
    assert!(json_eq(&two53, &Value::from(9007199254740992_i64)));
}

#[test]
fn operations_apply_in_order_and_see_earlier_ones() {
    let r = run(
        &json!({}),
        json!([
            {"op": "add", "path": "/a", "value": []},
            {"op": "add", "path": "/a/-", "value": 1},
            {"op": "add", "path": "/a/0", "value": 0},
            {"op": "copy", "from": "/a", "path": "/b"},
            {"op": "move", "from": "/a/1", "path": "/b/0"},
            {"op": "test", "path": "/b", "value": [1, 0, 1]},
            {"op": "replace", "path": "/a", "value": null}
        ]),
    );
    assert_eq!(r.unwrap(), json!({"a": null, "b": [1, 0, 1]}));
}

#[test]
fn error_messages_name_the_operation() {
    let e = run(
        &json!({"a": 1}),
        json!([
            {"op": "test", "path": "/a", "value": 1},
            {"op": "copy", "from": "/a", "path": "/b/c"}
        ]),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "operation 1 (copy from /a to /b/c): path /b/c does not exist (the root has no member \"b\")"
    );
    let e = run(
        &json!({}),
        json!([{"op": "move", "from": "", "path": "/x"}]),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("operation 0 (move from \"\" to /x): "),
        "{e}"
    );
}

// ---- the two defects of json_patch::patch ----

/// `json_patch::patch` reached `unreachable!` undoing these (exit 101).
#[test]
fn root_move_or_copy_then_failure_leaves_the_state_unchanged() {
    let doc = json!({"a": {"b": 1}, "c": [2, 3]});
    for first in [
        json!({"op": "move", "from": "/a", "path": ""}),
        json!({"op": "move", "from": "/c/0", "path": ""}),
        json!({"op": "copy", "from": "/a", "path": ""}),
        json!({"op": "copy", "from": "", "path": "/a"}),
        json!({"op": "copy", "from": "", "path": "/c/1"}),
        json!({"op": "add", "path": "", "value": 1}),
        json!({"op": "replace", "path": "", "value": {"x": 1}}),
    ] {
        for second in [
            json!({"op": "remove", "path": "/nope"}),
            json!({"op": "test", "path": "", "value": null}),
            json!({"op": "move", "from": "/a", "path": ""}),
        ] {
            let patch = json!([first, {"op": "move", "from": "/b", "path": ""}, second]);
            // Whatever op fails, the document is unchanged (run checks it).
            let _ = run(&doc, patch);
            let patch = json!([first, second]);
            let _ = run(&doc, patch);
        }
    }
}

/// 20 copies of the root into a new member of itself double the state
/// each time: 2^20 times the start. The budget stops the chain.
#[test]
fn chained_root_copies_are_over_budget() {
    let doc = json!({"a": "x".repeat(1000)});
    let copies: Vec<Value> = (0..20)
        .map(|i| json!({"op": "copy", "from": "", "path": format!("/k{i}")}))
        .collect();
    match run(&doc, Value::Array(copies)) {
        Err(PatchError::OverBudget { op, limit, .. }) => {
            // The document holds 1,897 bytes in memory ([`mem_size`]:
            // 32 + 640 for the map, 1 + 32 + 128 for the member, 32 + 32 +
            // 1000 for the string); each copy doubles it and adds a
            // member: after op 13 it holds 33.7 MB, and op 14 would take it
            // to 67.5 MB, past the 64 MiB budget.
            assert_eq!(op, 14);
            assert_eq!(limit, 64 << 20);
        }
        other => panic!("expected OverBudget, got {other:?}"),
    }
}

// ---- the budget ----

#[test]
fn state_budget_is_checked_before_the_value_is_made() {
    // {"a":"xxxx"} holds 32 + 640 (map) + 1 + 160 (member) + 32 + 32 + 4
    // (string) = 901 bytes; member "b" with "yyyy" adds 161 + 68.
    let doc = json!({"a": "xxxx"});
    let patch = json!([{"op": "add", "path": "/b", "value": "yyyy"}]);
    let tight = PatchBudget {
        state_bytes: 1129,
        work: 1000,
    };
    assert_eq!(
        run_with(&doc, patch.clone(), &tight),
        Err(PatchError::OverBudget {
            op: 0,
            what: "add /b".to_owned(),
            budget: Budget::State,
            needed: 1130,
            limit: 1129
        })
    );
    let exact = PatchBudget {
        state_bytes: 1130,
        work: 1000,
    };
    assert_eq!(
        run_with(&doc, patch, &exact).unwrap(),
        json!({"a": "xxxx", "b": "yyyy"})
    );
}

#[test]
fn work_budget_counts_values_cloned_compared_and_elements_shifted() {
    let doc = json!({"a": "xxxx", "l": [1, 2, 3]});
    let budget = |work| PatchBudget {
        state_bytes: 1 << 20,
        work,
    };
    // A copy of "xxxx" (68) and a test against it (68): 136 units.
    let patch = json!([
        {"op": "copy", "from": "/a", "path": "/b"},
        {"op": "test", "path": "/b", "value": "xxxx"}
    ]);
    assert!(run_with(&doc, patch.clone(), &budget(136)).is_ok());
    assert!(matches!(
        run_with(&doc, patch, &budget(135)),
        Err(PatchError::OverBudget {
            op: 1,
            budget: Budget::Work,
            limit: 135,
            ..
        })
    ));
    // Inserting 0 (32) at the front shifts 3 elements: 35 units.
    let patch = json!([{"op": "add", "path": "/l/0", "value": 0}]);
    assert!(run_with(&doc, patch.clone(), &budget(35)).is_ok());
    assert!(run_with(&doc, patch, &budget(34)).is_err());
    // Removing the first of three shifts 2; a move costs no copy.
    let patch =
        json!([{"op": "remove", "path": "/l/0"}, {"op": "move", "from": "/a", "path": "/z"}]);
    assert!(run_with(&doc, patch.clone(), &budget(2)).is_ok());
    assert!(run_with(&doc, patch, &budget(1)).is_err());
}

#[test]
fn size_counts_what_a_value_holds_in_memory() {
    // Every value's 32-byte slot; a string's bytes and block (32); an
    // array's block, its first four slots (128) and a spare slot per
    // element; a map's first node
    // (640) and, per member, its key's bytes and block and a share of
    // further nodes (128).
    assert_eq!(mem_size(&json!(null)), 32);
    assert_eq!(mem_size(&json!(1)), 32);
    assert_eq!(mem_size(&json!("xy")), 32 + 32 + 2);
    assert_eq!(mem_size(&json!([])), 32 + 32 + 128);
    assert_eq!(mem_size(&json!({})), 32 + 640);
    // {"a":[1,"xy",null,true,false,{}]}
    let v = json!({"a": [1, "xy", null, true, false, {}]});
    let array = 32 + 32 + 128 + 6 * 32 + 32 + (32 + 32 + 2) + 32 + 32 + 32 + (32 + 640);
    assert_eq!(mem_size(&v), 32 + 640 + (1 + 32 + 128) + array);
    // The measure of a state of many small members is many times its
    // JSON text: what the budget must see.
    let wide: serde_json::Map<String, Value> =
        (0..1000).map(|i| (format!("k{i}"), json!(0))).collect();
    let wide = Value::Object(wide);
    assert!(mem_size(&wide) > 20 * serde_json::to_string(&wide).unwrap().len());
}

#[test]
fn tracked_size_follows_every_operation() {
    let doc = json!({"a": {"b": [1, 2, {"c": "d"}]}, "e": "f"});
    let patch = json!([
        {"op": "add", "path": "/a/b/1", "value": {"x": [true]}},
        {"op": "remove", "path": "/a/b/0"},
        {"op": "move", "from": "/a/b/2", "path": "/g"},
        {"op": "move", "from": "/e", "path": "/a/b/0"},
        {"op": "copy", "from": "/a", "path": "/a/b/-"},
        {"op": "replace", "path": "/a/b", "value": []},
        {"op": "move", "from": "/g", "path": ""}
    ]);
    // run() asserts the tracked size equals mem_size after success.
    assert_eq!(run(&doc, patch).unwrap(), json!({"c": "d"}));
}

// ---- depth ----

/// Built by hand: `json!` with a value inside serializes it, recursively.
fn deep(levels: usize, leaf: &str) -> Value {
    let mut v = Value::from(leaf);
    for i in 0..levels {
        v = if i % 2 == 0 {
            Value::Array(vec![v])
        } else {
            Value::Object(serde_json::Map::from_iter([("k".to_owned(), v)]))
        };
    }
    v
}

#[test]
fn deep_values_are_measured_cloned_compared_and_dropped_without_recursion() {
    let levels = 100_000;
    let v = deep(levels, "leaf");
    // The leaf holds 32 + 32 + 4; each array level 32 + 32 + 128 + 32 (one
    // element), each object level 32 + 640 + 1 + 32 + 128 (one member).
    assert_eq!(mem_size(&v), 68 + levels / 2 * 224 + levels / 2 * 833);
    let c = clone_value(&v);
    assert!(json_eq(&v, &c));
    let other = deep(levels, "other");
    assert!(!json_eq(&v, &other));
    drop_value(other);
    let mut doc = Value::Object(serde_json::Map::from_iter([("d".to_owned(), v)]));
    let mut size = mem_size(&doc);
    let patch = ops(json!([
        {"op": "copy", "from": "/d", "path": "/e"},
        {"op": "test", "path": "/e", "value": "not this"}
    ]));
    assert!(apply(&mut doc, &mut size, &patch, &PatchBudget::default()).is_err());
    // The copy doubles a document of 46 MB in memory: past the default
    // budget, within this one.
    let roomy = PatchBudget {
        state_bytes: 1 << 30,
        work: 1 << 30,
    };
    let patch = ops(json!([{"op": "copy", "from": "/d", "path": "/e"}]));
    assert!(apply(&mut doc, &mut size, &patch, &roomy).is_ok());
    assert_eq!(size, mem_size(&doc));
    drop_value(doc);
    drop_value(c);
}

// ---- random patches: rollback is exact, and json_patch agrees ----

/// Seeded, so the test is reproducible (rand's `StdRng`).
struct Rng(rand::rngs::StdRng);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(rand::SeedableRng::seed_from_u64(seed))
    }
    fn below(&mut self, n: usize) -> usize {
        rand::Rng::random_range(&mut self.0, 0..n.max(1))
    }
}

const KEYS: &[&str] = &["a", "b", "~", "/", "a/b", "-", "0", ""];

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth == 0 { 4 } else { 6 }) {
        0 => Value::Null,
        1 => json!(rng.below(3)),
        2 => [json!(1.0), json!("1"), json!(true)][rng.below(3)].clone(),
        3 => json!(KEYS[rng.below(KEYS.len())]),
        4 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|_| {
                    (
                        KEYS[rng.below(KEYS.len())].to_owned(),
                        random_value(rng, depth - 1),
                    )
                })
                .collect(),
        ),
    }
}

/// Every pointer into `v`, escaped.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                pointers(c, format!("{at}/{i}"), out);
            }
        }
        Value::Object(m) => {
            for (k, c) in m {
                pointers(
                    c,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
    out.push(at);
}

/// A pointer that exists, or one just beside: a new key, `-`, one past the
/// end, a leading zero.
fn random_pointer(rng: &mut Rng, doc: &Value) -> String {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    let p = all[rng.below(all.len())].clone();
    match rng.below(10) {
        0 => format!("{p}/-"),
        1 => format!("{p}/{}", rng.below(4)),
        2 => format!("{p}/01"),
        3 => format!(
            "{p}/{}",
            KEYS[rng.below(KEYS.len())]
                .replace('~', "~0")
                .replace('/', "~1")
        ),
        _ => p,
    }
}

fn random_patch(rng: &mut Rng, doc: &Value) -> Value {
    let ops = (0..1 + rng.below(4))
        .map(|_| {
            let path = random_pointer(rng, doc);
            let from = random_pointer(rng, doc);
            let value = match doc.pointer(&path) {
                Some(v) if rng.below(2) == 0 => v.clone(),
                _ => random_value(rng, 2),
            };
            match rng.below(6) {
                0 => json!({"op": "add", "path": path, "value": value}),
                1 => json!({"op": "remove", "path": path}),
                2 => json!({"op": "replace", "path": path, "value": value}),
                3 => json!({"op": "move", "from": from, "path": path}),
                4 => json!({"op": "copy", "from": from, "path": path}),
                _ => json!({"op": "test", "path": path, "value": value}),
            }
        })
        .collect();
    Value::Array(ops)
}

#[test]
fn random_patches_roll_back_exactly_and_agree_with_json_patch() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let (mut applied, mut failed, mut over) = (0, 0, 0);
    for _ in 0..4000 {
        let doc = Value::Object(
            (0..1 + rng.below(4))
                .map(|_| {
                    (
                        KEYS[rng.below(KEYS.len())].to_owned(),
                        random_value(&mut rng, 3),
                    )
                })
                .collect(),
        );
        let patch = random_patch(&mut rng, &doc);
        // Now and then a budget tight enough to trip mid-patch.
        let budget = if rng.below(4) == 0 {
            PatchBudget {
                state_bytes: mem_size(&doc) + rng.below(40),
                work: rng.below(60),
            }
        } else {
            PatchBudget::default()
        };
        let ours = run_with(&doc, patch.clone(), &budget);
        let mut theirs = doc.clone();
        let theirs = json_patch::patch_unsafe(&mut theirs, &ops(patch.clone())).map(|()| theirs);
        match (&ours, theirs) {
            (Ok(a), Ok(b)) => assert_eq!(a, &b, "{patch} on {doc}"),
            (Err(PatchError::OverBudget { .. }), _) => {}
            (Err(e), Ok(b)) => panic!("{patch} on {doc}: we fail ({e}), json_patch gives {b}"),
            _ => {}
        }
        match ours {
            Ok(_) => applied += 1,
            Err(PatchError::Fails { .. }) => failed += 1,
            Err(PatchError::OverBudget { .. }) => over += 1,
        }
    }
    // The generator reaches all three outcomes often.
    assert!(
        applied > 500 && failed > 1000 && over > 100,
        "{applied} {failed} {over}"
    );
}

#[test]
fn a_state_over_the_budget_may_shrink_but_not_grow() {
    let doc = json!({"a": "xxxx", "b": [1]});
    let small = PatchBudget {
        state_bytes: 5,
        work: 1000,
    };
    assert_eq!(
        run_with(&doc, json!([{"op": "remove", "path": "/a"}]), &small).unwrap(),
        json!({"b": [1]})
    );
    assert!(
        run_with(
            &doc,
            json!([{"op": "replace", "path": "/a", "value": ""}]),
            &small
        )
        .is_ok()
    );
    assert!(matches!(
        run_with(
            &doc,
            json!([{"op": "add", "path": "/b/-", "value": null}]),
            &small
        ),
        Err(PatchError::OverBudget {
            budget: Budget::State,
            ..
        })
    ));
}
