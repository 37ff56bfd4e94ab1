#!/usr/bin/env python3
"""The soak: a collaboration at the paper's scale on the emulated Internet, driven by a seeded churn trace.

A coordinator and VOLUNTEERS volunteers (a third at home behind NAT, a few behind a host firewall, the rest
public; links shaped to a mix of 20-1000 Mbit/s, asymmetric at home) train the tiny model on the CPU,
each duty-cycled to --duty percent so that two cores carry them all. A trace drawn from --seed (written to
OUT/trace.jsonl before anything runs) makes volunteers join through the run and leave (SIGTERM, back
later), kills volunteers (kill -9, restarted 15 s later under the same identity) and compute cores, kills
and restarts the coordinator, cuts a host's line for a minute (nftables drop), changes a host's bandwidth,
runs two volunteers with their clocks 30 s off (faketime) and one more 5 minutes off (it must be refused
with a message about its clock), and one hostile volunteer (--attack, under CenteredClip). --clean runs
the same volunteers for the same time with none of that: the reference for the loss.

Meanwhile it samples every process's memory and notes when each epoch record appeared (OUT/samples.jsonl,
OUT/records.jsonl); at the end scripts/soak/figures.py turns the folder into figures.json and report.md.

  scripts/soak.sh [--volunteers 40] [--minutes 120] [--seed 1] [--duty 4] [--out DIR] [--clean]
                  [--node NODE] [--tokenizer FILE] [--check] [--experiment-env NAME=VALUE]

Root only (network namespaces). Exits 0 when the run went through (with --check: and every goal that
figures.py checks held), 1 otherwise.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
PREFIX = "soak"
PORT = 4600
# Host kinds and their links (down/up Mbit/s): homes are asymmetric.
PUBLIC_LINKS = [(1000, 1000), (100, 100), (50, 50)]
HOME_LINKS = [(100, 20), (50, 10), (20, 5)]
FIREWALLED_LINK = (100, 100)
FAKETIME_LIBRARY = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
SKEW_OK_S = 30
SKEW_BAD_S = 300
RESTART_AFTER_S = 15
COORDINATOR_RESTART_AFTER_S = 20
CUT_S = 60
SAMPLE_EVERY_S = 10
QUIET_END_S = 120  # no fault in the last two minutes: the run's end shows whether everyone came back


def say(line):
    print(f"soak: {line}", flush=True)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--volunteers", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duty", type=float, default=4, help="percent of the time each volunteer computes")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--clean", action="store_true", help="no churn, faults, skew or hostile peer")
    parser.add_argument("--node", type=Path, default=HERE / "build/app/node/sahaj-node")
    parser.add_argument("--tokenizer", type=Path, default=HERE / "build/tests/data/sample-tokenizer/tokenizer.json")
    parser.add_argument("--check", action="store_true", help="exit 1 unless figures.py's checks hold")
    parser.add_argument("--delayed-updates", action="store_true",
                        help="a run with delayed parameter updates (run-init --delayed-updates)")
    parser.add_argument("--experiment-env", metavar="NAME=VALUE",
                        help="set NAME=VALUE for the odd-numbered volunteers only, the others being the control: "
                             "an A/B test inside one run (figures.py compares their memory), e.g. "
                             "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072")
    arguments = parser.parse_args()
    if not 4 <= arguments.volunteers <= 150:
        parser.error("--volunteers must be 4 to 150")
    if not 2 <= arguments.minutes <= 24 * 60:
        parser.error("--minutes must be 2 to 1440")
    if not 1 <= arguments.duty <= 100:
        parser.error("--duty must be 1 to 100")
    if arguments.experiment_env is not None:
        name, equals, value = arguments.experiment_env.partition("=")
        if not equals or not name.isidentifier():
            parser.error("--experiment-env must be NAME=VALUE")
        arguments.experiment_env = (name, value)
    if os.geteuid() != 0:
        sys.exit("soak: needs root (it creates network namespaces, NAT rules and traffic shaping): run it with sudo")
    for path, what in ((arguments.node, "sahaj-node (build first, or --node)"),
                       (arguments.tokenizer, "tokenizer (--tokenizer)")):
        if not path.exists():
            sys.exit(f"soak: no {what} at {path}")
    if not Path(FAKETIME_LIBRARY).exists() and not arguments.clean:
        sys.exit(f"soak: {FAKETIME_LIBRARY} is missing: run scripts/setup.sh (it installs faketime)")
    return arguments


def plan_hosts(count, rng):
    """Host 1 is the coordinator's; volunteer i is on host i + 2. A third at home, one in nine firewalled."""
    hosts = [("public", (1000, 1000))]
    for i in range(count):
        if i % 3 == 2:
            hosts.append(("home", rng.choice(HOME_LINKS)))
        elif i % 9 == 1:
            hosts.append(("firewalled", FIREWALLED_LINK))
        else:
            hosts.append(("public", rng.choice(PUBLIC_LINKS)))
    return hosts


