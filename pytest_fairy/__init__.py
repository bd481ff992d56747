"""pytest_fairy: LLM-driven GUI test exploration of Android apps, as a pytest plugin."""

__version__ = "0.1.0"
