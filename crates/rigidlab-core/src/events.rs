//! Contact events: which pairs of bodies started or stopped touching in a step (from the
//! manifolds) and the impacts between them (from the contact solver), kept until read.

use crate::body::BodySet;
use crate::collision::manifold::{ContactPoint, Manifold};
use crate::dynamics::contact_solver::Impact;
use crate::math::DVec3;

/// Most events kept unread (about 6 MB); later ones are counted as dropped. A world whose
/// events are never read must not grow without bound: a settling heap of thousands of bodies
/// makes millions of impacts.
pub const CAPACITY: usize = 1 << 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Begin,
    /// An impact faster than the restitution threshold, one per impact of a pair (all its
    /// points together), including the repeated bounces of a short hop within one step.
    Impact,
    End,
    /// A body began or stopped overlapping a sensor (body_a the sensor), at the moment it did
    /// within the step.
    SensorBegin,
    SensorEnd,
}

impl EventKind {
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Begin => "begin",
            EventKind::Impact => "impact",
            EventKind::End => "end",
            EventKind::SensorBegin => "sensor_begin",
            EventKind::SensorEnd => "sensor_end",
        }
    }
}

/// Two bodies (by id) starting or stopping to touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactEvent {
    pub kind: EventKind,
    pub body_a: u64,
    pub body_b: u64,
    /// When it happened (s): a begin at the time of impact within its step, an end at the
    /// start of the step in which the pair no longer touches.
    pub time: f64,
    /// For a begin or an impact, the point and the normal (from A to B); NaN for an end.
    pub point: DVec3,
    pub normal: DVec3,
    /// For a begin or an impact, the speed at which the bodies approached (m/s); NaN for an
    /// end.
    pub speed: f64,
    /// For an impact, its normal impulse on B (N s); 0 for a begin, NaN for an end.
    pub impulse: f64,
}

/// The pairs touching at the last step, the bodies inside each sensor, and the events not yet
/// read.
#[derive(Clone, Default)]
pub struct ContactEvents {
    touching: Vec<(u64, u64)>,
    /// (sensor id, body id) of each body overlapping a sensor after the last step, sorted.
    pub sensing: Vec<(u64, u64)>,
    now: Vec<(u64, u64)>,
    /// Scratch: each manifold's earliest impact of the step (an index into the impacts).
    first_impact: Vec<usize>,
    pub events: Vec<ContactEvent>,
    /// Events lost because CAPACITY unread events were waiting.
    pub dropped: u64,
}

impl ContactEvents {
    /// A copy that knows which pairs touch, without the events waiting to be read.
    pub fn without_unread(&self) -> ContactEvents {
        ContactEvents {
            touching: self.touching.clone(),
            sensing: self.sensing.clone(),
            now: Vec::new(),
            first_impact: Vec::new(),
            events: Vec::new(),
            dropped: 0,
        }
    }

    /// Events that go on from a world whose `touching` pairs (ids, smaller first) touched and
    /// whose sensors held `sensing` (sensor id, body id) at its last step: what a scene file
    /// keeps, so that a world read back reports no begin for what already began.
    pub fn resume(mut touching: Vec<(u64, u64)>, mut sensing: Vec<(u64, u64)>) -> ContactEvents {
        touching.sort_unstable();
        touching.dedup();
        sensing.sort_unstable();
        sensing.dedup();
        ContactEvents {
            touching,
            sensing,
            ..ContactEvents::default()
        }
    }

    /// The pairs (ids, smaller first) touching at the last step.
    pub fn touching(&self) -> &[(u64, u64)] {
        &self.touching
    }

    /// Records a body entering or leaving a sensor at `time`.
    pub fn sensed(&mut self, sensor: u64, body: u64, begin: bool, time: f64) {
        let nan = DVec3::splat(f64::NAN);
        self.record(ContactEvent {
            kind: if begin {
                EventKind::SensorBegin
            } else {
                EventKind::SensorEnd
            },
            body_a: sensor,
            body_b: body,
            time,
            point: nan,
            normal: nan,
            speed: f64::NAN,
            impulse: f64::NAN,
        });
    }

    fn record(&mut self, e: ContactEvent) {
        if self.events.len() < CAPACITY {
            self.events.push(e);
        } else {
            self.dropped += 1;
        }
    }

