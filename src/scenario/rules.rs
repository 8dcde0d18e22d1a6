//! The rules between a scenario's fields, which no one field's range can
//! say: the ring's and the choosers' sizes, classes and their pools, the
//! schedules' servers and the membership changes, the arrival rate the
//! clock can resolve, warm-up within the run.

use super::*;

impl Scenario {
    /// Each entry `(server, text)` of the schedule `fields` opens with must name one of
    /// the starting servers: the engine applies these schedules to the
    /// servers it starts with, not to those `membership` adds.
    fn check_servers_named(
        &self,
        fields: &'static str,
        entries: impl Iterator<Item = (u32, String)>,
    ) -> Result<(), ScenarioError> {
        let field = fields.split(',').next().unwrap_or(fields);
        let mut entries = entries.enumerate();
        match entries.find(|(_, (server, _))| *server >= self.servers) {
            Some((i, (server, entry))) => Err(ScenarioError::Combination {
                fields,
                message: format!(
                    "entry {} of `{field}`, {}, names server {server}, but the largest is {}: `{field}` names only the {} starting servers, not those `membership` adds",
                    i + 1,
                    echo(&entry),
                    self.servers - 1,
                    self.servers
                ),
            }),
            None => Ok(()),
        }
    }

    /// Replays the membership schedule on a roster of the starting servers:
    /// each change must be possible when it comes, and the most servers
    /// it reaches must fit the limits `servers` must.
    fn check_membership(&self) -> Result<(), ScenarioError> {
        let mut roster = Roster::new(self.servers, &self.class_pools);
        for scheduled in membership::in_order(&self.membership) {
            roster.apply(scheduled.change).map_err(|reason| ScenarioError::Combination {
                fields: "membership, servers",
                message: format!(
                    "the change at {} s ({}) cannot apply: {reason}",
                    fields::format_number(scheduled.at_s),
                    scheduled.change.text()
                ),
            })?;
        }
        let most = roster.len() as u64;
        if most > u64::from(self.servers) {
            let points = most * u64::from(self.virtual_nodes);
            let entries = most * u64::from(self.choosers());
            if points > MAX_RING_POINTS || entries > MAX_KNOWLEDGE_ENTRIES {
                return Err(ScenarioError::Combination {
                    fields: "membership, servers, virtual_nodes, clients, balancers",
                    message: format!(
                        "the schedule adds servers up to {most}: {points} points on the ring (at most {MAX_RING_POINTS}) and {entries} entries for the choosers to track (at most {MAX_KNOWLEDGE_ENTRIES})"
                    ),
                });
            }
        }
        Ok(())
    }

    /// Ejection by success rate or failure percentage compares what each
    /// server answered over an interval, so it needs Envoy's interval.
    fn check_rates_have_an_interval(&self) -> Result<(), ScenarioError> {
        let rates = [
            ("success_rate_stdev_factor, eject_interval_ms", self.success_rate.limit),
            ("failure_percentage_threshold, eject_interval_ms", self.failure_percentage.limit),
        ];
        match rates.into_iter().find(|(_, limit)| limit.is_some()) {
            Some((fields, Some(limit))) if self.eject_interval_ms.is_none() => Err(ScenarioError::Combination {
                fields,
                message: format!(
                    "{} is {} but eject_interval_ms is none: rates are compared at each interval's sweep; give eject_interval_ms (Envoy's interval, 10000 there)",
                    fields.split(',').next().unwrap_or(fields),
                    fields::format_number(limit)
                ),
            }),
            _ => Ok(()),
        }
    }

    /// Workers are a balancer's: clients choosing for themselves have none.
    fn check_workers_have_a_balancer(&self) -> Result<(), ScenarioError> {
        if self.workers_per_balancer == 1 || self.balancers > 0 {
            return Ok(());
        }
        Err(ScenarioError::Combination {
            fields: "workers_per_balancer, balancers",
            message: format!(
                "workers_per_balancer is {} but balancers is 0: workers are a balancer's; give balancers, or leave workers_per_balancer at 1",
                self.workers_per_balancer
            ),
        })
    }

