//! Which pairs of bodies collide: each body's collision filter, and the pairs a world sets
//! apart. Applied in the broad phase, so a pair filtered out never reaches the narrow phase.
//!
//! Two bodies collide when each one's category is in the other's mask and they are not in
//! the same non-zero group (the bodies of a ragdoll or a chain, which overlap at their joints).

use serde::{Deserialize, Serialize};

/// A body's collision filter: the default collides with everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// The categories the body belongs to (bits).
    pub category: u32,
    /// The categories it collides with (bits).
    pub collides_with: u32,
    /// Bodies in the same non-zero group never collide with each other.
    pub group: u32,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            category: 1,
            collides_with: u32::MAX,
            group: 0,
        }
    }
}

impl Filter {
    /// Whether bodies with filters `self` and `other` collide.
    #[inline]
    pub fn allows(&self, other: &Filter) -> bool {
        (self.group == 0 || self.group != other.group)
            && self.category & other.collides_with != 0
            && other.category & self.collides_with != 0
    }

    pub fn is_default(&self) -> bool {
        *self == Filter::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_masks_and_groups() {
        let f = |category, collides_with, group| Filter {
            category,
            collides_with,
            group,
        };
        let any = Filter::default();
        assert!(any.allows(&any));
        // A ghost (mask 0) meets nothing, and nothing meets it.
        assert!(!f(1, 0, 0).allows(&any) && !any.allows(&f(1, 0, 0)));
        // Each one's category must be in the other's mask.
        assert!(f(0b01, 0b10, 0).allows(&f(0b10, 0b01, 0)));
        assert!(!f(0b01, 0b10, 0).allows(&f(0b10, 0b10, 0)));
        // The same non-zero group never collides; different groups or none follow the masks.
        assert!(!f(1, u32::MAX, 7).allows(&f(1, u32::MAX, 7)));
        assert!(f(1, u32::MAX, 7).allows(&f(1, u32::MAX, 8)));
        assert!(f(1, u32::MAX, 7).allows(&any));
    }
}
