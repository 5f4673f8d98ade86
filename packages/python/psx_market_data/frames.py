"""DataFrames with the right dtypes (pandas is optional: imported only when a frame is asked for)."""

import json
import re

KARACHI = "Asia/Karachi"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def have_pyarrow():
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "as_frame=True needs pandas (Debian: apt-get install python3-pandas; pip: pip install pandas)"
        ) from None
    return pandas


def frame_from_rows(data, columns, meta):
    """A DataFrame of a JSON answer's rows, typed by the operation's `columns` ({name: kind}).

    Dates become datetime64, times tz-aware in Asia/Karachi, integers nullable Int64, strings the
    string dtype (codes such as "0809" and symbols such as "786" stay strings), booleans the
    nullable boolean dtype. Columns the schema does not name (a wide panel's symbols) are numbers,
    or dates when every value is one. `frame.attrs["meta"]` keeps the answer's meta.
    """
    pd = _pandas()
    rows = data if isinstance(data, list) else [data]
    if rows and not isinstance(rows[0], dict):
        rows = [{"symbol": value} for value in rows]
    if rows:
        frame = pd.DataFrame.from_records(rows)
        # The schema's order, then the rest (a wide panel's symbols after its date: the JSON lists
        # an integer-like key such as "786" first).
        known = [c for c in columns if c in frame.columns]
        frame = frame[known + [c for c in frame.columns if c not in known]]
    else:
        frame = pd.DataFrame(columns=list(columns))
    for name in frame.columns:
        kind = columns.get(name)
        if kind is None:
            kind = _guess(frame[name])
        frame[name] = _convert(pd, frame[name], kind)
    frame.attrs["meta"] = meta
    frame.attrs["warnings"] = _warnings(meta)
    return frame


def frame_from_parquet(source, headers):
    """A DataFrame read from the service's Parquet (needs pyarrow), with its meta in attrs."""
    pd = _pandas()
    import pyarrow.parquet as pq

    table = pq.read_table(source)
    frame = table.to_pandas()
    for name in frame.columns:
        column = frame[name]
        if hasattr(column, "dt") and getattr(column.dt, "tz", None) is not None:
            frame[name] = column.dt.tz_convert(KARACHI)
        elif column.dtype == object and column.map(lambda v: v is None or isinstance(v, str)).all():
            frame[name] = column.astype("string")
    for name, field in zip(table.schema.names, table.schema):
        if str(field.type) == "int64":
            frame[name] = frame[name].astype("Int64")
        elif str(field.type) == "date32[day]":
            frame[name] = pd.to_datetime(frame[name])
    raw = (table.schema.metadata or {}).get(b"meta")
    frame.attrs["meta"] = json.loads(raw) if raw else {}
    header = headers.get("x-warning")
    frame.attrs["warnings"] = [w.strip() for w in header.split(",")] if header else []
    return frame


def _warnings(meta):
    from .client import warnings_of

    return warnings_of(meta)


def _guess(column):
    values = [v for v in column if v is not None and v == v]
    if values and all(isinstance(v, str) and _DATE.match(v) for v in values):
        return "date"
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "float"
    return "object"


def _convert(pd, column, kind):
    if kind == "date":
        return pd.to_datetime(column, format="%Y-%m-%d")
    if kind == "datetime":
        return pd.to_datetime(column, utc=True).dt.tz_convert(KARACHI)
    if kind == "int":
        numbers = pd.to_numeric(column)
        whole = numbers.dropna()
        # A count the schema calls a number but that carries a fraction stays a float.
        return numbers.astype("Int64") if (whole == whole.round()).all() else numbers.astype("float64")
    if kind == "float":
        return pd.to_numeric(column).astype("float64")
    if kind == "bool":
        return column.astype("boolean")
    if kind == "str":
        return column.astype("string")
    return column
