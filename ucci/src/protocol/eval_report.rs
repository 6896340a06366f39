//! The static evaluation report behind the `eval` command (as Pikafish and
//! Stockfish print it): which evaluation is in use, for a net every output bucket's
//! verdict on the position with the one the engine uses marked, for the handcrafted
//! evaluation its terms, and the final value from Red's side and from the side to
//! move's. Plain text lines; the front-end decides how to send them.
//!
//! The final value is computed the way search computes a static evaluation: the
//! net's head for the position's piece count (`Network::bucket_of`), clamped into
//! the evaluation band as `eval::Nnue` clamps it, or `hce_terms`' total, which is
//! `Hce::evaluate`'s. The tests hold it equal to the engine's own `AnyEval`.

use engine::eval::{hce_terms, EvalChoice, HceTerms};
use engine::score::EVAL_LIMIT;
use nets::{buckets, Accumulator, Backend, Network};
use rules::{Color, Position};

/// What the report says, before it is written out.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    /// The static evaluation from the side to move's view (also computed in check,
    /// where search does not use it).
    stm: i32,
    /// For a net: every head's output, side to move's view, and the head used.
    heads: Option<(Vec<i32>, usize)>,
    /// For the handcrafted evaluation: its terms.
    terms: Option<HceTerms>,
}

fn verdict(pos: &Position, eval: &EvalChoice) -> Verdict {
    match eval {
        EvalChoice::Nnue(net) => {
            let backend = Backend::detect();
            let acc = Accumulator::refresh(net, pos, backend);
            let outputs = acc.evaluate_every_bucket(net, pos.side_to_move(), backend);
            let used = net.bucket_of(pos);
            let stm = outputs[used].clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1);
            Verdict {
                stm,
                heads: Some((outputs, used)),
                terms: None,
            }
        }
        EvalChoice::Hce => {
            let terms = hce_terms(pos);
            Verdict {
                stm: terms.total,
                heads: None,
                terms: Some(terms),
            }
        }
    }
}

/// `v` (side to move's view) from Red's view.
fn red_view(pos: &Position, v: i32) -> i32 {
    if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }
}

