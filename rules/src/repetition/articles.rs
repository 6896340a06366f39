//! The rule-book articles behind a ruling, in one table (`ARTICLES`): their numbers,
//! citations and texts. Which articles a cycle is decided by is chosen where each
//! decision is made and carried with it: a chase's and a move's by the labels
//! (`grounds.rs`, `Chase::articles`, `MoveLabel::articles`), a side's with its offence
//! (`verdict::side_articles`), the principle by the branch of the verdict that decides
//! (`decide_with_principle`); `basis` only collects them from a `CycleJudgement`.
//!
//! The books, as the repository's copies of their texts number them (docs/RULES.md):
//! * the 1982 AXF draft 棋例初稿 (李志海): 乙 1–4, how a cycle is decided, and its
//!   four 重要原则 (principles 一–四);
//! * the AXF detailed rules 棋例细则 1–35 (亚洲棋规);
//! * the Chinese Xiangqi Association rules 2020 (象棋竞赛规则): 第六章 第24条 24.1–24.15
//!   (the terms) and the 第八章 figures 图2–图15.
//!
//! Under `RuleSet::Chinese` the 2020 numbers are cited; where the 2020 book's own
//! decision article is not in the repository's copies (a perpetual check against
//! another forbidden perpetual; the rook held by a knight), the 1982 principle or AXF
//! rule the code applies is cited instead.

use super::CycleJudgement;
use std::fmt;

/// One citable article.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Article {
    /// 1982 draft, 乙 棋例之裁决 1–4.
    Verdict(u8),
    /// 1982 draft, 重要原则 一–四 (1–4).
    Principle(u8),
    /// AXF 棋例细则 1–35.
    Axf(u8),
    /// Chinese 2020 rules, article 24.n (第24条 术语解释).
    Cn(u8),
    /// Chinese 2020 rules, 第八章 figure n (图n).
    CnFigure(u8),
}

/// An article's number as printed and a short statement, in Chinese and English.
#[derive(Clone, Copy, Debug)]
pub struct ArticleText {
    pub article: Article,
    pub zh: &'static str,
    pub en: &'static str,
}

use Article::*;

