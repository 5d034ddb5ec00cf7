"""The differential fuzz session of both SDKs (tests/fuzz/run.py): cases, runners, checks, shrinker."""
