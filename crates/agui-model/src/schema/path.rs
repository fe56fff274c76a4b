//! Field paths inside one event, built on the stack.
//!
//! A [`Path`] is a linked list of borrowed segments living in the caller's
//! stack frames, so descending into a field costs nothing; the string form
//! (`messages[0].toolCalls[1].function.name`) is rendered only when an issue
//! is reported.

use std::fmt;

/// Where a field sits inside the event: `Root` is the event itself.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'static str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub(crate) fn key(&'a self, key: &'static str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub(crate) fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_dotted_keys_and_indexes() {
        let root = Path::Root;
        assert_eq!(root.to_string(), "");
        let messages = root.key("messages");
        let m0 = messages.index(0);
        let calls = m0.key("toolCalls");
        let c1 = calls.index(1);
        let func = c1.key("function");
        assert_eq!(
            func.key("name").to_string(),
            "messages[0].toolCalls[1].function.name"
        );
        let ids = root.key("outcome");
        let ids = ids.key("interruptIds");
        assert_eq!(ids.index(2).to_string(), "outcome.interruptIds[2]");
        assert_eq!(
            root.key("delta").index(3).key("path").to_string(),
            "delta[3].path"
        );
    }
}
