"""What LLM calls cost: prices per model and the running account of tokens and dollars.

Prices are USD per million tokens, per token kind: uncached input, cache writes (5-minute and 1-hour
lifetimes are priced differently), cache reads and output. A model is found by its exact id or by its
id plus a dated snapshot suffix (`claude-haiku-4-5-20251001` is priced as `claude-haiku-4-5`); a model
with no price is counted at zero cost with one warning per model and process, never a crash, so a new
model works before this table knows it. Pass your own table through `ClaudeSettings.prices`.

One brain may call two models (a step model and a judge model): each call is priced by its own model,
and the `Usage` sums them; `Ledger.by_model` keeps each model's share apart.
"""

from __future__ import annotations

import re
import threading
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

from pytest_fairy.brain.models import MODELS, Price
from pytest_fairy.errors import FairyWarning
from pytest_fairy.explore.decisions import Usage

PER_TOKENS = 1_000_000
_SNAPSHOT_SUFFIX = re.compile(r"-\d{8}$")


# Prices come with each model's row of the model table (brain/models.py): one place for what a model
# accepts and what it costs.
DEFAULT_PRICES: Mapping[str, Price] = {model.id: model.price for model in MODELS.values() if model.price}

_warned: set[str] = set()
_warned_lock = threading.Lock()


class UnknownModelPrice(FairyWarning):
    """A model with no price: its calls are counted at zero cost."""


def price_for(model: str, prices: Mapping[str, Price] = DEFAULT_PRICES) -> Price | None:
    """The model's price: by its exact id, else by the id without a `-YYYYMMDD` snapshot suffix."""
    if model in prices:
        return prices[model]
    return prices.get(_SNAPSHOT_SUFFIX.sub("", model))


@dataclass(frozen=True, slots=True)
class CallTokens:
    """The usage block of one response, in the names of `Usage`."""

    input_tokens: int
    output_tokens: int
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0

    def cost(self, price: Price | None, *, cache_ttl: str = "5m") -> float:
        if price is None:
            return 0.0
        write = price.cache_write_1h if cache_ttl == "1h" else price.cache_write_5m
        dollars = (
            self.input_tokens * price.input
            + self.cache_write_tokens * write
            + self.cache_read_tokens * price.cache_read
            + self.output_tokens * price.output
        )
        return dollars / PER_TOKENS


class Ledger:
    """The running account of one brain: every call's tokens and cost, summed into a `Usage`. A call is
    priced by the model it went to (`add(..., model=...)`; the ledger's own `model` by default)."""

    def __init__(
        self,
        model: str,
        prices: Mapping[str, Price] = DEFAULT_PRICES,
        *,
        cache_ttl: str = "5m",
        note: str = "",
    ) -> None:
        self.model = model
        self.cache_ttl = cache_ttl
        self._prices = prices
        self._usage = Usage(note=note)
        self._by_model: dict[str, Usage] = {}
        self._lock = threading.Lock()

    @property
    def priced(self) -> bool:
        return price_for(self.model, self._prices) is not None

    def add(self, tokens: CallTokens, model: str | None = None) -> float:
        """Account one call to `model` (None: the ledger's); returns its cost in USD (0 for a model with
        no price, with one warning)."""
        model = model or self.model
        price = price_for(model, self._prices)
        if price is None:
            _warn_once(model)
        cost = tokens.cost(price, cache_ttl=self.cache_ttl)
        with self._lock:
            self._usage = _plus(self._usage, tokens, cost)
            self._by_model[model] = _plus(self._by_model.get(model, Usage()), tokens, cost)
        return cost

    def usage(self) -> Usage:
        return self._usage

    def by_model(self) -> Mapping[str, Usage]:
        """Each model's calls, tokens and cost, by model id."""
        with self._lock:
            return dict(self._by_model)


def _plus(usage: Usage, tokens: CallTokens, cost: float) -> Usage:
    return Usage(
        calls=usage.calls + 1,
        input_tokens=usage.input_tokens + tokens.input_tokens,
        cache_write_tokens=usage.cache_write_tokens + tokens.cache_write_tokens,
        cache_read_tokens=usage.cache_read_tokens + tokens.cache_read_tokens,
        output_tokens=usage.output_tokens + tokens.output_tokens,
        cost_usd=usage.cost_usd + cost,
        note=usage.note,
    )


def _warn_once(model: str) -> None:
    with _warned_lock:
        if model in _warned:
            return
        _warned.add(model)
    warnings.warn(
        f"no price known for model {model!r}: its calls are counted at $0; "
        "give its prices in ClaudeSettings.prices to enforce a cost budget",
        UnknownModelPrice,
        stacklevel=3,
    )
