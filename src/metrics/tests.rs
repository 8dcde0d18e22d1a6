use super::*;

#[test]
fn samples_track_each_server_and_the_spread_of_work() {
    let mut m = Metrics::new(2, Time::ZERO, 1);
    m.on_service_start(Time(1), 0, Time::ZERO, 0);
    m.on_service_start(Time(1), 1, Time::ZERO, 0);
    m.sample(SAMPLE_INTERVAL, [(1, 0, 1.0), (1, 2, 1.0)].into_iter());
    assert_eq!(m.series.back().unwrap().load_cv, 0.0);
    assert_eq!(m.server_history.back().unwrap(), &vec![(1, 0), (1, 2)]);
    assert_eq!((m.queued_sums.clone(), m.samples_measured), (vec![0, 2], 1));
    // Work 3 and 0: mean 1.5, standard deviation 1.5.
    for _ in 0..3 {
        m.on_service_start(Time(2), 0, Time::ZERO, 0);
    }
    m.sample(SAMPLE_INTERVAL + SAMPLE_INTERVAL, [(0, 0, 1.0), (0, 0, 1.0)].into_iter());
    assert!((m.series.back().unwrap().load_cv - 1.0).abs() < 1e-12);
    // A server twice as fast is expected to start twice the work.
    m.on_service_start(Time(3), 0, Time::ZERO, 0);
    m.on_service_start(Time(3), 0, Time::ZERO, 0);
    m.on_service_start(Time(3), 1, Time::ZERO, 0);
    m.sample(Time(3) + SAMPLE_INTERVAL + SAMPLE_INTERVAL, [(0, 0, 2.0), (0, 0, 1.0)].into_iter());
    assert_eq!(m.series.back().unwrap().load_cv, 0.0);
}

#[test]
fn availability_and_errors_cover_the_last_second() {
    let mut m = Metrics::new(1, Time::ZERO, 1);
    let idle = || [(0, 0, 1.0)].into_iter();
    let mut at = Time::ZERO;
    let mut sample = |m: &mut Metrics| {
        at = at + SAMPLE_INTERVAL;
        m.sample(at, idle());
        *m.series.back().unwrap()
    };
    assert!(sample(&mut m).availability.is_nan(), "nothing ended: no figure");
    // Three complete and one fails in the second interval; two errors heard.
    for _ in 0..3 {
        m.on_request_completed(Time(1), 0, Time(1), (0, 0));
    }
    m.on_failure(Time(1), FailureReason::REFUSED, Time(1));
    (m.counts.refused, m.counts.server_errors) = (1, 1);
    // Over the half second since time zero: 2 errors, 4 a second.
    // The failed request: 2 a second, as availability's unavailable share.
    let point = sample(&mut m);
    assert_eq!((point.availability, point.error_rate, point.failure_rate), (0.75, 4.0, 2.0));
    // The second holds them for three more intervals.
    for rate in [2.0 / 0.75, 2.0, 2.0] {
        let point = sample(&mut m);
        assert_eq!((point.availability, point.error_rate, point.failure_rate), (0.75, rate, rate / 2.0));
    }
    let point = sample(&mut m);
    assert!(point.availability.is_nan(), "a second with nothing ended");
    assert_eq!((point.error_rate, point.failure_rate), (0.0, 0.0));
    m.on_request_completed(Time(2), 0, Time(1), (0, 0));
    assert_eq!(sample(&mut m).availability, 1.0);
}

/// The readouts say "last second": a quarter-second's count scaled up read
/// 596/s from ten busy slots whose capacity is 500/s (149 completions where
/// 125 are expected, 2.1 standard deviations: one interval in 60), where a
/// second's count spreads half as far and 596 is 4.3 deviations away.
#[test]
fn throughput_and_bounces_count_the_last_second() {
    let mut m = Metrics::new(1, Time::ZERO, 1);
    let mut at = Time::ZERO;
    let mut sample = |m: &mut Metrics| {
        at = at + SAMPLE_INTERVAL;
        m.sample(at, [(0, 0, 1.0)].into_iter());
        *m.series.back().unwrap()
    };
    sample(&mut m);
    sample(&mut m);
    sample(&mut m);
    for _ in 0..6 {
        m.on_request_completed(Time(1), 0, Time(1), (0, 0));
    }
    m.counts.bounces = 2;
    // Over the second since time zero: 6 completed, 2 bounced.
    let point = sample(&mut m);
    assert_eq!((point.throughput, point.bounce_rate), (6.0, 2.0));
    // The second holds them for three more intervals, then lets them go.
    for _ in 0..3 {
        let point = sample(&mut m);
        assert_eq!((point.throughput, point.bounce_rate), (6.0, 2.0));
    }
    let point = sample(&mut m);
    assert_eq!((point.throughput, point.bounce_rate), (0.0, 0.0));
}
