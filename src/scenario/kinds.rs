//! The named choices a scenario offers.

use serde::Serialize;

macro_rules! named_choice {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn from_name(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

named_choice! {
    /// How requests arrive.
    Demand {
        Spike => "spike",
        Continuous => "continuous",
    }
}

named_choice! {
    /// The distribution of a request's service time.
    ServiceDistribution {
        Constant => "constant",
        Exponential => "exponential",
        Lognormal => "lognormal",
        Pareto => "pareto",
    }
}

named_choice! {
    /// Which losing copies of a hedged request stop at once.
    HedgeCancel {
        InService => "in-service",
        Queued => "queued",
    }
}

impl HedgeCancel {
    /// Whether a loser already in service is cancelled (else it finishes).
    pub fn cancels_in_service(self) -> bool {
        self == HedgeCancel::InService
    }
}

named_choice! {
    /// How a FoundationDB balancer orders its alternatives when servers
    /// stand in several datacenters.
    DcOrder {
        LocalFirst => "local-first",
        Any => "any",
    }
}

named_choice! {
    /// Which key a request carries: its session's (every request of a
    /// session goes where the key lives: affinity), or its own.
    KeyPer {
        Session => "session",
        Request => "request",
    }
}

named_choice! {
    /// What a chooser picks a server for: each request (a balancer; a
    /// client's session keeps its server), or each client connection,
    /// which then carries the client's requests (kube-proxy, an L4
    /// balancer, an HTTP/2 or gRPC channel).
    BalancePer {
        Request => "request",
        Connection => "connection",
    }
}

named_choice! {
    /// How an outlier's ejections lengthen, the kth of a run: Envoy's
    /// linear k × base, Linkerd's exponential 2^(k−1) × base, or Finagle's
    /// equal-jittered backoff (the base, then 2^(k−2) × base, each
    /// lengthened by a uniform draw of up to itself).
    EjectGrowth {
        Linear => "linear",
        Exponential => "exponential",
        EqualJittered => "equal-jittered",
    }
}

named_choice! {
    /// What a retry budget's percentage is of: the requests outstanding
    /// now (Envoy), or the requests made over its window (Linkerd, Finagle).
    BudgetOf {
        Active => "active",
        Requests => "requests",
    }
}

named_choice! {
    /// How each chooser's pool is drawn: `subset_size` servers at random
    /// per chooser, or by the SRE book's deterministic subsetting; or
    /// Finagle's deterministic aperture (`min_aperture`).
    SubsetMode {
        Random => "random",
        Deterministic => "deterministic",
        Aperture => "aperture",
    }
}

named_choice! {
    /// Which servers a retry may go to: whichever its chooser's policy
    /// picks (Envoy's default, with no predicate; repick's rule itself
    /// avoids the server the try came back from), or, with Envoy's
    /// `previous_hosts` predicate, a pick of that server is made again.
    RetryHosts {
        Any => "any",
        PreviousHosts => "previous_hosts",
    }
}
