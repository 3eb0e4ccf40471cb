#!/usr/bin/env python3
"""Round trip of Intel's perfmon files and Linux's AMD Zen event JSON
through bareperf's event tables.

Usage: roundtrip.py PERFMON_DIR BAREPERF AMD_DIR

AMD_DIR is Linux's tools/perf/pmu-events/arch/x86 (amdzen1..5 and
mapfile.csv; tools/amd-events-json extracts it). Models whose "source" is
"linux-<version>/amdzenN" are checked against AMD_DIR: every core event
(not a metric, no "Unit" of the L3/DF/UMC PMUs, not Deprecated) of every
JSON file of the directory is listed with its 12-bit event code and umask,
on all six core counters, with nothing Intel-only set; and every
AuthenticAMD row of the mapfile has a model.

For every model `bareperf list` knows (the names its "unknown --cpu"
error lists), reads `bareperf list --cpu MODEL --json` and the perfmon
file its "source" names, and checks every event the file does not mark
Deprecated: event code, umask, UMaskExt (perfmon v6's UMASK2), Equal
(EQ), cmask, inv, edge, any, counters, fixed counters, PEBS counters,
taken-alone and the extra MSR with its value are what the file states. Also checks that
every core-PMU file in mapfile.csv has a model. Exit 0 when all agree.

This reads the JSON on its own (it does not use tools/gen-events.py), by
the files' own conventions:
- offcore events list two encodings ("0xB7, 0xBB" or umask "0x01,0x02")
  for MSR_OFFCORE_RSP_0 and _1; an event naming one MSR has the encoding
  of that MSR; Nova Lake's umask/MSR lists pair element by element, and
  the table holds the first pair;
- Nehalem, Westmere, Bonnell and Silvermont number fixed counters from 1
  ("Fixed counter 1" is IA32_FIXED_CTR0): a file that never names fixed
  counter 0 counts from 1;
- PEBS events: "Precise" 1 where the file has that field, else "PEBS" 1
  or 2; their counters are "PEBScounters" where the event has it (32+i is
  fixed counter i), else every counter of the event.
"""
import csv
import json
import os
import re
import subprocess
import sys

RSP_1 = 0x1A7


def num(s):
    s = (s or "").strip()
    if s.lower() in ("", "null", "na"):
        return 0
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def counters(field, fixed_base):
    gp, fixed = set(), set()
    for part in (field or "").split(","):
        part = part.strip()
        if part.lower() in ("", "na", "null"):
            continue
        m = re.fullmatch(r"Fixed counter (\d+)", part)
        if m:
            fixed.add(int(m.group(1)) - fixed_base)
        else:
            gp.add(int(part))
    return gp, fixed


def expected(e, fixed_base, marker):
    codes = [num(c) for c in e["EventCode"].split(",")]
    umasks = [num(u) for u in e["UMask"].split(",")]
    msrs = [num(m) for m in e.get("MSRIndex", "0").split(",")]
    pick = 1 if (len(codes) == 2 or len(umasks) == 2) and msrs == [RSP_1] else 0
    gp, fixed = counters(e["Counter"], fixed_base)
    pebs_gp, pebs_fixed = set(), set()
    if num(e.get(marker)) in ((1,) if marker == "Precise" else (1, 2)):
        if "PEBScounters" in e:
            for c in counters(e.get("PEBScounters"), 0)[0]:
                (pebs_fixed.add(c - 32) if c >= 32 else pebs_gp.add(c))
        else:
            pebs_gp = set(gp)
    return {
        "event": codes[min(pick, len(codes) - 1)],
        "umask": umasks[min(pick, len(umasks) - 1)],
        "umask_ext": num(e.get("UMaskExt")),
        "eq": bool(num(e.get("Equal"))),
        "cmask": num(e.get("CounterMask")),
        "inv": bool(num(e.get("Invert"))),
        "edge": bool(num(e.get("EdgeDetect"))),
        "any": bool(num(e.get("AnyThread"))),
        "counters": sorted(gp), "fixed_counters": sorted(fixed),
        "pebs_counters": sorted(pebs_gp), "pebs_fixed_counters": sorted(pebs_fixed),
        "taken_alone": bool(num(e.get("TakenAlone"))),
        "extra_msr": msrs[min(pick, len(msrs) - 1)],
        "extra_value": num(e.get("MSRValue")) if msrs[min(pick, len(msrs) - 1)] else 0,
    }


def listed(ev):
    return {
        "event": int(ev["event"], 16), "umask": int(ev["umask"], 16),
        "umask_ext": int(ev["umask_ext"], 16),
        # The tables hold no EQ bit (no file sets "Equal" yet): a file
        # that does fails here until the tables carry it.
        "eq": False,
        "cmask": ev["cmask"], "inv": ev["inv"], "edge": ev["edge"], "any": ev["any"],
        "counters": ev["counters"], "fixed_counters": ev["fixed_counters"],
        "pebs_counters": ev["pebs_counters"], "pebs_fixed_counters": ev["pebs_fixed_counters"],
        "taken_alone": ev["taken_alone"],
        "extra_msr": int(ev["extra_msr"], 16), "extra_value": int(ev["extra_value"], 16),
    }


