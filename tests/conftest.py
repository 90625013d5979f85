"""Suite-wide settings: hypothesis runs derandomized, so every run draws the same examples."""

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, print_blob=True)
settings.load_profile("deterministic")
