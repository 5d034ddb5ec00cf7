"""Helpers of the conformance suite: vectors, the reference, runners, the loopback server."""
