"""The README is part of the product: it must give the two commands and document every setting."""

from pathlib import Path

from rag.settings import REGISTRY

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_gives_the_two_commands() -> None:
    assert "make run" in README and "make test" in README


def test_readme_documents_every_setting() -> None:
    missing = [s.env for s in REGISTRY if f"`{s.env}`" not in README]
    assert not missing, f"settings missing from the README's table: {missing}"
