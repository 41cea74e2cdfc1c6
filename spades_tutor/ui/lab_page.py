"""The Joker lab page: compare two rule sets by simulation, as plots, a table and a CSV.

Each plot's reading says its figures plainly ("about 20% (likely between 16% and 24%)"); beside it a
"How was this measured?" disclosure says how many rounds were played and how, what the seed does (the
seed itself is a control the learner sets) and how the likely ranges are worked out."""

from __future__ import annotations

import base64
import html
import threading
import time
from typing import Any

import ipywidgets as w

from ..engine import Rules
from .choices import Dropdown
from .errors import guarded
from .glossary import TECHNICAL, TermLinks
from .landmarks import live
from .measured import how_measured_html
from .plot_box import data_box as _data_box
from .plot_box import draw as _draw
from .plot_box import fill_data as _data
from .plot_box import plot_slot as _plot_slot
from .plot_box import reading_html as _reading

SAMPLE_SIZES = (2_000, 20_000, 100_000)
BOT_SIZES = ((500, 50), (2_000, 200))  # (rounds for the bidding, whole games)


def nil_rounds(n_rounds: int) -> int:
    """How many of the sample's deals the heuristic bots play with South bidding nil (the nil plot).

    A tenth of the sample, at least 1,000: the bots play a round about ten times slower than random
    play, so the nils take about as long as the random rounds (0.6 s for the default run's two rule
    sets), and the nil plot's intervals stay within a few percent.
    """
    return min(n_rounds, max(1_000, n_rounds // 10))


#: how each plot's numbers were played, for its "How was this measured?"
_RANDOM = "dealt and played at random: every card a legal one, picked at random"
_BOTS = "the computer players: the heuristic bots you play against on the Play page, in all four seats"


def lab_method(
    key: str,
    rounds: int,
    seed: int,
    *,
    nils: int = 0,
    games: int = 0,
    target: int | str = 500,
    rule_sets: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """The lines of a lab plot's "How was this measured?": how many rounds (or nils, or games) in
    each rule set, played how, the seed (the Seed box), the interval, and the rule sets compared
    (``rule_sets``: each in the engine's words, every rule the figures were played and scored by).
    ``target`` is the games' target, or words saying each rule set's where they differ.

    >>> lab_method("voids", 2000, 1)[0]
    'A simulation: 2,000 rounds in each rule set, dealt and played at random: every card a legal one, picked at random.'
    >>> lab_method("bots-games", 0, 1, games=50, target="its own target (300 and 500)")[0]
    'A simulation: 50 whole games to its own target (300 and 500) in each rule set, played by the computer players: the heuristic bots you play against on the Play page, in all four seats.'
    """
    from ..measured import INTERVAL, seed_line

    if key == "nil":
        played = f"{nils:,} deals in each rule set (the first of the sample), South bidding nil in every one, played by {_BOTS}."
    elif key == "bots-bidding":
        played = f"{rounds:,} hands in each rule set, bid and played by {_BOTS}."
    elif key == "bots-games":
        played = f"{games:,} whole games to {target} in each rule set, played by {_BOTS}."
    else:
        played = f"{rounds:,} rounds in each rule set, {_RANDOM}."
    lines = [
        f"A simulation: {played}",
        seed_line(seed) + " It is the Seed box above: change it for a fresh sample.",
        INTERVAL,
    ]
    if key in ("trumps-per-hand", "voids"):
        lines.append("Exact values, worked out from the pack by probability, are drawn beside the simulated ones.")
    if key == "bots-games":
        lines = [*lines[:2], "The histogram counts games; it has no likely range."]
    if rule_sets:
        lines.append("The rule sets, every rule of each as played and scored here: " + " ".join(rule_sets))
    return tuple(lines)


def _caption(title: str, text: str) -> str:
    """The caption of a plot's data table: its reading, as written above the plot."""
    return f"{title}. {text}"


def _warm_up(presets: tuple[str, ...] = ("jokers", "classic")) -> None:
    """Import what a run needs (numpy, pandas, the simulator) and build the scoring tables of the
    rule sets first offered (``lab.scoring.side_table``, a few tenths of a second each) while the
    learner picks the settings."""
    import pandas  # noqa: F401

    from ..lab import experiments, plots, simulate  # noqa: F401
    from ..lab.scoring import side_table

    for name in presets:
        side_table(Rules.preset(name))


def _titles() -> dict[str, str]:
    from ..lab.plots import BOT_TITLES, TITLES

    return {**TITLES, **{f"bots-{k}": v for k, v in BOT_TITLES.items()}, "bots-paths": "Score paths of whole games"}


#: the lab's name for the learner's own table (its menus' value, and the rule set's name in the results)
TABLE = "table"
#: how the results and their plots name the learner's table
TABLE_LABEL = "Your table"


def table_option(rules: Rules) -> str:
    """The menus' label of the learner's table: short, so a menu fits a phone and never runs off a wide
    page; the whole rule set, in the engine's words, is the line under the menus (:func:`table_line`).

    >>> table_option(Rules.preset("classic", target=300))
    'Your table (Regular Spades, your house rules)'
    >>> table_option(Rules.preset("classic"))
    'Your table (Regular Spades)'
    """
    house = ", your house rules" if house_rules_differ(rules) else ""
    return f"{TABLE_LABEL} ({rules.title}{house})"


def table_line(rules: Rules) -> str:
    """The learner's table in the engine's words, as the line under the menus says it.

    >>> table_line(Rules.preset("classic", target=300))[:40]
    'Your table: Regular Spades: all 52 cards'
    """
    return f"{TABLE_LABEL}: {rules.describe()}"


def house_rules_differ(rules: Rules) -> bool:
    """Whether the learner's rules differ from the preset they are named after (their house rules)."""
    return bool(rules.flags())


class LabPage:
    """Builds its widgets in ``__init__``; ``run()`` simulates, then ``render()`` draws the results."""

    def __init__(self, first: str = "jokers", table: Rules | None = None) -> None:
        """``table``: the learner's whole rule set (their preset and house rules; by default the preset
        ``first`` as it stands), a choice of its own ("Your table"), compared first where its house
        rules make it differ from its preset, else the preset; against regular Spades (or jokers)."""
        first = first if first in Rules.preset_names() else "jokers"
        self.table_rules: Rules = table if table is not None else Rules.preset(first)
        if table is not None:
            first = table.name
        options = self._options()
        wide = w.Layout(width="auto", max_width="100%")
        #: the first menu's choice as the page made it (the learner's table or preset), until the learner picks
        self._picked_first = TABLE if house_rules_differ(self.table_rules) else first
        self.first = Dropdown(
            options=options,
            value=self._picked_first,
            description="Compare",
            style={"description_width": "initial"},
            layout=wide,
        )
        self.second = Dropdown(
            options=options,
            value="classic" if first != "classic" else "jokers",
            description="with",
            style={"description_width": "initial"},
            layout=wide,
        )
        self.size = Dropdown(
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
        #: the learner's table in the engine's words, under the menus (their label stays short)
        self.table_note = w.HTML()
        self._say_table()
        self.status = live(w.HTML('<div class="st-note" role="status">Pick two rule sets and press Run.</div>'))
        self.table_choice = Dropdown(description="Table:", style={"description_width": "initial"})
        self.table_choice.observe(guarded(lambda _c: self._show_table()), names="value")
        self.table = w.HTML()
        self.table.add_class("st-lab-table")
        self.download = w.HTML()
        self.download.add_class("st-download")
        # the plots are built once, empty, with the page: the browser sets plotly up while the learner
        # picks the rule sets, and each run only replaces their content
        from ..lab.plots import BOT_TITLES, TITLES

        self.terms = TermLinks(only=TECHNICAL)  # the words of measurement in the disclosures open in place
        self.readings = {key: live(w.HTML()) for key in TITLES}
        self.plots = {key: _plot_slot() for key in TITLES}
        self.plot_data = {key: _data_box() for key in TITLES}
        #: each plot's "How was this measured?", filled by a run
        self.methods = {key: w.HTML() for key in TITLES}
        parts: list[w.Widget] = []
        for key in TITLES:
            # the reading just before its plot (it names the plot's figure), how it was measured after the data
            parts.extend([self.readings[key], self.plots[key], self.plot_data[key], self.methods[key]])
        self.table_box = w.VBox(
            [w.HTML("<h3>Results table</h3>"), self.table_choice, self.table, self.download],
            layout=w.Layout(display="none"),
        )
        self.results = w.VBox([*parts, self.table_box], layout=w.Layout(width="100%"))
        self.results.add_class("st-lab-results")
        self._empty_plots(self.readings, self.plots, TITLES, "Press “Run the lab” and this plot fills in.")
        self.frames: dict[str, Any] = {}
        #: the titles of the rule sets of the last run that have no nil (the nil plot says so)
        self._without_nil: list[str] = []
        self.bot_size = Dropdown(
            options=[(f"{r:,} rounds and {g} games each", (r, g)) for r, g in BOT_SIZES],
            value=BOT_SIZES[0],
            description="Bots:",
            style={"description_width": "initial"},
        )
        self.bot_button = w.Button(description="Play the bots ▶", button_style="info")
        self.bot_button.add_class("st-run-lab")
        self.bot_button.on_click(guarded(lambda _b: self.run_bots()))
        self.bot_status = live(w.HTML())
        self.bot_readings = {key: live(w.HTML()) for key in ("bidding", "games", "paths")}
        self.bot_plots = {key: _plot_slot() for key in self.bot_readings}
        self.bot_plot_data = {key: _data_box() for key in self.bot_readings}
        self.bot_methods = {key: w.HTML() for key in self.bot_readings}
        bot_parts: list[w.Widget] = []
        for key, reading in self.bot_readings.items():
            bot_parts.extend([reading, self.bot_plots[key], self.bot_plot_data[key], self.bot_methods[key]])
        self.bot_results = w.VBox(bot_parts, layout=w.Layout(display="none", width="100%"))
        self.bot_results.add_class("st-bot-results")
        self._bot_titles = {**BOT_TITLES, "paths": "Score paths"}
        self.bot_results.add_class("st-lab-results")
        self.widget = w.VBox(
            [
                self.terms.widget,
                w.HTML(
                    '<h2 class="st-lesson-title">Joker lab</h2><p>What do the jokers change? The lab deals and plays '
                    "thousands of rounds at random in two rule sets and measures it; for nil, the bots "
                    "play the first deals with South bidding nil, in a rule set that has nil. Every measured "
                    "number comes with the range it likely lies in; exact values are shown where probability "
                    "gives them. Each rule set is played and scored with every rule it has: a preset as it "
                    "stands, or your own table with its house rules (“Your table” in the menus): the bids "
                    "allowed (nil, blind nil, a least team bid), the first lead, and the scoring and target of "
                    "the bots' hands and games. How each plot was measured names every rule of each rule set "
                    "in it.</p>"
                ),
                w.HBox([self.first, self.second, self.size, self.seed], layout=w.Layout(flex_flow="row wrap")),
                self.table_note,
                self.run_button,
                self.bar,
                self.status,
                self.results,
                w.HTML(
                    "<h3>The bots at the table</h3><p>Four computer players bid and play whole hands and whole games "
                    "in each rule set: how close do their bids come, how many bags pile up, how long is a game?</p>"
                ),
                w.HBox([self.bot_size, self.bot_button], layout=w.Layout(flex_flow="row wrap")),
                self.bot_status,
                self.bot_results,
            ]
        )
        self.widget.add_class("st-lab")
        threading.Thread(target=_warm_up, name="lab-warm-up", daemon=True).start()

    # --- the rule sets compared ------------------------------------------------------------

    def _options(self) -> list[tuple[str, str]]:
        """The menus' choices: the learner's table (its rules in the engine's words), then every preset."""
        return [(table_option(self.table_rules), TABLE), *((Rules.preset(n).title, n) for n in Rules.preset_names())]

    def _say_table(self) -> None:
        self.table_note.value = f'<p class="st-note">{html.escape(table_line(self.table_rules))}</p>'

    def rules_of(self, key: str) -> Rules:
        """The whole rule set of a menu's choice: the learner's table, or a preset as it stands."""
        return self.table_rules if key == TABLE else Rules.preset(key)

    @staticmethod
    def label_of(key: str) -> str:
        """How the results name a choice: "Your table", or the preset's name (shown as its title)."""
        return TABLE_LABEL if key == TABLE else key

    def title_of(self, key: str) -> str:
        return TABLE_LABEL if key == TABLE else self.rules_of(key).title

    def described(self, keys: list[str]) -> tuple[str, ...]:
        """Each rule set of ``keys`` in the engine's words (for "How was this measured?")."""
        return tuple(table_line(self.table_rules) if k == TABLE else self.rules_of(k).describe() for k in keys)

    def set_table(self, rules: Rules, chosen: bool = True) -> None:
        """The learner's rules changed: "Your table" is their rules now (results shown keep the rules
        they name). The first menu starts from them again (their table where its house rules make it
        differ, else its preset) while it holds the page's own choice, or, where the learner chose the
        new rules, while it holds their table or its preset."""
        was = self.table_rules
        self.table_rules = rules
        self._say_table()
        options = self._options()
        for menu in (self.first, self.second):
            value = menu.value
            menu.options = options
            menu.value = value
        if self.first.value == self._picked_first or (chosen and self.first.value in (TABLE, was.name)):
            self._picked_first = TABLE if house_rules_differ(rules) else rules.name
            self.first.value = self._picked_first

    def _compared(self) -> list[str]:
        return list(dict.fromkeys([self.first.value, self.second.value]))

    def run(self) -> None:
        from ..lab import simulate
        from ..lab.experiments import EXPERIMENTS, nil_play

        keys = self._compared()
        sets = {key: self.rules_of(key) for key in keys}
        with_nil = [key for key in keys if sets[key].nil]
        n = int(self.size.value) if self.size.value in SAMPLE_SIZES else SAMPLE_SIZES[0]
        nils = nil_rounds(n)
        seed = int(self.seed.value)
        self.run_button.disabled = True
        self.bar.max = n * len(keys) + nils * len(with_nil)
        self.bar.value = 0
        start = time.perf_counter()
        try:
            results, nil_results = [], []
            done = 0
            for key in keys:
                rules, title = sets[key], html.escape(self.title_of(key))
                self.status.value = f'<div class="st-note" role="status">Simulating {title}…</div>'
                results.append((key, simulate(rules, n, seed=seed, progress=self._advance(done))))
                done += n
                if rules.nil:  # South bids nil in every deal: only where the rules allow a nil
                    self.status.value = f'<div class="st-note" role="status">The bots are playing nil in {title}…</div>'
                    nil_results.append((key, nil_play(rules, nils, seed, progress=self._advance(done))))
                    done += nils
            import pandas as pd

            kept = {k: v for k, v in self.frames.items() if k.startswith("bots-")}
            self.frames = {}
            for name, f in EXPERIMENTS.items():
                source = nil_results if name == "nil" else results
                if source:
                    self.frames[name] = pd.concat(
                        [f(r).assign(rule_set=self.label_of(key)) for key, r in source], ignore_index=True
                    )
            self.frames.update(kept)
            self._without_nil = [self.title_of(key) for key in keys if key not in with_nil]
            elapsed = time.perf_counter() - start
            for name in self.methods:
                measured = with_nil if name == "nil" else keys
                self.methods[name].value = self._method_html(
                    lab_method(name, n, seed, nils=nils, rule_sets=self.described(measured))
                )
            played = ", and the nils played by the bots," if with_nil else " (no rule set compared has nil)"
            summary = (
                f"The rounds were simulated and measured{played} in {elapsed:.1f} s. "
                "How each plot was measured is said beside it."
            )
            self.status.value = f'<div class="st-note" role="status">{summary} Drawing the plots…</div>'
            self.render()
            self.status.value = f'<div class="st-note" role="status">{summary}</div>'
        finally:
            self.run_button.disabled = False

    def run_bots(self) -> None:
        import pandas as pd

        from ..lab.bot_experiments import bidding_accuracy, games_to_target
        from ..lab.plots import BOT_TITLES, bot_reading, bot_spec, paths_reading, paths_spec

        keys = self._compared()
        rounds, games = self.bot_size.value if self.bot_size.value in BOT_SIZES else BOT_SIZES[0]
        seed = int(self.seed.value)
        self.bot_button.disabled = True
        self.bar.max = len(keys) * (rounds + games)
        self.bar.value = 0
        start = time.perf_counter()
        try:
            bidding, per_game, per_hand = [], [], []
            for k, key in enumerate(keys):
                rules, label = self.rules_of(key), self.label_of(key)
                base = k * (rounds + games)
                self.bot_status.value = (
                    f'<div class="st-note" role="status">The bots are playing {html.escape(self.title_of(key))}…</div>'
                )
                bidding.append(bidding_accuracy(rules, rounds, seed, self._advance(base)).assign(rule_set=label))
                one_game, one_path = games_to_target(rules, games, seed, self._advance(base + rounds))
                per_game.append(one_game.assign(rule_set=label))
                per_hand.append(one_path.assign(rule_set=label))
            frames = {"bidding": pd.concat(bidding, ignore_index=True), "games": pd.concat(per_game, ignore_index=True)}
            paths = pd.concat(per_hand, ignore_index=True)
            captions = {}
            for key, frame in frames.items():
                captions[key] = (BOT_TITLES[key], bot_reading(key, frame))
                self.frames[f"bots-{key}"] = frame
            captions["paths"] = (self._bot_titles["paths"], paths_reading(paths))
            for key, (title, text) in captions.items():
                self.bot_readings[key].value = _reading(title, text)
            self.frames["bots-paths"] = paths
            self.bot_results.layout.display = None  # shown before drawing: a hidden plot has no width
            specs = {key: bot_spec(key, frame) for key, frame in frames.items()}
            specs["paths"] = paths_spec(paths)
            for key, one in specs.items():
                _draw(self.bot_plots[key], one)
                _data(self.bot_plot_data[key], one, _caption(*captions[key]))
            if self.table_choice.options or self.frames:
                self._refresh_table_choices()
            elapsed = time.perf_counter() - start
            targets = [self.rules_of(key).target for key in keys]
            target: int | str = targets[0]
            if len(set(targets)) > 1:
                target = "its own target (" + " and ".join(map(str, targets)) + ")"
            for key in self.bot_methods:
                which = "bots-bidding" if key == "bidding" else "bots-games"
                lines = lab_method(which, rounds, seed, games=games, target=target, rule_sets=self.described(keys))
                self.bot_methods[key].value = self._method_html(lines)
            self.bot_status.value = (
                f'<div class="st-note" role="status">The hands and games were played by the bots in {elapsed:.1f} s. '
                "How each plot was measured is said beside it.</div>"
            )
        finally:
            self.bot_button.disabled = False

    def _method_html(self, lines: tuple[str, ...]) -> str:
        """A plot's "How was this measured?", its words of measurement linked to the glossary."""
        self.terms.restart()
        return how_measured_html(lines, lambda markup: self.terms.link(markup, self.rules_of(self.first.value)))

    def _advance(self, base: int) -> Any:
        """A progress callback that moves the bar to ``base + done``."""

        def progress(done: int, _total: int) -> None:
            self.bar.value = base + done

        return progress

    def _refresh_table_choices(self) -> None:
        titles = _titles()
        current = self.table_choice.value
        self.table_choice.options = [(titles[k], k) for k in self.frames]
        self.table_choice.value = current if current in self.frames else next(iter(self.frames))
        self._show_table()
        self._make_download()

    @staticmethod
    def _empty_plots(
        readings: dict[str, w.HTML], plots: dict[str, w.Output], titles: dict[str, str], note: str
    ) -> None:
        """Each plot's place, titled and empty, with ``note`` in its reading (drawn with the page)."""
        from ..lab.plots import empty_spec

        for key, slot in plots.items():
            readings[key].value = _reading(titles[key], note)
            _draw(slot, empty_spec(titles[key]))

    def render(self) -> None:
        from ..lab.plots import TITLES, empty_spec, reading, spec

        # every reading first (they are instant), then each plot, in its own place on the page, and
        # under it the table of its numbers, built from the same JSON the plot is drawn from
        texts = {key: reading(key, frame) for key, frame in self.frames.items() if key in TITLES}
        if self._without_nil:  # a rule set without nil has no nil to measure: the nil plot says so
            said = " and ".join(self._without_nil)
            note = (
                f"{said} {'plays' if len(self._without_nil) == 1 else 'play'} without nil, so no nil was played there."
            )
            if "nil" in texts:
                texts["nil"] += " " + note
            else:
                self.readings["nil"].value = _reading(TITLES["nil"], note)
                _draw(self.plots["nil"], empty_spec(TITLES["nil"]))
                self.plot_data["nil"].value = ""  # no numbers to show
        for key, text in texts.items():
            self.readings[key].value = _reading(TITLES[key], text)
        for key, frame in self.frames.items():
            if key in TITLES:
                one = spec(key, frame)
                _draw(self.plots[key], one)
                _data(self.plot_data[key], one, _caption(TITLES[key], texts[key]))
        self._refresh_table_choices()
        self.table_box.layout.display = None

    def _show_table(self) -> None:
        key = self.table_choice.value
        if key not in self.frames:
            return
        frame = self.frames[key]
        table = frame.to_html(index=False, float_format=lambda x: f"{x:.3f}", classes="st-score-table", border=0)
        # the scroller is a named region in the tab order, so the keyboard can scroll the table too
        name = html.escape(f"Results table: {self.table_choice.label}", quote=True)
        self.table.value = f'<div class="st-lab-scroll" role="region" tabindex="0" aria-label="{name}">{table}</div>'

    def _make_download(self) -> None:
        import pandas as pd

        from ..session.export import safe_frame

        long = pd.concat([f.assign(experiment=k) for k, f in self.frames.items()], ignore_index=True)
        data = base64.b64encode(safe_frame(long).to_csv(index=False).encode("utf-8")).decode("ascii")
        self.download.value = f'<a download="joker-lab.csv" href="data:text/csv;charset=utf-8;base64,{data}">⬇ Download all results (CSV)</a>'
