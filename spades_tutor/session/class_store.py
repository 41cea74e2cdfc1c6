"""A class session's database: who joined, what each learner answered, and how the teacher paces the room.

``make class`` opens one (:class:`ClassStore`) and every learner's kernel writes to it as the learner
answers; the teacher's kernel reads it for the teacher view. It is SQLAlchemy Core on any URL; the
default is an SQLite file in write-ahead-log mode (many readers, one writer at a time, none waiting
on a reader), in ``class-data/`` beside where the class was started. Everything is written by code
on the server (the learners' kernels, the teacher's kernel, the server), never by a page; and
everything a page sent is checked here before it is kept (:func:`check_nickname`, :func:`clean_text`).

Tables (``st_`` names, so the store can share a database with others):

- ``st_sessions``: one class session each time a class starts afresh (its id, when it started).
- ``st_learners``: a seat per learner: a random token the learner's browser keeps (a reload, or the
  server restarted, rejoins the same seat), the nickname they chose, their number in the room (for
  anonymous display), and where they are now (lesson, step, when last seen).
- ``st_answers``: one row per graded answer: the seat, the lesson and step, the quiz kind and item,
  the answer given (as text), the right answer, right or not, the try, the misconception diagnosed.
- ``st_state``: the teacher's pacing of the session: the lesson taught, the last step learners may
  reach, a step everyone is brought to (with a count, so each bringing is seen once), the pause and its
  message, the question shown and whether its answer is revealed, the anonymous switch, a snapshot.

Nothing of the UI: :mod:`spades_tutor.ui.class_seat` (a learner's side) and
:mod:`spades_tutor.ui.teacher_view` (the teacher's) are built on this.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import re
import secrets
import time
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa

__all__ = [
    "CLASS_DB_ENV",
    "CLASS_SESSION_ENV",
    "TEACHER_DIGEST_ENV",
    "Answer",
    "ClassState",
    "ClassStore",
    "Learner",
    "RateLimit",
    "check_nickname",
    "clean_text",
    "default_url",
    "new_seat_token",
    "teacher_code_matches",
    "teacher_digest",
]

#: where the class server tells each kernel it starts the store's URL, the session and the teacher code's digest
CLASS_DB_ENV = "SPADES_TUTOR_CLASS_DB"
CLASS_SESSION_ENV = "SPADES_TUTOR_CLASS_SESSION"
TEACHER_DIGEST_ENV = "SPADES_TUTOR_TEACHER_DIGEST"

NICKNAME_MAX = 24
ANSWER_MAX = 80
MESSAGE_MAX = 200
DIAGNOSIS_MAX = 300
#: letters and digits of any script, spaces, and a few marks a name may have
_NICKNAME_MARKS = " .'-_!?&()"
_SEAT_TOKEN = re.compile(r"[0-9a-f]{32}")


def default_url(folder: str | os.PathLike[str]) -> str:
    """The SQLite file of a class's data in ``folder`` (made if missing).

    >>> default_url("/tmp/spades-class-doc").endswith("/spades-class-doc/class.db")
    True
    """
    path = Path(folder).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'class.db'}"


def new_seat_token() -> str:
    """A seat's token: 128 random bits, which the learner's browser keeps to rejoin the seat."""
    return secrets.token_hex(16)


def teacher_digest(code: str) -> str:
    """What the kernels are told of the teacher code: its SHA-256, never the code itself.

    >>> teacher_digest("ab-12 cd") == teacher_digest("AB12CD")
    True
    """
    import hashlib

    return hashlib.sha256("".join(ch for ch in code.upper() if ch not in " -").encode()).hexdigest()


def teacher_code_matches(given: str, digest: str) -> bool:
    """Whether ``given`` is the teacher code whose digest is ``digest`` (compared in constant time).

    >>> teacher_code_matches("ab12cd", teacher_digest("AB12CD")), teacher_code_matches("AB12CE", teacher_digest("AB12CD"))
    (True, False)
    >>> teacher_code_matches("AB12CD", "")
    False
    """
    import hmac

    if not digest or not given or len(given) > 64:
        return False
    return hmac.compare_digest(teacher_digest(given).encode(), digest.encode())


def check_nickname(text: object) -> str:
    """A nickname as kept: trimmed, spaces joined; ``ValueError`` saying what is wrong with one that cannot be.

    At most 24 characters: letters and digits (any script), spaces and ``.'-_!?&()``.

    >>> check_nickname("  Ada   L. ")
    'Ada L.'
    >>> check_nickname("<script>")
    Traceback (most recent call last):
    ...
    ValueError: A nickname has letters, digits, spaces and . ' - _ ! ? & ( ) only: not '<'.
    >>> check_nickname("x" * 25)
    Traceback (most recent call last):
    ...
    ValueError: A nickname has at most 24 characters.
    """
    if not isinstance(text, str):
        raise ValueError("A nickname is text.")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise ValueError("Type a nickname: any name you like, not your real name if you prefer.")
    if len(name) > NICKNAME_MAX:
        raise ValueError(f"A nickname has at most {NICKNAME_MAX} characters.")
    for ch in name:
        if not (ch.isalnum() or ch in _NICKNAME_MARKS) or unicodedata.category(ch).startswith("C"):
            shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
            raise ValueError(
                f"A nickname has letters, digits, spaces and {' '.join(_NICKNAME_MARKS[1:])} only: not {shown}."
            )
    return name


def clean_text(text: object, limit: int) -> str:
    """Text to keep: control characters dropped, spaces joined, cut to ``limit`` characters.

    >>> clean_text("a\\x00b\\n  c" + "d" * 10, 8)
    'ab cddd…'
    """
    s = "".join(ch for ch in str(text) if not unicodedata.category(ch).startswith("C") or ch in "\n\t ")
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


class RateLimit:
    """At most ``burst`` events at once, then ``rate`` a second; :meth:`allow` says whether one may happen now.

    >>> limit = RateLimit(rate=1.0, burst=2)
    >>> [limit.allow(now=0.0) for _ in range(3)], limit.allow(now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at: float | None = None

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# --- the rows, as plain data ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Learner:
    id: int
    seat: str
    nickname: str
    number: int  # joined the session n-th: "Learner n" when names are hidden
    joined: float
    lesson: int | None = None
    step: int | None = None
    seen: float = 0.0

    def shown_name(self, anonymous: bool) -> str:
        return f"Learner {self.number}" if anonymous else self.nickname


@dataclasses.dataclass(frozen=True)
class Answer:
    id: int
    learner: int
    lesson: int
    step: int
    kind: str
    item_key: str
    answer: str
    right_answer: str
    correct: bool
    attempt: int
    diagnosis: str
    time: float


@dataclasses.dataclass(frozen=True)
class ClassState:
    """The teacher's pacing (see the module's docstring); the defaults are a class left free."""

    lesson: int | None = None
    step_limit: int | None = None  # the last step (from 0) learners may reach in ``lesson``; None: all
    bring_step: int | None = None  # the step everyone was last brought to
    bring_count: int = 0  # how many times the teacher brought the class somewhere
    paused: bool = False
    message: str = ""
    question_step: int | None = None  # the step whose answers are on the projector
    reveal: bool = False
    anonymous: bool = False
    snapshot: str = ""  # JSON of the answers pinned for the room
    version: int = 0


STATE_FIELDS = tuple(f.name for f in dataclasses.fields(ClassState) if f.name != "version")

# --- the tables ------------------------------------------------------------------------------------------

metadata = sa.MetaData()
sessions = sa.Table(
    "st_sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("title", sa.String(80), nullable=False, default=""),
)
learners = sa.Table(
    "st_learners",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("st_sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.String(32), nullable=False),
    sa.Column("nickname", sa.String(NICKNAME_MAX * 2), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Column("lesson", sa.Integer),
    sa.Column("step", sa.Integer),
    sa.Column("seen", sa.Float, nullable=False, default=0.0),
    sa.UniqueConstraint("session_id", "seat"),
    sa.UniqueConstraint("session_id", "nickname"),
)
answers = sa.Table(
    "st_answers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("st_sessions.id", ondelete="CASCADE"), nullable=False),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("st_learners.id", ondelete="CASCADE"), nullable=False),
    sa.Column("lesson", sa.Integer, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("item_key", sa.String(200), nullable=False),
    sa.Column("answer", sa.String(ANSWER_MAX * 2), nullable=False),
    sa.Column("right_answer", sa.String(ANSWER_MAX * 2), nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("attempt", sa.Integer, nullable=False),
    sa.Column("diagnosis", sa.String(DIAGNOSIS_MAX * 2), nullable=False, default=""),
    sa.Column("time", sa.Float, nullable=False),
    sa.Index("st_answers_session_lesson", "session_id", "lesson", "id"),
)
state = sa.Table(
    "st_state",
    metadata,
    sa.Column("session_id", sa.Integer, sa.ForeignKey("st_sessions.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("lesson", sa.Integer),
    sa.Column("step_limit", sa.Integer),
    sa.Column("bring_step", sa.Integer),
    sa.Column("bring_count", sa.Integer, nullable=False, default=0),
    sa.Column("paused", sa.Boolean, nullable=False, default=False),
    sa.Column("message", sa.String(MESSAGE_MAX * 2), nullable=False, default=""),
    sa.Column("question_step", sa.Integer),
    sa.Column("reveal", sa.Boolean, nullable=False, default=False),
    sa.Column("anonymous", sa.Boolean, nullable=False, default=False),
    sa.Column("snapshot", sa.Text, nullable=False, default=""),
    sa.Column("version", sa.Integer, nullable=False, default=0),
)

CSV_COLUMNS = (
    "time",
    "learner",
    "nickname",
    "lesson",
    "step",
    "kind",
    "item",
    "answer",
    "right answer",
    "correct",
    "try",
    "misconception",
)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait on the writer, nor it on them
    cursor.execute("PRAGMA synchronous=NORMAL")  # in WAL, durable at each checkpoint, safe against corruption
    cursor.execute("PRAGMA busy_timeout=5000")  # a writer waits for another's commit rather than failing
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class ClassStore:
    """The database of class sessions at ``url`` (any SQLAlchemy URL; the tables are made if missing).

    Every method is one short transaction; the store object holds no rows, so any number of them
    (one per kernel, in as many processes) may use one database at once.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            kwargs["connect_args"] = {"timeout": 5.0}
        self.engine = sa.create_engine(url, **kwargs)
        if self.sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def journal_mode(self) -> str:
        """SQLite's journal mode (``wal``), or the database's name for another database."""
        if not self.sqlite:
            return self.engine.dialect.name
        with self.engine.connect() as conn:
            return str(conn.exec_driver_sql("PRAGMA journal_mode").scalar())

    # --- sessions ------------------------------------------------------------------------------------

    def start_session(self, title: str = "", now: float | None = None) -> int:
        """A new class session; its id."""
        with self.engine.begin() as conn:
            result = conn.execute(
                sessions.insert().values(started=time.time() if now is None else now, title=clean_text(title, 80))
            )
            session_id = int(result.inserted_primary_key[0])  # type: ignore[index]
            conn.execute(state.insert().values(session_id=session_id))
        return session_id

    def latest_session(self, within_s: float | None = None, now: float | None = None) -> int | None:
        """The session started last (if it started within ``within_s`` seconds), or None."""
        query = sa.select(sessions.c.id, sessions.c.started).order_by(sessions.c.id.desc()).limit(1)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        now = time.time() if now is None else now
        if within_s is not None and now - row.started > within_s:
            return None
        return int(row.id)

    def session_ids(self) -> list[int]:
        with self.engine.connect() as conn:
            return [int(i) for i in conn.execute(sa.select(sessions.c.id).order_by(sessions.c.id)).scalars()]

    def delete_session(self, session_id: int) -> int:
        """Delete the session and everything of it (its learners, answers, pacing); the answers deleted."""
        with self.engine.begin() as conn:
            n = conn.execute(answers.delete().where(answers.c.session_id == session_id)).rowcount
            conn.execute(learners.delete().where(learners.c.session_id == session_id))
            conn.execute(state.delete().where(state.c.session_id == session_id))
            conn.execute(sessions.delete().where(sessions.c.id == session_id))
        if self.sqlite:  # the deleted rows gone from the file too, not only marked free
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                conn.exec_driver_sql("VACUUM")
        return int(n)

    def session_exists(self, session_id: int) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sessions.c.id).where(sessions.c.id == session_id)).first() is not None

    # --- learners ------------------------------------------------------------------------------------

    def seat(self, session_id: int, token: object) -> Learner | None:
        """The learner holding the seat of ``token`` (from the learner's browser: checked), or None."""
        if not isinstance(token, str) or not _SEAT_TOKEN.fullmatch(token):
            return None
        query = learners.select().where(learners.c.session_id == session_id, learners.c.seat == token)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return _learner(row) if row is not None else None

    def join(self, session_id: int, nickname: str, now: float | None = None) -> Learner:
        """A new seat for a learner with ``nickname`` (checked; one taken gets a number: "Sam 2")."""
        name = check_nickname(nickname)
        now = time.time() if now is None else now
        if not self.session_exists(session_id):
            raise ValueError("This class session has ended: ask your teacher for the new class link.")
        for _ in range(20):  # another learner may take the same name at the same moment: try the next
            try:
                with self.engine.begin() as conn:
                    taken = set(
                        conn.execute(
                            sa.select(learners.c.nickname).where(learners.c.session_id == session_id)
                        ).scalars()
                    )
                    shown = _free_name(name, taken)
                    number = 1 + int(
                        conn.execute(
                            sa.select(sa.func.coalesce(sa.func.max(learners.c.number), 0)).where(
                                learners.c.session_id == session_id
                            )
                        ).scalar_one()
                    )
                    token = new_seat_token()
                    result = conn.execute(
                        learners.insert().values(
                            session_id=session_id, seat=token, nickname=shown, number=number, joined=now, seen=now
                        )
                    )
                    learner_id = int(result.inserted_primary_key[0])  # type: ignore[index]
                return Learner(learner_id, token, shown, number, now, seen=now)
            except sa.exc.IntegrityError:
                continue
        raise ValueError("So many learners joined at once that no seat could be given: try again.")

    def reach(self, learner_id: int, lesson: int, step: int, now: float | None = None) -> None:
        """The learner is on ``step`` (from 0) of lesson ``lesson`` now."""
        with self.engine.begin() as conn:
            conn.execute(
                learners.update()
                .where(learners.c.id == learner_id)
                .values(lesson=lesson, step=step, seen=time.time() if now is None else now)
            )

    def learners(self, session_id: int) -> list[Learner]:
        query = learners.select().where(learners.c.session_id == session_id).order_by(learners.c.number)
        with self.engine.connect() as conn:
            return [_learner(row) for row in conn.execute(query)]

    # --- answers -------------------------------------------------------------------------------------

    def record(
        self,
        session_id: int,
        learner_id: int,
        *,
        lesson: int,
        step: int,
        kind: str,
        item_key: str,
        answer: str,
        right_answer: str,
        correct: bool,
        attempt: int,
        diagnosis: str | None = None,
        now: float | None = None,
    ) -> int:
        """One graded answer (each text cut and cleaned); its row's id (-1: the seat is no longer in the session)."""
        values = {
            "session_id": session_id,
            "learner_id": learner_id,
            "lesson": int(lesson),
            "step": int(step),
            "kind": clean_text(kind, 40),
            "item_key": clean_text(item_key, 200),
            "answer": clean_text(answer, ANSWER_MAX),
            "right_answer": clean_text(right_answer, ANSWER_MAX),
            "correct": bool(correct),
            "attempt": max(1, min(int(attempt), 9)),
            "diagnosis": clean_text(diagnosis or "", DIAGNOSIS_MAX),
            "time": time.time() if now is None else now,
        }
        try:
            with self.engine.begin() as conn:
                return int(conn.execute(answers.insert().values(**values)).inserted_primary_key[0])  # type: ignore[index]
        except sa.exc.IntegrityError:  # the seat (or the session) was deleted meanwhile: nothing to keep it under
            return -1

    def answers(self, session_id: int, lesson: int | None = None, after: int = 0) -> list[Answer]:
        """The session's answers (of one lesson), in the order given; only those after row ``after``."""
        query = answers.select().where(answers.c.session_id == session_id, answers.c.id > after)
        if lesson is not None:
            query = query.where(answers.c.lesson == lesson)
        with self.engine.connect() as conn:
            return [_answer(row) for row in conn.execute(query.order_by(answers.c.id))]

    def own_answers(self, session_id: int, learner_id: int) -> list[Answer]:
        """One learner's answers: what a learner's own kernel may read."""
        query = answers.select().where(answers.c.session_id == session_id, answers.c.learner_id == learner_id)
        with self.engine.connect() as conn:
            return [_answer(row) for row in conn.execute(query.order_by(answers.c.id))]

    def changes(self, session_id: int) -> tuple[int, int, float, int]:
        """What moves when anything of the session changes (answers, learners, their places, the pacing):
        one cheap query a poll compares with the last."""
        with self.engine.connect() as conn:
            last = conn.execute(
                sa.select(sa.func.coalesce(sa.func.max(answers.c.id), 0)).where(answers.c.session_id == session_id)
            ).scalar_one()
            count, seen = conn.execute(
                sa.select(sa.func.count(), sa.func.coalesce(sa.func.max(learners.c.seen), 0.0)).where(
                    learners.c.session_id == session_id
                )
            ).one()
            version = conn.execute(sa.select(state.c.version).where(state.c.session_id == session_id)).scalar()
        return int(last), int(count), float(seen), int(version or 0)

    def csv(self, session_id: int) -> str:
        """The session's answers, one row an answer (the learner's number and nickname, what was asked and given)."""
        who = {learner.id: learner for learner in self.learners(session_id)}
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for a in self.answers(session_id):
            learner = who.get(a.learner)
            writer.writerow(
                [
                    time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(a.time)),
                    learner.number if learner else "",
                    _csv_safe(learner.nickname) if learner else "",
                    a.lesson,
                    a.step + 1,
                    a.kind,
                    _csv_safe(a.item_key),
                    _csv_safe(a.answer),
                    _csv_safe(a.right_answer),
                    "yes" if a.correct else "no",
                    a.attempt,
                    _csv_safe(a.diagnosis),
                ]
            )
        return out.getvalue()

    # --- the teacher's pacing ------------------------------------------------------------------------

    def state(self, session_id: int) -> ClassState:
        with self.engine.connect() as conn:
            row = conn.execute(state.select().where(state.c.session_id == session_id)).first()
        if row is None:
            return ClassState()
        values = row._mapping
        return ClassState(**{name: values[name] for name in (*STATE_FIELDS, "version")})

    def set_state(self, session_id: int, **changes: Any) -> ClassState:
        """Change the pacing (names of :class:`ClassState`); the state after it."""
        unknown = set(changes) - set(STATE_FIELDS)
        if unknown:
            raise ValueError(f"not a setting of the class: {', '.join(sorted(unknown))}")
        if "message" in changes:
            changes["message"] = clean_text(changes["message"], MESSAGE_MAX)
        with self.engine.begin() as conn:
            conn.execute(
                state.update().where(state.c.session_id == session_id).values(version=state.c.version + 1, **changes)
            )
        return self.state(session_id)

    def bring(self, session_id: int, step: int) -> ClassState:
        """Bring every learner to ``step`` (from 0) of the lesson taught."""
        with self.engine.begin() as conn:
            conn.execute(
                state.update()
                .where(state.c.session_id == session_id)
                .values(bring_step=step, bring_count=state.c.bring_count + 1, version=state.c.version + 1)
            )
        return self.state(session_id)


def _free_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or with the first number that makes it free ("Sam 2"), within the nickname's length.

    >>> _free_name("Sam", {"Sam", "Sam 2"}), _free_name("Ada", {"Sam"})
    ('Sam 3', 'Ada')
    """
    taken = {t.casefold() for t in taken}
    if name.casefold() not in taken:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: NICKNAME_MAX - len(suffix)] + suffix
        if candidate.casefold() not in taken:
            return candidate
        n += 1


def _csv_safe(text: str) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula is quoted.

    >>> _csv_safe("=HYPERLINK(1)"), _csv_safe("Ada")
    ("'=HYPERLINK(1)", 'Ada')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _learner(row: Any) -> Learner:
    m: Mapping[str, Any] = row._mapping
    return Learner(
        m["id"], m["seat"], m["nickname"], m["number"], m["joined"], m["lesson"], m["step"], m["seen"] or 0.0
    )


def _answer(row: Any) -> Answer:
    m: Mapping[str, Any] = row._mapping
    return Answer(
        m["id"],
        m["learner_id"],
        m["lesson"],
        m["step"],
        m["kind"],
        m["item_key"],
        m["answer"],
        m["right_answer"],
        bool(m["correct"]),
        m["attempt"],
        m["diagnosis"],
        m["time"],
    )


def snapshot_json(rows: Iterable[tuple[str, int, bool]]) -> str:
    """The snapshot pinned for the room: each answer text, how many gave it, whether it is right."""
    return json.dumps([{"answer": a, "count": n, "correct": c} for a, n, c in rows])
