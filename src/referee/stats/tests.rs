use super::*;
use crate::referee::results::{GameResult, ResultsFile};

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() < eps
}

/// A game of `a` against `b`; `a_score` is 1, 0.5 or 0.
fn game(game: u32, pair: u32, a_white: bool, a_score: f64) -> GameRecord {
    let white_score = if a_white { a_score } else { 1.0 - a_score };
    let result = match white_score {
        1.0 => GameResult::WhiteWins,
        0.0 => GameResult::BlackWins,
        _ => GameResult::Draw,
    };
    let (white, black) = if a_white { ("a", "b") } else { ("b", "a") };
    GameRecord {
        game,
        pair,
        white: white.to_owned(),
        black: black.to_owned(),
        result,
        plies: 10,
        opening: "-".to_owned(),
        reason: "test".to_owned(),
    }
}

/// Games with the given scores for `a`, each its own pair (so the model is trinomial).
fn unpaired(scores: &[f64]) -> Vec<GameRecord> {
    (0..)
        .zip(scores)
        .map(|(i, &s)| game(i, i, i % 2 == 0, s))
        .collect()
}

fn wdl(w: usize, d: usize, l: usize) -> Vec<f64> {
    [vec![1.0; w], vec![0.5; d], vec![0.0; l]].concat()
}

const SPRT: Sprt = Sprt {
    elo0: 0.0,
    elo1: 10.0,
    alpha: 0.05,
    beta: 0.05,
};

#[test]
fn trinomial_figures() {
    // 10 W 5 D 5 L: score 12.5/20 = 0.625; Elo -400·log10(1/0.625 − 1) = 88.74.
    // Variance per game: (10·0.375² + 5·0.125² + 5·0.625²)/20 = 3.4375/20 = 0.171875;
    // standard error sqrt(0.171875/20) = 0.092702; 1.96·se = 0.181694; the score interval
    // 0.443306..0.806694 is -39.56..248.18 Elo, a half-width of 143.87.
    let s = Summary::new(&unpaired(&wdl(10, 5, 5)), "a", Some(SPRT));
    assert_eq!((s.wins, s.draws, s.losses, s.games()), (10, 5, 5, 20));
    assert_eq!(s.score(), Some(0.625));
    assert!(close(s.elo().unwrap(), 88.7395, 1e-3));
    let sample = s.sample.unwrap();
    assert_eq!(sample.model, Model::Trinomial);
    assert!(close(sample.variance, 0.171875, 1e-12));
    let (low, high) = s.elo_interval().unwrap();
    assert!(
        close(low, -39.565, 1e-2) && close(high, 248.185, 1e-2),
        "{low} {high}"
    );
    // s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.514387;
    // LLR = 20·0.014387·(1.25 − 1.014387)/(2·0.171875) = 0.19723.
    let t = s.sprt.unwrap();
    assert!(close(t.llr, 0.19723, 1e-4), "{}", t.llr);
    assert!(close(t.upper, 2.944439, 1e-6) && close(t.lower, -2.944439, 1e-6));
    assert_eq!(t.decision, Decision::Continue);
    assert_eq!(
        s.to_string(),
        "Score of a vs b: 10 - 5 - 5  [0.625] 20 games\n\
         Elo difference: 88.7 +/- 143.9 (95%: -39.6 to 248.2)\n\
         Ends: by the rules 20\n\
         SPRT: llr 0.20 (-2.94, 2.94) [0.0, 10.0] continue\n"
    );
}