/// Every article the code can cite. A test checks that each is cited by at least one
/// judged cycle of the test data.
pub static ARTICLES: &[ArticleText] = &[
    t(Verdict(1), "双方均无触犯禁例而又互不变着者，可判作和", "neither side breaks a rule: a draw"),
    t(Verdict(2), "一方长将，一方长捉，则长将者必须变着，不变作负", "perpetual check against a perpetual chase: the checker must change or lose"),
    t(Verdict(3), "除长将外，双方均触犯禁例者，可判作和", "both sides break a rule (other than a check against a chase): a draw"),
    t(Verdict(4), "甲方犯例而乙方不犯例时，应由甲方变着，不变作负", "one side breaks a rule and the other does not: it must change or lose"),
    t(Principle(3), "凡连续捉一无根子者即作为长捉", "chasing one unprotected piece on every move is a perpetual chase"),
    t(Principle(4), "捉有根子时，如对方被兑换后要失子者，仍等于捉无根子论", "a protected piece that loses material in the exchange counts as unprotected (and one that does not, is not chased)"),
    t(Axf(1), "单方一子长将或多子交替长将者均需变着，不变作负", "perpetual check, by one piece or several in turn, must change"),
    t(Axf(2), "双方循环长将（解将反将）作和", "both sides check perpetually: a draw"),
    t(Axf(3), "二将一还将，长将者作负", "two checks against one check back: the perpetual checker loses"),
    t(Axf(4), "长杀作和", "perpetual mate threats (长杀): a draw"),
    t(Axf(5), "解杀反杀作和", "answering mate threats with mate threats: a draw"),
    t(Axf(6), "一将一叫杀作和", "one check, one mate threat: a draw"),
    t(Axf(7), "一将一捉或多将一捉均作和局", "one check and one chase (or several checks and one chase): a draw"),
    t(Axf(8), "一将一闲，一将一要抽吃均作和局", "one check and one idle move (or one threat to win by a check): a draw"),
    t(Axf(9), "单炮或双炮不能长捉一车，有根车亦不能长捉之", "a cannon may not perpetually chase a rook, protected or not"),
    t(Axf(10), "单炮分别轮回长捉两车作和，双炮分别轮回长捉两车亦作和", "one or two cannons chasing two rooks in turn: a draw"),
    t(Axf(11), "一捉一要抽吃判和局", "one chase and one threat to win by a discovered check: a draw"),
    t(Axf(12), "车可长捉有根炮", "a rook may keep attacking a protected cannon"),
    t(Axf(13), "车捉无根炮……均不得长捉之", "a rook may not perpetually chase an unprotected cannon"),
    t(Axf(14), "车被马牵制不能移动时，无论马是否有根，均不能以任何子长捉车", "a rook held by a knight may not be chased by any piece, whether the knight is protected or not"),
    t(Axf(15), "炮马不能分别长捉一车，无论车是否有根……炮马方亦不能长捉之", "a cannon and a knight (or two knights) may not chase one rook in turn, protected or not"),
    t(Axf(16), "马长捉车……马方亦不能长捉之", "a knight may not perpetually chase a rook"),
    t(Axf(17), "车马循环长捉作和", "rook and knight chasing each other in a cycle: a draw"),
    t(Axf(18), "车长捉马……车方均不能长捉之", "a rook may not perpetually chase a knight"),
    t(Axf(19), "捉同类子，双方均未受牵制互能去子者，视为长献；一方不能去子时，对方不能长捉之", "like pieces that can take each other offer an exchange; if one cannot take back, the other chases it"),
    t(Axf(20), "炮利用别子做炮台捉无根之马、士、象、过河兵卒，仍作为长捉", "a cannon chasing over a moving screen chases (knight, advisor, elephant, crossed pawn)"),
    t(Axf(21), "炮利用别子为炮台捉对方之车，仍视为长捉", "a cannon chasing a rook over a moving screen chases"),
    t(Axf(22), "车被炮牵制不能离线……如以车捉之，不视为献着，如果有一步有根，则该着不作为捉子", "a rook held on its line by a cannon: a rook attacking it is no offer, and chases it only where it is unprotected"),
    t(Axf(23), "将帅长捉子作和", "a king's perpetual chase is allowed"),
    t(Axf(24), "兵卒长捉子作和", "a pawn's perpetual chase is allowed"),
    t(Axf(25), "将帅或兵卒若每步都联合其他子长捉一子仍作负局", "a king or pawn joined by another piece on every move chases"),
    t(Axf(26), "车不能长捉已渡河兵卒", "a rook may not perpetually chase a crossed pawn"),
    t(Axf(27), "一子轮捉两子或多子作和，两子分别轮捉两子或多子亦作和局", "chasing two or more pieces in turn: a draw"),
    t(Axf(28), "两子或多子轮捉一子作负", "two or more pieces chasing one piece in turn must change"),
    t(Axf(29), "有根子被捉时，如其根受牵制失去保护力者（假根），则不能长捉之", "a protector that cannot legally take back is a false root: the piece is chased"),
    t(Axf(30), "两子或多子劫一子时，如该子为真根子，不作长捉论", "several pieces attacking one truly protected piece: no perpetual chase"),
    t(Axf(31), "捉两步而其中一步兼兑者仍作长捉", "a chase that is also an offer of exchange is still a chase"),
    t(Axf(32), "凡甲方车帅被乙方车炮联合控制时，甲方如果以马或炮长捉乙方该车，仍视为长捉，不变作负", "a rook and king held by the enemy rook and cannon: a knight or cannon chasing that rook still chases"),
    t(Axf(33), "长要抽吃作和", "perpetual threats to win by a discovered check: a draw"),
    t(Axf(34), "长拦作和", "perpetual blocking: a draw"),
    t(Axf(35), "长兑，长献均作和", "perpetual offers of exchange or of a piece: a draw"),
    t(Cn(1), "将：走子直接攻击对方帅(将)", "check: a move that attacks the enemy king"),
    t(Cn(2), "杀：走子企图下一着将军或连续将军以将死对方", "kill: a move that threatens mate by a check or continuous checks"),
    t(Cn(3), "捉：走子后能直接吃子、造成其他子能吃子、与其他子联合吃子、从下一着开始运用将军或连续将军得子……且得子后不致立即被将死", "chase: after the move a piece can be won directly, through another piece, jointly, or by a check or continuous checks from the next move, without being mated at once"),
    t(Cn(4), "兑：同兵种邀兑", "exchange: offering a like piece"),
    t(Cn(5), "献：走子送吃", "offer: a piece offered for capture"),
    t(Cn(6), "拦：走子阻拦对方棋子，而又不具攻击作用", "block: a move that blocks an enemy piece without attacking"),
    t(Cn(8), "闲：走子性质不属于将、杀、捉者", "idle: a move that is neither check, kill nor chase"),
    t(Cn(9), "长将：连续不停将军而形成循环", "perpetual check"),
    t(Cn(10), "长杀：连续不停杀着而形成循环", "perpetual kill"),
    t(Cn(11), "长捉：连续追捉一子或数子而形成循环", "perpetual chase of one piece or several"),
    t(Cn(13), "禁止着法：单方面走出长将、长杀、长捉、一将一杀、一将一捉、一杀一捉等循环重复的攻击性着法", "forbidden: one side's perpetual check, kill, chase, or check/kill/chase mixed"),
    t(Cn(14), "允许着法：禁止着法以外的均为允许着法", "allowed: everything not forbidden"),
    t(Cn(15), "有根子、无根子和少根子", "protected, unprotected and under-protected pieces"),
    t(CnFigure(3), "图3：双方长捉，双方不变作和", "figure 3: both sides chase perpetually: a draw"),
    t(CnFigure(10), "图10：车炮联合捉子（真根子）不作长捉", "figure 10: a joint attack by rook and cannon on a truly protected piece"),
    t(CnFigure(14), "图14：兵（卒）允许长捉", "figure 14: a pawn may chase perpetually"),
    t(CnFigure(15), "图15：帅（将）允许长捉", "figure 15: a king may chase perpetually"),
];

