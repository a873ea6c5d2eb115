import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line("markers", "fresh_venv: installs the kit into a fresh virtual environment (slow; "
                                       "-m 'not fresh_venv' leaves these out)")