#[test]
fn pentanomial_figures() {
    // Eight complete pairs with pair scores 2, 1½, 1, 1, ½, 2, 1, 1½ (per game: 1, ¾, ½, ½,
    // ¼, 1, ½, ¾): mean 0.65625, variance 0.0615234, se sqrt(0.0615234/8) = 0.087695;
    // Elo 112.33, interval -10.86..273.16; LLR = 8·0.014387·(1.3125 − 1.014387)/(2·0.0615234)
    // = 0.27885.
    let pair_games: [(f64, f64); 8] = [
        (1.0, 1.0),
        (1.0, 0.5),
        (1.0, 0.0),
        (0.5, 0.5),
        (0.5, 0.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (0.5, 1.0),
    ];
    let records: Vec<GameRecord> = (0..)
        .zip(pair_games)
        .flat_map(|(p, (x, y))| [game(2 * p, p, true, x), game(2 * p + 1, p, false, y)])
        .collect();
    let s = Summary::new(&records, "a", Some(SPRT));
    assert_eq!(s.pentanomial, Some([0, 1, 3, 2, 2]));
    let sample = s.sample.unwrap();
    assert_eq!((sample.model, sample.n), (Model::Pentanomial, 8));
    assert!(close(sample.mean, 0.65625, 1e-12));
    assert!(close(sample.variance, 0.0615234375, 1e-12));
    assert!(close(s.elo().unwrap(), 112.3306, 1e-3));
    let (low, high) = s.elo_interval().unwrap();
    assert!(
        close(low, -10.864, 1e-2) && close(high, 273.158, 1e-2),
        "{low} {high}"
    );
    assert!(close(s.sprt.unwrap().llr, 0.278853, 1e-4));
    assert!(s.to_string().contains("Ptnml(0-2): [0, 1, 3, 2, 2]\n"));

    // One game less: a pair is incomplete, so the model falls back to trinomial.
    let s = Summary::new(&records[..15], "a", None);
    assert_eq!(s.pentanomial, None);
    assert_eq!(s.sample.unwrap().model, Model::Trinomial);
}

#[test]
fn edge_cases() {
    let s = Summary::new(&[], "a", Some(SPRT));
    assert_eq!(
        s.to_string(),
        "Score of a vs nobody: 0 - 0 - 0  [n/a] 0 games\n\
         Elo difference: n/a\n\
         SPRT: llr 0.00 (-2.94, 2.94) [0.0, 10.0] continue\n"
    );
    let s = Summary::new(&unpaired(&wdl(5, 0, 0)), "a", None);
    assert_eq!(s.elo(), Some(f64::INFINITY));
    assert_eq!(s.elo_interval(), None);
    assert!(s.to_string().contains("Elo difference: +inf\n"));
    let s = Summary::new(&unpaired(&wdl(0, 0, 3)), "a", None);
    assert!(s.to_string().contains("Elo difference: -inf\n"));
    let s = Summary::new(&unpaired(&wdl(0, 4, 0)), "a", Some(SPRT));
    // All draws: the spread comes from the pseudo-results (4 draws and 0, 0.5, 1: variance
    // 0.5/7), around the observed mean.
    assert!(
        s.to_string()
            .contains("Elo difference: 0.0 +/- 202.1 (95%: -202.1 to 202.1)\n"),
        "{s}"
    );
    // All alike: one pseudo-result of each value joins the sample; 4 draws are no evidence
    // either way (mean 0.5 against s0 = 0.5, s1 = 0.5144: slightly for H0).
    let t = s.sprt.unwrap();
    assert!(t.llr < 0.0 && t.llr > -0.1, "{}", t.llr);
    assert_eq!(t.decision, Decision::Continue);
    // A run of wins decides, but not at once. [0, 100]: s0 = 0.5, s1 = 0.640065.
    // 2 wins: mean (2 + 1.5)/5 = 0.7, variance (2*0.09 + 0.49 + 0.04 + 0.09)/5 = 0.16,
    // llr = 2 * 0.140065 * (1.4 - 1.140065) / 0.32 = 0.22755.
    let strong = Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let t = Summary::new(&unpaired(&wdl(2, 0, 0)), "a", Some(strong))
        .sprt
        .unwrap();
    assert!(close(t.llr, 0.22755, 1e-4), "{}", t.llr);
    assert_eq!(t.decision, Decision::Continue);
    // 10 wins: mean 11.5/13, variance 1.076923/13, llr = 5.3196 > 2.944: H1.
    let t = Summary::new(&unpaired(&wdl(10, 0, 0)), "a", Some(strong))
        .sprt
        .unwrap();
    assert!(close(t.llr, 5.3196, 1e-3), "{}", t.llr);
    assert_eq!(t.decision, Decision::H1);
    // An interval reaching past a score of 1 has an infinite end.
    let s = Summary::new(&unpaired(&wdl(3, 0, 1)), "a", None);
    assert!(s.to_string().contains(" to +inf)"), "{s}");
    assert!(
        !s.to_string().contains("+/-"),
        "no half-width of an infinite interval: {s}"
    );
}

#[test]
fn pairs_that_all_split_still_have_an_interval() {
    // Every pair 1-1: the pentanomial variance is 0, but the games are wins and losses.
    let records: Vec<GameRecord> = (0..10)
        .flat_map(|p| [game(2 * p, p, true, 1.0), game(2 * p + 1, p, false, 0.0)])
        .collect();
    let s = Summary::new(&records, "a", None);
    assert_eq!(s.pentanomial, Some([0, 0, 10, 0, 0]));
    assert_eq!(s.sample.unwrap().model, Model::Trinomial);
    let (low, high) = s.elo_interval().unwrap();
    // 20 games of variance 1/4: half-width 1.96 * sqrt(0.25 / 20) = 0.219 in score.
    assert!(low < -150.0 && high > 150.0, "{low} {high}");
    assert!(!s.to_string().contains("+/- 0.0"), "{s}");
}

#[test]
fn games_of_others_are_skipped() {
    let mut records = unpaired(&wdl(1, 1, 1));
    records.push(GameRecord {
        white: "c".to_owned(),
        ..game(3, 3, true, 1.0)
    });
    let s = Summary::new(&records, "a", None);
    assert_eq!((s.games(), s.skipped), (3, 1));
    assert!(s.to_string().contains("(1 games without a not counted)"));
    assert_eq!(Summary::new(&records, "b", None).opponent, "a, c");
}

#[test]
fn sprt_moves_with_the_results() {
    let llr = |w, d, l| {
        SPRT.test(
            Summary::new(&unpaired(&wdl(w, d, l)), "a", None)
                .sample
                .as_ref(),
        )
    };
    // Below the midpoint of s0 and s1 the evidence favours H0, above it H1.
    assert!(llr(10, 10, 10).llr < 0.0);
    assert!(llr(11, 10, 10).llr > llr(10, 10, 11).llr);
    assert!(llr(20, 10, 10).llr > llr(15, 10, 10).llr);
    assert_eq!(llr(300, 100, 100).decision, Decision::H1);
    assert_eq!(llr(2000, 2000, 2000).decision, Decision::H0);
    // Check the formula once more by hand: 300 W 100 D 100 L, mean 0.7, variance
    // (300·0.09 + 100·0.04 + 100·0.49)/500 = 0.16; LLR = 500·0.014387·(1.4 − 1.014387)/0.32.
    let s1 = score_from_elo(10.0);
    let expected = 500.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
    assert!(close(expected, 8.6686, 1e-3), "{expected}");
    assert!(close(llr(300, 100, 100).llr, expected, 1e-9));
}

/// Known answers computed outside this code, by a Python transcription of the closed form
/// (`n·(s1 − s0)·(2·mean − s0 − s1)/(2·variance)`, population variance of the units):
///
/// ```text
/// s = lambda e: 1 / (1 + 10 ** (-e / 400))
/// pentanomial [3, 10, 40, 12, 5], [0, 5]: n 70, mean 0.5214285714, var 0.0477551020,
///     llr 0.1880574044
/// trinomial 300 W 150 D 250 L, [-5, 15]: n 700, mean 0.5357142857, var 0.1951530612,
///     llr 2.9435179805; alpha 0.05, beta 0.1: bounds ln(0.1/0.95) = -2.2512917986,
///     ln(0.9/0.05) = 2.8903717579
/// ```
#[test]
fn llr_matches_an_independent_computation() {
    let splits: [(f64, f64); 5] = [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0)];
    let mut records = Vec::new();
    let mut pair = 0;
    for (k, count) in [3, 10, 40, 12, 5].into_iter().enumerate() {
        for _ in 0..count {
            let (x, y) = splits[k];
            records.push(game(2 * pair, pair, true, x));
            records.push(game(2 * pair + 1, pair, false, y));
            pair += 1;
        }
    }
    let narrow = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let s = Summary::new(&records, "a", Some(narrow));
    let sample = s.sample.unwrap();
    assert_eq!((sample.model, sample.n), (Model::Pentanomial, 70));
    assert!(close(sample.mean, 0.521_428_571_4, 1e-9));
    assert!(close(sample.variance, 0.047_755_102_0, 1e-9));
    let t = s.sprt.unwrap();
    assert!(close(t.llr, 0.188_057_404_4, 1e-8), "{}", t.llr);
    assert_eq!(t.decision, Decision::Continue);

    let shifted = Sprt {
        elo0: -5.0,
        elo1: 15.0,
        alpha: 0.05,
        beta: 0.1,
    };
    let s = Summary::new(&unpaired(&wdl(300, 150, 250)), "a", Some(shifted));
    let t = s.sprt.unwrap();
    assert!(close(t.llr, 2.943_517_980_5, 1e-8), "{}", t.llr);
    assert!(close(t.lower, -2.251_291_798_6, 1e-9), "{}", t.lower);
    assert!(close(t.upper, 2.890_371_757_9, 1e-9), "{}", t.upper);
    assert_eq!(t.decision, Decision::H1);
}

