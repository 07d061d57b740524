"""Time budgets of the Vision Search Assistant per photo, on 2 cores (no imports: the CLI's help reads them)."""

SECONDS_WITHOUT_LLM = 20.0  # queries, fetches and the non-LLM agents
SECONDS_WITH_LLM = 60.0  # with the bundled LLM, which takes seconds a call
