//! The pipeline stage of the checker's borrowed fast path: the reader
//! thread runs [`fast::parse`] on the line's copy in the batch, and the
//! typed event borrows it there; the checking thread hands it to
//! [`Checker::try_push_event`]. The event is the one typed body of
//! [`crate::body`], so this stage follows the wire table by itself.
//!
//! Nothing of the event is copied: an earlier stage copied every string
//! (and parsed raw JSON fields) to cross threads, and spent 2.8× the CPU
//! of one thread (docs/performance-log.md).

use super::Stage;
use crate::body::Typed;
use crate::checker::Checker;
use crate::fast;

/// The stage of the borrowed fast path.
pub(crate) struct FastStage;

impl Stage for FastStage {
    type Parsed<'a> = Typed<'a>;

    fn parse<'a>(&self, line: &'a [u8]) -> Option<Typed<'a>> {
        fast::parse(line)
    }

    unsafe fn erase<'a>(parsed: Typed<'a>) -> Typed<'static> {
        // SAFETY: the same type but for the lifetime; the caller keeps the
        // borrowed text in place for as long as the result lives.
        unsafe { std::mem::transmute::<Typed<'a>, Typed<'static>>(parsed) }
    }

    fn push<'a>(&self, checker: &mut Checker, parsed: &Typed<'a>) -> bool {
        checker.try_push_event(parsed)
    }

    fn push_line(&self, checker: &mut Checker, line: &[u8]) -> bool {
        checker.try_push_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::Body;
    use std::borrow::Cow;

    #[test]
    fn an_event_borrows_its_line_and_decodes_escapes() {
        let line = r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\nb","subagentRunId":"s1"}"#;
        let ev = FastStage.parse(line.as_bytes()).expect("a fast line");
        assert_eq!(ev.tag.as_deref(), Some("s1"));
        match ev.body {
            Body::TextMessageContent {
                message_id, delta, ..
            } => {
                assert_eq!(message_id.as_deref(), Some("m1"));
                assert!(matches!(message_id, Some(Cow::Borrowed("m1"))));
                assert!(matches!(delta, Some(Cow::Owned(_))), "an escape is decoded");
                assert_eq!(delta.as_deref(), Some("a\nb"));
            }
            other => panic!("unexpected body {other:?}"),
        }
    }
}