#[test]
fn elo_and_score_are_inverse() {
    for elo in [-500.0, -10.0, 0.0, 33.3, 700.0] {
        assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
    }
}

#[test]
fn shards_merge_in_order() {
    let dir = std::env::temp_dir();
    let path = |n: &str| dir.join(format!("quill-merge-{}-{n}.txt", std::process::id()));
    let (p1, p2, p3) = (path("1"), path("2"), path("3"));
    for p in [&p1, &p2, &p3] {
        let _ = std::fs::remove_file(p);
    }
    let mut f1 = ResultsFile::create(&p1, "shard 1").unwrap();
    let mut f2 = ResultsFile::create(&p2, "shard 2").unwrap();
    let mut f3 = ResultsFile::create(&p3, "shard 3").unwrap();
    for g in [4, 5, 0] {
        f2.append(&game(g, g / 2, g % 2 == 0, 1.0)).unwrap();
    }
    for g in [2, 3, 1] {
        f1.append(&game(g, g / 2, g % 2 == 0, 0.5)).unwrap();
    }
    // Shard 3 repeats game 0 of shard 2 identically, then game 1 of shard 1 differently.
    f3.append(&game(0, 0, true, 1.0)).unwrap();
    let merged = merge(&[p1.clone(), p2.clone(), p3.clone()]).unwrap();
    let order: Vec<u32> = merged.iter().map(|r| r.game).collect();
    assert_eq!(order, [0, 1, 2, 3, 4, 5]);
    assert_eq!(merged[4], game(4, 2, true, 1.0));
    f3.append(&game(1, 0, false, 1.0)).unwrap();
    let err = merge(&[p1.clone(), p2.clone(), p3.clone()]).unwrap_err();
    assert!(matches!(err, Error::Conflict { game: 1, .. }), "{err}");
    for p in [&p1, &p2, &p3] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn pairs_mostly_split_by_the_openings_are_warned_of() {
    // Fourteen pairs split 1-1 (each engine won with White) and one pair drawn and lost: the
    // pentanomial variance is that of the one pair, and the summary says so.
    let mut records: Vec<GameRecord> = (0..14)
        .flat_map(|p| [game(2 * p, p, true, 1.0), game(2 * p + 1, p, false, 0.0)])
        .collect();
    records.extend([game(28, 14, true, 0.5), game(29, 14, false, 0.0)]);
    let s = Summary::new(&records, "a", Some(SPRT));
    assert_eq!((s.pentanomial, s.split_pairs), (Some([0, 1, 14, 0, 0]), 14));
    let text = s.to_string();
    assert!(
        text.contains("WARNING: 14 of 15 pairs split 1-1 (a win each, with the same colour)"),
        "{text}"
    );
    assert!(text.contains("rest on the 1 other pairs"), "{text}");
    // Two draws are no split; half the pairs split is not most.
    let mut records: Vec<GameRecord> = (0..2)
        .flat_map(|p| [game(2 * p, p, true, 1.0), game(2 * p + 1, p, false, 0.0)])
        .collect();
    records
        .extend((2..4).flat_map(|p| [game(2 * p, p, true, 0.5), game(2 * p + 1, p, false, 0.5)]));
    let s = Summary::new(&records, "a", None);
    assert_eq!((s.pentanomial, s.split_pairs), (Some([0, 0, 4, 0, 0]), 2));
    assert!(!s.to_string().contains("WARNING"), "{s}");
}
