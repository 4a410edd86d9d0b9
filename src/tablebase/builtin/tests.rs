use super::*;
use crate::rng::Rng;
use crate::tablebase::build::build;
use crate::tablebase::index::Signature;
use crate::variant::Side;

/// Positions in a whole 5-piece table (`tablebase stats`).
const FIVE_POSITIONS: usize = 18_071_430;

#[test]
fn both_built_in_tables_load() {
    let t = tables();
    for rules in [Rules::Seed, Rules::Classic] {
        let table = t.get(rules).expect("a built-in table");
        assert_eq!(table.pieces(), PIECES);
        assert_eq!(table.len(), 829_940);
        let five = five(rules).expect("a built-in 5-piece table");
        assert_eq!(five.pieces(), FIVE);
        assert_eq!(five.len(), FIVE_POSITIONS);
        assert_eq!(five.signatures(), Signature::all(FIVE).as_slice());
        assert!(
            std::ptr::eq(holding(rules, FIVE).expect("loaded"), five),
            "{rules:?}: the loaded table answers for 5 pieces"
        );
        assert!(holding(rules, FIVE + 1).is_none());
    }
}

/// The built-in tables are the builder's, value for value (about a minute of CPU: run by
/// `.ci/run` with `--ignored`).
#[test]
#[ignore = "builds both 4-piece tables (about a minute); .ci/run runs it"]
fn the_built_in_tables_are_what_the_builder_makes() {
    for rules in [Rules::Seed, Rules::Classic] {
        let built = build(
            rules,
            PIECES,
            crate::tablebase::build::MAX_SWEEPS,
            None,
            &mut |_| {},
        )
        .expect("a valid piece count");
        let embedded = tables().get(rules).expect("a built-in table");
        assert_eq!(
            format::encode(&built.table),
            format::encode(embedded),
            "{rules:?}: rebuild with scripts/pack-builtin-tables.sh"
        );
    }
}

/// The 5-piece tables hold the 4-piece tables, value for value: what the rebuild test
/// checks of those holds of the first 829,940 values of these.
#[test]
fn five_piece_tables_extend_the_four_piece_ones() {
    for rules in [Rules::Seed, Rules::Classic] {
        let four = tables().get(rules).expect("a built-in table");
        let five = five(rules).expect("a built-in 5-piece table");
        for &s in four.signatures() {
            assert_eq!(
                four.signature_values(s),
                five.signature_values(s),
                "{rules:?} {s:?}"
            );
        }
    }
}

/// The 5-piece values cannot be rebuilt in a test (the build takes hours), but a table's
/// values must be a fixed point of the one-turn game: at a sample of positions of every
/// 5-piece signature, the stored value is the value of the matrix game of the position's
/// legal moves over the table's own values of the positions they lead to (to the table's
/// precision). A table whose values were shuffled or damaged fails.
#[test]
fn five_piece_values_are_the_value_of_their_turn() {
    const PER_SIGNATURE: usize = 60;
    let mut rng = Rng::new(5);
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for rules in [Rules::Seed, Rules::Classic] {
        let t = five(rules).expect("a built-in 5-piece table");
        let (mut checked, mut worst, mut fives) = (0, 0.0_f64, 0);
        for &s in t.signatures().iter().filter(|s| s.pieces() == FIVE) {
            fives += 1;
            let n = t
                .signature_values(s)
                .expect("a signature of the table")
                .len() as u64;
            let mut found = 0;
            for _ in 0..PER_SIGNATURE * 4 {
                let pos = t.position(s, rng.below(n)).expect("an index of the table");
                if crate::tablebase::terminal(&pos).is_some() {
                    continue;
                }
                pos.legal_moves(Side::White, &mut white);
                pos.legal_moves(Side::Black, &mut black);
                let turn = t
                    .solve_root(&pos, &white, &black)
                    .expect("children in the table");
                let stored = t.value(&pos).expect("in the table");
                let off = (turn.value - stored).abs();
                assert!(
                    off <= 1e-7,
                    "{rules:?} {}: stored {stored}, its turn's value {}",
                    pos.fen(),
                    turn.value
                );
                worst = worst.max(off);
                found += 1;
                if found == PER_SIGNATURE {
                    break;
                }
            }
            assert!(found > 0, "{rules:?} {s:?}: no unfinished position drawn");
            checked += found;
        }
        assert!(fives >= 20, "{rules:?}: only {fives} 5-piece signatures");
        assert!(
            checked * 4 >= fives * PER_SIGNATURE * 3,
            "{rules:?}: {checked} checked over {fives} signatures"
        );
        assert!(worst < 1e-7, "{rules:?}: worst {worst:e}");
    }
}

#[test]
fn a_search_from_a_small_root_waits_for_the_five_piece_table() {
    let stop = AtomicBool::new(false);
    for rules in [Rules::Seed, Rules::Classic] {
        assert!(prepare(rules, LOAD_FROM, None, &stop));
        assert!(holding(rules, FIVE).is_some());
        // Once loaded, every root has it.
        assert!(prepare(rules, 14, None, &stop));
    }
}

/// A loader of its own (the statics are shared by every test) of the seed table of `pieces`
/// pieces. The 5-piece one takes hundreds of milliseconds to inflate, so a question asked
/// just after its thread starts finds it still loading.
fn own_loader(pieces: u32) -> &'static Loader {
    let (z, limit) = if pieces > PIECES {
        (SEED_FIVE, MAX_BYTES_FIVE)
    } else {
        (SEED, MAX_BYTES)
    };
    Box::leak(Box::new(Loader::new(Rules::Seed, pieces, z, limit)))
}

#[test]
fn a_table_a_thread_is_loading_is_not_waited_for_by_a_probe() {
    let l = own_loader(FIVE);
    l.start();
    // The probe's question while the thread inflates: no table, at once (a probe that
    // inflated or waited here would keep a stopped search from answering).
    assert!(l.available().is_none());
    let stop = AtomicBool::new(false);
    assert!(wait(&[l], None, &stop));
    assert_eq!(l.available().expect("loaded").pieces(), FIVE);

    // A table no search has begun to load is inflated at its first probe.
    let here = own_loader(PIECES);
    assert_eq!(here.available().expect("inflated here").pieces(), PIECES);
}

#[test]
fn a_stopped_wait_ends_before_the_table_is_there() {
    let l = own_loader(FIVE);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(5));
            stop.store(true, Ordering::Relaxed);
        });
        assert!(
            !wait(&[l], None, &stop),
            "stopped before the table was there"
        );
    });
    assert!(
        l.loaded().is_none(),
        "the wait ended while the table was loading"
    );
    // So does a wait whose time has passed.
    let late = own_loader(FIVE);
    assert!(!wait(
        &[late],
        Some(Instant::now()),
        &AtomicBool::new(false)
    ));
    // Both threads finish their tables.
    assert!(wait(&[l, late], None, &AtomicBool::new(false)));
}
