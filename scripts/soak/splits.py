#!/usr/bin/env python3
"""Why a soak's epochs split (docs/soak.md): for each epoch whose peers stepped in more than one group
(numbered as figures.py's report numbers them: the epoch stepped to), the groups, and for each peer outside
the largest one what its log and the trace say of it: when it began looking for a group against the largest
group's members (median), whether it had loaded a state or been restarted just before, and how its
matchmaking ended.

    /usr/bin/python3 scripts/soak/splits.py OUT [--epochs 5-]

OUT is a soak's output folder (scripts/soak.sh --out)."""
import argparse
import datetime
import json
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import group_key, peer_ids, read_lines  # noqa: E402

LOOKING = re.compile(r"^(\S+) matchmaking (\d+): idle -> choosing")
ENDED = re.compile(r"^(\S+) epoch (\d+): ((?:joined|led) a group of \d+|alone while .*|the others moved on.*)")
LOADED = re.compile(r"^(\S+) loaded (?:the median of the states|the state) of epoch (\d+)")


def seconds(stamp):
    return datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def read_log(folder):
    """Per epoch: when the peer first looked for a group, how each of its matchmakings ended; the epochs
    whose state it loaded, with when."""
    looked, ended, loaded = {}, {}, {}
    path = folder / "log.err"
    if not path.exists():
        return looked, ended, loaded
    for line in path.read_text(errors="replace").splitlines():
        if m := LOOKING.match(line):
            looked.setdefault(int(m.group(2)), seconds(m.group(1)))
        elif m := ENDED.match(line):
            ended.setdefault(int(m.group(2)), []).append(m.group(3))
        elif m := LOADED.match(line):
            loaded[int(m.group(2))] = seconds(m.group(1))
    return looked, ended, loaded


def start_time(out):
    """The soak's time 0 in wall-clock seconds: soak.json's started_at, or (runs from before it was written)
    when run-init's log was last written, just before the coordinator started."""
    soak = json.loads((out / "soak.json").read_text())
    if "started_at" in soak:
        return soak["started_at"]
    return (out / "run-init.log").stat().st_mtime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--epochs", default="0-", help="FIRST-[LAST]")
    a = parser.parse_args()
    first, _, last = a.epochs.partition("-")
    first, last = int(first), int(last) if last else None
    volunteers = json.loads((a.out / "soak.json").read_text())["volunteers"]
    keys = ["coordinator"] + list(range(volunteers))
    ids = peer_ids(a.out, keys)
    events = read_lines(a.out / "events.jsonl")
    t0 = start_time(a.out)
    logs = {key: read_log(a.out / ("coordinator" if key == "coordinator" else f"v{key:02d}")) for key in keys}
    records = [r for r in read_lines(a.out / "records.jsonl") if r.get("event", "epoch") == "epoch"]
    by_epoch = {}
    own = {key: peer for peer, key in ids.items()}
    for record in records:
        if not record.get("state_loaded"):  # as figures.py counts them: steps, not loaded states
            by_epoch.setdefault(record["epoch"], {})[record.get("who")] = group_key(
                record, own.get(record.get("who"), str(record.get("who"))))
    # A record's epoch is the one its peer stepped to (the report's numbering); its group formed, and its
    # log speaks of it, at the epoch before.
    for stepped in sorted(by_epoch):
        epoch = stepped - 1
        if stepped < first or (last is not None and stepped > last):
            continue
        groups = {}
        for who, key in by_epoch[stepped].items():
            groups.setdefault(key, []).append(who)
        if len(groups) < 2:
            continue
        ordered = sorted(groups.values(), key=len, reverse=True)
        largest = ordered[0]
        starts = [logs[w][0][epoch] for w in largest if epoch in logs[w][0]]
        median = statistics.median(starts) if starts else None
        print(f"epoch {stepped} (groups formed at {epoch}): groups of {' '.join(str(len(g)) for g in ordered)}"
              + (f"; the largest began looking at {median - t0:.0f} s" if median and t0 else ""))
        for group in ordered[1:]:
            for who in sorted(group, key=str):
                looked, ended, loaded = logs[who]
                lag = f"{looked[epoch] - median:+.1f} s" if epoch in looked and median else "never looked"
                recent = [e for e in events if e.get("who") == who and t0 and epoch in looked
                          and 0 <= looked[epoch] - t0 - e["t"] <= 300]
                said = "; ".join(f"{e['event']} {looked[epoch] - t0 - e['t']:.0f} s before" for e in recent)
                state = [f"loaded epoch {e} {looked[epoch] - t:.0f} s before" for e, t in loaded.items()
                         if epoch in looked and 0 <= looked[epoch] - t <= 300]
                print(f"  {who} (group of {len(group)}): looked {lag}; ended {', '.join(ended.get(epoch, []))}"
                      + (f"; {said}" if said else "") + (f"; {', '.join(state)}" if state else ""))


if __name__ == "__main__":
    main()
