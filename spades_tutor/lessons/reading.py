"""Reading a lesson file: the title and front matter, steps cut at ``---``, prose and fenced blocks.

Each fenced block's ``key: value`` lines are checked against its kind's keys
(``blocks.BLOCK_KINDS``; a ``quiz KIND`` block against the quiz kind's position keys)
and parsed once, so a malformed file fails here, naming the file and line.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import types
from pathlib import Path

from .. import engine as st
from .blocks import BLOCK_KINDS, KeyProblem, Prose, unknown_kind
from .model import COMMON_KEYS, Block, Lesson, Step
from .placeholders import fill_placeholders
from .values import ANY, LessonError, parse_preset, parse_value, source_place

__all__ = ["lessons_dir", "load_lesson", "load_lessons", "parse_lesson"]

_FRONT_KEYS = frozenset({"preset", "summary", "needs", "pass"})
#: ``pass: questions``: each step's questions must be answered right before Next goes on
#: what a lesson may say it needs of the table (``needs: nil``): the player says so where the table lacks it
NEEDS = frozenset({"nil", "standard scoring"})
_DIRECTIVE = re.compile(r"^\s*<!--\s*(preset|only)\s*:\s*(.*?)\s*-->\s*$", re.IGNORECASE)
_FILE_NAME = re.compile(r"^(\d+)-([a-z0-9][a-z0-9-]*)\.md$")
_TITLE = re.compile(r"^#\s+(\S.*?)\s*$")
_STEP_TITLE = re.compile(r"^##\s+(\S.*?)\s*$")
_SEPARATOR = re.compile(r"^ {0,3}-{3,}\s*$")
_FENCE = re.compile(r"^(`{3,})\s*(.*?)\s*$")
_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)$")


def _split_steps(lines: list[str], start: int, path: Path) -> list[tuple[int, list[str]]]:
    """Cut the body at ``---`` lines outside fenced blocks; each chunk keeps its first line number."""
    chunks: list[tuple[int, list[str]]] = [(start + 1, [])]
    fence: str | None = None
    fence_line = 0
    for i in range(start, len(lines)):
        line = lines[i]
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1).startswith(fence) and not m.group(2):
                fence = None
        elif m:
            fence, fence_line = m.group(1), i + 1
        elif _SEPARATOR.match(line):
            chunks.append((i + 2, []))
            continue
        chunks[-1][1].append(line)
    if fence is not None:
        raise LessonError(f"{source_place(path, fence_line)}: this fenced block is never closed (a line ``` ends it)")
    return chunks


def _parse_options(
    path: Path, fence_line: int, kind: str, argument: str | None, body: list[tuple[int, str]]
) -> dict[str, str]:
    spec = BLOCK_KINDS[kind]
    options: dict[str, str] = {}
    lines: dict[str, int] = {}
    last: str | None = None
    for number, line in body:
        if not line.strip():
            continue
        if line[:1].isspace() and last is not None:
            options[last] = (options[last] + " " + line.strip()).strip()
            continue
        m = _KEY.match(line)
        if m is None:
            raise LessonError(
                f"{source_place(path, number)}: write `key: value` lines inside a {kind} block, not {line!r}"
            )
        key = m.group(1).lower().replace("-", "_")
        if spec.seat_keys and key in ("n", "e", "s", "w", "north", "east", "south", "west"):
            key = key[0].upper()
        if key in options:
            raise LessonError(f"{source_place(path, number)}: {key}: is given twice (first on line {lines[key]})")
        options[key], lines[key], last = m.group(2).strip(), number, key
    try:
        required, optional = spec.keys(argument, options)
    except KeyProblem as e:
        raise LessonError(f"{source_place(path, lines[e.key])}: {e}") from None
    for key, number in lines.items():
        refused = spec.refused(key)
        if refused is not None:
            raise LessonError(f"{source_place(path, number)}: {refused}")
        if key not in required | optional | COMMON_KEYS:
            known = ", ".join(sorted(required | optional | COMMON_KEYS))
            raise LessonError(
                f"{source_place(path, number)}: unknown key {key}: in a {kind} block (the keys are {known})"
            )
        try:
            # a rule-set number in a value (``{target-35}``) is filled where the block is shown; here it is
            # read as at a standard table, for its syntax
            text = options[key]
            parse_value(key, fill_placeholders(text, st.Rules.preset(), plain=True) if "{" in text else text)
        except ValueError as e:
            raise LessonError(f"{source_place(path, number)}: {key}: {e}") from None
    if "preset" in options and "only" in options:
        raise LessonError(f"{source_place(path, lines['only'])}: give preset: or only:, not both")
    missing = sorted(required - set(options))
    if missing:
        raise LessonError(f"{source_place(path, fence_line)}: a {kind} block needs {', '.join(missing)}:")
    return options


def _fenced_block(path: Path, number: int, info: str, body: list[tuple[int, str]]) -> Block:
    parts = info.split()
    kind = parts[0].lower() if parts else ""
    spec = BLOCK_KINDS.get(kind)
    try:
        if spec is None or not spec.fenced:
            raise ValueError(unknown_kind(info))
        argument = spec.argument(info, parts[1:])
    except ValueError as e:
        raise LessonError(f"{source_place(path, number)}: {e}") from None
    if spec.text_body:
        text = "\n".join(line for _, line in body).strip()
        if not text:
            raise LessonError(f"{source_place(path, number)}: an empty {kind}")
        return Block(kind, text=text, line=number)
    options = _parse_options(path, number, kind, argument, body)
    return Block(
        kind,
        options=types.MappingProxyType(options),
        quiz_kind=argument,
        preset=options.get("preset"),
        line=number,
    )


def _parse_step(path: Path, first: int, lines: list[str]) -> Step | None:
    numbered = [(first + i, line) for i, line in enumerate(lines)]
    while numbered and not numbered[0][1].strip():
        numbered.pop(0)
    if not numbered:
        return None
    number, head = numbered[0]
    m = _STEP_TITLE.match(head)
    if m is None:
        raise LessonError(f"{source_place(path, number)}: a step starts with a line `## Step title`, not {head!r}")
    title, step_line = m.group(1), number
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    # a comment line <!-- preset: … --> or <!-- only: … --> governs the prose (or tip) below it
    directive: dict[str, str] = {}
    directive_line = 0  # while the comment above has governed nothing yet

    def scoped(block: Block, default: str | None) -> Block:
        options = types.MappingProxyType(dict(directive))
        preset = directive.get("preset", None if "only" in directive else default)
        return dataclasses.replace(block, options=options, preset=preset)

    def flush() -> None:
        while prose and not prose[-1][1].strip():
            prose.pop()
        while prose and not prose[0][1].strip():
            prose.pop(0)
        nonlocal directive_line
        if prose:
            text = "\n".join(line for _, line in prose)
            blocks.append(scoped(Block(Prose.name, text=text, line=prose[0][0]), ANY))
            directive_line = 0
        prose.clear()

    i = 1
    while i < len(numbered):
        number, line = numbered[i]
        fence = _FENCE.match(line)
        scope = _DIRECTIVE.match(line)
        if scope:
            flush()
            if directive_line:
                raise LessonError(
                    f"{source_place(path, directive_line)}: this comment governs no prose (a second one follows)"
                )
            key, raw = scope.group(1).lower(), scope.group(2)
            directive_line = number
            try:
                directive = {key: parse_preset(raw)}
            except ValueError as e:
                raise LessonError(f"{source_place(path, number)}: {key}: {e}") from None
        elif fence:
            flush()
            body: list[tuple[int, str]] = []
            i += 1
            while i < len(numbered):
                close = _FENCE.match(numbered[i][1])
                if close and close.group(1).startswith(fence.group(1)) and not close.group(2):
                    break
                if close:
                    raise LessonError(
                        f"{source_place(path, number)}: this fenced block is not closed before the next one opens "
                        f"on line {numbered[i][0]} (a line ``` ends it)"
                    )
                body.append(numbered[i])
                i += 1
            block = _fenced_block(path, number, fence.group(2), body)
            if block.spec.text_body and directive:
                block = scoped(block, None)
            elif directive_line:
                raise LessonError(
                    f"{source_place(path, directive_line)}: a <!-- {next(iter(directive))}: --> comment governs the prose "
                    f"or tip below it; a {block.kind} block takes {next(iter(directive))}: on a line of its own"
                )
            blocks.append(block)
            directive, directive_line = {}, 0
        elif _STEP_TITLE.match(line) or _TITLE.match(line):
            raise LessonError(
                f"{source_place(path, number)}: a second title in one step; separate steps with a line `---`"
            )
        else:
            prose.append((number, line))
        i += 1
    flush()
    if directive_line:
        raise LessonError(f"{source_place(path, directive_line)}: this comment governs no prose (the step ends)")
    return Step(title, tuple(blocks), step_line)


def parse_lesson(text: str, path: Path) -> Lesson:
    """A lesson from its text; ``path`` gives the number and slug (``NN-slug.md``) and names errors."""
    path = Path(path)
    name = _FILE_NAME.match(path.name)
    if name is None:
        raise LessonError(f"{source_place(path, 1)}: a lesson file is named NN-slug.md, such as 03-following-suit.md")
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    title = _TITLE.match(lines[i]) if i < len(lines) else None
    if title is None:
        raise LessonError(f"{source_place(path, i + 1)}: a lesson starts with its title, a line `# Title`")
    front: dict[str, str] = {}
    i += 1
    while i < len(lines) and not _SEPARATOR.match(lines[i]) and not _STEP_TITLE.match(lines[i]):
        line = lines[i]
        if line.strip():
            m = _KEY.match(line)
            key = m.group(1).lower() if m else ""
            if m is None or key not in _FRONT_KEYS:
                raise LessonError(
                    f"{source_place(path, i + 1)}: after the title come only `preset:`, `summary:`, `needs:` and `pass:` lines, "
                    f"then `---` and the steps; not {line!r}"
                )
            if key in front:
                raise LessonError(f"{source_place(path, i + 1)}: {key}: is given twice")
            front[key] = m.group(2).strip()
        i += 1
    preset = front.get("preset", "jokers")
    if preset not in st.Rules.preset_names():
        raise LessonError(
            f"{source_place(path, 1)}: unknown lesson preset {preset!r}; the presets are {', '.join(st.Rules.preset_names())}"
        )
    needs = tuple(n.strip() for n in front.get("needs", "").split(",") if n.strip())
    unknown = [n for n in needs if n not in NEEDS]
    if unknown:
        raise LessonError(
            f"{source_place(path, 1)}: needs: {', '.join(unknown)} is not one of {', '.join(sorted(NEEDS))}"
        )
    must_pass = front.get("pass", "") == "questions"
    if "pass" in front and not must_pass:
        raise LessonError(f"{source_place(path, 1)}: pass: takes only `questions`, not {front['pass']!r}")
    steps = [step for first, chunk in _split_steps(lines, i, path) if (step := _parse_step(path, first, chunk))]
    return Lesson(
        number=int(name.group(1)),
        slug=name.group(2),
        title=title.group(1),
        summary=front.get("summary", ""),
        preset=preset,
        steps=tuple(steps),
        path=path,
        needs=needs,
        must_pass=must_pass,
    )


def load_lesson(path: Path) -> Lesson:
    """Read one lesson file; a malformed file raises ``LessonError`` naming the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise LessonError(f"{path}: cannot read the lesson: {e}") from None
    return parse_lesson(text, path)