def plan_trace(count, duration, rng, clean):
    """The events, by time from the start: dicts with "at", "event" and the volunteer ("who") they touch."""
    events = []
    late = [] if clean else rng.sample(range(count), count // 4)
    for i in range(count):
        at = rng.uniform(0.1, 0.5) * duration if i in late else rng.uniform(0, 60)
        events.append({"at": at, "event": "join", "who": i})
    if clean:
        return sorted(events, key=lambda e: e["at"])
    last = duration - QUIET_END_S
    ordinary = [i for i in range(count) if i >= 3]  # 0: hostile, 1 and 2: skewed clocks

    def some(every_s, least=1):
        return max(least, int(duration / every_s))

    for _ in range(some(900)):
        at = rng.uniform(0.2, 0.7) * duration
        events.append({"at": at, "event": "leave", "who": rng.choice(ordinary),
                       "back_after": rng.uniform(60, 240)})
    for _ in range(some(240)):
        events.append({"at": rng.uniform(0.15 * duration, last), "event": "kill", "who": rng.choice(ordinary)})
    for _ in range(some(600)):
        events.append({"at": rng.uniform(0.15 * duration, last), "event": "kill_core", "who": rng.choice(ordinary)})
    events.append({"at": 0.45 * duration, "event": "kill_coordinator"})
    for _ in range(some(1800)):
        events.append({"at": rng.uniform(0.3, 0.7) * duration, "event": "cut", "who": rng.choice(ordinary)})
    for _ in range(some(1800)):
        who = rng.choice(ordinary)
        events.append({"at": rng.uniform(0.25, 0.75) * duration, "event": "bandwidth", "who": who,
                       "rates": rng.choice(PUBLIC_LINKS + HOME_LINKS)})
    events.append({"at": 30.0, "event": "join_bad_clock"})
    return sorted((e for e in events if e["at"] < duration), key=lambda e: e["at"])


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def shape(namespace, device, mbit):
    # As scripts/netns/internet.sh: a bucket of 10 ms of the rate, at least 64 KiB.
    burst = max(65536, mbit * 1000000 // 8 // 100)
    run(["ip", "netns", "exec", namespace, "tc", "qdisc", "replace", "dev", device, "root", "tbf", "rate",
         f"{mbit}mbit", "burst", str(burst), "latency", "100ms"])


class Soak:
    def __init__(self, arguments):
        self.a = arguments
        self.out = arguments.out
        self.rng = random.Random(arguments.seed)
        self.duration = arguments.minutes * 60
        self.hosts = plan_hosts(arguments.volunteers, self.rng)
        self.trace = plan_trace(arguments.volunteers, self.duration, self.rng, arguments.clean)
        self.processes = {}  # volunteer index (or "coordinator", "bad-clock") -> Popen
        self.host_lines = []
        self.started = 0.0
        self.record_offsets = {}
        self.events_file = None

    # --- the network ---------------------------------------------------------------------------------------
    def network_up(self):
        specs = [f"{kind}:{down}/{up}" for kind, (down, up) in self.hosts]
        specs.append("public:100/100")  # the badly skewed volunteer's host, last
        result = subprocess.run([str(HERE / "scripts/netns/internet.sh"), "up", PREFIX, *specs],
                                check=True, capture_output=True, text=True)
        self.host_lines = [line.split() for line in result.stdout.splitlines()]
        (self.out / "hosts").write_text(result.stdout)

    def network_down(self):
        subprocess.run([str(HERE / "scripts/netns/internet.sh"), "down", PREFIX], check=False)

    def namespace(self, host):  # host: 0-based index into self.host_lines
        return self.host_lines[host][0]

    def line_device(self, host):
        """(namespace, device) of the host's line to the Internet: its own end, or its router's."""
        kind = self.host_lines[host][2]
        number = host + 1
        return (f"{PREFIX}-r{number}" if kind == "home" else f"{PREFIX}-p{number}", f"w{PREFIX}{number}")

    # --- processes -----------------------------------------------------------------------------------------
    def coordinator_address(self):
        return self.host_lines[0][1]

    def start_coordinator(self):
        folder = self.out / "coordinator"
        folder.mkdir(exist_ok=True)
        command = ["ip", "netns", "exec", self.namespace(0), str(self.a.node), "coordinator",
                   "--manifest", str(self.out / "run.json"), "--listen", f"{self.coordinator_address()}:{PORT}",
                   "--state-dir", str(folder), "--out", str(folder), "--steps", "1000000", "--threads", "1",
                   "--joins-per-address", "64"]
        self.processes["coordinator"] = self.spawn(command, folder)

    def spawn(self, command, folder, environment=None):
        with open(folder / "log.out", "ab") as out, open(folder / "log.err", "ab") as err:
            return subprocess.Popen(command, stdout=out, stderr=err, env=environment, start_new_session=True)

    def volunteer_folder(self, i):
        return self.out / f"v{i:02d}"

    def start_volunteer(self, i, skew_s=0, host=None, folder=None):
        folder = folder or self.volunteer_folder(i)
        folder.mkdir(exist_ok=True)
        host = host if host is not None else i + 1
        command = ["ip", "netns", "exec", self.namespace(host)]
        environment = dict(os.environ)
        if skew_s:
            # libfaketime preloaded rather than the faketime wrapper, which forks: the pid stays sahaj-node's.
            # The monotonic clock is left alone: only the wall clock is off, as on a badly set computer.
            environment.update(LD_PRELOAD=FAKETIME_LIBRARY, FAKETIME=f"{skew_s:+d}s",
                               FAKETIME_DONT_FAKE_MONOTONIC="1")
        if self.in_experiment(i):
            environment[self.a.experiment_env[0]] = self.a.experiment_env[1]
        command += [str(self.a.node), "volunteer", "--manifest", str(self.out / "run.join"),
                    "--coordinator", f"{self.coordinator_address()}:{PORT}", "--identity", str(folder),
                    "--out", str(folder), "--seed", str(100 + i), "--threads", "1",
                    "--max-compute-percent", str(self.a.duty)]
        if not self.a.clean and i == 0:
            command += ["--attack", "negate"]
        return self.spawn(command, folder, environment)

    def in_experiment(self, i):
        """--experiment-env's arm: the odd-numbered volunteers."""
        return self.a.experiment_env is not None and i % 2 == 1

    def skew_of(self, i):
        return {1: SKEW_OK_S, 2: -SKEW_OK_S}.get(i, 0) if not self.a.clean else 0

    def alive(self, key):
        process = self.processes.get(key)
        return process is not None and process.poll() is None

    def stop(self, key, how=signal.SIGTERM, wait_s=60):
        process = self.processes.get(key)
        if process is None or process.poll() is not None:
            return False
        # `ip netns exec` and faketime exec the program: the pid is sahaj-node's own.
        os.kill(process.pid, how)
        try:
            process.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
        return True

    # --- the trace -----------------------------------------------------------------------------------------
    def note(self, event, **fields):
        line = {"t": round(time.monotonic() - self.started, 1), "event": event, **fields}
        self.events_file.write(json.dumps(line) + "\n")
        self.events_file.flush()
        say(json.dumps(line))

    def apply(self, event, pending):
        kind = event["event"]
        who = event.get("who")
        if kind == "join":
            self.processes[who] = self.start_volunteer(who, self.skew_of(who))
            self.note("started", who=who, skew_s=self.skew_of(who))
        elif kind == "join_bad_clock":
            folder = self.out / "bad-clock"
            self.processes["bad-clock"] = self.start_volunteer(self.a.volunteers, SKEW_BAD_S,
                                                               host=len(self.host_lines) - 1, folder=folder)
            self.note("started", who="bad-clock", skew_s=SKEW_BAD_S)
        elif kind in ("leave", "kill"):
            if not self.stop(who, signal.SIGTERM if kind == "leave" else signal.SIGKILL):
                return self.note("skipped", of=kind, who=who, why="not running")
            self.note("left" if kind == "leave" else "killed", who=who)
            back = event.get("back_after", RESTART_AFTER_S)
            pending.append({"at": time.monotonic() - self.started + back, "event": "restart", "who": who})
        elif kind == "restart":
            self.processes[who] = self.start_volunteer(who, self.skew_of(who))
            self.note("restarted", who=who)
        elif kind == "kill_core":
            core = self.core_pid(who)
            if core is None:
                return self.note("skipped", of=kind, who=who, why="no compute core running")
            os.kill(core, signal.SIGKILL)
            self.note("core_killed", who=who, pid=core)
        elif kind == "kill_coordinator":
            self.stop("coordinator", signal.SIGKILL)
            self.note("coordinator_killed")
            pending.append({"at": time.monotonic() - self.started + COORDINATOR_RESTART_AFTER_S,
                            "event": "restart_coordinator"})
        elif kind == "restart_coordinator":
            self.start_coordinator()
            self.note("coordinator_restarted")
        elif kind == "cut":
            namespace, device = self.line_device(who + 1)
            rules = "\n".join([
                "table inet soakcut {",
                f'  chain input {{ type filter hook input priority -10; iifname "{device}" drop; }}',
                f'  chain output {{ type filter hook output priority -10; oifname "{device}" drop; }}',
                f'  chain forward {{ type filter hook forward priority -10; iifname "{device}" drop; '
                f'oifname "{device}" drop; }}',
                "}", ""])
            run(["ip", "netns", "exec", namespace, "nft", "-f", "-"], input=rules.encode())
            self.note("cut", who=who)
            pending.append({"at": time.monotonic() - self.started + CUT_S, "event": "uncut", "who": who})
        elif kind == "uncut":
            namespace, _ = self.line_device(who + 1)
            run(["ip", "netns", "exec", namespace, "nft", "delete", "table", "inet", "soakcut"])
            self.note("uncut", who=who)
        elif kind == "bandwidth":
            down, up = event["rates"]
            namespace, device = self.line_device(who + 1)
            shape(namespace, device, up)
            shape(f"{PREFIX}-net", f"b{PREFIX}{who + 2}", down)
            self.note("bandwidth", who=who, down_mbit=down, up_mbit=up)

    def core_pid(self, who):
        process = self.processes.get(who)
        if process is None or process.poll() is not None:
            return None
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
        try:
            pids = [int(p) for p in children.read_text().split()]
        except OSError:
            return None
        return pids[0] if pids else None

    # --- what it watches -----------------------------------------------------------------------------------
    def sample(self, samples_file):
        t = round(time.monotonic() - self.started, 1)
        for key, process in list(self.processes.items()):
            if process.poll() is not None:
                continue
            pids = [("node", process.pid)]
            core = self.core_pid(key) if key != "coordinator" else None
            if core:
                pids.append(("core", core))
            for what, pid in pids:
                try:
                    status = Path(f"/proc/{pid}/status").read_text()
                except OSError:
                    continue
                rss = next((int(line.split()[1]) * 1024 for line in status.splitlines()
                            if line.startswith("VmRSS:")), 0)
                samples_file.write(json.dumps({"t": t, "who": key, "process": what, "pid": pid,
                                               "rss": rss}) + "\n")
        online = sum(1 for key in self.processes if isinstance(key, int) and self.alive(key))
        samples_file.write(json.dumps({"t": t, "online": online}) + "\n")
        samples_file.flush()

    def collect_records(self, records_file):
        """New epoch records of every peer, with the time this script first saw them."""
        t = round(time.monotonic() - self.started, 1)
        folders = [("coordinator", self.out / "coordinator")] + [
            (i, self.volunteer_folder(i)) for i in range(self.a.volunteers)]
        for key, folder in folders:
            path = folder / "epochs.jsonl"
            if not path.exists():
                continue
            offset = self.record_offsets.get(key, 0)
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read()
            end = data.rfind(b"\n") + 1
            for line in data[:end].splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                records_file.write(json.dumps({"seen": t, "who": key, **record}) + "\n")
            self.record_offsets[key] = offset + end
        records_file.flush()

    # --- the whole run -------------------------------------------------------------------------------------
    def prepare(self):
        if self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True)
        with open(self.out / "trace.jsonl", "w") as f:
            for event in self.trace:
                f.write(json.dumps(event) + "\n")
        (self.out / "soak.json").write_text(json.dumps({
            "volunteers": self.a.volunteers, "minutes": self.a.minutes, "seed": self.a.seed,
            "duty": self.a.duty, "clean": self.a.clean, "delayed_updates": self.a.delayed_updates, "hostile": [] if self.a.clean else [0],
            "skewed": {} if self.a.clean else {"1": SKEW_OK_S, "2": -SKEW_OK_S, "bad-clock": SKEW_BAD_S},
            "experiment": None if not self.a.experiment_env else {
                "env": "=".join(self.a.experiment_env),
                "volunteers": [i for i in range(self.a.volunteers) if self.in_experiment(i)]},
            "hosts": [{"kind": kind, "down_mbit": d, "up_mbit": u} for kind, (d, u) in self.hosts]}, indent=1))
        self.network_up()
        log = self.out / "run-init.log"
        with open(log, "w") as f:
            run([str(self.a.node), "run-init", "--out", str(self.out / "run.json"), "--run-id", "soak",
                 "--config", "tiny", "--corpus", str(HERE / "tests/train/data/bengali-sample.txt"),
                 "--tokenizer", str(self.a.tokenizer), "--target-batch", str(100 * self.a.volunteers), "--seq", "64", "--lr", "0.01",
                 "--warmup", "5", "--total-steps", "100000", "--average-every", "5", "--aggregation",
                 "centered_clip", "--coordinator", f"{self.coordinator_address()}:{PORT}"]
                + (["--delayed-updates"] if self.a.delayed_updates else []), stdout=f, stderr=f)

    def main_loop(self):
        pending = []
        trace = list(self.trace)
        next_sample = 0.0
        with open(self.out / "events.jsonl", "w") as self.events_file, \
                open(self.out / "samples.jsonl", "w") as samples, \
                open(self.out / "records.jsonl", "w") as records:
            self.started = time.monotonic()
            # The wall-clock time of t = 0, for reading the peers' logs against the events (splits.py).
            soak = json.loads((self.out / "soak.json").read_text())
            soak["started_at"] = time.time()
            (self.out / "soak.json").write_text(json.dumps(soak, indent=1))
            self.start_coordinator()
            self.note("coordinator_started")
            while True:
                now = time.monotonic() - self.started
                if now >= self.duration:
                    break
                due = [e for e in trace + pending if e["at"] <= now]
                for event in sorted(due, key=lambda e: e["at"]):
                    (trace if event in trace else pending).remove(event)
                    try:
                        self.apply(event, pending)
                    except (OSError, subprocess.CalledProcessError) as e:
                        self.note("failed", of=event["event"], why=str(e))
                if now >= next_sample:
                    next_sample = now + SAMPLE_EVERY_S
                    self.sample(samples)
                self.collect_records(records)
                time.sleep(1)
            self.note("stopping")
            # All at once (each saves and says goodbye), then the coordinator.
            running = [p for k, p in self.processes.items() if k != "coordinator" and p.poll() is None]
            for process in running:
                os.kill(process.pid, signal.SIGTERM)
            deadline = time.monotonic() + 90
            for process in running:
                try:
                    process.wait(timeout=max(1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    os.kill(process.pid, signal.SIGKILL)
                    process.wait()
            self.stop("coordinator", signal.SIGTERM, wait_s=60)
            self.collect_records(records)
            self.note("stopped")


def main():
    arguments = parse_arguments()
    if arguments.out is None:
        arguments.out = Path(f"/tmp/soak-{os.getpid()}")
    soak = Soak(arguments)
    try:
        soak.prepare()
        say(f"{arguments.volunteers} volunteers for {arguments.minutes:g} min, seed {arguments.seed}"
            f"{' (clean)' if arguments.clean else ''}: {len(soak.trace)} events, output in {arguments.out}")
        soak.main_loop()
    except KeyboardInterrupt:
        say("interrupted")
    finally:
        for key in list(soak.processes):
            process = soak.processes[key]
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
        soak.network_down()
    figures = [sys.executable, str(HERE / "scripts/soak/figures.py"), str(arguments.out)]
    if arguments.check:
        figures.append("--check")
    return subprocess.run(figures).returncode


if __name__ == "__main__":
    sys.exit(main())
