#!/usr/bin/env python3
"""test_owners: the model's features own their state and its calls go one way.

1. Writers: a field of the scene is written only by its owner's files (each
   feature's struct by the feature's files, the core's fields by the core's),
   read everywhere else. Checked on the sources as text: an assignment,
   ++ or -- on s->FIELD, a->s.FIELD or a.s.FIELD.
2. Calls: from GCC's -fcallgraph-info files of the model (the build makes them
   with GCC), the files grouped into units (the core, each feature, each other
   file) call each other without a circle, and the core calls no feature by
   name (only through the feature table).

usage: test_owners.py SRC_DIR BUILD_DIR       (--self-test: the checks on made-up input)
"""
import collections
import glob
import os
import re
import sys

CORE = {'scene.c', 'scene_work.c', 'scene_region.c'}
# the scene's members that belong to a feature, and the feature's files
OWNERS = {
    'walk': {'walk.c'},
    'cpu': {'measure.c'},
    'measure': {'measure.c'},
    'gpu': {'gpu_phase.c', 'gpu_memory.c'},
    'tiles': {'gpu_tiles.c'},
    'inside': {'inside_gpu.c'},
    'sweep': {'sweep.c'},
    'chain': {'chain.c'},
    'geometry': {'geometry.c'},
    'channels': {'channels.c'},
}
# files of one feature, one unit for the circle check
# files of one module split for size: the input path and the lesson's steps
UNITS = {'gpu_phase.c': 'gpu', 'gpu_memory.c': 'gpu', 'gpu_tiles.c': 'gpu', 'actions.c': 'actions', 'lesson_play.c': 'actions'}
for f in CORE:
    UNITS[f] = 'core'
FEATURE_FILES = set().union(*OWNERS.values()) | {'gpu_tiles.c'}

SCENE = r'(?:\bs->|\ba->s\.|\ba\.s\.)'
WRITE = re.compile(r'(?:(?:\+\+|--)\s*' + SCENE + r'(\w+))|(?:' + SCENE + r'(\w+)(?:\.\w+|\[[^]=]*\])*\s*(?:[-+*/|&]?=(?!=)|\+\+|--))')


def scene_fields(scene_h):
    """The members of struct scene, from scene.h."""
    text = open(scene_h).read()
    body = text[text.index('typedef struct scene {'):text.index('} scene;')]
    body = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
    fields = set()
    depth = 0
    for line in body.splitlines()[1:]:
        if '{' in line:
            depth += 1
        if depth == 0 or line.strip().startswith('}'):
            # every name a line declares: "int a, b;", "bool x; int y;", "} task;"
            for decl in line.split(';')[:-1]:
                decl = decl.replace('}', ' ').strip()
                for i, part in enumerate(decl.split(',')):
                    m = re.search(r'(\w+)\s*(\[[^]]*\])?\s*$', part)
                    if m and (i > 0 or len(part.split()) > 1 or decl.startswith(part) and '}' in line):
                        fields.add(m.group(1))
        if '}' in line:
            depth -= 1
    return fields


def check_writers(files, fields):
    """(file, line, field) for each write to a scene field outside its owner."""
    bad = []
    for path in files:
        # the view's files are not the model's: view/geometry.c owns nothing
        name = ('view/' if os.path.basename(os.path.dirname(path)) == 'view' else '') + os.path.basename(path)
        for no, line in enumerate(open(path, encoding='utf-8'), 1):
            code = re.sub(r'/\*.*?\*/|//.*', '', line)
            for m in WRITE.finditer(code):
                field = m.group(1) or m.group(2)
                if field not in fields:
                    continue
                owners = OWNERS.get(field, CORE)
                if name not in owners:
                    bad.append((path, no, field))
    return bad


NODE = re.compile(r'node: \{ title: "([^"]+)" label: "[^\\"]+\\n([^:"]+):\d+:\d+"( shape : ellipse)?')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')


def file_calls(ci_texts):
    """{caller file: {callee file: an example 'f -> g'}} between the model's files."""
    defined, calls = {}, []
    for text in ci_texts:
        for line in text.splitlines():
            m = NODE.match(line)
            if m and not m.group(3):
                defined[m.group(1)] = os.path.basename(m.group(2))
            m = EDGE.match(line)
            if m:
                calls.append((m.group(1), m.group(2)))
    out = collections.defaultdict(dict)
    for a, b in calls:
        fa, fb = defined.get(a), defined.get(b)
        if fa and fb and fa != fb:
            out[fa].setdefault(fb, '%s -> %s' % (a.split(':')[-1], b.split(':')[-1]))
    return out


