"""Shared test settings."""

from hypothesis import HealthCheck, settings

# Property tests run a fixed, generous number of examples; the machine is slow and shared,
# so no per-example deadline (speed is measured by benchmarks, not tests).
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("default")
