//! Commands measured side by side in alternating rounds: every round runs
//! each command once (the order rotating from round to round, so neither
//! always runs on a warmer cache), and the table gives the medians of wall
//! and CPU time and the **median of per-round ratios** to the first
//! command, steadier than a ratio of medians on a shared machine.

use crate::measure::{self, Sample};
use std::process::Command;

/// One command of the comparison.
pub struct Contender {
    pub name: String,
    pub cmd: Box<dyn Fn() -> Command>,
    pub samples: Vec<Sample>,
}

impl Contender {
    pub fn new(name: impl Into<String>, cmd: impl Fn() -> Command + 'static) -> Self {
        Contender {
            name: name.into(),
            cmd: Box::new(cmd),
            samples: Vec::new(),
        }
    }

    /// Wall seconds, one a round.
    pub fn walls(&self) -> Vec<f64> {
        self.samples.iter().map(|s| s.wall.as_secs_f64()).collect()
    }

    /// User+sys seconds, one a round.
    pub fn cpus(&self) -> Vec<f64> {
        self.samples.iter().map(|s| s.cpu.as_secs_f64()).collect()
    }

    /// The median peak resident set (bytes).
    pub fn rss(&self) -> u64 {
        measure::median(&self.samples.iter().map(|x| x.max_rss).collect::<Vec<_>>()).unwrap_or(0)
    }
}

/// Runs `rounds` rounds; `accept(name, sample)` may warn about a run (a
/// side that did not accept its input). Progress goes to stderr.
pub fn measure(
    sides: &mut [Contender],
    rounds: usize,
    mut accept: impl FnMut(&str, &Sample),
) -> anyhow::Result<()> {
    let n = sides.len();
    for round in 0..rounds {
        for k in 0..n {
            let side = &mut sides[(round + k) % n];
            let s = measure::run(&mut (side.cmd)())?;
            eprintln!(
                "round {}: {:<40} {:>8.3} s wall {:>8.3} s CPU {:>8.1} MB",
                round + 1,
                side.name,
                s.wall.as_secs_f64(),
                s.cpu.as_secs_f64(),
                s.max_rss as f64 / 1e6
            );
            accept(&side.name, &s);
            side.samples.push(s);
        }
    }
    Ok(())
}

/// The median of a list of floats (the lower middle of an even count).
pub fn fmedian(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get((v.len().max(1) - 1) / 2).copied().unwrap_or(f64::NAN)
}

/// Per-round ratios `a[i] / b[i]`, their median.
pub fn ratio(a: &[f64], b: &[f64]) -> f64 {
    let r: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    fmedian(&r)
}

/// The table: median wall, CPU and peak RSS of each side, and the median
/// of per-round ratios of each side's wall and CPU to the first side's.
pub fn render(sides: &[Contender]) -> String {
    let mut t = String::from(
        "| command | median wall (s) | median user+sys (s) | peak RSS (MB) | wall / first (median of rounds) | CPU / first |\n|---|---:|---:|---:|---:|---:|\n",
    );
    let Some(first) = sides.first() else {
        return t;
    };
    for s in sides {
        t.push_str(&format!(
            "| {} | {:.3} | {:.3} | {:.1} | {:.2}× | {:.2}× |\n",
            s.name,
            fmedian(&s.walls()),
            fmedian(&s.cpus()),
            s.rss() as f64 / 1e6,
            ratio(&s.walls(), &first.walls()),
            ratio(&s.cpus(), &first.cpus()),
        ));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_taken_per_round_then_the_median() {
        // Round ratios 2, 4, 3: median 3 (the ratio of medians would be
        // 4/2 = 2).
        assert_eq!(ratio(&[2.0, 8.0, 6.0], &[1.0, 2.0, 2.0]), 3.0);
        assert_eq!(fmedian(&[5.0, 1.0, 3.0, 2.0]), 2.0);
    }

    #[test]
    fn rounds_rotate_and_every_side_is_measured_each_round() {
        let mut sides = vec![
            Contender::new("a", || Command::new("true")),
            Contender::new("b", || Command::new("true")),
        ];
        measure(&mut sides, 3, |_, _| {}).expect("runs");
        assert!(sides.iter().all(|s| s.samples.len() == 3));
        assert!(render(&sides).contains("| a |"));
    }
}
