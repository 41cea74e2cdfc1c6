"""What the app's server does per page besides the guards: templates compiled once, no debug records."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest
from voila.paths import collect_template_paths  # type: ignore[import-untyped]

from spades_tutor.server import TEMPLATE_BYTECODE, TemplateBytecode, TutorExporter, TutorVoila


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the templates Jinja compiles from source while the test runs."""
    names: list[str] = []
    compile_source = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        names.append(str(name))
        return compile_source(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    yield names


def lab_exporter() -> TutorExporter:
    """An exporter as Voilà's renderer makes one for each page (the lab template the app uses)."""
    return TutorExporter(template_paths=collect_template_paths(["voila", "nbconvert"], "lab"), template_name="lab")


def test_the_second_pages_exporter_compiles_no_template(compiles: list[str]) -> None:
    TEMPLATE_BYTECODE.compiled.clear()
    first = lab_exporter()
    first_template = first.template
    assert "index.html.j2" in compiles  # the page template and the ones it extends and imports
    compiles.clear()
    second = lab_exporter()
    assert second.environment is not first.environment  # a new environment, as Voilà makes per page
    assert second.template.name == first_template.name == "index.html.j2"
    assert compiles == []


def test_a_template_whose_source_changed_is_compiled_again(tmp_path: Path, compiles: list[str]) -> None:
    cache = TemplateBytecode()
    page = tmp_path / "page.j2"
    page.write_text("Hello {{ who }}", encoding="utf-8")

    def render() -> str:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=cache)
        return env.get_template("page.j2").render(who="class")

    assert (render(), render()) == ("Hello class", "Hello class")
    assert compiles == ["page.j2"]
    page.write_text("Welcome {{ who }}", encoding="utf-8")
    assert render() == "Welcome class"
    assert compiles == ["page.j2", "page.j2"]


def test_an_async_environment_never_gets_a_sync_ones_code() -> None:
    cache = TemplateBytecode()
    loader = jinja2.DictLoader({"t": "{% for x in xs %}{{ x }}{% endfor %}"})
    sync = jinja2.Environment(loader=loader, bytecode_cache=cache)
    assert sync.get_template("t").render(xs=[1, 2]) == "12"
    async_env = jinja2.Environment(loader=loader, bytecode_cache=cache, enable_async=True)
    template = async_env.get_template("t")

    def render() -> str:
        return asyncio.run(template.render_async(xs=[1, 2]))

    # rendered on a thread of its own: an event loop another test left running in this thread
    # would refuse asyncio.run (which the template's own render calls)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(render).result() == "12"  # a sync environment's code would fail here
    assert len(cache.compiled) == 2


@pytest.mark.parametrize("level", [logging.INFO, logging.WARNING, logging.DEBUG])
def test_the_servers_logger_makes_no_record_below_its_level(level: int) -> None:
    """The logging configuration the server applies (traitlets' own puts the logger at DEBUG, always)."""
    app = TutorVoila()
    app.log_level = level
    config = app.get_default_logging_config()
    logger = config["loggers"][type(app).__name__]
    assert logging.getLevelName(logger["level"]) == level
    assert config["handlers"]["console"]["level"] == logging.getLevelName(level)
