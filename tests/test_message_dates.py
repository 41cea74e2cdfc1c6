"""The server reads kernel messages' dates with the standard library (``spades_tutor.message_dates``):
every date ``jupyter_client`` admits comes out as ``dateutil`` read it."""

from __future__ import annotations

import itertools
import warnings
from datetime import datetime

import pytest
from dateutil.parser import isoparse
from jupyter_client import jsonutil
from jupyter_client.session import Session

from spades_tutor import message_dates

DAYS = ("2026-12-07T22:45:01", "1999-01-31T00:00:59", "2024-02-29T23:59:00")
FRACTIONS = ("", ".1", ".12", ".123", ".1234", ".12345", ".123456")
ZONES = ("Z", "+00:00", "+05:30", "-0500", "+0100", "-11:00")


@pytest.fixture(autouse=True)
def installed() -> None:
    message_dates.install()


@pytest.mark.parametrize(("day", "fraction", "zone"), list(itertools.product(DAYS, FRACTIONS, ZONES)))
def test_every_dated_form_jupyter_admits_reads_as_dateutil_reads_it(day: str, fraction: str, zone: str) -> None:
    text = day + fraction + zone
    assert jsonutil.ISO8601_PAT.match(text)
    got = jsonutil.parse_date(text)
    assert isinstance(got, datetime) and got.tzinfo is not None
    assert got == isoparse(text) and got.utcoffset() == isoparse(text).utcoffset()


def test_a_date_without_a_zone_is_still_taken_as_local_with_jupyters_warning() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = jsonutil.parse_date("2026-12-07T22:45:01.5")
    assert isinstance(got, datetime) and got.tzinfo is not None
    assert got.replace(tzinfo=None) == datetime(2026, 12, 7, 22, 45, 1, 500000)
    assert any(issubclass(w.category, DeprecationWarning) for w in seen)


def test_what_is_not_a_date_is_left_alone_and_installing_twice_wraps_once() -> None:
    for text in ("not a date", "2026-12-07", "22:45:01", ""):
        assert jsonutil.parse_date(text) == text
    parser = getattr(jsonutil, message_dates.PARSER)
    message_dates.install()
    assert getattr(jsonutil, message_dates.PARSER) is parser
    # a form Jupyter admits that the standard library does not read (hour 24) goes to the parser replaced
    midnight = "2026-12-07T24:00:00Z"
    assert jsonutil.ISO8601_PAT.match(midnight)
    assert jsonutil.parse_date(midnight) == isoparse(midnight) == datetime.fromisoformat("2026-12-08T00:00:00Z")
    with pytest.raises(ValueError):
        message_dates.read_date(midnight)


def test_a_kernel_message_read_back_keeps_its_dates() -> None:
    session = Session(key=b"a class's key")
    request = session.msg("execute_request", content={"code": "1"})
    reply = session.msg("comm_msg", content={"data": {"method": "update"}}, parent=request)
    _, frames = session.feed_identities(session.serialize(reply))
    read = session.deserialize(frames, content=False)
    assert read["header"]["date"] == reply["header"]["date"]
    assert read["parent_header"]["date"] == request["header"]["date"]
    assert read["header"]["date"].tzinfo is not None
