"""pytest_fairy's pytest plugin (entry point `fairy`)."""
