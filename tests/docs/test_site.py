"""The site's structure: every page is in the nav, every nav entry is a page, and the files
that exist twice (the changelog, the licenses) are one and the same."""

from __future__ import annotations

from pathlib import Path

import yaml

from .conftest import DOCS, ROOT


class _MkDocsLoader(yaml.SafeLoader):
    """mkdocs.yml names Python objects (``!!python/name:``); reading the nav needs none of them."""


_MkDocsLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def mkdocs_config() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_MkDocsLoader)


def nav_pages() -> list[str]:
    config = mkdocs_config()

    def walk(entries: list) -> list[str]:
        found = []
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            found += walk(value) if isinstance(value, list) else [value]
        return found

    return walk(config["nav"])


def site_pages() -> set[str]:
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.glob("*.md")}
    pages |= {p.relative_to(DOCS).as_posix() for p in DOCS.glob("reference/*.md")}
    return pages | {p.relative_to(DOCS).as_posix() for p in DOCS.glob("examples/*/README.md")}


def test_every_page_is_in_the_nav_once():
    nav = nav_pages()
    assert sorted(nav) == sorted(site_pages())
    assert len(nav) == len(set(nav))


def test_the_pages_the_issue_asks_for_are_there():
    for page in [
        "getting-started.md",
        "markdown-tools.md",
        "python-tools.md",
        "approval.md",
        "cli.md",
        "mcp.md",
        "plugins.md",
        "embedding.md",
        "security.md",
        "benchmarks.md",
        "changelog.md",
        "examples/tooldrop-toml/README.md",
        "examples/tooldrop-allowlist/README.md",
    ]:
        assert page in nav_pages(), page


def test_the_site_changelog_is_the_repository_changelog():
    assert (DOCS / "changelog.md").read_text() == (ROOT / "CHANGELOG.md").read_text()


def test_every_distribution_ships_the_same_license_and_a_readme():
    license_text = (ROOT / "LICENSE").read_text()
    dists = [ROOT / "core", *sorted((ROOT / "plugins").iterdir()), DOCS / "examples/tooldrop-toml"]
    for dist in dists:
        assert (dist / "LICENSE").read_text() == license_text, dist
        readme = (dist / "README.md").read_text()
        assert readme.startswith("# tooldrop"), dist


def test_the_readme_has_the_two_commands_and_a_tour():
    readme = (ROOT / "README.md").read_text()
    assert "$ uv run tooldrop list" in readme
    assert "$ uv run pytest" in readme
    assert "<!-- tour -->" in readme  # run by .ci/wheels.sh in a clean venv
    assert "<!-- tour-file: " in readme


def test_ci_builds_the_docs_strictly_and_checks_the_wheels():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "mkdocs build --strict" in ci
    assert "bash .ci/wheels.sh" in ci
    assert Path(ROOT / ".ci" / "wheels.sh").is_file()
