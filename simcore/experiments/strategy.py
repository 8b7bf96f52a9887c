"""The strategy experiments: one seat plays a variant, the other three are a *field*.

Each arm is a duplicate run of ``VARIANT/FIELD`` (:mod:`simcore.experiments.fields`: the default
fields are three ``speed``, three ``expert`` and ``expert/flush/pungs`` rotated over the three
seats); the answer is the *switching gain*, what the seat earns per deal by switching from
``speed`` to the variant against that field, paired by wall (see
:mod:`simcore.experiments.paired`). Every experiment also plays a *baseline arm* per preset and
field on the same walls: against the speed field ``speed`` in every seat (the net gain is then
the variant's own mean, the baseline term of a zero-sum metric being exactly 0; the arm serves
win rate, fan, ...), against any other field ``speed`` in the seat against it (its own mean net
is not 0 there, and is subtracted wall by wall). Each answer's headline line gives the gain in
every field and whether its sign holds in all of them (:func:`robustness`). ``vs_field`` rows
(variant minus the field's mean; 4/3 of the gain for net against speed) are kept, clearly
named. The headline arms against speed are run again on a second seed (``replicate``).

Sizes: the speed field plays the experiment's deals per arm; every other field half the walls
(:data:`OTHER_FIELD_SHARE`), split among a rotated field's three cyclic orders; the flush sweep
plays k = 5..11 against speed and :data:`FLUSH_KS_OTHER_FIELDS` against the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from simcore.engine.spec import split_policies
from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.fields import Field, parse_fields
from simcore.experiments.paired import canonical, seat_vs_field
from simcore.runner.store import Dataset

BASELINE = "speed"
FIELD = "/speed/speed/speed"
FIELD_WORDS = "against three speed players"
# what each answer reports (see paired.METRIC_MEANINGS); flower pigs are left out: every policy
# here discards its void suit first, so pigs are about 1 in 100,000 player-deals (rules_compared)
STRATEGY_METRICS = ("net", "win", "fan", "deal_in", "net_win", "net_kong")
TWO_PRESETS = ("classic", "app")  # their flush values differ: 2 fan (x4) in classic, 1 in app
HEADLINE = "switching_gain"
# a field other than speed plays 1/OTHER_FIELD_SHARE of the walls (an expert seat costs about
# three speed seats); a rotated field's three cyclic orders share those walls again
OTHER_FIELD_SHARE = 2
# Holm families: rows of one seed and field with one estimand, metric and baseline (as before
# fields: the speed field's p_holm are unchanged); the flush sweep also per preset
FAMILY = ("field", "estimand", "metric", "baseline")


def field_words(name: str) -> str:
    """``against three speed players``; ``against expert, flush, pungs (rotated)``."""
    parts = split_policies(name, 3)
    if len(set(parts)) == 1:
        return f"against three {parts[0]} players"
    return f"against {', '.join(parts)} (rotated)"


def _share(field: Field) -> int:
    return 1 if field.is_speed else OTHER_FIELD_SHARE


def field_arms(preset: str, variant: str, name: str, fields: Sequence[Field],
          overrides: tuple[str, ...] = (), **labels: object) -> list[Arm]:
    """``variant`` in the seat against each field: one arm, or one per cyclic order."""
    arms = []
    for field in fields:
        base = {"preset": preset, "field": field.name, **labels}
        if field.is_speed:  # the arm names of the speed-only experiments: data on disk is reused
            arms.append(Arm(f"{preset}-{name}", preset, variant + FIELD, base,
                            overrides=overrides))
            continue
        arms += _order_arms(preset, field, name, variant, base, overrides)
    return arms


def _order_arms(preset: str, field: Field, name: str, seat: str, labels: dict[str, object],
                overrides: tuple[str, ...]) -> list[Arm]:
    """``seat`` against a field other than speed: a duplicate run per cyclic order, each on
    its share of the walls."""
    orders = field.orders
    return [Arm(f"{preset}-{field.slug}-{name}" + (f"-o{j}" if len(orders) > 1 else ""), preset,
                field.table(seat, j), {**labels, **({"order": j} if len(orders) > 1 else {})},
                overrides=overrides, share=_share(field) * len(orders))
            for j in range(len(orders))]


def baseline_arms(preset: str, fields: Sequence[Field],
                   overrides: tuple[str, ...] = (), name: str = "baseline") -> list[Arm]:
    """``speed`` against each field on the same walls: for the speed field ``speed`` in every
    seat, each wall once (its four rotations would seat the same table); for another field
    ``speed`` in the seat against it, a duplicate run per cyclic order (the seat's own values
    there are the baseline of the switching gain, net included)."""
    arms = []
    for field in fields:
        labels: dict[str, object] = {"preset": preset, "field": field.name, "role": "baseline"}
        if field.is_speed:
            arms.append(Arm(f"{preset}-{name}", preset, BASELINE, labels, one_rotation=True,
                            overrides=overrides))
            continue
        arms += _order_arms(preset, field, name, BASELINE, labels, overrides)
    return arms


def _variant(arm: Arm) -> str:
    return arm.policies.split("/")[0]


def _labels(arm: Arm) -> dict[str, object]:
    return {k: v for k, v in arm.labels.items() if k not in ("role", "order")}


class _Group(NamedTuple):
    """The arms of one answer against one field (a rotated field: one per cyclic order)."""

    labels: dict[str, object]
    variant: str
    datasets: list[Dataset]
    arms: list[Arm]


def split_arms(arms: Sequence[Arm], datasets: Sequence[Dataset]):
    """The variant arms grouped by answer and field, and the baseline arm(s) of each preset
    and field (keyed by ``(preset, field)``)."""
    groups: dict[tuple, _Group] = {}
    baselines: dict[tuple[object, object], list[Dataset]] = {}
    for arm, dataset in zip(arms, datasets, strict=True):
        labels = _labels(arm)
        if arm.labels.get("role") == "baseline":
            key = (labels["preset"], labels.get("field", BASELINE))
            baselines.setdefault(key, []).append(dataset)
            continue
        key = (tuple(labels.items()), _variant(arm))
        if key not in groups:
            groups[key] = _Group(labels, _variant(arm), [], [])
        groups[key].datasets.append(dataset)
        groups[key].arms.append(arm)
    return list(groups.values()), baselines


def seat_table(arms: Sequence[Arm], datasets: Sequence[Dataset], metrics: Sequence[str],
                baseline: str = BASELINE):
    groups, baselines = split_arms(arms, datasets)
    labels = [{**g.labels, "field": g.labels.get("field", BASELINE)} for g in groups]
    table, per_wall = seat_vs_field([g.datasets for g in groups], labels,
                                    [g.variant for g in groups], baseline, metrics,
                                    baseline_arms=baselines, baseline_key=("preset", "field"),
                                    position=0)
    return table, per_wall, groups


def _versus_field(metrics: Sequence[str]):
    def analyse(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
        table, _, _ = seat_table(arms, datasets, metrics)
        return table

    return analyse


def replicate_variants(arms: Sequence[Arm]):
    """Replicate every variant arm against the speed field (the other fields are played once:
    replicating them would double the cost of the expert fields)."""
    def replicate(table: pd.DataFrame) -> list[str]:
        return [a.name for a in arms if a.labels.get("role") != "baseline"
                and a.labels.get("field", BASELINE) == BASELINE]

    return replicate


def seed_text(rows: pd.DataFrame, first_seed: int) -> str:
    """``; seed 1: +0.040 [...]`` for the replicate rows of a headline (empty without one)."""
    parts = [f"seed {int(r.seed)}: {format_interval(r.estimate, r.ci_low, r.ci_high)}"
             for r in rows.itertuples() if int(r.seed) != first_seed]
    return "; " + "; ".join(parts) if parts else ""


def _flips(signs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which signs differ from the reference (the first non-zero one), and which are 0."""
    nonzero = signs[signs != 0]
    ref = nonzero[0] if len(nonzero) else 0.0
    return (signs != 0) & (signs != ref), signs == 0


