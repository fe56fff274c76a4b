//! The pipeline stage of the checker's borrowed fast path: the reader
//! thread runs [`fast::parse`] and keeps the typed event with nothing
//! borrowed ([`Typed::into_owned`]: its strings copied, raw JSON fields
//! parsed there); the checking thread hands it to
//! [`Checker::try_push_event`]. The event is the one typed body of
//! [`crate::body`], so this stage follows the wire table by itself.
//!
//! Copying the strings is the price of crossing threads without borrowing
//! from the batch (docs/performance.md measures whether the thread pays).

use super::Stage;
use crate::body::Typed;
use crate::checker::Checker;
use crate::fast;

/// The stage of the borrowed fast path.
pub(crate) struct FastStage;

impl Stage for FastStage {
    type Parsed = Typed<'static>;

    fn parse(&self, line: &str) -> Option<Typed<'static>> {
        fast::parse(line)?.into_owned()
    }

    fn push(&self, checker: &mut Checker, parsed: Typed<'static>) -> bool {
        checker.try_push_event(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::Body;
    use std::borrow::Cow;

    #[test]
    fn an_owned_event_keeps_every_string_and_decodes_escapes() {
        let line = r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\nb","subagentRunId":"s1"}"#;
        let ev = FastStage.parse(line).expect("a fast line");
        assert_eq!(ev.tag.as_deref(), Some("s1"));
        match ev.body {
            Body::TextMessageContent {
                message_id, delta, ..
            } => {
                assert_eq!(message_id.as_deref(), Some("m1"));
                assert!(matches!(message_id, Some(Cow::Owned(_))));
                assert_eq!(delta.as_deref(), Some("a\nb"));
            }
            other => panic!("unexpected body {other:?}"),
        }
    }
}
