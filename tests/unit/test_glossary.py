#!/usr/bin/env python3
"""The words of the screen and of the lessons against po/GLOSSARY.md.

Reads the glossary's tables and checks, in Chinese, every msgstr of po/zh.po and the
narration (title, say, say-gpu, say-software, say-no-gpu) of lessons/zh/*.yaml, and in
English, every msgid of po/zh.po and the narration of lessons/en/*.yaml:

- no form of a "not" column appears (a Chinese form anywhere in the Chinese texts; a
  form in Latin letters in the Chinese lessons, whole words: the catalogue keeps in
  English the values a user types, such as a record's phase names; an English colour
  form in the English texts, whole words);
- a word of "Words that stand only inside a term" appears only inside one of its terms
  (块 inside 线程块, 图块 ...);
- the Chinese lessons keep in English only the words the glossary lists, and single
  capital letters (keys);
- a colour named in a step of an English lesson is named in the same step of the
  Chinese lesson of the same file, and the other way round.

Each problem is printed with its file and line; the exit status is 1 when there is any.
Usage: test_glossary.py SOURCE_DIR
"""
import glob
import os
import re
import sys

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
LATIN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


def tables(path):
    """{section heading: [[cell, ...], ...]}: the rows of each section's table."""
    out, section, rows = {}, None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                section = line[3:].strip()
                out[section] = rows = []
            elif section and line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
                rows.append([c.strip() for c in line.strip("|").split("|")])
    for name in out:
        out[name] = out[name][1:]  # the header row
    return out


def quoted(cell):
    return re.findall(r"`([^`]+)`", cell)


def po_entries(path):
    """(line, msgid, msgstr) of every entry but the header."""
    entries, cur, key = [], None, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if m:
                if m.group(1) in ("msgctxt", "msgid") and (cur is None or cur.get("done")):
                    cur = {"line": n, "msgid": "", "msgstr": ""}
                    entries.append(cur)
                key = "msgstr" if m.group(1).startswith("msgstr") else "msgid"
                if key == "msgstr":
                    cur["done"] = True
                if m.group(1) != "msgctxt":
                    cur[key] += unescape(m.group(2))
            elif line.startswith('"') and key and cur is not None:
                cur[key] += unescape(line[1:-1])
            else:
                key = None
    return [(e["line"], e["msgid"], e["msgstr"]) for e in entries if e["msgid"]]


def unescape(s):
    return s.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


NARRATION = re.compile(r"^(\s*)(-\s+)?(title|say|say-gpu|say-software|say-no-gpu):\s*(.*)$")


def lesson_texts(path):
    """[(line, step, text)]: each line of narration with its step (0, 1, ...; -1 for
    the title), placeholders ({...}) removed. A step is an item of `steps:`, a line
    that starts with "- " at the indent of its first item."""
    out, step, in_text, indent, item_indent, in_steps = [], -1, False, 0, None, False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        lead = len(line) - len(line.lstrip(" "))
        if line.startswith("steps:"):
            in_steps = True
        elif in_steps and line.lstrip().startswith("- ") and (item_indent is None or lead == item_indent):
            item_indent = lead
            step += 1
        m = NARRATION.match(line)
        if m:
            in_text = True
            indent = len(m.group(1)) + len(m.group(2) or "")
            text = m.group(4)
            if text in ("|", ">", "|-", ">-"):
                continue
        elif in_text and (not line.strip() or lead > indent):
            text = line
        else:
            in_text = False
            continue
        text = re.sub(r"\{[^{}]*\}", "", text)
        if text.strip():
            out.append((n, step, text.strip()))
    return out


def outside(word, terms, text):
    """Whether `word` appears in `text` outside every one of `terms`."""
    for term in sorted(terms, key=len, reverse=True):
        text = text.replace(term, "\0")
    return word in text


def colour_names(colours):
    """The names to look for: English as written (a space may be a hyphen), Chinese
    without its 色 (琥珀色 is also 琥珀框), each with its English name as key."""
    return [(e, e) for e, _ in colours], [(z[:-1] if z.endswith("色") else z, e) for e, z in colours]


def named(text, names):
    """The keys of the colours `text` names, the longest names first (sky blue is not
    blue, 蓝绿 is not 绿)."""
    found = set()
    for name, key in sorted(names, key=lambda p: len(p[0]), reverse=True):
        if CJK.search(name):
            pattern, flags = re.escape(name), 0
        else:
            pattern, flags = r"\b" + re.escape(name).replace(r"\ ", r"[ -]") + r"\b", re.I
        if re.search(pattern, text, flags):
            found.add(key)
            text = re.sub(pattern, "\0", text, flags=flags)
    return found


