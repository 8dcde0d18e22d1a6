//! The followed client's line, in words short enough to read whole where
//! it stands, over the picture: its requests counted by what each is
//! doing, and where. A reader met "Following client 19 (6 sessions under
//! way): a request in service at server 6; a request in service at server
//! 1; a request…", cut at the picture's width; grouped, the same client
//! reads "Following client 19: 6 in service at servers 1, 4 and 6", and
//! beside a twin "Following client 19: 6 in service".

use crate::engine::{Hop, RequestView};
use crate::format::and_list;

/// At most this many servers are named in a group; more are counted
/// ("at 5 servers"), so that the line stays short whatever the run.
const NAMED: usize = 3;

/// Where the line says its requests are.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// Each group names its servers ("queued at server 9"). The line spans
    /// the picture's width.
    Servers,
    /// Counts alone ("2 queued"): beside a twin the line has the room left
    /// of the copies' heading, in the band where the picture names its
    /// tiers; by a lone server, "at the server" each time named nothing
    /// the picture does not, and made chapter 1's line two lines, the
    /// second over the top client (reader 15). The picture shows where the
    /// followed requests are.
    Counts,
    /// Counts in a word each ("1 out, 3 queued, 1 back"), where no other
    /// wording fits the picture's width.
    Brief,
}

impl Naming {
    /// How a line names where its requests are, among `servers`, `beside`
    /// a twin or not.
    pub fn among(servers: usize, beside: bool) -> Naming {
        match beside || servers == 1 {
            true => Naming::Counts,
            false => Naming::Servers,
        }
    }
}

/// What `client`'s requests are doing, from the `requests` drawn.
pub fn words(client: u32, requests: &[RequestView], naming: Naming) -> String {
    format!("Following client {client}: {}. Click it again to stop.", doing(client, requests, naming))
}

/// The line's words in the longest of its wordings for which `fits` holds
/// (one line over the picture), else in its shortest: without "Click it
/// again to stop.", then only counting. In a 680 × 400 frame "Following
/// client 3: 7 in service at 7 servers; 2 answered, coming back. Click it
/// again to stop." took two lines and covered server 0's row.
pub fn fitted(client: u32, requests: &[RequestView], naming: Naming, fits: impl Fn(&str) -> bool) -> String {
    let full = words(client, requests, naming);
    if fits(&full) {
        return full;
    }
    let bare = format!("Following client {client}: {}.", doing(client, requests, naming));
    if fits(&bare) {
        return bare;
    }
    let counted = format!("Client {client}: {}.", doing(client, requests, Naming::Counts));
    if fits(&counted) {
        return counted;
    }
    format!("Client {client}: {}.", doing(client, requests, Naming::Brief))
}

/// What `client`'s requests are doing, grouped, named as `naming` says.
fn doing(client: u32, requests: &[RequestView], naming: Naming) -> String {
    let own: Vec<&RequestView> = requests.iter().filter(|r| r.client == client).collect();
    match own.is_empty() {
        true => "idle, between sessions".to_string(),
        false => Doing::ALL
            .iter()
            .filter_map(|doing| doing.group(own.iter().filter(|r| Doing::of(r.hop) == *doing), naming))
            .collect::<Vec<_>>()
            .join(if naming == Naming::Brief { ", " } else { "; " }),
    }
}

/// What a request is doing, as the line groups it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Doing {
    Opening,
    ToBalancer,
    ToServer,
    Queued,
    InService,
    Bounced,
    Answered,
}

impl Doing {
    /// In the order a trip goes.
    const ALL: [Doing; 7] = [
        Doing::Opening,
        Doing::ToBalancer,
        Doing::ToServer,
        Doing::Queued,
        Doing::InService,
        Doing::Bounced,
        Doing::Answered,
    ];

    fn of(hop: Hop) -> Doing {
        match hop {
            Hop::Handshake => Doing::Opening,
            Hop::ClientToBalancer => Doing::ToBalancer,
            Hop::ClientToServer | Hop::BalancerToServer => Doing::ToServer,
            Hop::Queued => Doing::Queued,
            Hop::InService => Doing::InService,
            Hop::BounceToClient | Hop::BounceToBalancer => Doing::Bounced,
            Hop::ServerToBalancer | Hop::ServerToClient | Hop::BalancerToClient => Doing::Answered,
        }
    }

