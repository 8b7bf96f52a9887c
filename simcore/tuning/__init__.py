"""``simcore tune``: search a policy's options for the setting that earns most against a field.

Example (what ``notebooks/05_tuning`` does at full size)::

    import simcore
    result = simcore.tune("flush", ["k=5..12", "g=0..30"], field="speed", rules="classic",
                          deals=280_000, out="data/tune/flush-classic")
    result.spec, result.gain, (result.ci_low, result.ci_high), result.deals

The search is optuna's (TPE sampler, successive-halving pruner over growing sets of common
walls: :mod:`.search`), the budget covers every deal played (:mod:`.plan`), and the winner is
confirmed against the starting setting on fresh walls with a 95% interval. With ``out`` the
tune is resumable: the study is ``OUT/study.db``, its parameters ``OUT/tune.json``; running
the same tune again continues it (or, when it has finished, returns its result), a different
one on the same directory is an error.
"""

from simcore.tuning.output import TuneResult, load_result
from simcore.tuning.params import Param
from simcore.tuning.plan import DEFAULT_RUNGS
from simcore.tuning.tuner import DEFAULT_TUNE_DIR as DEFAULT_TUNE_DIR
from simcore.tuning.tuner import PARAMS_JSON as PARAMS_JSON
from simcore.tuning.tuner import make_setup, result_or_run, tune

__all__ = ["DEFAULT_RUNGS", "Param", "TuneResult", "load_result", "make_setup",
           "result_or_run", "tune"]
