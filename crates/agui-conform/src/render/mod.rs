//! Every output format in one place: one renderer per format.

pub mod html;
pub mod junit;
pub mod sarif;
