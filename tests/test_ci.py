"""CI cannot pass by skipping: missing setup fails under CI=true, the setup scripts say so by their exit
status, .ci/run sets CI=true, and the pytest and make options the issue asked for are in place.

The scripts run with a fake `id` (an unprivileged user) first on PATH, so nothing is ever installed here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import conftest
import pytest

ROOT = Path(__file__).resolve().parent.parent


def fake_bin(tmp_path: Path, **scripts: str) -> str:
    """A PATH whose first folder holds the given commands (name -> shell body), then the real PATH."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    for name, body in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    return f"{folder}:{os.environ['PATH']}"


UNPRIVILEGED_ID = 'case "$1" in -u) echo 1000 ;; -un) echo tester ;; *) echo "uid=1000(tester)" ;; esac'


def run(command: list[str], tmp_path: Path, ci: str | None, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "CI"}
    environment.update(env)
    if ci is not None:
        environment["CI"] = ci
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)


def test_missing_setup_skips_locally_and_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match=r"no server \[CI=true: missing test setup fails the run\]"):
        conftest.skip_or_fail("no server")
    monkeypatch.setattr(conftest, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="no server"):
        conftest.skip_or_fail("no server")


@pytest.mark.parametrize(("ci", "status"), [("true", 1), (None, 0)])
def test_browser_deps_fails_under_ci_when_chromium_cannot_be_installed(tmp_path: Path, ci: str | None,
                                                                       status: int) -> None:
    result = run(["/bin/bash", ".ci/browser-deps"], tmp_path, ci, PATH=fake_bin(tmp_path, id=UNPRIVILEGED_ID),
                 RAG_TEST_CHROMIUM=str(tmp_path / "no-chromium"))
    assert result.returncode == status, result.stderr
    assert "cannot be installed here" in result.stderr
    assert ("CI=true, so the run fails" in result.stderr) == (ci == "true")


@pytest.mark.parametrize(("ci", "status"), [("true", 1), (None, 0)])
def test_postgres_setup_fails_under_ci_and_never_deletes_a_folder_it_did_not_make(tmp_path: Path, ci: str | None,
                                                                                 status: int) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "keep.txt").write_text("mine")
    env_file = tmp_path / "postgres.env"
    env_file.write_text("stale")
    result = run(["/bin/bash", ".ci/postgres", "sh", "-c", "echo command ran"], tmp_path, ci,
                 PATH=fake_bin(tmp_path, id=UNPRIVILEGED_ID), RAG_TEST_PG_DIR=str(precious),
                 RAG_TEST_PG_ENV_FILE=str(env_file))
    assert result.returncode == status, result.stderr
    # without a server: PostgreSQL missing here, or (when installed) the folder refused; either way untouched
    assert "refusing to delete" in result.stderr or "PostgreSQL is missing" in result.stderr, result.stderr
    assert sorted(path.name for path in precious.iterdir()) == ["keep.txt"]
    assert not env_file.exists()  # no stale connection details are left for the tests to find
    # locally the command still runs (its PostgreSQL tests skip); under CI the run stops here
    assert ("command ran" in result.stdout) == (ci is None)


@pytest.mark.parametrize(("preset", "seen"), [(None, "true"), ("false", "false")])
def test_ci_run_sets_ci_true_unless_the_service_set_it(tmp_path: Path, preset: str | None, seen: str) -> None:
    result = run(["/bin/bash", ".ci/run"], tmp_path, preset, PATH=fake_bin(tmp_path, make='echo "CI=$CI $*"'))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"CI={seen} test"


def test_make_targets_and_pytest_options() -> None:
    test = subprocess.run(["make", "-n", "-W", "pyproject.toml", "test"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "MAKEFLAGS": ""})
    fast = subprocess.run(["make", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "bash .ci/postgres .venv/bin/python -m pytest -q --durations=15" in test.stdout, test.stdout
    assert "pip install -q -e '.[dev]' -c .ci/constraints.txt" in test.stdout  # test tools pinned
    assert '-m pytest -q -m "not slow and not browser"' in fast.stdout, fast.stdout


def test_unknown_markers_are_errors(tmp_path: Path) -> None:
    (tmp_path / "test_typo.py").write_text("import pytest\n\n@pytest.mark.slwo\ndef test_x():\n    pass\n")
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir",
         str(tmp_path), "-p", "no:cacheprovider", "--collect-only", "-q", str(tmp_path / "test_typo.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "'slwo' not found in `markers`" in result.stdout + result.stderr


def test_constraints_pin_every_test_tool() -> None:
    pins = dict(line.split("==") for line in (ROOT / ".ci" / "constraints.txt").read_text().splitlines()
                if line and not line.startswith("#"))
    assert {"pytest", "pytest-timeout", "hypothesis", "ruff", "playwright", "psycopg2-binary", "sqlglot"} <= set(pins)
