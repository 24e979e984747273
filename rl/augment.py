"""Value renaming: SFT examples whose names and values are renamed, consistently.

    names = name_pool(specs)                       # what tasks name, per app
    rows = renamed_epochs(examples, names, copies=4, p=0.5, seed=0)

Held-out task instances are new parameter values of templates the policy trained on, so a
policy that memorises "Hass Avocados -> [12]" or "BBQ Potato Chips -> 8 oz" fails them,
and one that copies what the task names from the screen succeeds. Renaming makes
memorising useless: an example, with probability `p`, has every name a task could use
(any app's parameter values) and every value its reply notes or answers renamed to
another string, the same one wherever it stands (task, notes, screen, previous steps,
reply), so the only way to the right line is to find the task's words on the screen.
A name becomes another app's name, a mix of the apps' words or made-up words of their
letters; a value with digits keeps its shape with other digits (`$3.29` -> `$7.04`).
The screen's `*` hints are counted again on the renamed words (`rl.policy.HINTS`).
Deterministic in `seed`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rl.policy import QUOTED, keywords, marks

MAX_PASSES = 4  # renamed copies of the demos per run: trl tokenizes every row up front
# (about 800 rows a CPU second), so 10 passes of 15,000 demo steps cost 190 CPU s
MIN_CHARS = 4  # shorter names ("On", "Mom", "Sun") are states and words, not names
_WORD = re.compile(r"[^\W\d_]+")
_NOTE = re.compile(r'^Note: ("(?:[^"\\]|\\.)*")', re.M)
_ANSWER = re.compile(r'"action_type": "answer", "text": ("(?:[^"\\]|\\.)*")')


def name_pool(specs: Sequence[Any]) -> list[str]:
    """Every string parameter value of every task instance of the apps that can be renamed
    (not an app's name, not a short state word, nothing JSON would escape), sorted."""
    from phoneworld.tasks import templates
    from phoneworld.tasks.instances import draw

    apps = {str(x).lower() for s in specs for x in (s.name, s.label)}
    out: set[str] = set()
    for spec in specs:
        for template in templates(spec):
            for inst in draw(spec, template):
                out.update(v for v in inst.params.values() if isinstance(v, str))
    return sorted(v for v in out if _renamable(v) and v.lower() not in apps)


def _renamable(v: str) -> bool:
    # A bare number ("2", "14") is left: it would also match a line's index ("[2]").
    return not v.isdigit() and (len(v.strip()) >= MIN_CHARS or any(c.isdigit() for c in v)) \
        and v == v.strip() and not any(c in v for c in '"\\\n') and bool(
            re.search(r"\w", v))


class Renamer:
    """Renames the names of `pool` (and an example's noted values) in chat examples."""

    def __init__(self, pool: Sequence[str]) -> None:
        self.pool = sorted(set(pool))
        self.words = sorted({w for v in self.pool for w in _WORD.findall(v) if len(w) > 2})
        self.letters = sorted({c for w in self.words for c in w.lower()}) or list("abcdefgh")
        names = sorted(self.pool, key=lambda v: (-len(v), v))
        self._find = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?!\w)") \
            if names else None

    def example(self, ex: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        """`ex` with its names and noted values renamed (a new dict; `ex` is kept)."""
        msgs = ex["messages"]
        text = "\n".join(m["content"] for m in msgs if m["role"] != "system")
        found = set(self._find.findall(text)) if self._find else set()
        for m in msgs:
            if m["role"] == "assistant":
                for pat in (_NOTE, _ANSWER):
                    found.update(v for v in (json.loads(q) for q in pat.findall(m["content"]))
                                 if _renamable(v))
        if not found:
            return {**ex, "messages": [dict(m) for m in msgs]}
        taken = set(found)
        new: dict[str, str] = {}
        for old in sorted(found, key=lambda v: (-len(v), v)):
            for _ in range(8):
                cand = self.other(old, rng)
                if cand not in taken and cand not in text:
                    break
            else:
                cand = old
            taken.add(cand)
            new[old] = cand
        find = re.compile(r"(?<![\w.])(" + "|".join(
            re.escape(v) for v in sorted(new, key=lambda v: (-len(v), v))) + r")(?!\w)")
        out = []
        for m in msgs:
            c = m["content"]
            if m["role"] != "system":
                c = find.sub(lambda g: new[g.group(1)], c)
                if m["role"] == "user":
                    c = rehint(c)
            out.append({**m, "content": c})
        return {**ex, "messages": out}

    def other(self, old: str, rng: random.Random) -> str:
        """A new string for `old`: digits changed in a value, else another name, a mix of
        the pool's words or made-up words."""
        if any(c.isdigit() for c in old):  # a number's first digit stays non-zero
            return re.sub(r"\d+", lambda g: "".join(
                str(rng.randrange(1 if j == 0 and len(g.group()) > 1 else 0, 10))
                for j in range(len(g.group()))), old)
        n = max(1, len(old.split()))
        roll = rng.random()
        if roll < 0.4 and self.pool:
            same = [v for v in self.pool if len(v.split()) == n
                    and not any(c.isdigit() for c in v)]
            if same:
                return rng.choice(same)
        if roll < 0.7 and self.words:
            return " ".join(_cased(rng.choice(self.words), w) for w in old.split())
        return " ".join(_cased("".join(rng.choice(self.letters) for _ in range(
            max(2, len(w) + rng.randint(-2, 2)))), w) for w in old.split())


def _cased(word: str, like: str) -> str:
    """`word` capitalised as `like` is (Title, UPPER or lower)."""
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:].lower()
    return word.lower()


def rehint(user: str) -> str:
    """A prompt's screen lines with their `*` hints counted again against its task
    (as `rl.policy.screen_text` marks them), wherever the prompt puts its task line
    (`rl.policy.messages`' `task_last`)."""
    from rl.policy import HINTS

    task = re.search(r"^Task: (.*)$", user, re.M)
    start = user.find("Screen:\n")
    if task is None or start < 0 or not HINTS:
        return user
    start += len("Screen:\n")
    end = user.find("\nPrevious steps:", start)
    end = len(user) if end < 0 else end
    wanted = keywords(task.group(1))
    lines = []
    for line in user[start:end].split("\n"):
        bare = line.lstrip("*").lstrip(" ") if line.startswith("*") else line
        words = []
        for q in QUOTED.findall(bare):
            try:
                words.append(json.loads(q))
            except ValueError:
                continue
        hints = marks(wanted, words)
        lines.append(f"{hints} {bare}" if hints else bare)
    return user[:start] + "\n".join(lines) + user[end:]


def renamed_epochs(examples: Sequence[Mapping[str, Any]], pool: Sequence[str], *,
                   copies: int, p: float, seed: int) -> list[dict[str, Any]]:
    """`copies` passes over `examples`, each example renamed with probability `p` in
    each pass (the first pass too), so every epoch of SFT shows new names."""
    if p <= 0 or copies <= 0:
        return [dict(e) for e in examples] * max(1, copies)
    renamer = Renamer(pool)
    out = []
    for c in range(copies):
        rng = random.Random(f"rename:{seed}:{c}")
        out += [renamer.example(e, rng) if rng.random() < p else dict(e) for e in examples]
    return out
