"""Lessons as data: Markdown files in ``lessons/`` whose fenced blocks the engine renders and checks.

The package: ``values`` (one parser per kind of key), ``placeholders`` (rule facts in
prose), ``blocks`` (one class per block kind: its keys, what it builds and shows, and
its check), ``parts`` (what a block shows, as data the lesson player draws), ``model``
(lessons, steps, blocks, a block resolved for one rule set), ``reading`` (the Markdown
file) and ``validation`` (every block checked against the engine).

A lesson ``lessons/NN-slug.md`` stays readable as plain Markdown. The first line is
``# Title``; optional front matter follows (``summary:`` one line, ``preset:``
default ``jokers``; ``needs: nil`` for a lesson about nil, which
then says so at a table without nil; ``needs: standard scoring`` for a lesson whose
worked numbers are a standard table's, which then says so at a table that scores otherwise); then steps separated by lines ``---``, each starting with
``## Step title``, then Markdown prose and fenced blocks. A fenced block's info
string is its kind; inside are ``key: value`` lines (an indented line continues
the value above). Any block may add ``preset: NAME``, or ``preset: any`` (adaptive:
shown in the rule set the teacher picked, checked in every preset), or several
presets (``preset: any with jokers``, ``preset: deuces-high, bicycle``: the block
follows the teacher's pick when it is one of them, else shows the first and says
so; ``preset: any deck`` follows every preset's deck and trumps but, unlike ``any``,
not the teacher's house rules), ``only: NAMES`` (shown only when the teacher picked
one of them), and
``flags: nil=false, mercy=-200`` (house rules on top of that rule set).

Prose follows the teacher's pick and must hold in every preset (the claims it makes
about cards are checked by ``spades_tutor.lessons.claims``). Prose that depends on the
rule set either names its facts with placeholders the engine fills (``{removed}``,
``{trump count}``, ``{top trump}`` … see ``PLACEHOLDERS``; a rule-set number takes
a whole number added or taken away, ``{target-35}``, in prose and in a block's values
alike), or starts with a comment
line ``<!-- preset: jokers -->`` or ``<!-- only: classic -->`` (the same values as
in a block; it lasts to the next fenced block or comment). A tip quotes the rules
of the lesson's preset unless such a comment stands above it.

=================  =====================================================================
kind               keys (``?`` optional)
=================  =====================================================================
``hand``           cards, label?
``hands``          N, E, S, W (13 cards each) and dealer?, or deal (a deal id); first_lead?
                   (true: who leads the first trick, in the engine's sentence); label?
``trick``          cards (lead first), leader, spades_broken?, label?
``trumps``         (none): the trump order
``deck``           (none): the cards taken out and the jokers
``suit``           suit (hearts, clubs, diamonds or spades): its cards in this deck, highest first
``compare``        presets: trump orders side by side
``score``          bids (N 4, E 3, S nil, W 2), tricks (N 5, …), bags? (NS 8, EW 0)
``renege``         bids, tricks, reneged (NS or EW), reneges? (1), bags?: the score after the
                   table's renege penalty (``renege_penalty``), by the engine's sentences
``game``           scores (NS 520, EW 530): who wins, by the engine's sentence; with bids,
                   tricks and bags? the scores are those before a hand the engine scores,
                   adds to them and judges the game after
``play``           N E S W dealer? or deal; bids; plays (the 52 cards in order)
``tip``            prose: a tip from the rules text
``quiz KIND``      the position keys ``item_from_dict`` reads for KIND, never the answer;
                   or generate: true, seed, difficulty?
=================  =====================================================================

>>> from pathlib import Path
>>> lesson = parse_lesson(
...     "# Demo\\n\\nsummary: One step.\\n\\n---\\n\\n## Follow suit\\n\\n"
...     "```quiz legal-plays\\nhand: AH 3H LJ 5C\\ntrick: KH\\n```\\n",
...     Path("01-demo.md"),
... )
>>> block = lesson.steps[0].blocks[0]
>>> block.kind, block.quiz_kind, block.quiz_item(lesson).answer()
('quiz', 'legal-plays', (Card.parse('A♥'), Card.parse('3♥')))
>>> validate_lesson(lesson)
[]
"""

from __future__ import annotations

from .blocks import BLOCK_KINDS, BlockKind
from .model import ANSWER_KEYS, KINDS, Block, Lesson, Resolved, Step, rule_set_note, table_note
from .placeholders import PLACEHOLDERS, fill_placeholders
from .reading import lessons_dir, load_lesson, load_lessons, parse_lesson
from .validation import validate_lesson
from .values import ANY, LessonError, preset_selection

__all__ = [
    "ANSWER_KEYS",
    "ANY",
    "BLOCK_KINDS",
    "KINDS",
    "PLACEHOLDERS",
    "Block",
    "BlockKind",
    "Lesson",
    "LessonError",
    "Resolved",
    "Step",
    "fill_placeholders",
    "lessons_dir",
    "load_lesson",
    "load_lessons",
    "parse_lesson",
    "preset_selection",
    "rule_set_note",
    "table_note",
    "validate_lesson",
]
