fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let rule = std::env::args().nth(2);
    let mode = match rule {
        Some(r) => agui_gen::Mode::Invalid(r.parse().unwrap()),
        None => agui_gen::Mode::Valid,
    };
    let c = agui_gen::generate_case(seed, mode);
    for (i, e) in c.events.iter().enumerate() {
        println!("{i:3} {e}");
    }
    println!("{}", serde_json::to_string(&c.expect).unwrap());
    if let Some(p) = &c.projection {
        println!("{}", serde_json::to_string_pretty(p).unwrap());
    }
}
