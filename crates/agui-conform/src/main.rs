//! The `agui-conform` command line. STUB: being written.

fn main() {
    println!("agui-conform: under construction");
}
