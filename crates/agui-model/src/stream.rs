//! Reading a stream: JSON Lines (or one JSON array of events) from any
//! reader, one item at a time, never holding the whole input.
//!
//! STUB: being written.
