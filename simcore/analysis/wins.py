"""Tables of the per-win table (``simcore.load_wins``): every win, not only a player's first.

Under blood river (血流成河) a player may win any number of times in a deal; the player records
describe its first win only, so these tables read the win table:

* :func:`win_fans`: how often each fan occurs among the wins, for all wins, first wins and
  later wins;
* :func:`wins_per_player`: the distribution of a player's number of wins in a deal, per policy;
* :func:`win_value`: what a win is worth (the units its payers paid, its fan) by the seat's
  win number: the first win against the later ones.

Wins of one deal are not independent: every interval is the ratio estimator's, clustered by
deal (by wall in a duplicate run, whose rotations share the wall).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd

from simcore.analysis.io import Run
from simcore.analysis.stats import DEFAULT_LEVEL
from simcore.records import PAID_BY

WIN_NUMBER_GROUPS = ("all", "first", "later")  # win_number: any, 1, >= 2
MAX_WINS_LISTED = 4  # wins_per_player lists 0, 1, 2, 3 and "4+"


def _z(level: float) -> float:
    return NormalDist().inv_cdf(0.5 + level / 2)


def clustered_ratio(y: np.ndarray, x: np.ndarray, cluster: np.ndarray) -> tuple[float, float]:
    """``sum(y) / sum(x)`` and its standard error, the observations grouped by ``cluster``
    (the linearised ratio estimator: se^2 = G/(G-1) sum_g (y_g - r x_g)^2 / (sum x)^2)."""
    x_total = float(np.sum(x))
    if x_total == 0:
        return float("nan"), float("nan")
    ratio = float(np.sum(y)) / x_total
    _, index = np.unique(cluster, return_inverse=True)
    groups = int(index.max()) + 1 if len(index) else 0
    if groups < 2:
        return ratio, float("nan")
    yg = np.bincount(index, weights=np.asarray(y, np.float64), minlength=groups)
    xg = np.bincount(index, weights=np.asarray(x, np.float64), minlength=groups)
    var = groups / (groups - 1) * float(np.sum((yg - ratio * xg) ** 2)) / x_total**2
    return ratio, float(np.sqrt(var))


def _unit(frame: pd.DataFrame, duplicate: bool) -> np.ndarray:
    return frame["wall" if duplicate else "deal"].to_numpy(np.int64)


def _select(wins: pd.DataFrame, group: str) -> np.ndarray:
    number = wins["win_number"].to_numpy()
    if group == "first":
        return number == 1
    if group == "later":
        return number >= 2
    return np.ones(len(wins), bool)


def win_fans(wins: pd.DataFrame, duplicate: bool = False,
             level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Share of each fan among the wins of each group (``all``, ``first``, ``later``): columns
    ``wins`` (group, fan, n = wins of the group, count, rate, se, ci_low, ci_high)."""
    z = _z(level)
    unit = _unit(wins, duplicate)
    fans = wins["fan"].to_numpy(np.int64)
    values = range(int(fans.min()), int(fans.max()) + 1) if len(fans) else range(0)
    rows = []
    for group in WIN_NUMBER_GROUPS:
        chosen = _select(wins, group)
        for fan in values:
            hit = chosen & (fans == fan)
            rate, se = clustered_ratio(hit.astype(np.float64), chosen.astype(np.float64), unit)
            rows.append({"wins": group, "fan": fan, "n": int(chosen.sum()),
                         "count": int(hit.sum()), "rate": rate, "se": se,
                         "ci_low": rate - z * se, "ci_high": rate + z * se})
    return pd.DataFrame(rows)


def wins_per_player(player_wins: pd.DataFrame, duplicate: bool = False,
                    level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """From records (``policy``, ``wins`` and ``deal``/``wall``): per policy, the mean number of
    wins of a player in a deal, and the share of player-deals with 0, 1, 2, 3 and 4+ wins."""
    z = _z(level)
    rows = []
    for policy, part in player_wins.groupby("policy", observed=True, sort=False):
        unit = _unit(part, duplicate)
        count = part["wins"].to_numpy(np.int64)
        one = np.ones(len(part))
        mean, se = clustered_ratio(count.astype(np.float64), one, unit)
        rows.append({"policy": str(policy), "value": "mean wins", "n": len(part),
                     "estimate": mean, "se": se, "ci_low": mean - z * se,
                     "ci_high": mean + z * se})
        for k in range(MAX_WINS_LISTED + 1):
            hit = count >= k if k == MAX_WINS_LISTED else count == k
            rate, se = clustered_ratio(hit.astype(np.float64), one, unit)
            label = f"{k}+ wins" if k == MAX_WINS_LISTED else f"{k} wins"
            rows.append({"policy": str(policy), "value": label, "n": len(part),
                         "estimate": rate, "se": se, "ci_low": rate - z * se,
                         "ci_high": rate + z * se})
    return pd.DataFrame(rows)


def win_value(wins: pd.DataFrame, duplicate: bool = False,
              level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """What a win is worth by the seat's win number (1, 2, 3, 4+) and for the first against
    the later ones: mean units received (the sum of its ``paid_by_*``) and mean fan."""
    z = _z(level)
    unit = _unit(wins, duplicate)
    received = wins[list(PAID_BY)].to_numpy(np.int64).sum(axis=1).astype(np.float64)
    fan = wins["fan"].to_numpy(np.float64)
    number = wins["win_number"].to_numpy(np.int64)
    groups = [("first", number == 1), ("later", number >= 2)]
    groups += [(str(k), number == k) for k in range(2, MAX_WINS_LISTED)]
    groups.append((f"{MAX_WINS_LISTED}+", number >= MAX_WINS_LISTED))
    rows = []
    for label, chosen in groups:
        for metric, y in (("units received", received), ("fan", fan)):
            mean, se = clustered_ratio(np.where(chosen, y, 0.0), chosen.astype(np.float64), unit)
            rows.append({"win_number": label, "metric": metric, "n": int(chosen.sum()),
                         "mean": mean, "se": se, "ci_low": mean - z * se,
                         "ci_high": mean + z * se})
    return pd.DataFrame(rows)


def river_tables(run: Run, level: float = DEFAULT_LEVEL) -> dict[str, pd.DataFrame]:
    """The report's tables of a blood-river run directory (none for other runs: their win
    table has one row per winner, which the records' fan table already counts)."""
    rules = run.meta.get("rules")
    if run.path is None or not isinstance(rules, dict) or not rules.get("blood_river"):
        return {}
    from simcore.runner.store import read_wins

    wins = read_wins(run.path)
    players = pd.concat(
        [pd.read_parquet(p, columns=["deal", "wall", "policy", "wins"]) for p in run.parts],
        ignore_index=True)
    return {
        "river_win_fans": win_fans(wins, run.duplicate, level),
        "river_wins_per_player": wins_per_player(players, run.duplicate, level),
        "river_win_value": win_value(wins, run.duplicate, level),
    }
