"""The `expert` policy: calibration of its danger model on self-play, and its targets.

    python benchmarks/bench_expert.py --calibration [--deals 3000] [--rules classic,app]
                                      [--policies speed] [--seed 0]
    python benchmarks/bench_expert.py --targets [--walls 10000] [--expert SPEC]
    python benchmarks/bench_expert.py --anatomy [--anatomy-deals 250] [--expert SPEC]
    python benchmarks/bench_expert.py --throughput [--throughput-deals 10000]
    python benchmarks/bench_expert.py --frontier [--frontier-walls 2500]
    python benchmarks/bench_expert.py --public [--public-walls 75]
    python benchmarks/bench_expert.py --options [--walls 10000] [--expert SPEC]
    python benchmarks/bench_expert.py --value [--value-deals 1000] [--rules classic,app]
                                      [--policies speed]

Calibration: every deal of every preset is replayed and rebuilt
(`simcore.analysis.danger.collect`, which checks the rebuilt hands against the log), one row
per discard and opponent still in play. Then, pooled over the presets:
- a logistic regression of `ready` on (discards, melds, min(streak, 3)): the READY_* constants;
- for ready opponents, the maximum-likelihood WAIT_SCALE, FLUSH_IN, FLUSH_OUT of
  P(tile is a winning tile) = min(1, WAIT_SCALE * focus * wait_weight), the shape weights as
  they are, and again with C_SINGLE and C_PAIR free (C_RUN = 1 sets the scale);
standard errors clustered by deal. Then per decile of the predicted deal-in probability of a
discard, 1 - prod over opponents (1 - ready_probability * wins_on), the mean prediction against
the observed deal-in rate (binomial SE), with the constants of expert_model.py and with the fitted
ones, and the Brier scores (a constant predictor's beside them); the fitted constants are also
scored on deals they were not fitted on (fit on even deals, score on odd ones).

Anatomy: the seat's discards that could feed a ready opponent, and how many of them it could
have avoided without slowing its hand (`simcore.analysis.deal_ins`): the bound on defence at
equal shanten, for the deal-in target.

Throughput: four expert seats against four speed seats, alternating run by run (the last of the
targets; alone with --throughput).

Frontier: the deal-in and win rates and the gain of the expert's defence options, from no
danger model to folding often, with and without declined wins: what a stronger defence costs.

Public: two habits read from public tiles alone, counted where an alternative at the same
shanten existed: feeding a blood-river winner a tile it has won on, and keeping a dead wait
(`simcore.analysis.deal_ins`).

Options: what the table-reading options are worth to the ``--expert`` seat: against each
option's other value (public=0, feed=0, both: the expert before they became the default;
upgrade=0, the expert before upgrade became its default at four-player tables; upgrade=1, on
with three players too; all three, the expert before issue 30), paired by wall against speed
seats and as one seat against the others of that value (the switching gain), on the walls of
``--seed`` and of the next seed, under classic, app, river and two_suit3; then other values of
stay, defence and hope, each against the defaults.

Value: the reliability of the expert's P(win) model (win_probability) against self-play, and of
a table fitted there (`simcore.analysis.value_model`).

With no section flag every section runs. Sections are the functions in SECTIONS: a later
section (the policy's performance targets) is one more function there and one more flag.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.analysis import danger
from simcore.analysis.danger import Constants

pd.set_option("display.width", 120)
pd.set_option("display.max_columns", 20)

DISCARD_BUCKETS = [0, 3, 6, 9, 12, 15, 18, 40]


def _title(text: str) -> None:
    print(f"\n== {text}")


def _constant_table(fits: list[danger.Fit], current: Constants) -> pd.DataFrame:
    rows = pd.concat([f.table(current) for f in fits], ignore_index=True)
    return rows.drop_duplicates("constant", keep="first").set_index("constant")


def _wald_shapes(fit: danger.Fit, current: Constants) -> tuple[float, float]:
    """Wald chi2 (2 df, clustered covariance) of C_SINGLE, C_PAIR = their current ratios."""
    from scipy.stats import chi2

    names = list(fit.result.model.exog_names)
    idx = [names.index("C_SINGLE"), names.index("C_PAIR")]
    est = np.asarray(fit.result.params)[idx]
    null = np.array([current.C_SINGLE / current.C_RUN, current.C_PAIR / current.C_RUN])
    cov = np.asarray(fit.result.cov_params())[np.ix_(idx, idx)]
    d = est - null
    stat = float(d @ np.linalg.solve(cov, d))
    return stat, float(chi2.sf(stat, 2))


def _ready_by_discards(pred_now: pd.DataFrame, pred_fit: pd.DataFrame) -> pd.DataFrame:
    bucket = pd.cut(pred_now["discards"], DISCARD_BUCKETS, right=False)
    g = pred_now.assign(fitted=pred_fit["p_ready"]).groupby(bucket, observed=True)
    out = pd.DataFrame({"rows": g.size(), "observed": g["ready"].mean(),
                        "current": g["p_ready"].mean(), "fitted": g["fitted"].mean()})
    out["se"] = np.sqrt(out["observed"] * (1 - out["observed"]) / out["rows"])
    out.index.name = "discards"
    return out[["rows", "observed", "se", "current", "fitted"]]


def _fit_all(df: pd.DataFrame, current: Constants,
             free_shapes: bool) -> tuple[Constants, list[danger.Fit]]:
    ready = danger.fit_ready(df, current.STREAK_MAX)
    wait = danger.fit_wait(df, free_shapes=free_shapes, start=current)
    return danger.fitted_constants(ready, wait, current), [ready, wait]


def calibration(args: argparse.Namespace) -> None:
    """Fit the danger model's constants on self-play and show its calibration."""
    presets = [r.strip() for r in args.rules.split(",") if r.strip()]
    _title(f"calibration: {args.deals:,} deals per preset of {', '.join(presets)}, policies "
           f"{args.policies}, seed {args.seed}")
    frames = []
    for preset in presets:
        t0 = time.perf_counter()
        frames.append(danger.collect(args.deals, preset, args.policies, seed=args.seed))
        print(f"{preset}: {len(frames[-1]):,} (discard, opponent) rows in "
              f"{time.perf_counter() - t0:.1f} s; every rebuilt hand matched the log")
    df = pd.concat(frames, ignore_index=True)
    df["preset"] = df["preset"].astype("category")
    current = Constants.current()

    # the model's own functions against its numpy twin (the fitted constants use the twin)
    now = danger.predict(df)
    twin = danger.predict(df, current)
    gap = float(np.abs(now["p_hit"] - twin["p_hit"]).max())
    assert gap < 1e-9, f"numpy twin differs from expert_model by {gap}"

    fixed, fixed_fits = _fit_all(df, current, free_shapes=False)
    free, free_fits = _fit_all(df, current, free_shapes=True)
    stat, p_value = _wald_shapes(free_fits[1], current)
    shapes_move = p_value < 0.01
    fitted = free if shapes_move else fixed
    chosen = free_fits if shapes_move else fixed_fits

    _title("fitted constants (SEs clustered by deal; z = (fitted - current) / se)")
    print(f"ready: logistic regression on {chosen[0].nobs:,} rows "
          f"(pseudo R2 {chosen[0].result.prsquared:.3f})")
    print(f"wait: binomial likelihood on {chosen[1].nobs:,} rows of ready opponents (tiles of "
          f"live shapes outside the void)")
    print(_constant_table(chosen, current).to_string(float_format=lambda x: f"{x:.4g}"))
    print(f"\nshape weights free (C_RUN = 1): C_SINGLE = {free_fits[1].params['C_SINGLE']:.3g} "
          f"± {free_fits[1].se['C_SINGLE']:.2g}, C_PAIR = {free_fits[1].params['C_PAIR']:.3g} "
          f"± {free_fits[1].se['C_PAIR']:.2g}, WAIT_SCALE = "
          f"{free_fits[1].params['WAIT_SCALE']:.4g} ± {free_fits[1].se['WAIT_SCALE']:.2g}; "
          f"Wald chi2(2) vs the current ratios = {stat:.1f}, p = {p_value:.2g}: "
          f"{'the shape weights move' if shapes_move else 'the current shape weights stay'}")

    fit_pred = danger.predict(df, fitted)
    _title("P(ready) by the opponent's discards so far: observed against the model")
    print(_ready_by_discards(now, fit_pred).to_string(float_format=lambda x: f"{x:.3f}"))

    _title("P(tile is a winning tile | ready), per decile of wins_on, ready opponents")
    ready_rows = df["ready"].to_numpy()
    for label, pred in (("current", now), ("fitted", fit_pred)):
        table = danger.calibration(pred[ready_rows], "p_wins", outcome="winning")
        print(f"{label}:")
        print(table.to_string(float_format=lambda x: f"{x:.4f}"))

    per_now = danger.per_discard(now)
    per_fit = danger.per_discard(fit_pred)
    won_rate = float(per_now["dealt_in"].mean())
    _title(f"P(deal-in) per discard, per decile of the prediction ({len(per_now):,} discards, "
           f"observed deal-in rate {won_rate:.4f})")
    for label, per in (("current constants", per_now), ("fitted constants", per_fit)):
        print(f"{label}:")
        print(danger.calibration(per).to_string(float_format=lambda x: f"{x:.4f}"))

    _title("Brier scores of P(deal-in) per discard")
    rows = []
    for preset in [None, *presets]:
        sel_now = per_now if preset is None else per_now[per_now["preset"] == preset]
        sel_fit = per_fit if preset is None else per_fit[per_fit["preset"] == preset]
        b_now, b_fit = danger.brier(sel_now), danger.brier(sel_fit)
        rows.append({"preset": preset or "all", "discards": len(sel_now),
                     "observed": b_now["observed_rate"],
                     "mean_p_current": b_now["mean_predicted"],
                     "mean_p_fitted": b_fit["mean_predicted"],
                     "brier_current": b_now["brier"], "brier_fitted": b_fit["brier"],
                     "brier_constant": b_now["brier_constant"]})
    # held out: fit on even deals, score the odd ones
    even = df["deal"].to_numpy() % 2 == 0
    held, _ = _fit_all(df[even], current, free_shapes=shapes_move)
    per_held = danger.per_discard(danger.predict(df[~even], held))
    per_odd_now = per_now[per_now["deal"] % 2 == 1]
    b_held, b_odd = danger.brier(per_held), danger.brier(per_odd_now)
    rows.append({"preset": "all, odd deals (fit on even)", "discards": len(per_held),
                 "observed": b_held["observed_rate"], "mean_p_current": b_odd["mean_predicted"],
                 "mean_p_fitted": b_held["mean_predicted"], "brier_current": b_odd["brier"],
                 "brier_fitted": b_held["brier"], "brier_constant": b_held["brier_constant"]})
    print(pd.DataFrame(rows).set_index("preset").to_string(
        float_format=lambda x: f"{x:.5f}"))

    _title("per preset fits (the same model fitted on one preset)")
    per_rows = []
    for preset in presets:
        sub = df[df["preset"] == preset]
        _, fits = _fit_all(sub, current, free_shapes=shapes_move)
        for fit in fits:
            for name, value in fit.params.items():
                if fit.se[name] > 0:
                    per_rows.append({"constant": name, "preset": preset,
                                     "value": f"{value:.4g} ± {fit.se[name]:.2g}"})
    print(pd.DataFrame(per_rows).pivot(index="constant", columns="preset",
                                       values="value").to_string())

    _title("expert_model.py constants to use (fitted, pooled)")
    for name in ("C_SINGLE", "C_PAIR", "C_RUN", "WAIT_SCALE", "FLUSH_IN", "FLUSH_OUT",
                 "READY_BIAS", "READY_DISCARD", "READY_MELD", "READY_STREAK"):
        print(f"{name} = {getattr(fitted, name):.4g}")