def lessons_dir() -> Path:
    """The ``lessons/`` folder: ``$SPADES_TUTOR_LESSONS``, else beside the package, else ./lessons or ../lessons."""
    env = os.environ.get("SPADES_TUTOR_LESSONS")
    if env:
        folder = Path(env)
        if not folder.is_dir():
            raise LessonError(f"SPADES_TUTOR_LESSONS={env!r} is not a folder")
        return folder
    here = Path(__file__).resolve().parent.parent.parent
    for folder in (here / "lessons", Path.cwd() / "lessons", Path.cwd().parent / "lessons"):
        if folder.is_dir():
            return folder
    raise LessonError("no lessons/ folder found: set SPADES_TUTOR_LESSONS to it")


def load_lessons(folder: Path | None = None) -> tuple[Lesson, ...]:
    """Every ``NN-*.md`` lesson of ``folder`` (default: ``lessons_dir()``), in number order."""
    folder = lessons_dir() if folder is None else Path(folder)
    lessons = [load_lesson(p) for p in folder.iterdir() if re.match(r"^\d+-.*\.md$", p.name)]
    lessons.sort(key=lambda lesson: (lesson.number, lesson.slug))
    for a, b in itertools.pairwise(lessons):
        if a.number == b.number:
            raise LessonError(f"{b.path}:1: lesson number {b.number} is also {a.path.name}")
    return tuple(lessons)
