"""Per-stage figures of one ask/enrich run (queries, fetches, LLM calls, seconds), and an LLM
wrapper that counts, times and bounds the calls and records whether each output was accepted."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

#: Failure reasons kept per run (stats stay small; the graph keeps every error).
MAX_REASONS = 5


@dataclass
class Meter:
    """What one run spent, stage by stage."""

    queries: int = 0
    query_seconds: float = 0.0
    fetches: int = 0
    fetch_failures: int = 0
    fetch_seconds: float = 0.0
    search_failures: int = 0
    failure_reasons: list[str] = field(default_factory=list)  # the first few, distinct
    snippets: int = 0  # search-result snippets used as evidence
    filtered: int = 0  # evidence dropped as spam or off-topic
    llm_calls: int = 0
    llm_skipped: int = 0  # calls not made: the LLM budget was spent
    llm_seconds: float = 0.0
    llm_roles: dict[str, dict[str, int]] = field(default_factory=dict)  # role -> {calls, accepted}

    def failed(self, reason: str) -> None:
        """Remember why a search or fetch failed (the first few distinct reasons)."""
        if reason not in self.failure_reasons and len(self.failure_reasons) < MAX_REASONS:
            self.failure_reasons.append(reason)

    def verdict(self, role: str, accepted: bool) -> None:
        r = self.llm_roles.setdefault(role, {"calls": 0, "accepted": 0})
        r["accepted"] += int(bool(accepted))

    @property
    def llm_accepted(self) -> int:
        return sum(r["accepted"] for r in self.llm_roles.values())

    def add(self, other: Meter) -> None:
        for k, v in asdict(other).items():
            if k == "llm_roles":
                for role, d in v.items():
                    mine = self.llm_roles.setdefault(role, {"calls": 0, "accepted": 0})
                    mine["calls"] += d["calls"]
                    mine["accepted"] += d["accepted"]
            elif k == "failure_reasons":
                for reason in v:
                    self.failed(reason)
            else:
                setattr(self, k, getattr(self, k) + v)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["llm_accepted"] = self.llm_accepted
        for k in ("query_seconds", "fetch_seconds", "llm_seconds"):
            d[k] = round(d[k], 3)
        return d


class MeteredLLM:
    """Wraps an LLM: every call counted and timed into `meter`, at most `max_calls` made (later
    calls return None at once, so every caller's fallback answers), only for `roles`; `verdict`
    records acceptance."""

    def __init__(self, llm, meter: Meter, max_calls: int | None = None, roles: tuple[str, ...] | None = None):
        self.llm = llm
        self.meter = meter
        self.max_calls = max_calls
        self.roles = roles  # None: every role may ask the LLM

    @property
    def name(self) -> str:
        return getattr(self.llm, "name", "llm")

    @property
    def is_chat(self) -> bool:
        return is_chat(self.llm)

    RESERVED = ("answer", "learn")  # one call each per photo, outside the budget: the final outputs

    def _call(self, role: str, fn, *args, **kwargs):
        if self.roles is not None and role not in self.roles:
            return None  # this role uses its non-LLM path with this model
        if (
            self.max_calls is not None
            and role not in self.RESERVED
            and self.meter.llm_calls >= self.max_calls
        ):
            self.meter.llm_skipped += 1
            return None
        self.meter.llm_calls += 1
        self.meter.llm_roles.setdefault(role, {"calls": 0, "accepted": 0})["calls"] += 1
        t0 = time.monotonic()
        try:
            return fn(*args, **kwargs)
        finally:
            self.meter.llm_seconds += time.monotonic() - t0

    def complete_json(
        self,
        messages: list[dict],
        schema: dict,
        max_tokens: int = 256,
        temperature: float = 0.0,
        *,
        role: str = "other",
    ) -> dict | None:
        return self._call(role, self.llm.complete_json, messages, schema, max_tokens, temperature)

    def complete_text(
        self, prompt: str, max_tokens: int = 48, *, stop: list[str] | None = None, role: str = "other"
    ) -> str | None:
        """A plain completion (what a base model does well: it continues text)."""
        fn = getattr(self.llm, "complete_text", None)
        if fn is None:
            return None
        return self._call(role, fn, prompt, max_tokens, stop=stop)

    def verdict(self, role: str, accepted: bool) -> None:
        if self.roles is None or role in self.roles:
            self.meter.verdict(role, accepted)


def verdict(llm, role: str, accepted: bool) -> None:
    """Record whether an LLM output was accepted (a no-op for an unmetered LLM)."""
    fn = getattr(llm, "verdict", None)
    if callable(fn):
        fn(role, accepted)


def is_chat(llm) -> bool:
    """An instruction-tuned model (JSON answers to chat prompts) rather than a base model (completions)."""
    return bool(getattr(llm, "is_chat", False))


def call_json(llm, messages: list[dict], schema: dict, max_tokens: int, role: str) -> dict | None:
    """complete_json with the role passed when the LLM is metered."""
    if isinstance(llm, MeteredLLM):
        return llm.complete_json(messages, schema, max_tokens, role=role)
    return llm.complete_json(messages, schema, max_tokens)


def call_text(llm, prompt: str, max_tokens: int, stop: list[str], role: str) -> str | None:
    """complete_text (a plain completion) with the role passed when the LLM is metered; None when the LLM
    cannot complete text."""
    if isinstance(llm, MeteredLLM):
        return llm.complete_text(prompt, max_tokens, stop=stop, role=role)
    fn = getattr(llm, "complete_text", None)
    return fn(prompt, max_tokens, stop=stop) if fn is not None else None