def robustness_text(rows: pd.DataFrame) -> str:
    """Whether the sign of an answer's estimate is the same in every field (rows: one per
    field, first seed; the reference is the first field with a non-zero estimate)."""
    if len(rows) < 2:
        return "one field only"
    signs = np.sign(rows["estimate"].to_numpy(np.float64))
    fields = rows["field"].astype(str).tolist()
    unclear = [f for f, lo, hi in zip(fields, rows["ci_low"], rows["ci_high"], strict=True)
               if not (lo > 0 or hi < 0)]
    note = f" (the interval covers 0 under {', '.join(unclear)})" if unclear else ""
    flipped, zero = _flips(signs)
    zeros = [f for f, z in zip(fields, zero, strict=True) if z]
    zero_text = f"; exactly 0 under {', '.join(zeros)}" if zeros else ""
    flips = [f for f, s in zip(fields, flipped, strict=True) if s]
    if not flips:
        return f"the sign holds in every field{note}{zero_text}"
    return f"the sign flips under {', '.join(flips)}{note}{zero_text}"


def robustness(table: pd.DataFrame, keys: Sequence[str] = ("preset", "policy"),
               metric: str = "net") -> pd.DataFrame:
    """Per answer (``keys``): the switching gain's sign in each field and whether it holds.

    Columns: ``keys``, ``fields`` (in table order), ``signs`` (``+``/``-``/``0`` per field),
    ``holds`` (no two non-zero signs differ), ``flips_under`` (the fields whose sign differs
    from the first non-zero one's), ``significant_in`` (fields whose interval excludes 0), ``text``.
    """
    rows = table[(table["estimand"] == HEADLINE) & (table["metric"] == metric)]
    if "seed" in rows.columns and len(rows):
        rows = rows[rows["seed"] == rows["seed"].min()]
    keys = [k for k in keys if k in rows.columns]
    out = []
    for key, part in rows.groupby(keys, sort=False):
        signs = np.sign(part["estimate"].to_numpy(np.float64))
        fields = part["field"].astype(str).tolist()
        flipped, _ = _flips(signs)
        out.append({
            **dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)),
            "fields": fields,
            "signs": ["+" if s > 0 else "-" if s < 0 else "0" for s in signs],
            "holds": not bool(flipped.any()),
            "flips_under": [f for f, s in zip(fields, flipped, strict=True) if s],
            "significant_in": [f for f, lo, hi in zip(fields, part["ci_low"], part["ci_high"],
                                                      strict=True) if lo > 0 or hi < 0],
            "text": robustness_text(part),
        })
    return pd.DataFrame(out)


