"""Repository-level pytest configuration: the pytester plugin for the plugin's own tests.

(`pytest_plugins` is only honoured in the rootdir's conftest, hence here rather than in tests/.)
"""

pytest_plugins = ["pytester"]
