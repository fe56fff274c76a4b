//! The client tool the producer suite offers, renamed (`run --producer
//! --tool-name NAME`). The suite's scenarios offer a frontend tool named
//! [`DEFAULT`]; a producer with a backend tool of that name refuses the
//! request (two tools of one name), which says nothing about its streams.
//! Renaming substitutes the name wherever a scenario names the tool: the
//! tool definitions, the tool calls of its messages, the text of its
//! messages (as a whole word: "Use the get_weather tool."), and the tool
//! results its `toolResults` steps give by name.

use crate::scenario::{Scenario, Step};
use crate::suite::SuiteInput;
use serde_json::{Map, Value};

/// The name of the client tool the suite's scenarios offer.
pub const DEFAULT: &str = "get_weather";

/// The longest tool name taken: what model APIs accept for a function name.
pub const MAX_LEN: usize = 64;

/// Checks a tool name given on the command line: 1 to [`MAX_LEN`] ASCII
/// letters, digits, `_` or `-` (the function names model APIs accept).
pub fn check(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= MAX_LEN
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--tool-name `{name}`: a tool name is 1 to {MAX_LEN} ASCII letters, digits, `_` or `-`"
        ))
    }
}

/// Renames the tool [`DEFAULT`] to `to` in every scenario of a suite
/// (scenarios that could not be read are left as they are). An error when
/// `to` is not a valid name, or a scenario offering the tool already
/// offers another tool named `to`.
pub fn rename_all(inputs: &mut [SuiteInput], to: &str) -> Result<(), String> {
    check(to)?;
    for input in inputs {
        if let Ok(s) = &mut input.input {
            rename(s, DEFAULT, to).map_err(|e| format!("scenario {}: {e}", input.id))?;
        }
    }
    Ok(())
}

/// Renames the tool `from` to `to` in one scenario.
pub fn rename(s: &mut Scenario, from: &str, to: &str) -> Result<(), String> {
    if from == to {
        return Ok(());
    }
    if let Some(Value::Array(tools)) = s.first.get_mut("tools") {
        let named = |n: &str| tools.iter().any(|t| t["name"] == n);
        if named(from) && named(to) {
            return Err(format!(
                "it offers both `{from}` and a tool named `{to}`: choose another --tool-name"
            ));
        }
        for t in tools.iter_mut() {
            if t["name"] == from {
                t["name"] = Value::from(to);
            }
        }
    }
    if let Some(Value::Array(messages)) = s.first.get_mut("messages") {
        for m in messages {
            rename_in_message(m, from, to);
        }
    }
    for step in &mut s.then {
        match step {
            Step::ToolResults { by_name, .. } => {
                if let Some(v) = by_name.remove(from) {
                    by_name.insert(to.to_owned(), v);
                }
            }
            Step::Continue {
                message: Some(text),
                ..
            } => *text = replace_word(text, from, to),
            _ => {}
        }
    }
    Ok(())
}

/// A message's text (a string, or the `text` of its parts) and its tool
/// calls' function names.
fn rename_in_message(m: &mut Value, from: &str, to: &str) {
    let Value::Object(m) = m else {
        return;
    };
    match m.get_mut("content") {
        Some(Value::String(text)) => *text = replace_word(text, from, to),
        Some(Value::Array(parts)) => {
            for p in parts {
                if let Some(Value::String(text)) = p.get_mut("text") {
                    *text = replace_word(text, from, to);
                }
            }
        }
        _ => {}
    }
    if let Some(Value::Array(calls)) = m.get_mut("toolCalls") {
        for c in calls {
            if let Some(Value::Object(f)) = c.get_mut("function") {
                rename_field(f, from, to);
            }
        }
    }
}

fn rename_field(f: &mut Map<String, Value>, from: &str, to: &str) {
    if f.get("name").is_some_and(|n| n == from) {
        f.insert("name".into(), Value::from(to));
    }
}

/// `text` with every whole-word `from` (not inside a longer identifier:
/// no letter, digit or `_` on either side) replaced by `to`.
pub fn replace_word(text: &str, from: &str, to: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.match_indices(from) {
        let before = text[..at].chars().next_back();
        let after = text[at + from.len()..].chars().next();
        if !word(before) && !word(after) {
            out.push_str(&text[last..at]);
            out.push_str(to);
            last = at + from.len();
        }
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_checked() {
        assert!(check("client_weather").is_ok());
        assert!(check("a-b_9").is_ok());
        for bad in ["", "two words", "naïve", &"x".repeat(MAX_LEN + 1)] {
            let e = check(bad).unwrap_err();
            assert!(e.contains("--tool-name"), "{e}");
        }
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(
            replace_word("Use the get_weather tool.", "get_weather", "w2"),
            "Use the w2 tool."
        );
        assert_eq!(
            replace_word("get_weather_now, get_weather", "get_weather", "w2"),
            "get_weather_now, w2"
        );
        assert_eq!(
            replace_word("my_get_weather get_weather", "get_weather", "w2"),
            "my_get_weather w2"
        );
    }

    #[test]
    fn every_place_the_scenario_names_the_tool() {
        let mut s = Scenario::from_json(json!({"steps": [
            {"input": {
                "messages": [
                    {"id": "u1", "role": "user", "content": "Call get_weather."},
                    {"id": "a1", "role": "assistant", "toolCalls": [
                        {"id": "c1", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{}"}}]},
                    {"id": "u2", "role": "user", "content": [{"type": "text", "text": "get_weather again"}]}
                ],
                "tools": [{"name": "get_weather"}, {"name": "pay"}]
            }},
            {"toolResults": {"content": "done", "byName": {"get_weather": "sunny", "pay": "ok"}}},
            {"continue": {"message": "And get_weather for Porto."}}
        ]}))
        .unwrap();
        rename(&mut s, DEFAULT, "client_weather").unwrap();
        assert_eq!(
            s.first["tools"],
            json!([{"name": "client_weather"}, {"name": "pay"}])
        );
        assert_eq!(s.first["messages"][0]["content"], "Call client_weather.");
        assert_eq!(
            s.first["messages"][1]["toolCalls"][0]["function"]["name"],
            "client_weather"
        );
        assert_eq!(
            s.first["messages"][2]["content"][0]["text"],
            "client_weather again"
        );
        match &s.then[0] {
            Step::ToolResults { by_name, .. } => {
                assert_eq!(by_name.get("client_weather"), Some(&json!("sunny")));
                assert!(by_name.get("get_weather").is_none());
                assert_eq!(by_name.get("pay"), Some(&json!("ok")));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            s.then[1],
            Step::Continue {
                message: Some("And client_weather for Porto.".into()),
                forwarded_props: None
            }
        );
        // A name another of its tools has is refused.
        let mut s =
            Scenario::from_json(json!({"tools": [{"name": "get_weather"}, {"name": "pay"}]}))
                .unwrap();
        let e = rename(&mut s, DEFAULT, "pay").unwrap_err();
        assert!(e.contains("`pay`"), "{e}");
    }
}