    /// The group's words ("2 queued at server 3", or "2 queued"), if it
    /// has requests.
    fn group<'a>(
        self,
        requests: impl Iterator<Item = &'a &'a RequestView>,
        naming: Naming,
    ) -> Option<String> {
        let requests: Vec<&RequestView> = requests.copied().collect();
        let count = requests.len();
        if count == 0 {
            return None;
        }
        // Counted alone, in a few words or in one.
        let (counted, brief) = match self {
            Doing::Opening => ("opening a connection", "connecting"),
            Doing::ToBalancer | Doing::ToServer => ("going out", "out"),
            Doing::Queued => ("queued", "queued"),
            Doing::InService => ("in service", "served"),
            Doing::Bounced => ("bounced back", "bounced"),
            Doing::Answered => ("coming back", "back"),
        };
        match naming {
            Naming::Counts => return Some(format!("{count} {counted}")),
            Naming::Brief => return Some(format!("{count} {brief}")),
            Naming::Servers => {}
        }
        // Where the group is: the server (or balancer) each is at or bound
        // for, or, bounced, the server that sent it back.
        let mut at: Vec<u32> =
            requests.iter().map(|r| if self == Doing::Bounced { r.from } else { r.to }).collect();
        at.sort_unstable();
        at.dedup();
        let servers = |tier: &str| match at.len() {
            1 => format!("{tier} {}", at[0]),
            n if n <= NAMED => format!("{tier}s {}", and_list(at.iter().map(u32::to_string))),
            n => format!("{n} {tier}s"),
        };
        Some(match self {
            Doing::Opening => format!("{count} opening a connection"),
            Doing::ToBalancer => format!("{count} going to {}", servers("balancer")),
            Doing::ToServer => format!("{count} going to {}", servers("server")),
            Doing::Queued => format!("{count} queued at {}", servers("server")),
            Doing::InService => format!("{count} in service at {}", servers("server")),
            Doing::Bounced => format!("{count} bounced by {}, going back", servers("server")),
            Doing::Answered => format!("{count} answered, coming back"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(client: u32, hop: Hop, from: u32, to: u32) -> RequestView {
        RequestView { hop, from, to, progress: 0.5, retries: 0, client }
    }

    /// Chapter 6's client 19, six requests under way, read in one line.
    #[test]
    fn a_client_s_requests_are_counted_by_what_they_do_and_where() {
        let requests = [
            request(19, Hop::InService, 19, 6),
            request(19, Hop::InService, 19, 1),
            request(3, Hop::InService, 3, 2),
            request(19, Hop::InService, 19, 4),
            request(19, Hop::Queued, 19, 2),
            request(19, Hop::ServerToClient, 9, 19),
            request(19, Hop::ClientToServer, 19, 2),
        ];
        assert_eq!(
            words(19, &requests, Naming::Servers),
            "Following client 19: 1 going to server 2; 1 queued at server 2; \
             3 in service at servers 1, 4 and 6; 1 answered, coming back. Click it again to stop."
        );
    }

    /// However many servers a group spans, the line names at most three.
    #[test]
    fn many_servers_are_counted_not_named() {
        let requests: Vec<RequestView> =
            (0..8).map(|server| request(0, Hop::InService, 0, server % 5)).collect();
        assert_eq!(
            words(0, &requests, Naming::Servers),
            "Following client 0: 8 in service at 5 servers. Click it again to stop."
        );
        let bounced = [request(2, Hop::BounceToClient, 7, 2)];
        assert_eq!(
            words(2, &bounced, Naming::Servers),
            "Following client 2: 1 bounced by server 7, going back. Click it again to stop."
        );
        assert_eq!(
            words(4, &bounced, Naming::Servers),
            "Following client 4: idle, between sessions. Click it again to stop."
        );
    }

    /// Beside a twin the same client reads in counts alone, in two lines
    /// left of the copies' heading; so does a client of a lone server,
    /// in one line over the tiers' band (chapter 1).
    #[test]
    fn beside_a_twin_or_a_lone_server_groups_are_counted_without_their_servers() {
        let requests = [
            request(19, Hop::InService, 19, 6),
            request(19, Hop::InService, 19, 1),
            request(19, Hop::Queued, 19, 2),
            request(19, Hop::ServerToClient, 9, 19),
            request(19, Hop::ClientToServer, 19, 2),
            request(19, Hop::BounceToClient, 7, 19),
        ];
        assert_eq!(
            words(19, &requests, Naming::Counts),
            "Following client 19: 1 going out; 1 queued; 2 in service; 1 bounced back; \
             1 coming back. Click it again to stop."
        );
        assert!(Naming::among(10, true) == Naming::Counts && Naming::among(10, false) == Naming::Servers);
        let lone = [request(6, Hop::Queued, 6, 0), request(6, Hop::BounceToClient, 0, 6)];
        assert_eq!(
            words(6, &lone, Naming::among(1, false)),
            "Following client 6: 1 queued; 1 bounced back. Click it again to stop."
        );
    }

    /// In a frame too narrow for the whole line, the longest wording that
    /// fits: without its last sentence, then only counting, and the
    /// shortest where nothing fits.
    #[test]
    fn a_narrow_picture_gets_the_longest_wording_that_fits() {
        let requests: Vec<RequestView> = (0..7)
            .map(|server| request(3, Hop::InService, 3, server))
            .chain((0..2).map(|_| request(3, Hop::ServerToClient, 1, 3)))
            .collect();
        let within = |chars: usize| move |text: &str| text.chars().count() <= chars;
        let full = words(3, &requests, Naming::Servers);
        assert_eq!(fitted(3, &requests, Naming::Servers, within(200)), full);
        assert_eq!(
            fitted(3, &requests, Naming::Servers, within(75)),
            "Following client 3: 7 in service at 7 servers; 2 answered, coming back."
        );
        let counted = "Client 3: 7 in service; 2 coming back.";
        assert_eq!(fitted(3, &requests, Naming::Servers, within(50)), counted);
        let brief = "Client 3: 7 served, 2 back.";
        assert_eq!(fitted(3, &requests, Naming::Servers, within(30)), brief);
        assert_eq!(fitted(3, &requests, Naming::Servers, within(5)), brief);
    }
}
