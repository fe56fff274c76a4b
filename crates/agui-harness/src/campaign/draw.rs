//! Drawing a campaign's cases: each case number, with the campaign seed,
//! fixes a swarm configuration, a mode and the generator's bytes, so a
//! case is reproduced from `(seed, number)` alone whatever ran before it
//! (or on which worker).

use crate::generated::GenMode;
use crate::suite::{Origin, SuiteCase};
use agui_gen::Config;
use agui_gen::rng::SplitMix;
use agui_model::RuleId;
use arbitrary::{Arbitrary, Unstructured};

/// Which streams a campaign draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mix {
    /// Only valid streams (projection and false rejections).
    Valid,
    /// Only streams breaking a rule.
    Invalid,
    /// One valid stream in four, the rest invalid.
    #[default]
    Mixed,
}

/// Everything a generated stream is made from: shrinking edits this and
/// regenerates, so every candidate keeps an expectation by construction.
#[derive(Debug, Clone, PartialEq)]
pub struct Recipe {
    pub config: Config,
    pub mode: GenMode,
    /// The generator's unstructured input (ChaCha8 bytes of the case seed).
    pub bytes: Vec<u8>,
    /// The case seed the bytes came from (for the record).
    pub seed: u64,
}

/// The seed of case `number` of the campaign `seed`.
pub fn case_seed(seed: u64, number: u64) -> u64 {
    let mut m = SplitMix::new(seed ^ number.wrapping_mul(0xD1B5_4A32_D192_ED03));
    m.next_u64()
}

/// Draws case `number`: a swarm config (random limits and switches, so
/// one campaign explores few-and-deep, many-and-parallel, chunked or not,
/// stateful, multi-run shapes), a mode from `mix` and `rules` (every
/// violation rule when empty), and the generator's bytes.
pub fn draw(seed: u64, number: u64, mix: Mix, rules: &[RuleId]) -> Recipe {
    let s = case_seed(seed, number);
    let mut rng = SplitMix::new(s);
    let knobs = rng.bytes(64);
    let config = Config::arbitrary(&mut Unstructured::new(&knobs)).unwrap_or_default();
    let pick_rule = |rng: &mut SplitMix| -> GenMode {
        let all: Vec<RuleId>;
        let pool = if rules.is_empty() {
            all = RuleId::violations().collect();
            &all
        } else {
            rules
        };
        match pool.get(rng.below(pool.len())) {
            Some(r) => GenMode::Invalid(*r),
            None => GenMode::Valid,
        }
    };
    let mode = match mix {
        Mix::Valid => GenMode::Valid,
        Mix::Invalid => pick_rule(&mut rng),
        Mix::Mixed if rng.chance(1, 4) => GenMode::Valid,
        Mix::Mixed => pick_rule(&mut rng),
    };
    let bytes = agui_gen::front::seeded_bytes(&config, s);
    Recipe {
        config,
        mode,
        bytes,
        seed: s,
    }
}

impl Recipe {
    /// The case this recipe makes, with its expectation by construction;
    /// `None` when the generator declines the bytes (a mutator finding no
    /// site in a tiny scenario).
    pub fn make(&self, id: &str) -> Option<SuiteCase> {
        let g = agui_gen::generate(
            &self.config,
            self.mode.into(),
            &mut Unstructured::new(&self.bytes),
        )
        .ok()?;
        let case = g.into_case(id.to_string(), self.seed);
        let mut c = SuiteCase::from_corpus(case, std::path::PathBuf::new()).ok()?;
        c.origin = Origin::Generated {
            seed: self.seed,
            mode: self.mode,
            variant: Default::default(),
        };
        Some(c)
    }

    /// Draws case `number` and makes it, trying the next derived seeds
    /// when the generator declines (deterministically).
    pub fn draw_case(
        seed: u64,
        number: u64,
        mix: Mix,
        rules: &[RuleId],
    ) -> Option<(Recipe, SuiteCase)> {
        let first = draw(seed, number, mix, rules);
        let id = first.mode.case_id("fuzz", number);
        (0..8u64).find_map(|attempt| {
            let mut r = first.clone();
            if attempt > 0 {
                r.seed = case_seed(first.seed, attempt);
                r.bytes = agui_gen::front::seeded_bytes(&r.config, r.seed);
            }
            let c = r.make(&id)?;
            Some((r, c))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_depends_only_on_the_seed_and_its_number() {
        let a = Recipe::draw_case(7, 42, Mix::Mixed, &[]).map(|(r, c)| (r, c.events));
        let b = Recipe::draw_case(7, 42, Mix::Mixed, &[]).map(|(r, c)| (r, c.events));
        assert!(a.is_some());
        assert_eq!(a, b);
        let other = Recipe::draw_case(8, 42, Mix::Mixed, &[]).map(|(r, _)| r);
        assert_ne!(a.map(|x| x.0), other);
    }

    #[test]
    fn modes_follow_the_mix_and_the_rules() {
        for n in 0..40 {
            assert_eq!(draw(1, n, Mix::Valid, &[]).mode, GenMode::Valid);
            assert_ne!(draw(1, n, Mix::Invalid, &[]).mode, GenMode::Valid);
            assert_eq!(
                draw(1, n, Mix::Invalid, &[RuleId::TextNotOpen]).mode,
                GenMode::Invalid(RuleId::TextNotOpen)
            );
        }
        let valid = (0..400)
            .filter(|n| draw(3, *n, Mix::Mixed, &[]).mode == GenMode::Valid)
            .count();
        // One in four, give or take.
        assert!((60..140).contains(&valid), "{valid}");
    }

    #[test]
    fn configs_vary_across_cases() {
        let configs: std::collections::BTreeSet<String> = (0..50)
            .map(|n| format!("{:?}", draw(5, n, Mix::Mixed, &[]).config))
            .collect();
        assert!(configs.len() > 40, "{}", configs.len());
    }
}