# ----------------------------------------------------------------------------- targets
ALTERNATIVES = ("speed:kong=always", "speed:kong=pung_then_add", "flush", "pungs", "pairs")
ALL_PRESETS = ("classic", "baike", "qq", "app", "tfmj")


def _duplicate(preset: str, seats: list[str], walls: int, seed: int) -> pd.DataFrame:
    from simcore.engine.api import simulate
    from simcore.records import to_dataframe
    from simcore.rules import get_rules

    out = simulate(get_rules(preset), seats, seed, 0, walls, duplicate=True)
    return to_dataframe(out, list(dict.fromkeys(seats)), preset=preset)


def _per_wall(df: pd.DataFrame, spec: str, column: str = "net") -> pd.Series:
    """The spec's own mean ``column`` per wall (its four rotations)."""
    return df[df["policy"] == spec].groupby("wall")[column].mean()


def _seat_gain(preset: str, seats: list[str], walls: int, seed: int) -> pd.Series:
    """The first seat's spec's mean net per wall in the duplicate table ``seats``."""
    return _per_wall(_duplicate(preset, seats, walls, seed), seats[0])


def _interval(per_wall: pd.Series) -> str:
    se = per_wall.std(ddof=1) / np.sqrt(len(per_wall))
    m = per_wall.mean()
    return f"{m:+.3f} [{m - 1.96 * se:+.3f}, {m + 1.96 * se:+.3f}]"


