//! `agui-bench jobs`: does `agui-conform run -j 2` beat `-j 1`? The worker
//! counts run alternately, round after round (the order rotates each round,
//! so neither always runs first), and each round's walls are compared with
//! each other: on a shared machine the median of per-round ratios is
//! steadier than a ratio of medians. The load average is printed before and
//! after, since it decides what two workers can gain.

use crate::measure::{self, Sample, median};
use anyhow::bail;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Plan {
    pub conform: PathBuf,
    /// `--impl` of `agui-conform run` (`reference`: the built-in model).
    pub implementation: String,
    pub suite: String,
    pub rounds: usize,
    /// Worker counts; the first is the baseline of the ratios.
    pub jobs: Vec<usize>,
    /// Further arguments to `agui-conform run`.
    pub extra: Vec<String>,
}

/// The measurements of one worker count.
#[derive(Debug, Clone, Default)]
pub struct Series {
    pub jobs: usize,
    pub samples: Vec<Sample>,
}

/// What a whole measurement found.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    pub series: Vec<Series>,
    /// [`capacity`] before each round.
    pub capacity: Vec<f64>,
}

impl Series {
    pub fn walls(&self) -> Vec<f64> {
        self.samples.iter().map(|s| s.wall.as_secs_f64()).collect()
    }
}

/// The worker counts in the order round `round` runs them: rotated by one
/// each round.
pub fn order(jobs: usize, round: usize) -> impl Iterator<Item = usize> {
    (0..jobs).map(move |k| (k + round) % jobs.max(1))
}

/// The median of a list of floats (the lower middle of an even count),
/// `NaN` for none.
pub fn median_f64(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.get((v.len().max(1) - 1) / 2).copied().unwrap_or(f64::NAN)
}

/// `base[i] / other[i]` for every round: above 1 when `other` was faster.
pub fn ratios(base: &[f64], other: &[f64]) -> Vec<f64> {
    base.iter().zip(other).map(|(b, o)| b / o).collect()
}

/// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` has them.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// How many cores this process gets right now: a fixed CPU loop timed on
/// one thread, then on two at once; `2 × one / two` is about 2 when two
/// cores are free and about 1 when the machine (or its scheduler: Linux
/// shares CPU between sessions, not threads, under `sched_autogroup`)
/// gives this process one core's worth, in which case no `-j` can win.
pub fn capacity() -> f64 {
    let spin = |n: u64| {
        let mut x = 0u64;
        for i in 0..n {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        x
    };
    // Long enough (about 50 ms) to outlast a scheduler tick or two.
    let mut n = 1u64 << 16;
    let one = loop {
        let t = std::time::Instant::now();
        spin(n);
        let d = t.elapsed();
        if d >= Duration::from_millis(50) || n >= 1 << 40 {
            break d;
        }
        n *= 2;
    };
    let t = std::time::Instant::now();
    std::thread::scope(|s| {
        let a = s.spawn(|| spin(n));
        spin(n);
        let _ = a.join();
    });
    2.0 * one.as_secs_f64() / t.elapsed().as_secs_f64()
}

/// `uptime`'s own line, when the command is there.
pub fn uptime() -> Option<String> {
    let out = Command::new("uptime").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn command(plan: &Plan, jobs: usize) -> Command {
    let mut c = Command::new(&plan.conform);
    c.args(["run", "--no-progress", "--format", "json", "--suite"])
        .arg(&plan.suite)
        .arg("--impl")
        .arg(&plan.implementation)
        .arg("-j")
        .arg(jobs.to_string())
        .args(&plan.extra);
    c
}

/// Runs every round; `progress` sees each sample as it is taken.
pub fn measure(
    plan: &Plan,
    mut progress: impl FnMut(usize, usize, &Sample),
) -> anyhow::Result<Measured> {
    if plan.jobs.is_empty() || plan.rounds == 0 {
        bail!("nothing to measure: give at least one worker count and one round");
    }
    let mut series: Vec<Series> = plan
        .jobs
        .iter()
        .map(|&jobs| Series {
            jobs,
            samples: Vec::new(),
        })
        .collect();
    let mut capacity = Vec::new();
    for round in 0..plan.rounds {
        capacity.push(self::capacity());
        for k in order(plan.jobs.len(), round) {
            let s = measure::run(&mut command(plan, series[k].jobs))?;
            // 0: every case passed, 1: some case did not; anything else
            // (usage error, an incomplete run) times something else.
            if s.code != 0 && s.code != 1 {
                let tail: String = s.stdout.chars().rev().take(400).collect();
                let tail: String = tail.chars().rev().collect();
                bail!(
                    "`agui-conform run -j {}` exited with {}: the run did not complete\n{tail}",
                    series[k].jobs,
                    s.code
                );
            }
            progress(round, series[k].jobs, &s);
            series[k].samples.push(s);
        }
        let codes: Vec<i32> = series
            .iter()
            .filter_map(|s| s.samples.last())
            .map(|s| s.code)
            .collect();
        if codes.windows(2).any(|w| w[0] != w[1]) {
            bail!(
                "round {}: the worker counts ended differently (exit statuses {codes:?})",
                round + 1
            );
        }
    }
    Ok(Measured { series, capacity })
}

/// The report: a table of medians and the median of per-round ratios
/// against the first worker count.
pub fn render(plan: &Plan, m: &Measured) -> String {
    use std::fmt::Write;
    let series = &m.series;
    let mut out = String::new();
    let secs = |d: Duration| d.as_secs_f64();
    let _ = writeln!(out, "| -j | median wall (s) | min | max | median CPU (s) |");
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|");
    for s in series {
        let w = s.walls();
        let cpu =
            median(&s.samples.iter().map(|x| x.cpu).collect::<Vec<_>>()).unwrap_or(Duration::ZERO);
        let _ = writeln!(
            out,
            "| {} | {:.3} | {:.3} | {:.3} | {:.2} |",
            s.jobs,
            median_f64(&w),
            w.iter().copied().fold(f64::INFINITY, f64::min),
            w.iter().copied().fold(0.0, f64::max),
            secs(cpu)
        );
    }
    let Some(base) = series.first() else {
        return out;
    };
    for s in &series[1..] {
        let r = ratios(&base.walls(), &s.walls());
        let faster = r.iter().filter(|x| **x > 1.0).count();
        let _ = writeln!(
            out,
            "median of per-round ratios, wall -j {} / -j {}: {:.2}× (-j {} faster in {faster} of {} rounds)",
            base.jobs,
            s.jobs,
            median_f64(&r),
            s.jobs,
            plan.rounds
        );
    }
    if !m.capacity.is_empty() {
        let _ = writeln!(
            out,
            "cores this process got (two spinning threads against one, before each round): median {:.2}, min {:.2}, max {:.2}",
            median_f64(&m.capacity),
            m.capacity.iter().copied().fold(f64::INFINITY, f64::min),
            m.capacity.iter().copied().fold(0.0, f64::max),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_rotates_so_each_count_leads_in_turn() {
        let firsts: Vec<usize> = (0..4).map(|r| order(2, r).next().unwrap_or(9)).collect();
        assert_eq!(firsts, [0, 1, 0, 1]);
        assert_eq!(order(3, 1).collect::<Vec<_>>(), [1, 2, 0]);
    }

    #[test]
    fn ratios_are_per_round_and_their_median_is_taken() {
        // Round by round: 2/1, 3/2, 4/1 → 2, 1.5, 4; median 2.
        let r = ratios(&[2.0, 3.0, 4.0], &[1.0, 2.0, 1.0]);
        assert_eq!(r, [2.0, 1.5, 4.0]);
        assert_eq!(median_f64(&r), 2.0);
        assert!(median_f64(&[]).is_nan());
    }

    #[test]
    fn the_table_names_each_worker_count() {
        let sample = |wall_ms: u64| Sample {
            wall: Duration::from_millis(wall_ms),
            cpu: Duration::from_millis(wall_ms),
            max_rss: 0,
            code: 0,
            stdout: String::new(),
        };
        let plan = Plan {
            conform: PathBuf::new(),
            implementation: "reference".into(),
            suite: "default".into(),
            rounds: 2,
            jobs: vec![1, 2],
            extra: Vec::new(),
        };
        let series = vec![
            Series {
                jobs: 1,
                samples: vec![sample(1000), sample(1200)],
            },
            Series {
                jobs: 2,
                samples: vec![sample(500), sample(800)],
            },
        ];
        let m = Measured {
            series,
            capacity: vec![1.0, 2.0, 1.8],
        };
        let text = render(&plan, &m);
        assert!(
            text.contains("| 1 | 1.000 | 1.000 | 1.200 | 1.00 |"),
            "{text}"
        );
        assert!(
            text.contains("| 2 | 0.500 | 0.500 | 0.800 | 0.50 |"),
            "{text}"
        );
        // Ratios 2.0 and 1.5: the lower middle is 1.5.
        assert!(
            text.contains("wall -j 1 / -j 2: 1.50× (-j 2 faster in 2 of 2 rounds)"),
            "{text}"
        );
        assert!(text.contains("median 1.80, min 1.00, max 2.00"), "{text}");
    }
}
