//! Where generation time goes: scenario, rendering, serialization.
use agui_gen::ev::write_jsonl;
use agui_gen::front::seeded_bytes;
use agui_gen::{Config, Scenario, render_jsonl, render_stream};
use arbitrary::Unstructured;
use std::time::Instant;

fn main() {
    let config = Config::default();
    let inputs: Vec<Vec<u8>> = (0..2000).map(|s| seeded_bytes(&config, s)).collect();
    for _ in 0..3 {
        let t = Instant::now();
        let scs: Vec<Scenario> = inputs
            .iter()
            .map(|b| Scenario::new(&config, &mut Unstructured::new(b)).unwrap())
            .collect();
        let t1 = t.elapsed();
        let t = Instant::now();
        let rs: Vec<_> = scs.iter().map(render_stream).collect();
        let t2 = t.elapsed();
        let n: usize = rs.iter().map(|r| r.events.len()).sum();
        let mut out = Vec::with_capacity(64 << 20);
        let t = Instant::now();
        for r in &rs {
            write_jsonl(&r.events, &mut out);
        }
        let t3 = t.elapsed();
        let mut out2 = Vec::with_capacity(64 << 20);
        let t = Instant::now();
        for sc in &scs {
            render_jsonl(sc, &mut out2);
        }
        let t5 = t.elapsed();
        assert_eq!(out, out2);
        println!("render_jsonl: {:.0} ns/ev", t5.as_nanos() as f64 / n as f64);
        let t = Instant::now();
        drop(rs);
        drop(scs);
        let t4 = t.elapsed();
        let per = |d: std::time::Duration| d.as_nanos() as f64 / n as f64;
        println!(
            "{n} events: scenario {:.0} ns/ev, render {:.0} ns/ev, serialize {:.0} ns/ev, drop {:.0} ns/ev, {} bytes",
            per(t1),
            per(t2),
            per(t3),
            per(t4),
            out.len()
        );
    }
}
