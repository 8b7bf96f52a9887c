"""The review as one self-contained HTML page: tiles drawn as inline SVG, no script, no font
or image fetched from anywhere (it opens offline, from a file or an e-mail).

Sections: the verdict (decisions, agreement with the best, mistakes, EV lost with its interval,
by kind), the seat's net through the deal, the mistakes first (each with its position and the
advisor's table of actions with intervals), then every other reviewed decision, then the deal's
events.
"""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np
import pandas as pd

from simcore.review.deal import KINDS, Review, spec_text
from simcore.review.setup import SETUP_KINDS, hand_of
from simcore.tiles import SUITS, parse, tile_str, tiles_from_counts

TILE_W, TILE_H = 26, 36
SUIT_COLOURS = {"m": "#b3261e", "p": "#1c4f9c", "s": "#1d7a35"}
# pip centres (x, y in a 20 x 28 box) of the dots suit, rank 1..9
DOTS = {
    1: [(10, 14)], 2: [(10, 7), (10, 21)], 3: [(5, 6), (10, 14), (15, 22)],
    4: [(6, 7), (14, 7), (6, 21), (14, 21)], 5: [(6, 6), (14, 6), (10, 14), (6, 22), (14, 22)],
    6: [(6, 5), (14, 5), (6, 14), (14, 14), (6, 23), (14, 23)],
    7: [(4, 4), (10, 7), (16, 10), (6, 17), (14, 17), (6, 24), (14, 24)],
    8: [(6, 4), (14, 4), (6, 10), (14, 10), (6, 17), (14, 17), (6, 24), (14, 24)],
    9: [(4, 5), (10, 5), (16, 5), (4, 14), (10, 14), (16, 14), (4, 23), (10, 23), (16, 23)],
}

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1b1b1b;
max-width:1100px}
h1{font-size:1.5em;margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
.sub{color:#555}.tiles{display:inline-flex;gap:2px;vertical-align:middle;flex-wrap:wrap}
.tiles svg{display:block}.gap{display:inline-block;width:12px}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}
td.l,th.l{text-align:left}tr.taken td{background:#fff4d6}tr.best td{font-weight:600}
.card{border:1px solid #ddd;border-radius:6px;padding:10px 14px;margin:12px 0}
.card.mistake{border-color:#b3261e;box-shadow:0 0 0 2px #f6d5d2}
.tag{display:inline-block;border-radius:4px;padding:1px 6px;font-size:.85em;color:#fff}
.tag.mistake{background:#b3261e}.tag.ok{background:#1d7a35}.tag.close{background:#777}
.bar{display:inline-block;width:160px;height:10px;position:relative;background:#f1f1f1}
.bar i{position:absolute;top:0;height:10px;background:#1c4f9c;opacity:.55}
.bar b{position:absolute;top:-2px;width:2px;height:14px;background:#111}
pre{background:#f7f7f7;padding:8px;overflow:auto;font-size:.85em}
.log td{text-align:left;border:none;padding:1px 8px}.log tr:nth-child(odd){background:#fafafa}
"""


def render_html(review: Review, title: str | None = None) -> str:
    """The review of one deal as a self-contained HTML page."""
    s = review.summary()
    settings = review.settings
    head = review.record.events[0]
    where = (f"deal {head.get('deal')} of seed {head.get('seed')}"
             if head.get("seed") is not None else str(head.get("where", "a recorded deal")))
    title = title or f"simcore review: S{review.seat}, {where}"
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        '<link rel="icon" href="data:,">', f"<title>{_e(title)}</title>",
        f"<style>{CSS}</style></head><body>", _symbols(),
        f"<h1>{_e(title)}</h1>",
        f'<p class="sub">rules {_e(review.record.rules.preset)}; seat policy '
        f"{_e(settings.get('policy'))}, others {_e(spec_text(settings.get('field')))}; "
        f"{settings.get('samples')} hidden states a decision at most, review seed "
        f"{settings.get('seed')}; a mistake loses at least {settings.get('threshold')} units "
        f"with its 95% interval above zero.</p>",
        _summary(s), "<h2>The seat's net through the deal</h2>", _net_chart(review),
        _mistakes(review), _others(review), _log(review), "</body></html>"]
    return "\n".join(parts)


# --------------------------------------------------------------------------------------------
# tiles


def _symbols() -> str:
    """One SVG symbol per tile type, used by every tile on the page."""
    defs = []
    for t in range(27):
        suit, rank = SUITS[t // 9], t % 9 + 1
        colour = SUIT_COLOURS[suit]
        body = [f'<rect x="0.5" y="0.5" width="{TILE_W - 1}" height="{TILE_H - 1}" rx="4" '
                f'fill="#fffdf6" stroke="#8a8474"/>']
        if suit == "p":
            body += [f'<circle cx="{x + 3}" cy="{y + 4}" r="{3.2 if rank < 7 else 2.4}" '
                     f'fill="none" stroke="{colour}" stroke-width="1.6"/>'
                     for x, y in DOTS[rank]]
        elif suit == "s":
            body += [f'<rect x="{x + 2}" y="{y - 1}" width="2.6" height="7" rx="1" '
                     f'fill="{colour}"/>' for x, y in DOTS[rank]]
        else:
            body += [f'<text x="13" y="17" text-anchor="middle" font-size="15" '
                     f'font-weight="700" fill="#1b1b1b">{rank}</text>',
                     f'<text x="13" y="31" text-anchor="middle" font-size="10" '
                     f'fill="{colour}">wan</text>']
        defs.append(f'<symbol id="t{t}" viewBox="0 0 {TILE_W} {TILE_H}">{"".join(body)}'
                    "</symbol>")
    return ('<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
            + "".join(defs) + "</defs></svg>")


def tile_svg(t: int, title: str | None = None) -> str:
    name = tile_str(t)
    return (f'<svg width="{TILE_W}" height="{TILE_H}" role="img" aria-label="{name}">'
            f"<title>{_e(title or name)}</title><use href=\"#t{t}\"/></svg>")


def tiles_html(tiles: list[int] | np.ndarray) -> str:
    return '<span class="tiles">' + "".join(tile_svg(int(t)) for t in tiles) + "</span>"


def hand_html(text: str) -> str:
    """A hand in notation (``123m45p|P5s``) drawn as tiles, melds after a gap."""
    counts, melds = parse(text, sizes="any")
    return tiles_html(tiles_from_counts(counts)) + _melds_html(melds)


def _melds_html(melds: Any) -> str:
    return "".join('<span class="gap"></span>' + tiles_html([m.tile] * m.size) for m in melds)


# --------------------------------------------------------------------------------------------
# sections


def _summary(s: dict[str, Any]) -> str:
    rows = "".join(
        f'<tr><td class="l">{k}</td><td>{v["decisions"]}</td><td>{v["agree"]}</td>'
        f'<td>{v["mistakes"]}</td><td>{v["ev_lost"]:+.2f}</td></tr>'
        for k, v in s["by_kind"].items() if k in KINDS)
    net = "" if s["net"] is None else f"; the seat's net <b>{s['net']:+d}</b> units"
    return (f"<p><b>{s['reviewed']}</b> decisions reviewed ({s['decisions']} in all, the others "
            f"had one legal action): <b>{s['agree']}</b> agree with the best, "
            f"<b>{s['mistakes']}</b> mistakes, EV lost <b>{s['ev_lost']:+.2f}</b> units "
            f"[{s['ev_lost_ci_low']:+.2f}, {s['ev_lost_ci_high']:+.2f}]{net}.</p>"
            '<table class="kinds"><tr><th class="l">kind</th><th>decisions</th><th>agree</th>'
            f"<th>mistakes</th><th>EV lost</th></tr>{rows}</table>")


def _net_chart(review: Review) -> str:
    path = review.net_path
    last = len(review.record.events) - 1
    if review.net is None:
        return "<p>The record gives no payments: the seat's net is not known.</p>"
    if len(path) < 2:
        return "<p>No payment to or from the seat in the record.</p>"
    w, h, pad = 720, 180, 30
    lo, hi = min(v for _, v in path + [(0, 0)]), max(v for _, v in path + [(0, 0)])
    span = max(hi - lo, 1)

    def xy(step: int, v: float) -> tuple[float, float]:
        return pad + (w - 2 * pad) * step / max(last, 1), h - pad - (h - 2 * pad) * (v - lo) / span

    pts = []
    prev = 0
    for step, v in path:
        pts += [xy(step, prev), xy(step, v)]
        prev = v
    pts.append(xy(last, prev))
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    x0, y0 = xy(0, 0)
    x1, _ = xy(last, 0)
    marks = "".join(
        f'<circle cx="{xy(r.step, _value_at(path, r.step))[0]:.1f}" '
        f'cy="{xy(r.step, _value_at(path, r.step))[1]:.1f}" r="4" fill="#b3261e">'
        f"<title>step {r.step}: {_e(r.taken)} (EV lost {r.ev_lost:+.2f})</title></circle>"
        for r in review.decisions.itertuples() if r.mistake)
    return (f'<svg class="net" width="{w}" height="{h}" role="img" aria-label="net">'
            f'<line x1="{x0}" y1="{y0:.1f}" x2="{x1}" y2="{y0:.1f}" stroke="#aaa" '
            f'stroke-dasharray="4 3"/><polyline points="{line}" fill="none" stroke="#1c4f9c" '
            f'stroke-width="2"/>{marks}'
            f'<text x="{pad}" y="14" font-size="11">{hi:+d}</text>'
            f'<text x="{pad}" y="{h - 8}" font-size="11">{lo:+d} units; step 0 .. {last} '
            f"(red: mistakes)</text></svg>")


def _value_at(path: list[tuple[int, int]], step: int) -> int:
    v = 0
    for s, x in path:
        if s <= step:
            v = x
    return v


def _mistakes(review: Review) -> str:
    rows = review.decisions[review.decisions["mistake"]]
    body = "".join(_card(review, r) for r in rows.itertuples())
    return ("<h2>Mistakes</h2>" + (body or "<p>None: no decision lost a measurable "
                                             f"{review.settings.get('threshold')} units.</p>"))


def _others(review: Review) -> str:
    rows = review.reviewed[~review.reviewed["mistake"]]
    cards = "".join(_card(review, r) for r in rows.itertuples())
    out = f"<h2>Every other reviewed decision ({len(rows)})</h2>{cards}"
    if len(review.skipped):
        out += (f"<h2>Not reviewed ({len(review.skipped)})</h2>"
                + "".join(_card(review, r) for r in review.skipped.itertuples()))
    return out


def _card(review: Review, r: Any) -> str:
    table = review.tables.get(r.step)
    tag = ('<span class="tag mistake">mistake</span>' if r.mistake else
           '<span class="tag ok">best</span>' if r.agree else
           '<span class="tag close">not the best</span>')
    pos = r.position
    hand, drawn = _setup_hand(pos) if r.decision in SETUP_KINDS else _hand_line(pos)
    measured = (f"best <b>{_e(r.best)}</b>: EV lost {r.ev_lost:+.2f} "
                f"[{r.ev_lost_ci_low:+.2f}, {r.ev_lost_ci_high:+.2f}]" if r.samples
                else _e(r.note))
    if not r.samples:
        tag = '<span class="tag close">not reviewed</span>'
    head = (f'<div class="card{" mistake" if r.mistake else ""}" id="step{r.step}">'
            f"<b>step {r.step}</b> {_e(r.decision)} {tag} &nbsp; took <b>{_e(r.taken)}</b>, "
            f"{measured}<div>{hand}{drawn}</div>")
    tab = "" if table is None else _actions_table(table, r.taken)
    return (head + tab + f"<details><summary>position</summary><pre>{_e(pos)}</pre>"
            "</details></div>")


def _setup_hand(text: str) -> tuple[str, str]:
    """The hand of an exchange or a void (:meth:`SetupDecision.describe`'s text)."""
    return tiles_html(tiles_from_counts(hand_of(text))), ""


def _hand_line(position_text: str) -> tuple[str, str]:
    """The seat's concealed tiles and melds, and the tile it just drew (the position's text
    form read back)."""
    from simcore.advice.position import Position

    p = Position.parse(position_text)
    hand = tiles_html(tiles_from_counts(np.asarray(p.hand))) + _melds_html(p.seats[p.seat].melds)
    drawn = "" if p.drawn is None else (' <span class="gap"></span> drew '
                                        + tiles_html([p.drawn]))
    return hand, drawn


def _actions_table(t: pd.DataFrame, taken: str) -> str:
    lo = float(min(t["net_ci_low"].min(), 0))
    hi = float(max(t["net_ci_high"].max(), 0))
    span = max(hi - lo, 1e-9)
    rows = []
    for r in t.itertuples():
        cls = " ".join(c for c, on in (("taken", r.action == taken), ("best", r.rank == 1)) if on)
        left, width = 160 * (r.net_ci_low - lo) / span, 160 * (r.net_ci_high - r.net_ci_low) / span
        mark = 160 * (r.net - lo) / span
        bar = (f'<span class="bar"><i style="left:{left:.1f}px;width:{max(width, 1):.1f}px">'
               f'</i><b style="left:{mark:.1f}px"></b></span>')
        diff = "best" if r.rank == 1 else f"{r.diff:+.2f} ± {1.96 * r.diff_se:.2f}"
        fan = "-" if math.isnan(r.fan) else f"{r.fan:.2f}"
        rows.append(
            f'<tr class="{cls}"><td class="l">{_e(r.action)}</td><td>{r.net:+.2f}</td>'
            f"<td>[{r.net_ci_low:+.2f}, {r.net_ci_high:+.2f}]</td><td>{bar}</td>"
            f"<td>{diff}</td><td>{100 * r.win:.1f}%</td><td>{100 * r.deal_in:.1f}%</td>"
            f"<td>{fan}</td></tr>")
    return ('<table class="actions"><tr><th class="l">action</th><th>net</th><th>95% CI</th>'
            "<th>interval</th><th>vs best</th><th>win</th><th>deal-in</th><th>fan</th></tr>"
            + "".join(rows) + "</table>")


def _log(review: Review) -> str:
    from simcore.deal_record.check import describe

    rows = []
    reviewed = set(review.reviewed["step"])
    for n, ev in enumerate(review.record.events):
        if n == 0:
            hand = ev["hands"][review.seat]
            text = "dealt " + tiles_html(sorted(hand)) if hand else "the deal"
        elif ev["type"] == "win":
            text = f"{_e(describe(ev))}: " + hand_html(ev["hand"]) + (
                f" {ev.get('fan')} fan" if "fan" in ev else "")
        elif ev["type"] in ("void", "exchange", "settle", "end"):
            text = _e(_short(ev))
        else:
            text = _e(describe(ev))
            if ev.get("tile") is not None:
                text += " " + tiles_html([ev["tile"]])
        mark = ' style="font-weight:600"' if ev.get("seat") == review.seat else ""
        link = (f' <a href="#step{n}">review</a>'
                if n in reviewed else "")
        rows.append(f"<tr{mark}><td>{n}</td><td>{text}{link}</td></tr>")
    return ('<h2>The deal</h2><details><summary>every event (the reviewed seat in bold)'
            '</summary><table class="log">' + "".join(rows) + "</table></details>")


def _short(ev: dict[str, Any]) -> str:
    kind = ev["type"]
    if kind == "void":
        return "void: " + ", ".join(f"S{s} {v}" for s, v in enumerate(ev["suits"]))
    if kind == "exchange":
        return f"exchange three ({ev['direction']})"
    if kind == "settle":
        return f"drawn end: pigs {ev.get('pigs')}, ready {ev.get('ready')}"
    return f"end: nets {ev.get('net')}, {ev.get('wall_left')} tiles left"


def _e(x: Any) -> str:
    return html.escape(str(x))
