"""The Python client over real HTTP, against the service and the fake portal that
test/python/client.test.ts starts (PSX_BASE_URL, and PSX_LIMITED_URL: a service allowing one
request a minute). Run alone: PSX_BASE_URL=http://127.0.0.1:3000 python3 -m unittest discover -s tests
"""

import http.server
import json
import os
import sys
import threading
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import generate  # noqa: E402
from psx_market_data import Answer, ApiError, Client  # noqa: E402

BASE = os.environ.get("PSX_BASE_URL", "http://127.0.0.1:3000")
LIMITED = os.environ.get("PSX_LIMITED_URL")

try:
    import pandas as pd
except ImportError:  # the frames' tests say what is missing
    pd = None


def fetch_json(path):
    with urllib.request.urlopen(BASE + path) as res:
        return json.load(res)


class Generated(unittest.TestCase):
    def test_the_methods_are_those_of_the_running_services_openapi_document(self):
        doc = fetch_json("/openapi.json")
        with open(os.path.join(os.path.dirname(HERE), "psx_market_data", "_endpoints.py"), encoding="utf-8") as f:
            kept = f.read()
        self.assertEqual(
            kept,
            generate.render(doc),
            "psx_market_data/_endpoints.py is out of date: run "
            "`python3 packages/python/generate.py http://HOST/openapi.json > packages/python/psx_market_data/_endpoints.py`",
        )
        operations = {op["operationId"] for item in doc["paths"].values() for op in item.values()}
        for operation in operations - {"streamQuotes"}:
            self.assertTrue(hasattr(Client, generate.snake(operation)), operation)


class Rows(unittest.TestCase):
    def setUp(self):
        self.psx = Client(BASE)

    def test_rows_are_dicts_with_the_meta(self):
        answer = self.psx.list_history("ENGRO", start="2026-11-01", end="2026-11-20")
        self.assertIsInstance(answer, Answer)
        self.assertEqual(answer.data, fetch_json("/stocks/ENGRO/historical?start=2026-11-01&end=2026-11-20")["data"])
        self.assertIsInstance(answer[0], dict)
        self.assertEqual(answer[0]["date"], "2026-11-02")
        self.assertEqual(len(answer), answer.meta["count"])
        self.assertEqual(answer.as_of, answer.headers["x-as-of"])

    def test_parameters_are_written_as_the_service_reads_them(self):
        panel = self.psx.list_panel(["ENGRO", "HBL", "NOPE"], start="2026-11-16", end="2026-11-20")
        self.assertEqual(panel.meta["not_found"], ["NOPE"])
        self.assertEqual(panel.warnings, ["not-found"])
        csv = urllib.request.urlopen(BASE + "/historical?symbols=ENGRO,HBL,NOPE&start=2026-11-16&end=2026-11-20&format=csv")
        with csv:
            self.assertEqual(csv.headers["X-Warning"], ", ".join(panel.warnings), "the same words as the service's")
        self.assertEqual({row["symbol"] for row in panel}, {"ENGRO", "HBL"})
        adjusted = self.psx.list_history("ENGRO", adjusted=True, limit=3, order="desc")
        self.assertEqual(len(adjusted), 3)
        self.assertIn("adjustment_factor", adjusted[0])
        self.assertEqual(self.psx.list_trading_days(from_="2026-11-16", to="2026-11-20").meta["count"] >= 0, True)
        quote = self.psx.get_quote("786")
        self.assertEqual(quote.data["symbol"], "786")

    def test_errors_are_exceptions_with_status_code_and_message(self):
        with self.assertRaises(ApiError) as caught:
            self.psx.list_history("NOSUCH")
        self.assertEqual(caught.exception.status, 404)
        self.assertEqual(caught.exception.code, "not_found")
        self.assertIn("NOSUCH", caught.exception.message)
        with self.assertRaises(ApiError) as bad:
            self.psx.list_history("ENGRO", order="up")
        self.assertEqual((bad.exception.status, bad.exception.code), (422, "bad_request"))
        self.assertEqual(bad.exception.message, 'order must be asc or desc (got "up")')

    def test_paging_follows_meta_next(self):
        first = self.psx.list_market_announcements(limit=10)
        self.assertTrue(first.next, "the fake portal has more than one page")
        pages = list(self.psx.pages(first))
        self.assertGreater(len(pages), 1)
        self.assertIsNone(pages[-1].next)
        rows = list(self.psx.rows(first))
        self.assertEqual(len(rows), sum(len(p) for p in pages))
        keys = [json.dumps(r, sort_keys=True) for r in rows]
        self.assertEqual(len(keys), len(set(keys)), "no row twice")

    def test_the_quote_stream_opens_with_a_snapshot(self):
        events = list(self.psx.stream_quotes(["ENGRO", "HBL"], events=2))
        self.assertEqual([e["event"] for e in events], ["quote", "quote"])
        self.assertEqual({e["data"]["symbol"] for e in events}, {"ENGRO", "HBL"})