const fn t(article: Article, zh: &'static str, en: &'static str) -> ArticleText {
    ArticleText { article, zh, en }
}

/// Which language to cite in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

const ZH_DIGITS: [&str; 10] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// Full-width digits, as the rule books print numbers in running Chinese text.
pub fn full_width(n: u32) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c))
        .collect()
}

impl Article {
    /// The article's entry in `ARTICLES`.
    pub fn text(self) -> &'static ArticleText {
        ARTICLES
            .iter()
            .find(|a| a.article == self)
            .expect("every cited article is in the table")
    }

    /// A stable identifier: `verdict-4`, `principle-3`, `axf-9`, `cn-24.3`, `cn-fig-10`.
    pub fn id(self) -> String {
        match self {
            Verdict(n) => format!("verdict-{n}"),
            Principle(n) => format!("principle-{n}"),
            Axf(n) => format!("axf-{n}"),
            Cn(n) => format!("cn-24.{n}"),
            CnFigure(n) => format!("cn-fig-{n}"),
        }
    }

    /// How the article is cited: `棋例之裁决乙４`, `棋例细则第９条`, `第２４．３条`,
    /// `图１０` / `1982 draft 乙-4`, `AXF rule 9`, `CXA 2020 art. 24.3`, `CXA 2020 fig. 10`.
    pub fn cite(self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::Zh, Verdict(n)) => format!("棋例之裁决乙{}", full_width(n as u32)),
            (Lang::Zh, Principle(n)) => format!("重要原则{}", ZH_DIGITS[n as usize % 10]),
            (Lang::Zh, Axf(n)) => format!("棋例细则第{}条", full_width(n as u32)),
            (Lang::Zh, Cn(n)) => format!("第２４．{}条", full_width(n as u32)),
            (Lang::Zh, CnFigure(n)) => format!("第八章图{}", full_width(n as u32)),
            (Lang::En, Verdict(n)) => format!("1982 draft verdict rule {n}"),
            (Lang::En, Principle(n)) => format!("1982 draft principle {n}"),
            (Lang::En, Axf(n)) => format!("AXF rule {n}"),
            (Lang::En, Cn(n)) => format!("CXA 2020 art. 24.{n}"),
            (Lang::En, CnFigure(n)) => format!("CXA 2020 fig. {n}"),
        }
    }

    /// The short statement in `lang`.
    pub fn statement(self, lang: Lang) -> &'static str {
        let t = self.text();
        match lang {
            Lang::Zh => t.zh,
            Lang::En => t.en,
        }
    }
}

impl fmt::Display for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

/// The articles behind a judged cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Basis {
    /// The principle that decides the verdict from the two sides' offences.
    pub principle: Article,
    /// For each side (`Color::index`): what makes its moves an offence, or allowed.
    pub sides: [Vec<Article>; 2],
    /// For each move of the cycle: what makes it a check, chase, idle move or exemption.
    pub moves: Vec<Vec<Article>>,
}

/// A few articles, each once, in the order first cited: what a chase or a move label
/// carries from where it was decided (fixed size, no allocation). Pushing beyond `N`
/// is a bug (the sizes are above what the code can cite for one chase or one move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cites<const N: usize> {
    list: [Article; N],
    len: u8,
}

impl<const N: usize> Default for Cites<N> {
    fn default() -> Self {
        Cites {
            list: [Verdict(0); N],
            len: 0,
        }
    }
}

impl<const N: usize> Cites<N> {
    /// Add `a` unless it is there already.
    pub fn push(&mut self, a: Article) {
        if self.as_slice().contains(&a) {
            return;
        }
        debug_assert!((self.len as usize) < N, "more than {N} articles");
        if (self.len as usize) < N {
            self.list[self.len as usize] = a;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[Article] {
        &self.list[..self.len as usize]
    }
}

/// The articles behind a judged cycle, as the verdict code returned them: the
/// principle from `decide_with_principle`, the sides' from `verdict::side_articles`,
/// each move's from its label (`MoveLabel::articles`).
pub fn basis(j: &CycleJudgement) -> Basis {
    Basis {
        principle: j.principle,
        sides: j.side_articles.clone(),
        moves: j.labels.iter().map(|l| l.articles().to_vec()).collect(),
    }
}