/// Centipawns as pawns with a sign: `+0.25`.
fn pawns(cp: i32) -> String {
    let sign = if cp < 0 { '-' } else { '+' };
    let a = cp.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// The header naming a net: embedded or from a file, its shape and identity.
fn net_header(net: &Network, eval: &EvalChoice) -> String {
    let embedded = EvalChoice::embedded().is_ok_and(|e| &e == eval);
    let which = if embedded {
        format!("embedded net {}", nets::EMBEDDED_NET_FILE)
    } else {
        "net file (EvalFile)".to_string()
    };
    format!(
        "NNUE evaluation ({which}: {} hidden neurons per side, {} output bucket{}, {} bytes, checksum {:016x})",
        nets::HIDDEN,
        net.buckets(),
        if net.buckets() == 1 { "" } else { "s" },
        net.as_bytes().len(),
        net.checksum()
    )
}

/// The static evaluation report of `pos` under `eval`, line by line.
pub fn eval_report(pos: &Position, eval: &EvalChoice) -> Vec<String> {
    let v = verdict(pos, eval);
    let mut out = Vec::new();
    let pieces = pos.occupied().count();
    match eval {
        EvalChoice::Nnue(net) => {
            out.push(net_header(net, eval));
            out.push(
                "(one hidden layer feeds every bucket: no separate material and positional parts)"
                    .to_string(),
            );
            if let Some((outputs, used)) = &v.heads {
                out.push(" Bucket | Pieces | Side to move | Red side |".to_string());
                out.push("--------+--------+--------------+----------+".to_string());
                for (b, &o) in outputs.iter().enumerate() {
                    let range = match buckets::piece_range(b, net.buckets()) {
                        Some((lo, hi)) if lo == hi => format!("{lo}"),
                        Some((lo, hi)) => format!("{lo}-{hi}"),
                        None => "-".to_string(),
                    };
                    let mark = if b == *used {
                        format!(" <- this position ({pieces} pieces)")
                    } else {
                        String::new()
                    };
                    out.push(format!(
                        " {b:>6} | {range:>6} | {:>12} | {:>8} |{mark}",
                        pawns(o),
                        pawns(red_view(pos, o))
                    ));
                }
            }
        }
        EvalChoice::Hce => {
            out.push(format!(
                "Handcrafted evaluation (EvalFile {})",
                engine::eval::HCE_NAME
            ));
            if let Some(t) = &v.terms {
                out.push(" Term (Red side)            |    MG    |    EG    |".to_string());
                out.push("----------------------------+----------+----------+".to_string());
                let row = |name: &str, (mg, eg): (i32, i32)| {
                    format!(" {name:<26} | {:>8} | {:>8} |", pawns(mg), pawns(eg))
                };
                out.push(row("Material and squares", t.psq));
                out.push(row("Red's other terms", t.red));
                out.push(row("Black's other terms", (-t.black.0, -t.black.1)));
                out.push(row(
                    "Sum",
                    (t.psq.0 + t.red.0 - t.black.0, t.psq.1 + t.red.1 - t.black.1),
                ));
                out.push(format!(
                    "Phase {} of {}: blend {} (Red side){}",
                    t.phase,
                    t.phase_max,
                    pawns(t.blended),
                    if t.scaled_down {
                        ", scaled down: the side ahead has nothing left to attack with"
                    } else {
                        ""
                    }
                ));
                out.push(format!("Tempo (side to move) {}", pawns(t.tempo)));
            }
        }
    }
    out.push(String::new());
    if pos.in_check() {
        let who = match pos.side_to_move() {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        out.push(format!(
            "{who} to move is in check: search takes no static evaluation here (it would be {} from the side to move)",
            pawns(v.stm)
        ));
        out.push("Final evaluation: none (in check)".to_string());
    } else {
        out.push(format!(
            "Final evaluation: {} (Red side), {} (side to move) [cp {} / cp {}]",
            pawns(red_view(pos, v.stm)),
            pawns(v.stm),
            red_view(pos, v.stm),
            v.stm
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::{AnyEval, Evaluator};
    use std::sync::Arc;

    const START_BLACK: &str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

    /// The static evaluation search takes: a fresh evaluator reset at the position.
    fn engine_static_eval(pos: &Position, eval: &EvalChoice) -> i32 {
        let mut e = AnyEval::new(eval);
        e.reset(pos);
        e.evaluate(pos)
    }

    fn final_line(lines: &[String]) -> &str {
        lines
            .iter()
            .find(|l| l.starts_with("Final evaluation"))
            .map(|l| l.as_str())
            .unwrap_or_else(|| panic!("no final line in {lines:#?}"))
    }

    fn choices() -> Vec<EvalChoice> {
        let mut f = nets::reference::init_random_bucketed(5, 4);
        f.out_w
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = ((i % 7) as f32 - 3.0) * 0.3);
        let file_net = EvalChoice::Nnue(Arc::new(f.quantise().expect("valid net")));
        vec![EvalChoice::default(), EvalChoice::Hce, file_net]
    }

    fn positions() -> Vec<Position> {
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "r1bakab1r/9/1cn4c1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 5",
            "3akab2/9/4b4/p3p3p/2r6/9/P3P3P/4C4/4A4/2BAK1B2 w - - 0 30",
            "3aka3/9/4b4/9/9/9/9/4B4/4P4/3AKA3 w - - 0 50",
            "4k4/9/9/9/9/9/2n6/9/4A4/3AK4 b - - 0 60",
            "2b1k4/9/9/9/9/9/9/9/9/3K5 w - - 0 70",
        ]
        .iter()
        .map(|f| Position::from_fen(f).expect("test FEN"))
        .chain([Position::startpos()])
        .collect()
    }

    #[test]
    fn start_position_is_symmetric_and_the_side_to_move_sign_flips() {
        for eval in choices() {
            let red_to_move = Position::startpos();
            let black_to_move = Position::from_fen(START_BLACK).expect("FEN");
            let w = verdict(&red_to_move, &eval);
            let b = verdict(&black_to_move, &eval);
            // The same position for whoever moves: the same value for the mover.
            assert_eq!(w.stm, b.stm, "{eval:?}");
            assert_eq!(red_view(&red_to_move, w.stm), w.stm);
            assert_eq!(red_view(&black_to_move, b.stm), -b.stm);
            let v = w.stm;
            assert_eq!(
                final_line(&eval_report(&red_to_move, &eval)),
                format!(
                    "Final evaluation: {} (Red side), {} (side to move) [cp {v} / cp {v}]",
                    pawns(v),
                    pawns(v)
                )
            );
            assert_eq!(
                final_line(&eval_report(&black_to_move, &eval)),
                format!(
                    "Final evaluation: {} (Red side), {} (side to move) [cp {} / cp {v}]",
                    pawns(-v),
                    pawns(v),
                    -v
                )
            );
            // After a move Black is to move: the Red-side value is the mover's negated.
            let mut pos = Position::startpos();
            let m = pos.parse_move("h2e2").expect("legal");
            pos.make_move(m);
            let after = engine_static_eval(&pos, &eval);
            assert_eq!(
                final_line(&eval_report(&pos, &eval)),
                format!(
                    "Final evaluation: {} (Red side), {} (side to move) [cp {} / cp {after}]",
                    pawns(-after),
                    pawns(after),
                    -after
                )
            );
        }
    }

    #[test]
    fn the_final_value_is_the_engines_static_evaluation() {
        for eval in choices() {
            for pos in positions() {
                let v = verdict(&pos, &eval);
                assert_eq!(v.stm, engine_static_eval(&pos, &eval), "{}", pos.to_fen());
                let line = final_line(&eval_report(&pos, &eval)).to_string();
                assert!(
                    line.ends_with(&format!(
                        "(side to move) [cp {} / cp {}]",
                        red_view(&pos, v.stm),
                        v.stm
                    )),
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn the_marked_bucket_is_the_one_the_engine_uses() {
        for eval in choices() {
            let EvalChoice::Nnue(net) = &eval else {
                continue;
            };
            let mut used_seen = std::collections::BTreeSet::new();
            for pos in positions() {
                let lines = eval_report(&pos, &eval);
                let rows: Vec<&String> = lines
                    .iter()
                    .filter(|l| {
                        l.split('|')
                            .next()
                            .is_some_and(|c| c.trim().parse::<usize>().is_ok())
                    })
                    .collect();
                assert_eq!(rows.len(), net.buckets(), "{lines:#?}");
                let marked: Vec<usize> = rows
                    .iter()
                    .filter(|l| l.contains("<- this position"))
                    .map(|l| {
                        l.split('|')
                            .next()
                            .unwrap_or("")
                            .trim()
                            .parse()
                            .unwrap_or(99)
                    })
                    .collect();
                let used = net.bucket_of(&pos);
                assert_eq!(marked, vec![used], "{}: {lines:#?}", pos.to_fen());
                used_seen.insert(used);
                // The marked row's side-to-move value is the engine's static evaluation.
                let row = rows[used];
                let stm_cell = row.split('|').nth(2).unwrap_or("").trim();
                assert_eq!(stm_cell, pawns(engine_static_eval(&pos, &eval)), "{row}");
                assert!(row.contains(&format!("({} pieces)", pos.occupied().count())));
            }
            assert!(
                used_seen.len() >= 3,
                "positions cover few buckets: {used_seen:?}"
            );
        }
    }

    #[test]
    fn headers_name_the_evaluation() {
        let pos = Position::startpos();
        let [embedded, hce, file] = <[EvalChoice; 3]>::try_from(choices()).expect("three");
        let e = eval_report(&pos, &embedded);
        assert!(
            e[0].starts_with("NNUE evaluation (embedded net qili-"),
            "{e:#?}"
        );
        assert!(e[0].contains("8 output buckets"), "{e:#?}");
        let f = eval_report(&pos, &file);
        assert!(f[0].starts_with("NNUE evaluation (net file"), "{f:#?}");
        assert!(f[0].contains("4 output buckets"), "{f:#?}");
        let h = eval_report(&pos, &hce);
        assert_eq!(h[0], "Handcrafted evaluation (EvalFile <hce>)");
        assert!(
            h.iter().any(|l| l.starts_with(" Material and squares")),
            "{h:#?}"
        );
        assert!(
            h.iter().any(|l| l.starts_with("Tempo (side to move)")),
            "{h:#?}"
        );
    }

    #[test]
    fn in_check_there_is_no_final_value() {
        // Black's king on e9 is checked by Red's rook on e5.
        let pos = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1").expect("FEN");
        assert!(pos.in_check());
        for eval in choices() {
            let lines = eval_report(&pos, &eval);
            assert_eq!(final_line(&lines), "Final evaluation: none (in check)");
            assert!(lines
                .iter()
                .any(|l| l.starts_with("Black to move is in check")));
        }
    }

    #[test]
    fn pawns_are_written_with_a_sign_and_two_decimals() {
        assert_eq!(pawns(25), "+0.25");
        assert_eq!(pawns(0), "+0.00");
        assert_eq!(pawns(-7), "-0.07");
        assert_eq!(pawns(-1234), "-12.34");
        assert_eq!(pawns(i32::MIN), "-21474836.48");
    }
}
