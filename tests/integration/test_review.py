"""The review of a deal (issue 29): the same with the same seed, the same from a record of the
seat alone as from the whole deal, a known mistake flagged, a deal played as the advisor would
without mistakes, the command's outputs, and the HTML report in a real browser."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from simcore.advice.replayed import replay_events
from simcore.deal_record import dumps_record, to_record
from simcore.review import review_deal
from simcore.review.deal import DECISION_COLUMNS, decision_seed
from simcore.review.html import render_html
from simcore.review.setup import SETUP_KINDS
from simcore.review.yardstick import deal_review_seed

SAMPLES = 256
HAND_WRITTEN = Path(__file__).parents[2] / "docs" / "examples" / "hand_written_record.json"


# Deal 177 of seed 29: expert in seat 0 against three speed players, reviewed as the yardstick
# of seed 29 reviews it (experiments/review_policies.py: 256 hidden states a decision)
SEED, DEAL = 29, 177
REVIEW_SEED = deal_review_seed(SEED, DEAL)


@pytest.fixture(scope="module")
def events() -> list[dict]:
    return replay_events(SEED, DEAL, "classic", "expert/speed/speed/speed")


@pytest.fixture(scope="module")
def review(events):
    return review_deal(events, 0, policy="expert", field="speed", samples=SAMPLES,
                       seed=REVIEW_SEED)


def test_every_decision_is_listed_and_the_reviewed_ones_measured(review, events):
    d = review.decisions
    assert list(d.columns) == list(DECISION_COLUMNS)
    assert (d["actions"] >= 1).all() and len(review.reviewed) == len(review.tables)
    forced = d[d["actions"] == 1]
    assert (forced["ev_lost"] == 0).all() and (forced["kind"] == "forced").all()
    r = review.reviewed
    assert (r["ev_lost_ci_low"] <= r["ev_lost"]).all()
    assert (r["ev_lost"] <= r["ev_lost_ci_high"]).all()
    assert (r.loc[r["agree"], "ev_lost"] == 0).all()  # the best against itself: no loss
    assert review.net_path[-1][1] == events[-1]["net"][0]


def test_a_review_is_the_same_with_the_same_seed_and_not_with_another(review, events):
    again = review_deal(events, 0, policy="expert", field="speed", samples=SAMPLES,
                        seed=REVIEW_SEED)
    other = review_deal(events, 0, policy="expert", field="speed", samples=SAMPLES, seed=5)
    assert again.decisions.equals(review.decisions)
    assert not np.allclose(other.reviewed["net_taken"], review.reviewed["net_taken"])


def test_a_record_of_the_seat_alone_reviews_as_the_whole_deal(review, events):
    """The positions are what the seat saw, so the record a player writes at the table (its
    own tiles, the others' only as shown) gives the same review."""
    record = json.loads(dumps_record(to_record(events, seat=0)))
    alone = review_deal(record, 0, policy="expert", field="speed", samples=SAMPLES,
                        seed=REVIEW_SEED)
    assert alone.decisions.equals(review.decisions)
    with pytest.raises(ValueError, match="knows S0's tiles only"):
        review_deal(record, 1, samples=SAMPLES)


def test_a_deal_played_as_the_advisor_would_has_no_mistakes(review):
    """In this deal seat 0's expert took the advisor's best at each of its 7 decisions of
    play with a choice, a pung and a win among them (the yardstick found it so, reviewing 300
    deals in two processes): no EV lost there, and no mistake in the deal. Its void (the deal
    has no exchange) is ranked too, and is the search's best as well."""
    s = review.summary()
    r = review.reviewed
    play = r[~r["kind"].isin(SETUP_KINDS)]
    assert (len(play), int(play["agree"].sum()), float(play["ev_lost"].sum())) == (7, 7, 0.0)
    assert list(r.loc[r["kind"].isin(SETUP_KINDS), "kind"]) == ["void"]
    assert s["mistakes"] == 0 and not review.decisions["mistake"].any(), s
    assert (play["taken"] == play["best"]).all()


def test_a_known_mistake_is_flagged():
    """Deal 1 of seed 29, step 81: expert passes a win on 1p while it holds 111p: winning or
    konging it both earn more than passing, by over a unit."""
    ev = replay_events(29, 1, "classic", "expert/speed/speed/speed")
    r = review_deal(ev, 0, policy="expert", field="speed/speed/speed", samples=SAMPLES, seed=0)
    row = r.decisions.set_index("step").loc[81]
    assert row["taken"] == "pass" and row["kind"] == "win"
    assert row["mistake"] and row["ev_lost"] > 1 and row["ev_lost_ci_low"] > 0


def test_the_command_reviews_a_simcore_deal_and_a_record(tmp_path, events):
    out = subprocess.run(["simcore", "review", "--seed", str(SEED), "--deal", str(DEAL),
                          "--policies", "expert/speed/speed/speed", "--seat", "0", "--samples",
                          "128", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"settings", "summary", "decisions"}
    assert data["summary"]["reviewed"] == sum(d["actions"] > 1 for d in data["decisions"])
    reviewed = [d for d in data["decisions"] if d["actions"] > 1]
    assert all(d["actions_table"] and d["actions_table"][0]["rank"] == 1 for d in reviewed)
    path = tmp_path / "seat0.json"
    path.write_text(dumps_record(to_record(events, seat=0)))
    html = tmp_path / "review.html"
    text = subprocess.run(["simcore", "review", str(path), "--samples", "128", "--html",
                           str(html)], capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    assert "decisions reviewed" in text.stdout and html.stat().st_size > 10_000
    bad = subprocess.run(["simcore", "review", str(path), "--seat", "2"], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "knows S0's tiles only" in bad.stderr


def test_a_record_written_down_by_hand_is_reviewed(tmp_path):
    """docs/examples/hand_written_record.json: no payments, no fans, seat 0's tiles only. Its
    seat-0 decisions: the void, the first discard (two void tiles), the pung of 1m on offer,
    the discard after drawing 8m, and the win on 9m; the net is not recorded."""
    html = tmp_path / "hand.html"
    done = subprocess.run(["simcore", "review", str(HAND_WRITTEN), "--samples", "128", "--json",
                           "--html", str(html)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    reviewed = [d for d in data["decisions"] if d["actions"] > 1]
    assert [(d["step"], d["kind"], d["taken"]) for d in reviewed] == [
        (0, "void", "void s"), (1, "discard", "discard 8s"), (4, "pung", "pass"),
        (17, "discard", "discard 1m"), (24, "win", "win")]
    assert data["summary"]["net"] is None and data["settings"]["field"] == "expert"
    assert html.stat().st_size > 10_000


def test_the_report_is_self_contained(review):
    page = render_html(review)
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    for fetch in ("http://", "https://", "@import", "url("):
        assert fetch not in page
    assert page.count('class="actions"') == len(review.tables)


def _browser() -> tuple[str, str] | None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


@pytest.mark.skipif(_browser() is None and not os.environ.get("CI"),
                    reason="no chromium and chromedriver here (.ci/run installs them)")
def test_the_report_renders_in_a_real_browser(tmp_path, review):
    """Headless Chromium opens the report from a file: the screenshot is not blank, the
    tables of actions are on the page and the console has no error."""
    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    found = _browser()
    assert found is not None, "CI must have chromium and chromedriver (.ci/run)"
    path = tmp_path / "review.html"
    path.write_text(render_html(review), encoding="utf-8")
    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1600",
                "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(found[1]), options=options)
    try:
        driver.get(path.as_uri())
        tables = driver.find_elements(By.CSS_SELECTOR, "table.actions")
        assert len(tables) == len(review.tables) and tables[0].is_displayed()
        assert driver.find_elements(By.CSS_SELECTOR, "table.actions tr")[1].text
        shot = tmp_path / "review.png"
        driver.save_screenshot(str(shot))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    assert errors == []
    image = np.asarray(Image.open(shot).convert("L"), dtype=np.int16)
    ink = (image < 200).mean()
    assert ink > 0.02, f"the screenshot is nearly blank ({ink:.3%} dark pixels)"


def test_the_yardstick_is_the_same_in_one_process_and_in_two():
    """Deal i's review depends on (seed, i) only: the yardstick's rows do not depend on how
    the deals are shared between worker processes."""
    from simcore.review.yardstick import review_policy

    one = review_policy("speed", 3, field="speed", seed=3, samples=64)
    two = review_policy("speed", 3, field="speed", seed=3, samples=64, processes=2)
    assert one.deals.equals(two.deals)
    assert (one.deals["reviewed"] > 0).all()
    t = one.table()
    assert list(t["measure"])[:4] == ["ev_lost", "ev_lost_exchange", "ev_lost_void",
                                      "ev_lost_discard"] and t.attrs["deals"] == 3


def test_a_decision_the_sampler_cannot_take_is_listed_not_reviewed(monkeypatch, events):
    """A position whose hidden states are too many to enumerate (a winner's hidden hand early
    in a deal) is listed with its reason and left out of the EV lost, not a failed review."""
    import simcore.advice.advisor as advisor
    from simcore.advice.sampler import SamplerLimitError
    from simcore.commands.review import render_text

    first = review_deal(events, 0, policy="speed", field="speed", samples=32)
    step = int(first.reviewed["step"].iloc[1])
    real = advisor.advise

    def advise(position, **kw):
        if kw["seed"] == decision_seed(0, step):
            raise SamplerLimitError("more than 200000 joint candidate hands for the winners")
        return real(position, **kw)

    monkeypatch.setattr(advisor, "advise", advise)
    r = review_deal(events, 0, policy="speed", field="speed", samples=32)
    s = r.summary()
    assert s["skipped"] == 1 and s["reviewed"] == len(first.reviewed) - 1
    row = r.skipped.iloc[0]
    assert row["step"] == step and row["note"].startswith("not reviewed: more than 200000")
    kept = first.reviewed[first.reviewed["step"] != step]
    assert np.isclose(s["ev_lost"], round(float(kept["ev_lost"].sum()), 4))
    assert "Not reviewed (1)" in render_html(r)
    assert "1 not reviewed" in render_text(r)
