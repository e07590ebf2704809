//! Tunables: the search and evaluation parameters a tuner may move, each named
//! once where the code that reads it lives, settable as the engine option of
//! that name (`setoption name Tune_AspirationDelta value 40`) and listed by
//! `usi` only after `setoption name ShowTunables value true`.
//!
//! Values live in plain structs (an evaluator's weights, a searcher's
//! parameters), owned by the engine instance that uses them: two sessions in
//! one process can be tuned differently. A struct lists its tunables once
//! ([`Params::TUNABLES`]: name, range and where the value lives); its default
//! value is the default of each.

use crate::core::OptionSpec;

/// A tunable's name and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The option name, `Tune_` and the parameter's name.
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
}

impl Spec {
    /// How `usi` announces it, with `default`.
    pub fn option(&self, default: i32) -> OptionSpec {
        OptionSpec::spin(self.name, default as i64, self.min as i64, self.max as i64)
    }
}

/// One named integer parameter of the set `P`: its name, its range and the
/// field that holds its value.
pub struct Tunable<P> {
    pub spec: Spec,
    pub value: fn(&mut P) -> &mut i32,
}

impl<P> Tunable<P> {
    pub const fn new(
        name: &'static str,
        min: i32,
        max: i32,
        value: fn(&mut P) -> &mut i32,
    ) -> Tunable<P> {
        Tunable {
            spec: Spec { name, min, max },
            value,
        }
    }
}

/// A set of parameters, each a tunable: visited one by one, in a fixed order,
/// by whoever lists, reads or sets them by name.
pub trait Tuned {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32));
}

/// A set of parameters listed by one table.
pub trait Params: Sized + 'static {
    const TUNABLES: &'static [Tunable<Self>];
}

impl<P: Params> Tuned for P {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32)) {
        visit_list(self, P::TUNABLES, visit);
    }
}

/// Visits the tunables `list` names in `set`.
pub fn visit_list<P>(set: &mut P, list: &[Tunable<P>], visit: &mut dyn FnMut(Spec, &mut i32)) {
    for tunable in list {
        visit(tunable.spec, (tunable.value)(set));
    }
}

/// A set without tunables.
impl Params for () {
    const TUNABLES: &'static [Tunable<()>] = &[];
}

/// The engine option that makes `usi` list the tunables.
pub const SHOW_TUNABLES: &str = "ShowTunables";

/// The prefix every tunable's name starts with.
pub const PREFIX: &str = "Tune_";

/// The tunables of `set` as options, their values in `set` as the defaults.
pub fn specs(set: &mut dyn Tuned) -> Vec<OptionSpec> {
    let mut specs = Vec::new();
    set.visit(&mut |spec, value| specs.push(spec.option(*value)));
    specs
}

/// The tunable of that name (any case) in `set`, with its value.
pub fn get(set: &mut dyn Tuned, name: &str) -> Option<(Spec, i32)> {
    let mut found = None;
    set.visit(&mut |spec, value| {
        if found.is_none() && spec.name.eq_ignore_ascii_case(name) {
            found = Some((spec, *value));
        }
    });
    found
}

/// Sets the tunable of that name (any case) in `set`: `None` when there is
/// none, an error when `value` is outside its range.
pub fn set(set: &mut dyn Tuned, name: &str, value: i32) -> Option<Result<(), String>> {
    let mut result = None;
    set.visit(&mut |spec, slot| {
        if result.is_none() && spec.name.eq_ignore_ascii_case(name) {
            result = Some(if (spec.min..=spec.max).contains(&value) {
                *slot = value;
                Ok(())
            } else {
                Err(format!(
                    "{} must be within {}..{}, not {value}",
                    spec.name, spec.min, spec.max
                ))
            });
        }
    });
    result
}

/// Two sets visited as one, `first`'s tunables first.
pub struct Both<'a>(pub &'a mut dyn Tuned, pub &'a mut dyn Tuned);

impl Tuned for Both<'_> {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32)) {
        self.0.visit(visit);
        self.1.visit(visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    struct Set {
        a: i32,
        b: [i32; 2],
    }

    impl Params for Set {
        const TUNABLES: &'static [Tunable<Set>] = &[
            Tunable::new("Tune_A", 1, 9, |s| &mut s.a),
            Tunable::new("Tune_B1", -5, 5, |s| &mut s.b[1]),
        ];
    }

    #[test]
    fn a_tunable_takes_values_in_its_range_only() {
        let mut set = Set { a: 5, b: [7, 0] };
        assert_eq!(get(&mut set, "tune_a").map(|(_, v)| v), Some(5));
        assert!(super::set(&mut set, "Tune_A", 10).unwrap().is_err());
        assert_eq!(set.a, 5);
        super::set(&mut set, "TUNE_B1", -5).unwrap().unwrap();
        assert_eq!(set.b, [7, -5], "only the listed field");
        assert!(super::set(&mut set, "Tune_C", 1).is_none());
        let mut other = Set { a: 2, b: [0, 0] };
        let names: Vec<_> = specs(&mut Both(&mut set, &mut other))
            .iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["Tune_A", "Tune_B1", "Tune_A", "Tune_B1"]);
    }
}
