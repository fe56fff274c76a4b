pub mod raw;
pub mod server;