def net_lines(table: pd.DataFrame, keys: Sequence[str]) -> str:
    """One line per answer: the net switching gain against each field with its interval,
    walls and Holm p (the speed field also on its second seed and vs the field), and whether
    its sign holds in every field."""
    net = table[(table["metric"] == "net") & (table["baseline"] == canonical(BASELINE))]
    gains = net[net["estimand"] == HEADLINE]
    first_seed = int(gains["seed"].min()) if len(gains) else 0
    first = gains[gains["seed"] == first_seed]
    answer_keys = [k for k in keys if k in first.columns]
    lines = []
    for _key, rows in first.groupby(answer_keys, sort=False):
        row0 = rows.iloc[0]
        label = ", ".join(str(row0[k]) if k in ("preset", "policy") else f"{k}={row0[k]}"
                          for k in answer_keys)
        parts = []
        for _, row in rows.iterrows():
            same = ((gains["policy"] == row["policy"]) & (gains["preset"] == row["preset"])
                    & (gains["field"] == row["field"]))
            vs = net[(net["estimand"] == "vs_field") & (net["seed"] == first_seed)
                     & (net["policy"] == row["policy"]) & (net["preset"] == row["preset"])
                     & (net["field"] == row["field"])]
            vs_text = ""
            if len(vs) and row["field"] == BASELINE:
                v = vs.iloc[0]
                vs_text = f"; vs the field {format_interval(v.estimate, v.ci_low, v.ci_high)}"
            parts.append(f"{field_words(str(row['field']))} "
                         f"{format_interval(row.estimate, row.ci_low, row.ci_high)} "
                         f"(seed {first_seed}, {row.walls:,} walls, {row.method}, Holm p "
                         f"{row.p_holm:.2g}{seed_text(gains[same], first_seed)}{vs_text})")
        lines.append(f"- {label}: switching gain " + "; ".join(parts)
                     + f" units/deal; {robustness_text(rows)}.")
    return "\n".join(lines)


def reduction_text(table: pd.DataFrame) -> str:
    """One sentence on what the duplicate design bought for the headline rows."""
    rows = table[(table["estimand"] == HEADLINE) & (table["metric"] == "net")
                 & (table["method"] != "exact")]
    vr = rows["variance_reduction"].dropna()
    if not len(vr) or vr.median() >= 1.0:
        return ""
    median = float(vr.median())
    return (f"Playing every wall in all four seat rotations removed a median "
            f"{median:.0%} of the variance of these estimates (range {vr.min():.0%} to "
            f"{vr.max():.0%}), worth {1 / max(1 - median, 1e-9):.1f} times as many deals.")


def fields_text(fields: Sequence[Field]) -> str:
    return "; ".join(field_words(f.name) for f in fields)


# the usual experiment: one seat switching from speed, each variant against every field

def simple_experiment(
    name: str, question: str, variants: Sequence[tuple[str, str, str, dict[str, Any]]],
    fields: Sequence[str], metrics: Sequence[str] = STRATEGY_METRICS,
) -> Experiment:
    """``variants``: (preset, spec, arm name, labels), each against every field."""
    parsed = parse_fields(fields)
    arms: list[Arm] = []
    for preset, spec, arm_name, labels in variants:
        arms += field_arms(preset, spec, arm_name, parsed, **labels)
    presets = tuple(dict.fromkeys(v[0] for v in variants))
    arms += [b for p in presets for b in baseline_arms(p, parsed)]

    def headline(table: pd.DataFrame) -> str:
        return (f"{question.split('?')[0]}? Switching gains ({fields_text(parsed)}):\n"
                + net_lines(table, ("preset", "policy")) + "\n\n" + reduction_text(table))

    return Experiment(name=name, question=question, arms=tuple(arms),
                      analyse=_versus_field(metrics), headline=headline,
                      markdown_rows=("preset", "policy", "baseline", "estimand"),
                      family=FAMILY, replicate=replicate_variants(arms), fields=tuple(fields),
                      answer_rows=("preset", "policy"))