def _rates(df: pd.DataFrame, spec: str) -> dict[str, float]:
    """The seat's deal-ins and wins per deal, each as a ratio to the other seats' in the run."""
    mine = df[df["policy"] == spec]
    rest = df[df["policy"] != spec]
    return {"deal_in_ratio": mine["deal_ins"].mean() / rest["deal_ins"].mean(),
            "win_ratio": (mine["win_order"] > 0).mean() / (rest["win_order"] > 0).mean()}


def targets(args: argparse.Namespace) -> None:
    """The policy's targets: switching gains against three speed players, deal-in and win
    rates, the comparison with every family policy in that seat, a field of three experts, the
    rules-awareness and the throughput (duplicate runs, --walls walls each)."""
    walls, seed = args.walls, args.seed
    expert = args.expert
    _title(f"switching gain of one {expert} seat against three speed seats ({walls} walls, "
           f"{4 * walls} deals, seed {seed}; 95% intervals over walls)")
    rows = []
    for preset in ALL_PRESETS:
        df = _duplicate(preset, [expert, "speed", "speed", "speed"], walls, seed)
        gain = _per_wall(df, expert)
        row = {"preset": preset, "gain": _interval(gain), **_rates(df, expert)}
        for alt in ALTERNATIVES:
            alt_gain = _seat_gain(preset, [alt, "speed", "speed", "speed"], walls, seed)
            row[f"vs {alt}"] = _interval(gain - alt_gain)
        rows.append(row)
    print(pd.DataFrame(rows).set_index("preset").T.to_string())

    _title(f"a speed seat against three {expert} seats ({walls} walls): the speed seat's net")
    for preset in ("classic", "app"):
        df = _duplicate(preset, ["speed", expert, expert, expert], walls, seed)
        print(f"{preset:8s} {_interval(_per_wall(df, 'speed'))}")

    _title("rules-awareness: share of deals whose play differs between classic and baike "
           "(same walls and seed; the actions in the records: wins, draws, claims, kongs)")
    acts = ["win_order", "win_draw", "win_tile", "fed_by", "pungs", "kongs_direct",
            "kongs_added", "kongs_concealed", "draws", "deal_ins", "passed_wins"]
    for spec in ("speed", expert):
        from simcore.engine.api import simulate
        from simcore.rules import get_rules

        a = simulate(get_rules("classic"), [spec] * 4, seed, 0, 4 * walls)
        b = simulate(get_rules("baike"), [spec] * 4, seed, 0, 4 * walls)
        differ = np.zeros(len(a) // 4, bool)
        for col in acts:
            differ |= (a[col] != b[col]).reshape(-1, 4).any(axis=1)
        print(f"all-{spec:8s} {differ.mean():.1%} of {len(differ)} deals")

    throughput(args)


def throughput(args: argparse.Namespace) -> None:
    """Deals per CPU-second of four expert seats against four speed seats (classic, compiled,
    one core): the two alternate, run by run, so that the machine's drift (this VM's speed
    moves by 15% within minutes) falls on both; the ratio is the median of the pairs'."""
    from simcore.engine.api import simulate
    from simcore.rules import get_rules

    deals, pairs, expert = args.throughput_deals, args.throughput_pairs, args.expert
    _title(f"throughput (deals per CPU-second, one core, compiled; {pairs} alternating pairs "
           f"of {deals:,} deals, medians)")
    rules = get_rules("classic")
    for spec in ("speed", expert):  # loaded (or compiled) before any run is timed
        simulate(rules, [spec] * 4, args.seed, 0, 10)
    rates: dict[str, list[float]] = {"speed": [], expert: []}
    for _ in range(pairs):
        for spec in rates:
            t0 = time.process_time()
            simulate(rules, [spec] * 4, args.seed, 0, deals)
            rates[spec].append(deals / (time.process_time() - t0))
    for spec, runs in rates.items():
        print(f"four {spec:8s} {np.median(runs):,.0f} deals/CPU-s "
              f"(runs {min(runs):,.0f} to {max(runs):,.0f})")
    ratios = np.array(rates[expert]) / np.array(rates["speed"])
    print(f"ratio {np.median(ratios):.2f} (pairs {ratios.min():.2f} to {ratios.max():.2f})")


# options of the expert's defence, from none to folding often: the trade-off the deal-in target
# asks about (deal-ins against wins and money), with and without declined wins (stay)
FRONTIER = ("expert:defence=0", "expert", "expert:defence=200", "expert:defence=500",
            "expert:defence=1000", "expert:fold=100", "expert:defence=200,fold=100",
            "expert:defence=500,fold=50", "expert:stay=0", "expert:stay=0,defence=500",
            "expert:stay=0,defence=200,fold=100", "expert:stay=0,defence=500,fold=50")


def frontier(args: argparse.Namespace) -> None:
    """What the expert's defence options buy: for each, one seat against three speed seats
    (duplicate, --frontier-walls walls), its switching gain, its deal-in and win rates as
    ratios to the speed seats' (issue 15 asks for at most 0.6 and at least 0.9 at once,
    with a gain of at least +0.40)."""
    walls, seed = args.frontier_walls, args.seed
    for preset in ("classic", "app"):
        _title(f"defence frontier, {preset}: one seat against three speed seats ({walls} walls, "
               f"{4 * walls} deals, seed {seed})")
        rows = []
        for spec in FRONTIER:
            df = _duplicate(preset, [spec, "speed", "speed", "speed"], walls, seed)
            rows.append({"spec": spec, "gain": _interval(_per_wall(df, spec)),
                         **_rates(df, spec)})
        table = pd.DataFrame(rows).set_index("spec")
        table["both rate targets"] = ((table["deal_in_ratio"] <= 0.6)
                                      & (table["win_ratio"] >= 0.9))
        print(table.to_string(float_format=lambda x: f"{x:.3f}"))


def anatomy(args: argparse.Namespace) -> None:
    """What the seat could have done about its deal-ins, in hindsight: of its discards that
    could feed a ready opponent, the share forced (a void-suit tile held), with a candidate
    at the same shanten no opponent could win on, or one safe by the voids alone (replays of
    --anatomy-deals deals, four rotations each, the expert seat and a speed seat)."""
    from simcore.analysis.deal_ins import anatomy as summarise
    from simcore.analysis.deal_ins import collect_choices

    deals = args.anatomy_deals
    for preset in ("classic", "app"):
        _title(f"deal-in anatomy, {preset} ({deals} deals x 4 rotations, seed {args.seed})")
        rows = {}
        for who, seats in ((args.expert, [args.expert, "speed", "speed", "speed"]),
                           ("speed", ["speed", args.expert, args.expert, args.expert])):
            rows[f"{who} seat"] = summarise(collect_choices(deals, preset, "/".join(seats),
                                                            seed=args.seed))
        print(pd.DataFrame(rows).to_string(float_format=lambda x: f"{x:.3f}"))


def public(args: argparse.Namespace) -> None:
    """Two habits read from public tiles (issue 30's targets): feeding a blood-river winner a
    tile it has won on when a candidate at the same shanten had not been won on (river), and
    keeping a dead wait (every winning tile visible to the seat) when a candidate at the same
    shanten kept a live one (every preset); counts in --public-walls walls x 4 rotations, the
    expert seat against three speed seats and a speed seat against three experts."""
    from simcore.analysis.deal_ins import anatomy as summarise
    from simcore.analysis.deal_ins import collect_choices
    from simcore.rules import PRESETS

    walls = args.public_walls
    _title(f"public tiles: episodes in {walls} walls x 4 rotations (seed {args.seed})")
    rows = []
    for preset in [p for p, r in PRESETS.items() if r.players == 4]:  # four rotations
        for who, seats in ((args.expert, [args.expert, "speed", "speed", "speed"]),
                           ("speed", ["speed", args.expert, args.expert, args.expert])):
            c = collect_choices(walls, preset, "/".join(seats), seed=args.seed)
            a = summarise(c)
            rows.append({"rules": preset, "seat": who, "deals": 4 * walls,
                         "discards": len(c), "river_feeds": int(a["river_feeds"]),
                         "river_feeds_as_live": int(a["river_feeds_as_live"]),
                         "river_feeds_any": int(c["river_feed"].sum()),
                         "dead_waits": int(a["dead_waits"]),
                         "dead_wait_discards": int(c["dead_wait"].sum())})
    print(pd.DataFrame(rows).to_string(index=False))


def value(args: argparse.Namespace) -> None:
    """The reliability of the expert's win_probability, and of a table fitted on self-play,
    against what happened: P(win later in the deal) per decile of the prediction and the Brier
    scores, per preset of --rules (--value-deals replays, --policies; experiments/
    fit_value_model.py writes the fitted table)."""
    from simcore.analysis.value_model import collect_states, value_report

    rules = args.rules.split(",")
    states = pd.concat([collect_states(args.value_deals, r, args.policies, seed=args.seed)
                        for r in rules], ignore_index=True)
    _title("value model")
    print(value_report(states, args.value_deals, rules, args.policies, args.seed))


# the table-reading options (expert_options.py): the defaults public=1 and feed=1 each off, both
# off (the expert before issue 30 made them the default), upgrade off (the default before it
# was on at four-player tables), on at three-player tables too, all three as before issue 30,
# and the danger weight of before (defence=50, the default until the weight 25 gained)
OPTION_SPECS = ("public=0", "feed=0", "public=0,feed=0", "upgrade=0", "upgrade=1",
                "public=0,feed=0,upgrade=0", "defence=50")
OPTION_PRESETS = ("classic", "app", "river", "two_suit3")
# other values of the defaults the options interact with
OPTION_TUNES = ("stay=10", "stay=20", "stay=25", "defence=10", "defence=35", "hope=150")


def _with(base: str, options: str) -> str:
    return f"{base}{',' if ':' in base else ':'}{options}"


def _field(seat: str, other: str, preset: str) -> list[str]:
    from simcore.rules import get_rules

    return [seat] + [other] * (get_rules(preset).players - 1)


def options(args: argparse.Namespace) -> None:
    """What the table-reading options are worth: the --expert seat against each option's other
    value, paired against the speed seats and as one seat against the others of that value,
    two seeds; then other values of stay, defence and hope (against speed seats, paired)."""
    walls, base = args.walls, args.expert
    for seed in (args.seed, args.seed + 1):
        _title(f"{base} against the other values of its options ({walls} walls, an arm of "
               f"{walls} deals times the players, seed {seed}; 95% intervals over walls): "
               "gain a deal")
        rows = []
        for preset in OPTION_PRESETS:
            alone = _seat_gain(preset, _field(base, "speed", preset), walls, seed)
            rows.append({"preset": preset, "spec": base, "vs speed": _interval(alone)})
            for opts in OPTION_SPECS:
                spec = _with(base, opts)
                gain = _seat_gain(preset, _field(spec, "speed", preset), walls, seed)
                among = _seat_gain(preset, _field(base, spec, preset), walls, seed)
                rows.append({"preset": preset, "spec": opts, "vs speed": _interval(gain),
                             f"{base} paired with it": _interval(alone - gain),
                             f"{base} against the others of it": _interval(among)})
        print(pd.DataFrame(rows).set_index(["preset", "spec"]).fillna("").to_string())
    _title(f"other defaults against speed seats, paired with {base} ({walls} walls, seed "
           f"{args.seed})")
    rows = []
    for preset in OPTION_PRESETS:
        ref = _seat_gain(preset, _field(base, "speed", preset), walls, args.seed)
        row = {"preset": preset}
        for tune in OPTION_TUNES:
            gain = _seat_gain(preset, _field(_with(base, tune), "speed", preset), walls,
                              args.seed)
            row[tune] = _interval(gain - ref)
        rows.append(row)
    print(pd.DataFrame(rows).set_index("preset").T.to_string())


# a section is a function of the parsed arguments, run by its flag (all of them by default)
SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "calibration": calibration,
    "targets": targets,
    "throughput": throughput,
    "frontier": frontier,
    "anatomy": anatomy,
    "public": public,
    "options": options,
    "value": value,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, section in SECTIONS.items():
        # argparse formats help with %: a docstring's "15%" would break --help
        parser.add_argument(f"--{name}", action="store_true",
                            help=(section.__doc__ or "").replace("%", "%%"))
    parser.add_argument("--deals", type=int, default=3000, help="deals per preset")
    parser.add_argument("--rules", default="classic,app",
                        help="presets, comma-separated (pooled for the fit)")
    parser.add_argument("--policies", default="speed", help="policy spec of the self-play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--walls", type=int, default=10_000,
                        help="walls per duplicate run of the targets (four deals each)")
    parser.add_argument("--expert", default="expert", help="the expert spec the targets test")
    parser.add_argument("--throughput-deals", type=int, default=10_000)
    parser.add_argument("--throughput-pairs", type=int, default=5,
                        help="alternating speed/expert runs of the throughput")
    parser.add_argument("--frontier-walls", type=int, default=2_500,
                        help="walls per duplicate run of --frontier")
    parser.add_argument("--anatomy-deals", type=int, default=250,
                        help="deals replayed per preset and seat for --anatomy")
    parser.add_argument("--value-deals", type=int, default=1000,
                        help="deals replayed per preset for --value")
    parser.add_argument("--public-walls", type=int, default=75,
                        help="walls (x 4 rotations) replayed per preset and seat for --public")
    args = parser.parse_args(argv)
    chosen = [name for name in SECTIONS if getattr(args, name)] or list(SECTIONS)
    if "targets" in chosen and "throughput" in chosen:
        chosen.remove("throughput")  # the targets end with it
    print(describe_machine())
    for name in chosen:
        t0 = time.perf_counter()
        SECTIONS[name](args)
        print(f"\n({name}: {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
