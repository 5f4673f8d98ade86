"""A client of the PSX market data service (a read-only REST API over the Pakistan Stock Exchange
data portal): one method per endpoint, rows as dicts or pandas DataFrames, errors as exceptions.

    from psx_market_data import Client
    psx = Client("http://127.0.0.1:3000")
    history = psx.list_history("ENGRO", start="2025-01-01")          # rows as dicts
    frame = psx.list_history("ENGRO", as_frame=True)                 # a typed DataFrame
"""

from .client import Answer, ApiError, Client

__all__ = ["Answer", "ApiError", "Client"]
__version__ = "0.1.0"
