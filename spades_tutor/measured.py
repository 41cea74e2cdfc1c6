"""How a measured figure was measured, in a learner's words.

Every figure the app measures (how often a nil is made, what a bid scores, what a card keeps) is
said plainly where the learner reads it: "about 20% (likely between 16% and 24%)". The detail sits
beside it, behind a "How was this measured?" disclosure (``ui.measured.how_measured_html``): how many
deals were played, by which computer players, from which seed (so the figure can be made again),
how the likely range is worked out, and what "double dummy" means where the solver judged.

>>> how_measured(deals=400, what="of this hand", seed=0)[0]
'A simulation: 400 deals of this hand, the unseen cards shuffled each time, played by the computer players: the heuristic bots you play against on the Play page, in all four seats.'
>>> how_measured(deals=400, what="of this hand", seed=0)[1]
'Seed 0: the seed picks the shuffles, so the same seed deals the same cards and gives the same figures again.'
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["BOTS", "DOUBLE_DUMMY", "INTERVAL", "SUMMARY", "how_measured", "seed_line"]

#: the disclosure's summary line
SUMMARY = "How was this measured?"
#: who played the deals, when the computer players did
BOTS = "the computer players: the heuristic bots you play against on the Play page, in all four seats"
#: how a likely range is worked out
INTERVAL = (
    "“Likely between” gives the 95% interval: Wilson's score interval for how often something happened, "
    "the normal interval for an average. A range worked out this way holds the true figure 95 times in 100; "
    "more deals would narrow it."
)
#: what the solver's judgement means
DOUBLE_DUMMY = "Double dummy: every hand known, both sides at their best."


def seed_line(seed: int) -> str:
    """What the seed does, with its value."""
    return (
        f"Seed {seed}: the seed picks the shuffles, so the same seed deals the same cards and gives the same "
        "figures again."
    )


def how_measured(
    *,
    deals: int | None = None,
    what: str = "",
    players: str = BOTS,
    seed: int | None = None,
    interval: bool = True,
    double_dummy: bool = False,
    more: Sequence[str] = (),
) -> tuple[str, ...]:
    """The lines of a "How was this measured?" disclosure: the deals and who played them, the seed,
    the extra lines ``more``, what double dummy means (``double_dummy``) and how a likely range is
    worked out (``interval``)."""
    lines: list[str] = []
    if deals is not None:
        shuffled = "the unseen cards shuffled each time, " if what else ""
        dealt = f"{deals:,} deal{'' if deals == 1 else 's'} {what}".rstrip()
        lines.append(f"A simulation: {dealt}, {shuffled}played by {players}.")
    if seed is not None:
        lines.append(seed_line(seed))
    lines += more
    if double_dummy:
        lines.append(DOUBLE_DUMMY)
    if interval:
        lines.append(INTERVAL)
    return tuple(lines)