    /// Checks the rules that involve more than one field.
    pub(super) fn check(&self) -> Result<(), ScenarioError> {
        let points = u64::from(self.servers) * u64::from(self.virtual_nodes);
        if points > MAX_RING_POINTS {
            return Err(ScenarioError::Combination {
                fields: "servers, virtual_nodes",
                message: format!(
                    "{} servers with {} virtual nodes each is {points} points on the ring; at most {MAX_RING_POINTS} are allowed",
                    self.servers, self.virtual_nodes
                ),
            });
        }
        let entries = self.knowledge_entries();
        if entries > MAX_KNOWLEDGE_ENTRIES {
            return Err(ScenarioError::Combination {
                fields: "clients, balancers, subset_size",
                message: format!(
                    "{} choosers each tracking {} servers is {entries} entries; at most {MAX_KNOWLEDGE_ENTRIES} are allowed (use balancers or a smaller subset_size)",
                    self.choosers(),
                    entries / u64::from(self.choosers())
                ),
            });
        }
        let classes = self.class_shares.len();
        if !self.class_pools.is_empty() && self.class_pools.len() != classes {
            return Err(ScenarioError::Combination {
                fields: "class_pools, class_shares",
                message: format!(
                    "{} pools for {classes} request classes: give one range of servers per class, or \"all\"",
                    self.class_pools.len()
                ),
            });
        }
        if let Some(&(first, last)) = self.class_pools.iter().find(|&&(_, last)| last >= self.servers) {
            return Err(ScenarioError::Combination {
                fields: "class_pools, servers",
                message: format!("the pool {first}-{last} runs past the last server, {}", self.servers - 1),
            });
        }
        let sessions_per_sec = self.load * self.capacity_per_sec() / f64::from(self.session_length);
        if self.demand == Demand::Continuous && sessions_per_sec > MAX_SESSIONS_PER_SEC {
            return Err(ScenarioError::Combination {
                fields: "load, servers, slots, server_speeds, service_mean_ms, session_length",
                message: format!(
                    "sessions would arrive {sessions_per_sec:.3e} times per simulated second; the clock counts whole nanoseconds, so at most {MAX_SESSIONS_PER_SEC:.0e} are allowed (lower load or capacity, or raise service_mean_ms or session_length)"
                ),
            });
        }
        if self.class_shares.len() != self.class_costs.len() {
            return Err(ScenarioError::Combination {
                fields: "class_shares, class_costs",
                message: format!(
                    "{} shares but {} costs: give one share and one cost per request class",
                    self.class_shares.len(),
                    self.class_costs.len()
                ),
            });
        }
        self.check_servers_named(
            "speed_changes, servers",
            self.speed_changes.iter().map(|c| (c.server, c.text())),
        )?;
        self.check_membership()?;
        self.check_rates_have_an_interval()?;
        self.check_workers_have_a_balancer()?;
        self.check_servers_named("failures, servers", self.failures.iter().map(|f| (f.server, f.text())))?;
        let priorities = self.class_priorities.len();
        if priorities != 1 && priorities != self.class_shares.len() {
            return Err(ScenarioError::Combination {
                fields: "class_priorities, class_shares",
                message: format!(
                    "{priorities} priorities for {} request classes: give one priority per class, or one for all",
                    self.class_shares.len()
                ),
            });
        }
        if self.datacenters > self.servers {
            return Err(ScenarioError::Combination {
                fields: "datacenters, servers",
                message: format!(
                    "{} datacenters for {} servers: each datacenter needs a server",
                    self.datacenters, self.servers
                ),
            });
        }
        if self.warmup_s >= self.duration_s {
            return Err(ScenarioError::Combination {
                fields: "warmup_s, duration_s",
                message: format!(
                    "warmup_s ({}) must be shorter than duration_s ({})",
                    self.warmup_s, self.duration_s
                ),
            });
        }
        Ok(())
    }
}
