"""The HTTP side: requests with urllib, retries on 429/503, errors as exceptions, paging."""

import datetime as _dt
import io
import json
import time
import urllib.error
import urllib.parse
import urllib.request

from ._endpoints import Endpoints
from .frames import frame_from_parquet, frame_from_rows, have_pyarrow

__all__ = ["Answer", "ApiError", "Client"]

PARQUET_TYPE = "application/vnd.apache.parquet"


class ApiError(Exception):
    """An error answer: `status` (HTTP), `code` (e.g. not_found, bad_request) and the service's message.

    `retry_after` is the Retry-After header's seconds when the service sent one (429, 503).
    """

    def __init__(self, status, code, message, headers=None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})
        self.request_id = self.headers.get("x-request-id")
        retry = self.headers.get("retry-after")
        self.retry_after = int(retry) if retry is not None and retry.isdigit() else None


class Answer:
    """A JSON answer: `data` (a list of dicts, or a dict), `meta` and the response headers.

    A list answer iterates, indexes and has a length like its rows.
    """

    def __init__(self, data, meta, headers):
        self.data = data
        self.meta = meta
        self.headers = headers

    @property
    def as_of(self):
        """When the data is from (ISO 8601, +05:00), as the meta and X-As-Of say."""
        return self.meta.get("as_of", self.headers.get("x-as-of"))

    @property
    def next(self):
        """The path of the next page (meta.next), or None on the last."""
        return self.meta.get("next")

    @property
    def warnings(self):
        """What the meta warns of, named as the service's X-Warning header names it (docs/api.md):
        adjustment-partial, adjustment-unavailable, incomplete, not-found, coverage-incomplete, missing.
        """
        return warnings_of(self.meta)

    def __iter__(self):
        return iter(self.data if isinstance(self.data, list) else [self.data])

    def __len__(self):
        return len(self.data) if isinstance(self.data, list) else 1

    def __getitem__(self, index):
        return self.data[index]

    def __repr__(self):
        return f"Answer({len(self)} rows, as_of={self.as_of!r})"


class Client(Endpoints):
    """A client of the PSX market data service: one method per endpoint (GET), generated from its
    /openapi.json (psx_market_data/_endpoints.py).

    Every method returns an `Answer` (rows as dicts, `meta`, headers); with `as_frame=True` a pandas
    DataFrame with typed columns (dates as datetime64, times in Asia/Karachi, nullable integers,
    codes and symbols as strings) and the meta in `frame.attrs["meta"]`. Frames are read from
    Parquet when pyarrow is installed (`prefer_parquet`), else built from the JSON answer.

    A 429 or 503 with Retry-After is retried after waiting that long (at most `max_wait` seconds a
    time), up to `max_retries` times; then, like every other error, it raises `ApiError`.
    """

    def __init__(
        self,
        base_url,
        *,
        timeout=30.0,
        max_retries=3,
        max_wait=60.0,
        headers=None,
        prefer_parquet=None,
        sleep=time.sleep,
    ):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_wait = max_wait
        self.headers = {"user-agent": "psx-market-data-python", **(headers or {})}
        self.prefer_parquet = have_pyarrow() if prefer_parquet is None else prefer_parquet
        self._sleep = sleep

    # -- requests ---------------------------------------------------------------------------------

    def request(self, path, query=None, accept="application/json"):
        """GET `path` (with `query`): the status, headers (lower-case names) and body bytes of a 2xx.

        Retries 429 and 503 after their Retry-After; raises ApiError for any other error status.
        """
        url = self.base_url + path
        params = _query_string(query or {})
        if params:
            url += ("&" if "?" in url else "?") + params
        attempt = 0
        while True:
            req = urllib.request.Request(url, headers={**self.headers, "accept": accept})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as res:
                    return res.status, _headers(res.headers), res.read()
            except urllib.error.HTTPError as err:
                error = _api_error(err)
                if error.status in (429, 503) and error.retry_after is not None and attempt < self.max_retries:
                    attempt += 1
                    self._sleep(min(error.retry_after, self.max_wait))
                    continue
                raise error from None

    def get(self, path, query=None):
        """GET a JSON answer by path (e.g. a `meta.next` link) as an Answer."""
        _, headers, body = self.request(path, query)
        envelope = json.loads(body)
        return Answer(envelope.get("data"), envelope.get("meta", {}), headers)

    def pages(self, first):
        """Answers from `first` (an Answer) on, following `meta.next` until the last page."""
        answer = first
        while True:
            yield answer
            if not answer.next:
                return
            answer = self.get(answer.next)

    def rows(self, first):
        """Every row of every page from `first` (an Answer) on."""
        for answer in self.pages(first):
            yield from answer

    def stream_quotes(self, symbols, *, events=None):
        """Server-sent quote events of `symbols` as dicts ({"event", "data"}); `events` stops after N."""
        url = f"{self.base_url}/stream/quotes?{_query_string({'symbols': symbols})}"
        req = urllib.request.Request(url, headers={**self.headers, "accept": "text/event-stream"})
        try:
            res = urllib.request.urlopen(req, timeout=self.timeout)
        except urllib.error.HTTPError as err:
            raise _api_error(err) from None
        with res:
            seen = 0
            event, data = "message", []
            for raw in res:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        yield {"event": event, "data": json.loads("\n".join(data))}
                        seen += 1
                        if events is not None and seen >= events:
                            return
                    event, data = "message", []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())

    # -- what the generated methods call ---------------------------------------------------------

    def _call(self, path, query, columns, as_frame, tabular):
        if not as_frame:
            return self.get(path, query)
        if tabular and self.prefer_parquet:
            _, headers, body = self.request(path, {**query, "format": "parquet"}, accept=PARQUET_TYPE)
            return frame_from_parquet(io.BytesIO(body), headers)
        answer = self.get(path, query)
        return frame_from_rows(answer.data, columns, answer.meta)


def warnings_of(meta):
    """The tokens of X-Warning for a meta (src/http/pipeline/meta-headers.ts says the same)."""
    warnings = []
    adjustment = meta.get("adjustment")
    if isinstance(adjustment, dict) and adjustment.get("status") in ("partial", "unavailable"):
        warnings.append(f"adjustment-{adjustment['status']}")
    if meta.get("incomplete"):
        warnings.append("incomplete")
    if meta.get("not_found"):
        warnings.append("not-found")
    coverage = meta.get("coverage")
    if isinstance(coverage, dict) and (coverage.get("missing") or coverage.get("complete") is False):
        warnings.append("coverage-incomplete")
    if meta.get("missing"):
        warnings.append("missing")
    return warnings


def _query_string(query):
    pairs = []
    for name, value in query.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple, set)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, (_dt.date, _dt.datetime)):
            value = value.isoformat()
        pairs.append((name, str(value)))
    return urllib.parse.urlencode(pairs)


def _headers(message):
    return {name.lower(): value for name, value in message.items()}


def _api_error(err):
    headers = _headers(err.headers) if err.headers is not None else {}
    try:
        body = err.read()
    finally:
        err.close()
    try:
        error = json.loads(body)["error"]
        return ApiError(error["status"], error["code"], error["message"], headers)
    except (ValueError, KeyError, TypeError):
        text = body.decode("utf-8", "replace")[:200]
        return ApiError(err.code, "http_error", text or err.reason, headers)