@unittest.skipIf(pd is None, "pandas is not installed (Debian: apt-get install python3-pandas)")
class Frames(unittest.TestCase):
    def setUp(self):
        self.psx = Client(BASE, prefer_parquet=False)

    def test_a_history_frame_has_typed_columns_and_the_meta(self):
        frame = self.psx.list_history("ENGRO", adjusted=True, as_frame=True)
        rows = fetch_json("/stocks/ENGRO/historical?adjusted=true")
        self.assertEqual(len(frame), len(rows["data"]))
        self.assertEqual(str(frame["date"].dtype), "datetime64[ns]")
        self.assertEqual(str(frame["close"].dtype), "float64")
        self.assertEqual(str(frame["volume"].dtype), "Int64")
        self.assertEqual(str(frame["is_anomaly"].dtype), "boolean")
        self.assertEqual(frame["date"].iloc[0].strftime("%Y-%m-%d"), rows["data"][0]["date"])
        self.assertEqual(frame["close"].iloc[-1], rows["data"][-1]["close"])
        self.assertEqual(frame.attrs["meta"]["adjustment"]["status"], rows["meta"]["adjustment"]["status"])
        self.assertEqual(frame.attrs["warnings"], ["adjustment-partial"])

    def test_codes_and_symbols_stay_strings(self):
        sectors = self.psx.list_sectors(as_frame=True)
        self.assertEqual(str(sectors["sector_code"].dtype), "string")
        self.assertIn("0801", list(sectors["sector_code"]))
        quotes = self.psx.list_quotes("786,ENGRO", as_frame=True)
        self.assertEqual(str(quotes["symbol"].dtype), "string")
        self.assertEqual(quotes["symbol"].iloc[0], "786")
        wide = self.psx.list_panel("786,ENGRO", layout="wide", as_frame=True)
        self.assertEqual(list(wide.columns), ["date", "786", "ENGRO"])
        self.assertEqual(str(wide["date"].dtype), "datetime64[ns]")
        self.assertEqual(str(wide["786"].dtype), "float64")

    def test_times_are_in_karachi_and_missing_counts_are_na(self):
        bars = self.psx.list_intraday("ENGRO", as_frame=True)
        self.assertEqual(str(bars["time"].dt.tz), "Asia/Karachi")
        empty = self.psx.list_history("ENGRO", start="2031-01-01", as_frame=True)
        self.assertEqual(len(empty), 0)
        self.assertIn("close", empty.columns)
        quote = self.psx.get_quote("ENGRO", as_frame=True)
        self.assertEqual(len(quote), 1)
        self.assertEqual(str(quote["volume"].dtype), "Int64")


class Retries(unittest.TestCase):
    def test_a_429_is_retried_after_retry_after_then_succeeds(self):
        answers = [(429, {"retry-after": "2"}), (429, {"retry-after": "1"}), (200, {})]
        server = _scripted_server(answers)
        try:
            waits = []
            psx = Client(f"http://127.0.0.1:{server.server_port}", sleep=waits.append)
            answer = psx.list_sectors()
            self.assertEqual(answer.data, [{"sector_code": "0801"}])
            self.assertEqual(waits, [2, 1])
        finally:
            server.shutdown()

    def test_retries_are_bounded(self):
        server = _scripted_server([(429, {"retry-after": "1"})] * 10)
        try:
            waits = []
            psx = Client(f"http://127.0.0.1:{server.server_port}", max_retries=2, sleep=waits.append)
            with self.assertRaises(ApiError) as caught:
                psx.list_sectors()
            self.assertEqual(caught.exception.status, 429)
            self.assertEqual(caught.exception.code, "rate_limited")
            self.assertEqual(waits, [1, 1])
        finally:
            server.shutdown()

    @unittest.skipIf(LIMITED is None, "PSX_LIMITED_URL not given")
    def test_the_services_own_429_is_waited_for_as_it_says(self):
        waits = []
        psx = Client(LIMITED, max_retries=2, max_wait=0, sleep=waits.append)
        psx.list_sectors()
        with self.assertRaises(ApiError) as caught:
            psx.list_sectors()
        self.assertEqual(caught.exception.status, 429)
        self.assertGreaterEqual(caught.exception.retry_after, 1)
        self.assertEqual(len(waits), 2, "waited twice, then gave up")


def _scripted_server(answers):
    """A loopback server answering GETs with `answers` in turn (status, headers)."""
    script = iter(answers)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            status, headers = next(script)
            if status == 200:
                body = {"data": [{"sector_code": "0801"}], "meta": {"count": 1}}
            else:
                body = {"error": {"status": status, "code": "rate_limited", "message": "slow down"}}
            data = json.dumps(body).encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    unittest.main()