    /// Compares the pairs touching in the step that started at `start` with those of the step
    /// before, and reports the step's impacts, in the order they happened. A pair touches when
    /// one of its points carried an impulse or closed its gap within the step.
    pub fn update(
        &mut self,
        manifolds: &[Manifold],
        impacts: &[Impact],
        bodies: &BodySet,
        start: f64,
    ) {
        let first_new = self.events.len();
        for i in impacts {
            let m = &manifolds[i.manifold];
            let (Some(a), Some(b)) = (bodies.get(m.a), bodies.get(m.b)) else {
                continue;
            };
            self.record(ContactEvent {
                kind: EventKind::Impact,
                body_a: a.id,
                body_b: b.id,
                time: start + i.time,
                point: i.point,
                normal: i.normal,
                speed: i.speed,
                impulse: i.impulse,
            });
        }
        self.now.clear();
        self.now.extend(
            manifolds
                .iter()
                .filter_map(|m| touching(m, bodies).map(|t| t.0)),
        );
        self.now.sort_unstable();
        self.now.dedup();
        // Mostly the same pairs as last step: nothing began or ended.
        if self.now != self.touching {
            self.first_impact.clear();
            self.first_impact.resize(manifolds.len(), usize::MAX);
            for (k, i) in impacts.iter().enumerate() {
                let first = &mut self.first_impact[i.manifold];
                if *first == usize::MAX || i.time < impacts[*first].time {
                    *first = k;
                }
            }
            for (index, m) in manifolds.iter().enumerate() {
                let Some((key, p, a, b)) = touching(m, bodies) else {
                    continue;
                };
                if self.touching.binary_search(&key).is_err() {
                    let speed = m
                        .points
                        .iter()
                        .map(|p| p.approach_speed)
                        .fold(0.0, f64::max);
                    let time = start + p.touch_time.unwrap_or(0.0);
                    // A pair that begins with an impact touches where and as the impact does
                    // (the manifold's point and normal are of the step's start; the bodies
                    // have moved and turned by the time of impact).
                    let (point, normal) = match self.first_impact[index] {
                        usize::MAX => (p.point, m.normal),
                        k => (impacts[k].point, impacts[k].normal),
                    };
                    self.record(ContactEvent {
                        kind: EventKind::Begin,
                        body_a: a,
                        body_b: b,
                        time,
                        point,
                        normal,
                        speed,
                        impulse: 0.0,
                    });
                }
            }
            let nan = DVec3::splat(f64::NAN);
            for i in 0..self.touching.len() {
                let key = self.touching[i];
                if self.now.binary_search(&key).is_err() {
                    self.record(ContactEvent {
                        kind: EventKind::End,
                        body_a: key.0,
                        body_b: key.1,
                        time: start,
                        point: nan,
                        normal: nan,
                        speed: f64::NAN,
                        impulse: f64::NAN,
                    });
                }
            }
        }
        std::mem::swap(&mut self.touching, &mut self.now);
        // Ends first (they happened by the step's start), then begins before their impacts.
        let rank = |k: EventKind| match k {
            EventKind::End | EventKind::SensorEnd => 0,
            EventKind::Begin | EventKind::SensorBegin => 1,
            EventKind::Impact => 2,
        };
        let first_new = first_new.min(self.events.len());
        self.events[first_new..].sort_by(|x, y| {
            x.time
                .total_cmp(&y.time)
                .then(rank(x.kind).cmp(&rank(y.kind)))
        });
    }
}

/// When manifold m touches (a point pushed or touched in the last step): its pair's key (body
/// ids, smaller first), its earliest touching point and its bodies' ids.
fn touching<'m>(
    m: &'m Manifold,
    bodies: &BodySet,
) -> Option<((u64, u64), &'m ContactPoint, u64, u64)> {
    let first = m
        .points
        .iter()
        .filter(|p| p.normal_impulse > 0.0 || p.touch_time.is_some())
        .min_by(|x, y| {
            x.touch_time
                .unwrap_or(f64::INFINITY)
                .total_cmp(&y.touch_time.unwrap_or(f64::INFINITY))
        });
    let (p, a, b) = (first?, bodies.get(m.a)?, bodies.get(m.b)?);
    Some(((a.id.min(b.id), a.id.max(b.id)), p, a.id, b.id))
}
