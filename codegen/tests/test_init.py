"""``errcat init``: a starter catalogue that validates and generates as it is, and never overwrites."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from catalogue_strategies import FUZZ_SCALE, texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.cli import load_model, run
from errcat.migrate.formats import CURRENT
from errcat.source.load import parse_catalogue


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_the_starter_validates_generates_and_checks_clean(tmp_path: Path) -> None:
    path = tmp_path / "catalogue" / "errors.yaml"
    status, out, err = cli("init", "--api-name", "Payments API", "--out", str(path))
    assert status == 0, err
    assert "python -m errcat generate" in out
    text = path.read_text(encoding="utf-8")
    data = parse_catalogue(text).data
    assert data["format"] == CURRENT
    assert data["version"] == "0.1.0"
    assert data["packages"] == {
        "python": {"distribution": "payments-errors", "module": "payments_errors"},
        "typescript": {"package": "payments-errors"},
    }
    assert data["base_class"] == "PaymentsError"
    assert "sanitizer" not in data
    assert "by_status" not in data["fallback"]
    assert sum(line.lstrip().startswith("#") for line in text.splitlines()) >= 30
    status, _out, err = cli("generate", "--catalogue", str(path), "--out", str(tmp_path))
    assert (status, err) == (0, "")
    assert cli("check", "--catalogue", str(path), "--out", str(tmp_path))[0] == 0
    cat = load_model(path, tmp_path)
    table = dict(cat.fallback.by_status)
    assert table[404] == "not_found"
    assert table[503] == "unavailable"
    assert 502 not in table
    assert cat.sanitizer.secrets, "the standard sanitizer applies"
    assert "mitos" not in (tmp_path / "docs" / "errors.md").read_text("utf-8").lower()


def test_init_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "errors.yaml"
    path.write_text("mine\n", encoding="utf-8")
    status, _out, err = cli("init", "--api-name", "Payments", "--out", str(path))
    assert status == 2
    assert "exists" in err
    assert path.read_text(encoding="utf-8") == "mine\n"


def test_package_names_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "errors.yaml"
    argv = ("--python-package", "acme.pay-errors", "--typescript-package", "@acme/pay-errors")
    assert cli("init", "--api-name", "Pay", "--out", str(path), *argv)[0] == 0
    packages = parse_catalogue(path.read_bytes()).data["packages"]
    assert packages["python"] == {"distribution": "acme.pay-errors", "module": "acme_pay_errors"}
    assert packages["typescript"] == {"package": "@acme/pay-errors"}


def test_an_invalid_package_name_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "errors.yaml"
    argv = ("--typescript-package", "Pay")
    status, _out, err = cli("init", "--api-name", "Pay", "--out", str(path), *argv)
    assert status == 2
    assert "npm package name" in err
    assert not path.exists()


@settings(
    max_examples=10 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(name=st.one_of(texts(30), st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,20}", fullmatch=True)))
def test_any_api_name_gives_a_valid_starter_or_writes_nothing(
    tmp_path_factory: pytest.TempPathFactory, name: str
) -> None:
    root = tmp_path_factory.mktemp("init")
    path = root / "errors.yaml"
    status, _out, err = cli("init", "--api-name", name, "--out", str(path))
    if status == 0:
        load_model(path, root)
        assert parse_catalogue(path.read_bytes()).data["api"]["name"] == name
    else:
        assert status == 2, err
        assert not path.exists()
