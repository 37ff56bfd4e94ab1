#!/usr/bin/env python3
"""Reads ninja's log of a build folder and prints where the last build's time went.

Usage: scripts/build-times.py [BUILD_DIR] [--top N] [--json] [--largest]

For the last ninja run recorded in BUILD_DIR/.ninja_log (default: build): its wall time, the compile time
summed over all jobs, how much of that went to sources that include libtorch's headers, the time per
folder, and the slowest outputs. --largest takes the run with the most jobs instead of the last one (CI's
clean build, which later incremental runs such as the package's follow). A clean build's figures are the
ones to compare (docs/architecture.md, "Build time").
"""
import json
import os
import re
import sys

TORCH_INCLUDE = re.compile(r'#\s*include\s*[<"](torch/|ATen/|c10/)')


def ninja_runs(entries):
    # ninja appends each job as it finishes, with times from the start of its own run: a run begins
    # where a job's end time goes backwards.
    runs, start = [], 0
    for i in range(1, len(entries)):
        if entries[i][1] < entries[i - 1][1]:
            runs.append(entries[start:i])
            start = i
    runs.append(entries[start:])
    return runs


def sources_of(output, source_dir, build_dir):
    # "core/engine/CMakeFiles/sahaj_engine.dir/ModelReplica.cpp.o" -> ["core/engine/ModelReplica.cpp"];
    # a unity build's "…/sahaj_engine.dir/Unity/unity_0_cxx.cxx.o" -> the sources its unity file includes.
    m = re.match(r'(.*?)/?CMakeFiles/[^/]+\.dir/(.*)\.o$', output)
    if not m:
        return []
    if re.match(r'Unity/unity_\d+_cxx\.cxx$', m.group(2)):
        try:
            with open(os.path.join(build_dir, output[:-len('.o')]), encoding='utf-8') as f:
                included = re.findall(r'#include "([^"]+)"', f.read())
        except OSError:
            return []
        root = os.path.realpath(source_dir)
        return [os.path.relpath(p, root) for p in included if os.path.realpath(p).startswith(root + '/')]
    path = os.path.join(m.group(1), m.group(2))
    return [path] if os.path.isfile(os.path.join(source_dir, path)) else []


def includes_torch(path, source_dir):
    try:
        with open(os.path.join(source_dir, path), encoding='utf-8', errors='replace') as f:
            return bool(TORCH_INCLUDE.search(f.read()))
    except OSError:
        return False


def main(argv):
    build_dir, top, as_json, largest = 'build', 15, False, False
    args = iter(argv)
    for a in args:
        if a == '--top':
            top = int(next(args))
        elif a == '--json':
            as_json = True
        elif a == '--largest':
            largest = True
        elif a in ('-h', '--help'):
            print(__doc__)
            return 0
        else:
            build_dir = a
    log = os.path.join(build_dir, '.ninja_log')
    if not os.path.isfile(log):
        print(f'build-times: no {log}: build first', file=sys.stderr)
        return 1
    source_dir = os.path.dirname(os.path.abspath(__file__)) + '/..'
    entries = []
    with open(log) as f:
        for line in f:
            if line.startswith('#'):
                continue
            parts = line.rstrip('\n').split('\t')
            if len(parts) >= 4:
                entries.append((int(parts[0]), int(parts[1]), parts[3]))
    runs = ninja_runs(entries)
    build = max(runs, key=len) if largest else runs[-1]
    # A job with several outputs (protoc's .pb.h and .pb.cc, moc's files) has a line for each, with the
    # same times: count it once.
    seen = set()
    build = [e for e in build if not ((e[0], e[1]) in seen or seen.add((e[0], e[1])))]
    if not build:
        print('build-times: the log holds no build', file=sys.stderr)
        return 1
    wall = (max(e for _, e, _ in build) - min(s for s, _, _ in build)) / 1000
    total = sum(e - s for s, e, _ in build) / 1000
    torch_time = 0.0
    folders = {}
    for s, e, output in build:
        seconds = (e - s) / 1000
        sources = sources_of(output, source_dir, build_dir)
        source = sources[0] if sources else None
        if any(includes_torch(path, source_dir) for path in sources):
            torch_time += seconds
        elif output.endswith('.gch') and includes_torch(output[:-len('.gch')], build_dir):
            torch_time += seconds  # a precompiled header of libtorch's
        folder = os.path.dirname(source) if source else os.path.dirname(output.split('/CMakeFiles/')[0]) or '.'
        folders[folder] = folders.get(folder, 0.0) + seconds
    slowest = sorted(build, key=lambda x: x[0] - x[1])[:top]
    report = {
        'jobs': len(build),
        'wall_s': round(wall, 1),
        'job_s': round(total, 1),
        'torch_sources_s': round(torch_time, 1),
        'folders_s': {k: round(v, 1) for k, v in sorted(folders.items(), key=lambda kv: -kv[1])},
        'slowest': [{'output': o, 's': round((e - s) / 1000, 1)} for s, e, o in slowest],
    }
    if as_json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{'largest' if largest else 'last'} build: {report['jobs']} jobs, {wall / 60:.1f} min wall, {total / 60:.1f} min of jobs, "
          f"{torch_time / 60:.1f} min ({torch_time / max(total, 1e-9):.0%}) in sources that include libtorch")
    print('by folder (min):')
    for folder, seconds in list(report['folders_s'].items())[:top]:
        print(f'  {seconds / 60:6.1f}  {folder}')
    print('slowest jobs (s):')
    for item in report['slowest']:
        print(f"  {item['s']:6.1f}  {item['output']}")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