AMD_COUNTERS = list(range(6))  # PerfCtrExtCore: six core counters


def amd_expected(e):
    return {
        "event": num(e["EventCode"]), "umask": num(e.get("UMask")),
        "umask_ext": 0, "eq": False,
        "cmask": 0, "inv": False, "edge": False, "any": False,
        "counters": AMD_COUNTERS, "fixed_counters": [],
        "pebs_counters": [], "pebs_fixed_counters": [], "taken_alone": False,
        "extra_msr": 0, "extra_value": 0,
    }


def amd_core_events(directory):
    """The core events of one amdzenN directory, in file order."""
    out = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(directory, name)) as f:
            for e in json.load(f):
                if "MetricExpr" in e or "EventCode" not in e or e.get("Unit"):
                    continue
                if num(e.get("Deprecated")) != 1:
                    out.append(e)
    return out


def compare(model, events, table, expect):
    """Every file event listed as expect(e) says; the table lists no more."""
    bad = []
    for e in events:
        ev = table.get(e["EventName"])
        if ev is None:
            bad.append("%s %s: not listed" % (model, e["EventName"]))
            continue
        want, got = expect(e), listed(ev)
        for k in want:
            if want[k] != got[k]:
                bad.append("%s %s: %s is %s, the file says %s" % (model, e["EventName"], k, got[k], want[k]))
    if len(table) != len(events):
        bad.append("%s: lists %d table events, the file has %d" % (model, len(table), len(events)))
    return bad


def model_names(bareperf):
    r = subprocess.run([bareperf, "list", "--cpu", "no-such-model"], capture_output=True, text=True)
    m = re.search(r"known models: (.*)", r.stdout + r.stderr)
    if not m:
        sys.exit("roundtrip: bareperf named no models: " + (r.stdout + r.stderr).strip())
    return [n.strip() for n in m.group(1).split(",")]


def linux_model_events(model):
    """The events tools/gen-events.py describes from Linux for model."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "gen_events", os.path.join(here, "..", "..", "tools", "gen-events.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for cpu, _, _, _, _, events in gen.LINUX_MODELS:
        if cpu == model:
            return events
    sys.exit("roundtrip: no Linux-described model %s in tools/gen-events.py" % model)


def check_model(root, amd_root, bareperf, model):
    r = subprocess.run([bareperf, "list", "--cpu", model, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, 0, ["list --cpu %s: exit %d: %s" % (model, r.returncode, r.stderr.strip())]
    out = json.loads(r.stdout)
    path = out["source"].rsplit(" ", 1)[0]
    table = {ev["name"]: ev for ev in out["events"] if not ev["generic"]}
    if out["source"].startswith("Linux "):
        # A part with no Intel file: the generator's own perfmon-style
        # list from Linux's tables (tools/gen-events.py LINUX_MODELS) is
        # the file, read by this script's conventions.
        events = linux_model_events(model)
        bad = compare(model, events, table, lambda e: expected(e, 0, "Precise"))
        return out["source"], len(events), bad
    if path.startswith("linux-"):
        directory = path.split("/", 1)[1]
        events = amd_core_events(os.path.join(amd_root, directory))
        return directory, len(events), compare(model, events, table, amd_expected)
    with open(os.path.join(root, path)) as f:
        data = json.load(f)
    events = data["Events"] if isinstance(data, dict) else data
    named = set()
    for e in events:
        named |= counters(e["Counter"], 0)[1]
    fixed_base = 1 if named and 0 not in named else 0
    marker = "Precise" if any("Precise" in e for e in events) else "PEBS"
    events = [e for e in events if num(e.get("Deprecated")) != 1]
    bad = compare(model, events, table, lambda e: expected(e, fixed_base, marker))
    return "/" + path, len(events), bad


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: roundtrip.py PERFMON_DIR BAREPERF AMD_DIR")
    root, bareperf, amd_root = argv[1], argv[2], argv[3]
    with open(os.path.join(root, "mapfile.csv")) as f:
        files = {r["Filename"] for r in csv.DictReader(f) if r["EventType"] in ("core", "hybridcore")}
    with open(os.path.join(amd_root, "mapfile.csv")) as f:
        files |= {r["Filename"] for r in csv.DictReader(f)
                  if r["Family-model"].startswith("AuthenticAMD-") and r["EventType"] == "core"}
    covered, total, failures = set(), 0, []
    models = model_names(bareperf)
    for model in models:
        path, checked, bad = check_model(root, amd_root, bareperf, model)
        covered.add(path)
        total += checked
        failures += bad
        print("%-8s %5d events %s" % (model, checked, "ok" if not bad else "%d MISMATCHES" % len(bad)))
    for f in sorted(files - covered):
        failures.append("%s: in mapfile.csv, no model lists it" % f)
    for line in failures[:40]:
        print("MISMATCH: " + line)
    print("roundtrip: %d models, %d files of %d, %d events, %d mismatches"
          % (len(models), len(covered & files), len(files), total, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
