"""How well the ``expert`` policy's danger model predicts deal-ins, measured on self-play.

:func:`discard_situations` walks one replayed deal (the JSON events of
:func:`simcore.engine.replay.replay`) through :func:`simcore.table.walk` and writes one row per
discard and opponent still in play: what the discarder can see (the opponent's void, discards,
declared melds, its streak of discarding the tile it had just drawn, and the 27 unseen counts), and
the hidden truth (is the opponent ready, is the tile one of its winning tiles, did it win on it).
The walker checks the rebuilt table against the log as it goes: every draw is the next wall tile,
every winning hand equals the hand the win event shows, the drawn-end pigs and ready hands are those
the settlement names, and at the end every tile is accounted for. :func:`collect` does this over
many deals.

:func:`predict` adds the model's probabilities (:mod:`simcore.engine.policies.expert_model`,
its constants as they are in the file, or any :class:`Constants`), :func:`fit_ready` and
:func:`fit_wait` fit its constants (statsmodels, standard errors clustered by deal), and
:func:`calibration` / :func:`brier` compare the predicted deal-in probability of each discard,
``1 - prod_o (1 - ready_o * wins_on_o)``, with what happened.

Conventions (those of the engine's ``visible_counts``, which the policy will use):

- ``unseen[t] = 4 - public[t] - own[t]`` from the discarder's view *before* the discard: public
  tiles are discards (a claimed discard stays counted once, inside its meld), the tiles of
  pungs and exposed kongs, a robbed kong's tile and a self-drawn winner's shown winning tile;
  ``own`` is the discarder's concealed hand (the tile about to be discarded included) and its
  concealed kongs. A concealed kong of another seat is not seen (its tile is face down).
- ``melds`` counts every meld an opponent declared, concealed kongs included (their number is
  public), ``kongs`` every kong; ``flush_suit`` looks only at face-up melds (pungs, exposed
  kongs): two or more of them, all of one suit.
- ``streak``: the opponent's most recent discards in a row that were the tile it had just drawn
  (a replacement draw included); a pung or kong (robbed or not) resets it, and so does a discard
  that keeps the drawn tile. A discard after a pung or the dealer's first discard is not of a
  drawn tile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcore.table import STEP as STEP  # the exchange's steps, as before the walker moved
from simcore.table import ReconstructionError as ReconstructionError
from simcore.table import Table, walk

UNSEEN = [f"u{t}" for t in range(27)]
SITUATION_COLUMNS = [
    "seed", "deal", "preset", "turn", "discarder", "tile", "wall_left", "after_kong",
    "opp", "void", "discards", "melds", "exposed", "kongs", "pungs", "flush_suit", "streak",
    "ready", "n_waits", "winning", "won", "passed", *UNSEEN,
]


def discard_situations(
    events: Sequence[dict[str, Any]],
    observer: Callable[[Table, int, int, int], None] | None = None,
) -> pd.DataFrame:
    """One row per (discard, opponent still in play) of one replayed deal.

    ``events`` is the list of :func:`simcore.engine.replay.replay`. Columns
    (:data:`SITUATION_COLUMNS`): ``seed``, ``deal``, ``preset``, ``turn`` (the discard's
    number in the deal), ``discarder``, ``tile``, ``wall_left``, ``after_kong`` (the discard
    follows the discarder's own kong); the opponent ``opp``, its ``void`` suit, ``discards`` so
    far, ``melds`` (declared, concealed kongs included), ``exposed`` (face-up melds), ``kongs``,
    ``pungs``, ``flush_suit`` (-1 none) and ``streak``; the truth: ``ready``, ``n_waits``,
    ``winning`` (the tile is one of its winning tiles), ``won`` (it won on this discard),
    ``passed`` (it declined a win on it); and ``u0`` .. ``u26``, the unseen counts from the
    discarder's view (module docstring). Raises :class:`ReconstructionError` when the rebuilt
    hands disagree with the log. ``observer(table, seat, tile, turn)``, if given, is called
    before each discard with the rebuilt table (:mod:`simcore.analysis.deal_ins` reads the
    discarder's choices there).
    """
    first = events[0]
    rows: list[list[Any]] = []
    offer: dict[int, int] = {}  # opponent -> its row for the discard on offer
    head = [first["seed"], first["deal"], first["rules"]["preset"]]
    turn = 0
    won, passed = SITUATION_COLUMNS.index("won"), SITUATION_COLUMNS.index("passed")
    for _, ev, tab in walk(events):  # the table before each event
        kind = ev["type"]
        if kind not in ("win", "pass"):
            offer = {}
        if kind == "discard":
            s, t = ev["seat"], ev["tile"]
            tab.check(tab.in_play[s], f"S{s} discards after leaving play")
            unseen_list = tab.unseen(s).tolist()
            for o in tab.opponents(s):
                if not tab.in_play[o]:
                    continue
                w = tab.waits_of(o)
                m = tab.melds[o]
                offer[o] = len(rows)
                rows.append([
                    *head, turn, s, t, tab.wall_left, tab.after_kong[s],
                    o, tab.void[o], len(tab.discards[o]), len(m),
                    sum(x.kind != "C" for x in m), sum(x.kind != "P" for x in m),
                    sum(x.kind == "P" for x in m), tab.flush_suit(o), tab.streak[o],
                    bool(w), len(w), t in w, False, False, *unseen_list,
                ])
            if observer is not None:
                observer(tab, s, t, turn)
            turn += 1
        elif kind == "pass":
            if tab.offer is not None and ev["tile"] == tab.offer[1] and ev["seat"] in offer:
                rows[offer[ev["seat"]]][passed] = True
        elif kind == "win" and ev["kind"] == "discard" and ev["seat"] in offer:
            rows[offer[ev["seat"]]][won] = True
    frame = pd.DataFrame(rows, columns=SITUATION_COLUMNS)
    return frame.astype(_DTYPES)


_DTYPES = {
    "seed": np.int64, "deal": np.int64, "turn": np.int16, "discarder": np.int8,
    "tile": np.int8, "wall_left": np.int16, "after_kong": bool, "opp": np.int8,
    "void": np.int8, "discards": np.int16, "melds": np.int8, "exposed": np.int8,
    "kongs": np.int8, "pungs": np.int8, "flush_suit": np.int8, "streak": np.int16,
    "ready": bool, "n_waits": np.int8, "winning": bool, "won": bool, "passed": bool,
    **dict.fromkeys(UNSEEN, np.int8),
}


def collect(
    deals: int | Iterable[int] | Iterable[tuple[int, int]],
    rules: str = "classic",
    policies: str | Sequence[str] = "speed",
    *,
    seed: int = 0,
    progress: bool = True,
) -> pd.DataFrame:
    """:func:`discard_situations` of many replayed deals, concatenated.

    ``deals``: a number (deals ``0 .. deals - 1`` of ``seed``), deal indices of ``seed``, or
    ``(seed, deal)`` pairs. A tqdm bar on stderr when ``progress`` and stderr is a terminal (a
    bar in a log file is noise, as for ``simcore run``).
    """
    import sys

    from tqdm import tqdm

    from simcore.engine.replay import replay

    if isinstance(deals, int | np.integer):
        deals = range(int(deals))
    pairs = [d if isinstance(d, tuple) else (seed, int(d)) for d in deals]
    frames = []
    for s, d in tqdm(pairs, desc=f"replays {rules} {policies}", unit=" deals",
                     file=sys.stderr, disable=not (progress and sys.stderr.isatty()),
                     smoothing=0.1, dynamic_ncols=True):
        events, _ = replay(s, d, rules=rules, policies=policies, as_frame=False)
        frames.append(discard_situations(events))
    out = pd.concat(frames, ignore_index=True)
    out["preset"] = out["preset"].astype("category")
    return out


def deal_key(df: pd.DataFrame) -> np.ndarray:
    """An integer per deal (preset, seed, deal): the clusters of every standard error."""
    return df.groupby(["preset", "seed", "deal"], observed=True, sort=False).ngroup().to_numpy()


# --------------------------------------------------------------------------------------------
# the model's probabilities


@dataclasses.dataclass(frozen=True)
class Constants:
    """The danger model's constants (the names of :mod:`~simcore.engine.policies.expert_model`)."""

    C_SINGLE: float
    C_PAIR: float
    C_RUN: float
    WAIT_SCALE: float
    FLUSH_IN: float
    FLUSH_OUT: float
    READY_BIAS: float
    READY_DISCARD: float
    READY_MELD: float
    READY_STREAK: float
    STREAK_MAX: int

    @classmethod
    def current(cls) -> Constants:
        """The constants as they are in ``expert_model.py`` now."""
        from simcore.engine.policies import expert_model as m

        return cls(**{f.name: getattr(m, f.name) for f in dataclasses.fields(cls)})

    def replace(self, **changes: Any) -> Constants:
        return dataclasses.replace(self, **changes)


def wait_terms(df: pd.DataFrame) -> pd.DataFrame:
    """The three shapes of :func:`~.expert_model.wait_weight` for each row's tile, unweighted:
    ``single`` = u[t], ``pair`` = u[t](u[t]-1)/2, ``run`` = the products of the neighbour pairs;
    all 0 for a tile of the opponent's void suit."""
    u = df[UNSEEN].to_numpy(np.float64)
    u = np.pad(u, ((0, 0), (2, 2)))  # u[:, t + 2] is tile t; the pads are never read in-suit
    t = df["tile"].to_numpy(np.int64)
    r = t % 9
    rows = np.arange(len(df))

    def at(k: int) -> np.ndarray:
        return u[rows, t + 2 + k]

    ut = at(0)
    run = (np.where(r >= 2, at(-2) * at(-1), 0.0) + np.where((r >= 1) & (r <= 7),
                                                                 at(-1) * at(1), 0.0)
           + np.where(r <= 6, at(1) * at(2), 0.0))
    live = (t // 9 != df["void"].to_numpy()).astype(np.float64)
    return pd.DataFrame({"single": ut * live, "pair": 0.5 * ut * (ut - 1) * live,
                         "run": run * live}, index=df.index)


def focus(df: pd.DataFrame, c: Constants) -> np.ndarray:
    """The flush focus factor: FLUSH_IN in an apparent flush's suit, FLUSH_OUT outside, else 1."""
    fs = df["flush_suit"].to_numpy()
    in_suit = df["tile"].to_numpy() // 9 == fs
    return np.where(fs < 0, 1.0, np.where(in_suit, c.FLUSH_IN, c.FLUSH_OUT))


def ready_probability(df: pd.DataFrame, c: Constants) -> np.ndarray:
    z = (c.READY_BIAS + c.READY_DISCARD * df["discards"].to_numpy()
         + c.READY_MELD * df["melds"].to_numpy()
         + c.READY_STREAK * np.minimum(df["streak"].to_numpy(), c.STREAK_MAX))
    return 1.0 / (1.0 + np.exp(-z))


def wins_on(df: pd.DataFrame, c: Constants) -> np.ndarray:
    terms = wait_terms(df)
    w = c.C_SINGLE * terms["single"] + c.C_PAIR * terms["pair"] + c.C_RUN * terms["run"]
    return np.minimum(1.0, c.WAIT_SCALE * w.to_numpy() * focus(df, c))


def model_probabilities(df: pd.DataFrame) -> pd.DataFrame:
    """``p_ready`` and ``p_wins`` per row from the jitted model functions themselves (with
    the constants compiled into them: those of ``expert_model.py`` at import)."""
    from simcore.engine.policies import expert_model as m

    u = np.ascontiguousarray(df[UNSEEN].to_numpy(np.int16))
    cols = [df[c].to_numpy().tolist() for c in ("tile", "void", "flush_suit", "discards",
                                                    "melds", "streak")]
    p_ready = np.empty(len(df))
    p_wins = np.empty(len(df))
    for i, (t, v, fs, nd, nm, st) in enumerate(zip(*cols, strict=True)):
        p_ready[i] = m.ready_probability(nd, nm, st)
        p_wins[i] = m.wins_on(t, v, fs, u[i])
    return pd.DataFrame({"p_ready": p_ready, "p_wins": p_wins}, index=df.index)


def predict(df: pd.DataFrame, constants: Constants | None = None) -> pd.DataFrame:
    """``df`` with ``p_ready``, ``p_wins`` (given ready) and ``p_hit`` = their product: from the
    model's own functions (``constants`` None) or from the numpy twin with ``constants``."""
    out = df.copy()
    if constants is None:
        probs = model_probabilities(df)
        out["p_ready"], out["p_wins"] = probs["p_ready"], probs["p_wins"]
    else:
        out["p_ready"] = ready_probability(df, constants)
        out["p_wins"] = wins_on(df, constants)
    out["p_hit"] = out["p_ready"] * out["p_wins"]
    return out


def per_discard(pred: pd.DataFrame) -> pd.DataFrame:
    """One row per discard: ``p_deal_in`` = 1 - prod over opponents (1 - p_hit), ``dealt_in``
    (someone won on it) and ``could`` (it was a winning tile of a ready opponent)."""
    g = pred.assign(miss=np.log1p(-pred["p_hit"].clip(upper=1 - 1e-12))).groupby(
        ["preset", "seed", "deal", "turn"], observed=True, sort=False)
    out = g.agg(miss=("miss", "sum"), dealt_in=("won", "any"), could=("winning", "any"))
    out["p_deal_in"] = -np.expm1(out.pop("miss"))
    return out.reset_index()


# --------------------------------------------------------------------------------------------
# fits


@dataclasses.dataclass
class Fit:
    """Fitted constants with their standard errors (clustered by deal) and the statsmodels
    result behind them."""

    params: dict[str, float]
    se: dict[str, float]
    nobs: int
    result: Any

    def table(self, current: Constants | None = None) -> pd.DataFrame:
        rows = []
        for name, value in self.params.items():
            row: dict[str, object] = {"constant": name, "fitted": value, "se": self.se[name]}
            if current is not None and hasattr(current, name):
                now = float(getattr(current, name))
                row["current"] = now
                se = self.se[name]
                row["z_vs_current"] = (value - now) / se if se > 0 else np.nan
            rows.append(row)
        return pd.DataFrame(rows)


def fit_ready(df: pd.DataFrame, streak_max: int = 3) -> Fit:
    """Logistic regression of ``ready`` on discards, melds and min(streak, ``streak_max``)."""
    import statsmodels.api as sm

    x = pd.DataFrame({"const": 1.0, "discards": df["discards"].astype(float),
                      "melds": df["melds"].astype(float),
                      "streak": np.minimum(df["streak"], streak_max).astype(float)})
    res = sm.Logit(df["ready"].astype(float), x).fit(
        disp=0, cov_type="cluster", cov_kwds={"groups": deal_key(df)})
    names = {"const": "READY_BIAS", "discards": "READY_DISCARD", "melds": "READY_MELD",
             "streak": "READY_STREAK"}
    return Fit({names[k]: float(v) for k, v in res.params.items()},
               {names[k]: float(v) for k, v in res.bse.items()}, int(res.nobs), res)


def fit_wait(df: pd.DataFrame, *, free_shapes: bool = False,
             start: Constants | None = None) -> Fit:
    """Maximum likelihood of ``winning`` among ready opponents under
    ``P = min(1, WAIT_SCALE * focus * (C_SINGLE single + C_PAIR pair + C_RUN run))``.

    ``C_RUN`` stays 1 (it sets the scale of ``WAIT_SCALE``; run waits carry most of the
    weight); with ``free_shapes`` the relative weights ``C_SINGLE`` and ``C_PAIR`` are fitted
    too, else they keep their ratios to ``C_RUN`` in ``start`` (default: the current constants).
    Void-suit tiles and tiles whose shapes are all dead (never winning, predicted 0) are left
    out. Nelder-Mead, then Newton; standard errors clustered by deal.
    """
    from statsmodels.base.model import GenericLikelihoodModel

    c = start or Constants.current()
    ready = df[df["ready"].to_numpy()]
    terms = wait_terms(ready)
    live = (terms.sum(axis=1) > 0).to_numpy()
    ready, terms = ready[live], terms[live]
    y = ready["winning"].to_numpy(np.float64)
    single, pair, run = (terms[k].to_numpy() for k in ("single", "pair", "run"))
    fs = ready["flush_suit"].to_numpy()
    in_flush = (fs >= 0) & (ready["tile"].to_numpy() // 9 == fs)
    out_flush = (fs >= 0) & ~in_flush
    cs0, cp0 = c.C_SINGLE / c.C_RUN, c.C_PAIR / c.C_RUN
    names = ["WAIT_SCALE", "FLUSH_IN", "FLUSH_OUT"] + (["C_SINGLE", "C_PAIR"] if free_shapes
                                                       else [])

    def prob(p: np.ndarray) -> np.ndarray:
        cs, cp = (p[3], p[4]) if free_shapes else (cs0, cp0)
        f = np.where(in_flush, p[1], np.where(out_flush, p[2], 1.0))
        return np.clip(p[0] * f * (cs * single + cp * pair + run), 1e-9, 1 - 1e-9)

    class _Wait(GenericLikelihoodModel):
        def loglikeobs(self, params: np.ndarray) -> np.ndarray:
            q = prob(params)
            return y * np.log(q) + (1 - y) * np.log1p(-q)

    start_params = np.array([c.WAIT_SCALE * c.C_RUN, c.FLUSH_IN, c.FLUSH_OUT]
                            + ([cs0, cp0] if free_shapes else []))
    model = _Wait(y, None, extra_params_names=names)
    res = model.fit(start_params=start_params, method="nm", maxiter=20_000, disp=0)
    res = model.fit(start_params=res.params, method="newton", maxiter=50, disp=0,
                    cov_type="cluster", cov_kwds={"groups": deal_key(ready)})
    if not res.mle_retvals.get("converged", True):
        raise RuntimeError(f"the wait fit did not converge: {res.mle_retvals}")
    params = dict(zip(names, (float(v) for v in res.params), strict=True))
    se = dict(zip(names, (float(v) for v in res.bse), strict=True))
    params["C_RUN"], se["C_RUN"] = 1.0, 0.0
    if not free_shapes:
        params["C_SINGLE"], se["C_SINGLE"] = cs0, 0.0
        params["C_PAIR"], se["C_PAIR"] = cp0, 0.0
    return Fit(params, se, int(len(y)), res)


def fitted_constants(ready_fit: Fit, wait_fit: Fit, base: Constants | None = None) -> Constants:
    """``base`` (default: the current constants) with the fitted values."""
    base = base or Constants.current()
    names = {f.name for f in dataclasses.fields(Constants)}
    values = {k: v for fit in (ready_fit, wait_fit) for k, v in fit.params.items()
              if k in names}
    return base.replace(**values)


# --------------------------------------------------------------------------------------------
# calibration


def calibration(discards: pd.DataFrame, column: str = "p_deal_in", bins: int = 10,
                outcome: str = "dealt_in") -> pd.DataFrame:
    """Predicted against observed per quantile bin of ``column``: n, mean predicted,
    observed rate, its binomial standard error and the z of the difference."""
    rank = discards[column].rank(method="first")
    q = pd.qcut(rank, bins, labels=False)
    g = discards.groupby(q)
    out = pd.DataFrame({
        "n": g.size(),
        "p_low": g[column].min(),
        "p_high": g[column].max(),
        "predicted": g[column].mean(),
        "observed": g[outcome].mean(),
    })
    out["se"] = np.sqrt(out["observed"] * (1 - out["observed"]) / out["n"])
    out["z"] = (out["observed"] - out["predicted"]) / out["se"].where(out["se"] > 0)
    out.index = pd.Index(range(1, bins + 1), name="decile" if bins == 10 else "bin")
    return out


def brier(discards: pd.DataFrame, column: str = "p_deal_in",
          outcome: str = "dealt_in") -> dict[str, float]:
    """Brier score of ``column`` and of the constant predictor (the observed rate)."""
    y = discards[outcome].to_numpy(np.float64)
    p = discards[column].to_numpy(np.float64)
    return {"brier": float(np.mean((p - y) ** 2)),
            "brier_constant": float(np.mean((y.mean() - y) ** 2)),
            "observed_rate": float(y.mean()), "mean_predicted": float(p.mean())}