def unit(f):
    return UNITS.get(f, f)


def check_calls(calls):
    """Problems: the core calling a feature, and circles between units."""
    bad = []
    graph = collections.defaultdict(dict)
    for fa, targets in calls.items():
        for fb, example in targets.items():
            if fa in CORE and fb in FEATURE_FILES:
                bad.append('the core calls a feature by name: %s (%s -> %s)' % (example, fa, fb))
            if unit(fa) != unit(fb):
                graph[unit(fa)].setdefault(unit(fb), example)
    # a circle: depth-first search, grey nodes on the path
    state, path = {}, []

    def visit(n):
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, {})):
            if state.get(m) == 1:
                loop = path[path.index(m):] + [m]
                bad.append('a circle of calls: ' + ' -> '.join(loop) + ' (' + '; '.join(
                    graph[x][y] for x, y in zip(loop, loop[1:])) + ')')
            elif m not in state:
                visit(m)
        path.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return bad, graph


def self_test():
    fails = 0
    fields = {'walk', 'gpu', 'banner', 'pinned'}
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'view.c')
        open(p, 'w').write('void f(scene *s) {\n    s->walk.speed = 2;\n    ++s->gpu.runs;\n'
                           '    if (s->walk.speed == 2) g();\n    s->pinned = false;\n}\n')
        got = [(b[1], b[2]) for b in check_writers([p], fields)]
        if got != [(2, 'walk'), (3, 'gpu'), (5, 'pinned')]:
            print('self-test: writers found', got)
            fails += 1
    ci = ('node: { title: "a" label: "a\\nscene.c:1:1" }\nnode: { title: "b" label: "b\\nwalk.c:1:1" }\n'
          'node: { title: "c" label: "c\\nactions.c:1:1" }\n'
          'edge: { sourcename: "a" targetname: "b" label: "x" }\nedge: { sourcename: "b" targetname: "a" label: "x" }\n'
          'edge: { sourcename: "c" targetname: "b" label: "x" }\n')
    bad, _ = check_calls(file_calls([ci]))
    if not any('by name' in b for b in bad) or not any('circle' in b for b in bad):
        print('self-test: calls found', bad)
        fails += 1
    bad, _ = check_calls(file_calls([ci.replace('edge: { sourcename: "a" targetname: "b" label: "x" }\n', '')]))
    if bad:
        print('self-test: a one-way graph found', bad)
        fails += 1
    return fails


def main():
    if sys.argv[1:] == ['--self-test']:
        return 1 if self_test() else 0
    src, build = sys.argv[1], sys.argv[2]
    fails = self_test()
    app = os.path.join(src, 'src', 'app')
    files = sorted(glob.glob(os.path.join(app, '**', '*.c'), recursive=True))
    fields = scene_fields(os.path.join(app, 'scene.h'))
    if len(fields) < 20 or not {'walk', 'gpu', 'area', 'banner'} <= fields:
        print('test_owners: the scene\'s fields were not read from scene.h:', sorted(fields))
        return 1
    for path, no, field in check_writers(files, fields):
        print('%s:%d: writes the scene\'s %s, which %s owns' % (
            os.path.relpath(path, src), no, field, ' and '.join(sorted(OWNERS.get(field, CORE)))))
        fails += 1
    cis = {}
    for ci in glob.glob(os.path.join(build, '**', '*.ci'), recursive=True):
        name = os.path.basename(ci)[:-3]
        if name.endswith('.c') and os.path.exists(os.path.join(app, name)):
            cis.setdefault(name, open(ci).read())
    if not cis:
        print('test_owners: no call graph in %s (a GCC build makes it): the calls are not checked' % build)
        return 77 if not fails else 1
    calls = file_calls(cis.values())
    if 'scene.c' not in calls.get('gpu_phase.c', {}) or 'scene.c' not in calls.get('walk.c', {}) or \
            'actions.c' not in calls:
        print('test_owners: the call graph lacks the features\' calls of the core: %d files read' % len(cis))
        return 1
    bad, graph = check_calls(calls)
    for b in bad:
        print(b)
        fails += 1
    print('test_owners: %d files, %d units that call others; %d problems' % (len(cis), len(graph), fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
