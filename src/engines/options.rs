//! Options as a GUI sees them, declared once and rendered by every front
//! end (UCI `option name …`, CECP `feature option=…`, Hub `param …`).

/// `Opening`: play the first move stored on the tape (`tape`), or let the
/// program think from the initial position (`think`). A name several
/// drivers may declare; the command line's `--think-first-move` sets it.
pub const OPENING: &str = "Opening";
/// `Frames`: how the machine's frame counter moves while the program
/// thinks (`slow`, `fast`). A name drivers on the ZX81 may declare; the
/// command line's `--frames` sets it.
pub const FRAMES: &str = "Frames";

/// An option's type, default and range.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    Text {
        default: String,
    },
}

/// One option.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A value an option refuses: the option's name, the value as given, and
/// what the option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadValue {
    pub option: &'static str,
    pub value: String,
    pub takes: Takes,
}

/// What an option takes, for [`BadValue`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Takes {
    Boolean,
    Range { min: i64, max: i64 },
    OneOf(&'static [&'static str]),
}

impl std::fmt::Display for BadValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let BadValue {
            option,
            value,
            takes,
        } = self;
        write!(f, "option {option}: {value:?} is not ")?;
        match takes {
            Takes::Boolean => f.write_str("true or false"),
            Takes::Range { min, max } => write!(f, "a number from {min} to {max}"),
            Takes::OneOf(vars) => write!(f, "one of {}", vars.join(", ")),
        }
    }
}

impl std::error::Error for BadValue {}

impl OptionSpec {
    /// `value` checked against the option's type and range, in its
    /// canonical spelling (`true`, a combo var as declared, a number).
    ///
    /// # Errors
    /// A value of the wrong type or out of range.
    pub fn check(&self, value: &str) -> Result<String, BadValue> {
        let bad = |takes| BadValue {
            option: self.name,
            value: value.to_string(),
            takes,
        };
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" => Ok("true".to_string()),
                "false" | "0" | "off" => Ok("false".to_string()),
                _ => Err(bad(Takes::Boolean)),
            },
            OptionKind::Spin { min, max, .. } => value
                .parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(&n))
                .map(|n| n.to_string())
                .ok_or_else(|| {
                    bad(Takes::Range {
                        min: *min,
                        max: *max,
                    })
                }),
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|var| var.eq_ignore_ascii_case(value))
                .map(|v| v.to_string())
                .ok_or_else(|| bad(Takes::OneOf(vars))),
            OptionKind::Text { .. } => Ok(value.to_string()),
        }
    }

    /// The same option showing `value` (already checked) as its default.
    pub fn with_default(&self, value: &str) -> OptionSpec {
        let kind = match &self.kind {
            OptionKind::Check { .. } => OptionKind::Check {
                default: value == "true",
            },
            OptionKind::Spin { default, min, max } => OptionKind::Spin {
                default: value.parse().unwrap_or(*default),
                min: *min,
                max: *max,
            },
            OptionKind::Combo { default, vars } => OptionKind::Combo {
                default: vars.iter().find(|v| **v == value).unwrap_or(default),
                vars,
            },
            OptionKind::Text { .. } => OptionKind::Text {
                default: value.to_string(),
            },
        };
        OptionSpec {
            name: self.name,
            kind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_and_canonical() {
        let combo = OptionSpec {
            name: "Frames",
            kind: OptionKind::Combo {
                default: "slow",
                vars: &["slow", "fast"],
            },
        };
        assert_eq!(combo.check("FAST"), Ok("fast".to_string()));
        let e = combo.check("medium").unwrap_err();
        assert_eq!(e.takes, Takes::OneOf(&["slow", "fast"]));
        assert!(e.to_string().contains("not one of slow, fast"), "{e}");
        let spin = OptionSpec {
            name: "Level",
            kind: OptionKind::Spin {
                default: 4,
                min: 4,
                max: 10,
            },
        };
        assert_eq!(spin.check("10"), Ok("10".to_string()));
        assert!(spin.check("11").is_err());
        assert!(spin.check("x").is_err());
        let check = OptionSpec {
            name: "X",
            kind: OptionKind::Check { default: false },
        };
        assert_eq!(check.check("on"), Ok("true".to_string()));
        assert_eq!(
            combo.with_default("fast").kind,
            OptionKind::Combo {
                default: "fast",
                vars: &["slow", "fast"]
            }
        );
    }
}