def self_test(colours):
    """The finders on texts made here, so that the test cannot pass by finding
    nothing."""
    import tempfile
    problems = []
    en_names, zh_names = colour_names(colours)
    cases = [
        (named("the reddish-purple download bar, sky blue and blue", en_names),
         {"reddish purple", "sky blue", "blue"}),
        (named("紫红色的“下载”条，天蓝色和蓝色，琥珀框", zh_names), {"reddish purple", "sky blue", "blue", "amber"}),
        (named("a bluish green bar", en_names), {"bluish green"}),
        (outside("块", ["线程块", "图块"], "每块 16 个线程"), True),
        (outside("块", ["线程块", "图块"], "每个线程块读一个图块"), False),
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
        f.write("title: 一\nsteps:\n  - say: |\n      甲 {gpu_ms}\n      乙\n    do: [gpu]\n"
                "  - say: 丙\n    say-no-gpu: |\n      丁\n")
    try:
        cases.append((lesson_texts(f.name), [(1, -1, "一"), (4, 0, "甲"), (5, 0, "乙"), (7, 1, "丙"), (9, 1, "丁")]))
    finally:
        os.unlink(f.name)
    for i, (got, want) in enumerate(cases):
        if got != want:
            problems.append(f"self-test {i + 1}: the finders gave {got}, not {want}")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    glossary = os.path.join(root, "po", "GLOSSARY.md")
    t = tables(glossary)
    problems = []

    zh, en = [], []  # (where, text, is_lesson)
    for line, msgid, msgstr in po_entries(os.path.join(root, "po", "zh.po")):
        zh.append((f"po/zh.po:{line}", msgstr, False))
        en.append((f"po/zh.po:{line}", msgid, False))
    steps = {}  # (file, lang) -> {step: text}
    for lang, texts in (("zh", zh), ("en", en)):
        for path in sorted(glob.glob(os.path.join(root, "lessons", lang, "*.yaml"))):
            name = os.path.basename(path)
            for line, step, text in lesson_texts(path):
                texts.append((f"lessons/{lang}/{name}:{line}", text, True))
                steps.setdefault((name, lang), {}).setdefault(step, []).append(text)
    if not any(lesson for _, _, lesson in zh) or len(zh) < 100:
        problems.append("too few texts found: the readers of the catalogue or the lessons are broken")

    # "not" columns
    not_zh, not_en = [], []
    for section, col in (("Terms", 2), ("Keys", 2)):
        for row in t.get(section, []):
            not_zh += [(w, row[0]) for w in quoted(row[col])]
    for row in t.get("Colours", []):
        not_en += [(w, row[1]) for w in quoted(row[2])]
        not_zh += [(w, row[3]) for w in quoted(row[4])]
    if not not_zh or not not_en:
        problems.append("the glossary's 'not' columns were not found")
    for where, text, lesson in zh:
        for w, term in not_zh:
            if CJK.search(w):
                if w in text:
                    problems.append(f"{where}: '{w}' where the glossary says {term}: {text[:80]}")
            elif lesson and re.search(r"(?<![A-Za-z_-])" + re.escape(w) + r"(?![A-Za-z_-])", text, re.I):
                problems.append(f"{where}: the English '{w}' where the glossary says {term}: {text[:80]}")
    for where, text, _ in en:
        for w, term in not_en:
            if re.search(r"\b" + re.escape(w) + r"\b", text, re.I):
                problems.append(f"{where}: the colour '{w}', which the glossary names {term}: {text[:80]}")

    # words only inside a term
    guards = [(quoted(r[0])[0], quoted(r[1]), r[2]) for r in t.get("Words that stand only inside a term", [])]
    if not guards:
        problems.append("the glossary's 'Words that stand only inside a term' were not found")
    for word, terms, lang in guards:
        for where, text, _ in zh if lang == "zh" else en:
            if outside(word, terms, text):
                problems.append(f"{where}: '{word}' outside {', '.join(terms)}: {text[:80]}")

    # English left in the Chinese lessons
    allowed = set()
    for row in t.get("English left in Chinese lessons", []):
        allowed.update(quoted(row[0]))
    if not allowed:
        problems.append("the glossary's 'English left in Chinese lessons' was not found")
    for where, text, lesson in zh:
        if not lesson:
            continue
        for w in LATIN_WORD.findall(re.sub(r"`[^`]*`", "", text)):  # code between backticks stays as typed
            if w not in allowed and not re.fullmatch(r"[A-Z]", w) and not re.fullmatch(r"[A-Z]?\d+[A-Za-z]*", w):
                problems.append(f"{where}: the English word '{w}' in Chinese narration: {text[:80]}")

    # a colour in a step, in both languages
    colours = [(r[1], r[3]) for r in t.get("Colours", [])]
    en_names, zh_names = colour_names(colours)
    problems += self_test(colours)
    for (name, lang), by_step in sorted(steps.items()):
        if lang != "en" or (name, "zh") not in steps:
            continue
        other = steps[(name, "zh")]
        for step in sorted(set(by_step) | set(other)):
            a = named(" ".join(by_step.get(step, [])), en_names)
            b = named(" ".join(other.get(step, [])), zh_names)
            if a != b:
                problems.append(f"lessons/*/{name}, step {step + 1}: colours named in English {sorted(a)}, "
                                f"in Chinese {sorted(b)}")

    for p in problems:
        print("not ok -", p)
    print(f"{len(zh)} Chinese and {len(en)} English texts checked against {len(not_zh) + len(not_en)} forms, "
          f"{len(guards)} guarded words, {len(colours)} colours: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
