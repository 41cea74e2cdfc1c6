"""The Joker lab page: compare two rule sets by simulation, as plots, a table and a CSV."""

from __future__ import annotations

import base64
import html
import time
from typing import Any

import ipywidgets as w

from ..engine import Rules
from .errors import guarded

SAMPLE_SIZES = (2_000, 20_000, 100_000)


class LabPage:
    """Builds its widgets in ``__init__``; ``run()`` simulates, then ``render()`` draws the results."""

    def __init__(self) -> None:
        options = [(Rules.preset(n).title, n) for n in Rules.preset_names()]
        self.first = w.Dropdown(
            options=options, value="jokers", description="Compare", style={"description_width": "initial"}
        )
        self.second = w.Dropdown(
            options=options, value="classic", description="with", style={"description_width": "initial"}
        )
        self.size = w.Dropdown(
            options=[(f"{n:,} rounds each", n) for n in SAMPLE_SIZES],
            value=20_000,
            description="Sample:",
            style={"description_width": "initial"},
        )
        self.seed = w.BoundedIntText(
            value=1,
            min=0,
            max=10**9,
            description="Seed:",
            style={"description_width": "initial"},
            layout=w.Layout(width="12em"),
        )
        self.run_button = w.Button(description="Run the lab ▶", button_style="primary")
        self.run_button.add_class("st-run-lab")
        self.run_button.on_click(guarded(lambda _b: self.run()))
        self.bar = w.IntProgress(min=0, max=1, value=0, layout=w.Layout(width="100%"))
        self.bar.add_class("st-progress")
        self.status = w.HTML('<div class="st-note" role="status">Pick two rule sets and press Run.</div>')
        self.table_choice = w.Dropdown(description="Table:", style={"description_width": "initial"})
        self.table_choice.observe(guarded(lambda _c: self._show_table()), names="value")
        self.table = w.HTML()
        self.table.add_class("st-lab-table")
        self.download = w.HTML()
        self.download.add_class("st-download")
        self.results = w.VBox()
        self.frames: dict[str, Any] = {}
        self.widget = w.VBox(
            [
                w.HTML(
                    '<h2 class="st-lesson-title">Joker lab</h2><p>What do the jokers change? The lab deals and plays '
                    "thousands of rounds at random in two rule sets and measures it. Every number comes with a 95% "
                    "confidence interval; exact values are shown where probability gives them.</p>"
                ),
                w.HBox([self.first, self.second, self.size, self.seed]),
                self.run_button,
                self.bar,
                self.status,
                self.results,
            ]
        )
        self.widget.add_class("st-lab")

    def run(self) -> None:
        from ..lab import simulate
        from ..lab.experiments import EXPERIMENTS

        names = list(dict.fromkeys([self.first.value, self.second.value]))
        n = int(self.size.value) if self.size.value in SAMPLE_SIZES else SAMPLE_SIZES[0]
        seed = int(self.seed.value)
        self.run_button.disabled = True
        self.bar.max = n * len(names)
        self.bar.value = 0
        start = time.perf_counter()
        try:
            results = []
            for k, name in enumerate(names):
                self.status.value = (
                    f'<div class="st-note" role="status">Simulating {html.escape(Rules.preset(name).title)}…</div>'
                )

                def progress(done: int, _total: int, k: int = k) -> None:
                    self.bar.value = k * n + done

                results.append(simulate(Rules.preset(name), n, seed=seed, progress=progress))
            import pandas as pd

            self.frames = {key: pd.concat([f(r) for r in results], ignore_index=True) for key, f in EXPERIMENTS.items()}
            elapsed = time.perf_counter() - start
            summary = f"{n * len(names):,} rounds simulated and measured in {elapsed:.1f} s (seed {seed}). Same seed, same numbers."
            self.status.value = f'<div class="st-note" role="status">{summary} Drawing the plots…</div>'
            self.render()
            self.status.value = f'<div class="st-note" role="status">{summary}</div>'
        finally:
            self.run_button.disabled = False

    def render(self) -> None:
        from ..lab.plots import TITLES, figure, reading

        # every reading first (they are instant), then each plot as it is built
        slots = {key: w.VBox() for key in self.frames}
        self.table_choice.options = [(TITLES[k], k) for k in self.frames]
        self.table_choice.value = next(iter(self.frames))
        self._show_table()
        self._make_download()
        parts: list[w.Widget] = []
        for key, frame in self.frames.items():
            text = f"<b>{html.escape(TITLES[key])}.</b> {html.escape(reading(key, frame))}"
            parts.extend([w.HTML(f'<div class="st-reading">{text}</div>'), slots[key]])
        parts.extend([w.HTML("<h3>Results table</h3>"), self.table_choice, self.table, self.download])
        self.results.children = parts
        for key, frame in self.frames.items():
            slots[key].children = [figure(key, frame)]

    def _show_table(self) -> None:
        key = self.table_choice.value
        if key not in self.frames:
            return
        frame = self.frames[key]
        self.table.value = frame.to_html(
            index=False, float_format=lambda x: f"{x:.3f}", classes="st-score-table", border=0
        )

    def _make_download(self) -> None:
        import pandas as pd

        long = pd.concat([f.assign(experiment=k) for k, f in self.frames.items()], ignore_index=True)
        data = base64.b64encode(long.to_csv(index=False).encode("utf-8")).decode("ascii")
        self.download.value = f'<a download="joker-lab.csv" href="data:text/csv;charset=utf-8;base64,{data}">⬇ Download all results (CSV)</a>'
