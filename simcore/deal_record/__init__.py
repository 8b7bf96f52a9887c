"""The Sichuan deal record (:mod:`.format`) and its check against the rules (:mod:`.check`).

Plain Python and numpy: reading and checking a record compiles nothing.
"""

from __future__ import annotations

from simcore.deal_record.check import CheckReport, check_record
from simcore.deal_record.format import (
    FORMAT,
    VERSION,
    Record,
    RecordError,
    dumps_record,
    read_record,
    to_record,
    write_record,
)

__all__ = ["FORMAT", "VERSION", "CheckReport", "Record", "RecordError", "check_record",
           "dumps_record", "read_record", "to_record", "write_record"]
