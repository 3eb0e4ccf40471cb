#!/usr/bin/env python3
"""Generates pmu/events_data.c, bareperf's Intel core-PMU event tables.

Usage (from the repository root):

    python3 tools/gen-events.py ../shared/perfmon [-o pmu/events_data.c]

Input: Intel's perfmon data (mapfile.csv and */events/*_core.json, BSD-3,
see ../shared/perfmon/SOURCE.md). Output: compact C tables described in
pmu/events.h. The output is committed, the JSON is not: regenerating is
optional and only needed to pick up new perfmon data or a new model (add it
to MODELS below). The output depends only on the input files (sorted
iteration everywhere, no dates), so running it twice gives the same bytes.

Choices (documented in docs/events.md too):
- Deprecated events are skipped.
- Skylake-era files give counters for hyper-threading on ("Counter"), not
  "CounterHTOff": the safe set when the sibling thread may be counting.
- PEBS counters: "PEBScounters" when "Precise" is 1 (newer files); in older
  files (no PEBScounters) the "Counter" set when "PEBS" is 1 or 2.
- PDIST counters (":ppp"): "PDISTCounter" where the file has it; otherwise
  only INST_RETIRED.PREC_DIST, on its PEBS counters.
- Offcore events list two encodings ("0xB7, 0xBB" or umask "0x01,0x02")
  paired with MSR 0x1A6/0x1A7: the entry holds the first, the table holds
  the pair (EVF_OCR_ALT).
"""
import csv
import json
import os
import re
import sys

# perfmon directory, file-name substring, --cpu name, description.
# Hybrid parts: the P-core table takes the plain name, the E-core "-e".
MODELS = [
    ("SKL", "skylake_core", "skl", "Skylake client (also Kaby/Coffee/Comet Lake)"),
    ("SKX", "skylakex_core", "skx", "Skylake server"),
    ("ICL", "icelake_core", "icl", "Ice Lake client"),
    ("ICX", "icelakex_core", "icx", "Ice Lake server"),
    ("TGL", "tigerlake_core", "tgl", "Tiger Lake"),
    ("SPR", "sapphirerapids_core", "spr", "Sapphire Rapids"),
    ("EMR", "emeraldrapids_core", "emr", "Emerald Rapids"),
    ("GNR", "graniterapids_core", "gnr", "Granite Rapids"),
    ("ADL", "alderlake_goldencove_core", "adl", "Alder/Raptor Lake P-core (Golden Cove)"),
    ("ADL", "alderlake_gracemont_core", "adl-e", "Alder/Raptor Lake E-core (Gracemont)"),
    ("MTL", "meteorlake_redwoodcove_core", "mtl", "Meteor Lake P-core (Redwood Cove)"),
    ("MTL", "meteorlake_crestmont_core", "mtl-e", "Meteor Lake E-core (Crestmont)"),
    ("ARL", "arrowlake_lioncove_core", "arl", "Arrow Lake P-core (Lion Cove)"),
    ("ARL", "arrowlake_skymont_core", "arl-e", "Arrow Lake E-core (Skymont)"),
    ("ARL", "arrowlake_crestmont_core", "arl-lpe", "Arrow Lake low-power E-core (Crestmont)"),
    ("LNL", "lunarlake_lioncove_core", "lnl", "Lunar Lake P-core (Lion Cove)"),
    ("LNL", "lunarlake_skymont_core", "lnl-e", "Lunar Lake E-core (Skymont)"),
]

# Valid bits of MSR_OFFCORE_RSP_0 and _1 per table, as Linux's extra_regs
# (arch/x86/events/intel/core.c) give them: intel_skl_extra_regs,
# intel_icl_extra_regs, intel_spr_extra_regs (and glc, gnr, rwc: the same
# mask), intel_grt_extra_regs, intel_cmt_extra_regs (Crestmont, and
# Skymont through intel_pmu_init_skt), intel_lnc_extra_regs. The table
# gets this mask OR every bit Intel's own file uses for the table's OCR
# events: the file documents the part, and Linux's mask can lag it
# (alderlake_gracemont_core.json's OCR.PARTIAL_STREAMING_WR.* and
# OCR.FULL_STREAMING_WR.* set bits 46 and 47, outside intel_grt_extra_regs'
# 0x3fffffffff).
RSP_SKL = (0x3fffff8fff, 0x3fffff8fff)
RSP_ICL = (0x3fffffbfff, 0x3fffffbfff)
RSP_GLC = (0x3fffffffff, 0x3fffffffff)
RSP_CMT = (0x800ff3ffffffffff, 0xff3ffffffffff)
RSP_LNC = (0xfffffffffff, 0xfffffffffff)
OFFCORE_VALID = {
    "skl": RSP_SKL, "skx": RSP_SKL, "icl": RSP_ICL, "icx": RSP_ICL, "tgl": RSP_ICL,
    "spr": RSP_GLC, "emr": RSP_GLC, "gnr": RSP_GLC, "adl": RSP_GLC, "adl-e": RSP_GLC,
    "mtl": RSP_GLC, "mtl-e": RSP_CMT, "arl": RSP_LNC, "arl-e": RSP_CMT, "arl-lpe": RSP_CMT,
    "lnl": RSP_LNC, "lnl-e": RSP_CMT,
}

MSR_OFFCORE_RSP_0 = 0x1A6
MSR_OFFCORE_RSP_1 = 0x1A7

EVF_INV, EVF_EDGE, EVF_ANY, EVF_TAKEN_ALONE = 0x01, 0x02, 0x04, 0x08
EVF_DATA_LA, EVF_PEBS_ONLY, EVF_OCR_ALT = 0x10, 0x20, 0x40
EV_PDIST_FIXED0 = 0x80


def num(s):
    """A perfmon number field: '0x3F6', '0X00', '12', '' or 'null'."""
    s = (s or "").strip()
    if s in ("", "null", "NA"):
        return 0
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def counter_list(s):
    """'0,1,2,3' -> GP set; 'Fixed counter 1' -> fixed set; 'NA' -> empty."""
    gp, fixed = set(), set()
    for part in (s or "").split(","):
        part = part.strip()
        if part in ("", "NA", "null"):
            continue
        m = re.fullmatch(r"Fixed counter (\d+)", part)
        if m:
            fixed.add(int(m.group(1)))
        else:
            gp.add(int(part))
    return gp, fixed


def pebs_counter_list(s):
    """PEBScounters/PDISTCounter: 32+i names fixed counter i."""
    gp, fixed = set(), set()
    for c in counter_list(s)[0]:
        (fixed.add(c - 32) if c >= 32 else gp.add(c))
    return gp, fixed


def bits(s):
    return sum(1 << i for i in s)


class Ctx:
    """What all tables share: the name pool, extras, sample-after values."""

    def __init__(self):
        self.extras = [(0, 0, 0)]  # (value, msr, umask_ext); 0 = none
        self.extra_index = {(0, 0, 0): 0}
        self.names = set()
        self.savs = set()

    def extra(self, key):
        if key not in self.extra_index:
            self.extra_index[key] = len(self.extras)
            self.extras.append(key)
        return self.extra_index[key]


def parse_event(e, legacy):
    """One JSON event -> dict of the fields we keep."""
    codes = [num(c) for c in e["EventCode"].split(",")]
    umasks = [num(u) for u in e["UMask"].split(",")]
    msrs = [num(m) for m in e.get("MSRIndex", "0").split(",")]
    gp, fixed = counter_list(e["Counter"])
    if legacy:
        pebs = num(e.get("PEBS", "0"))
        pebs_gp = gp if pebs else set()
        pebs_fixed = set()
        pebs_only = pebs == 2
        pdist_gp, pdist_fixed = set(), set()
    else:
        precise = num(e.get("Precise", "0")) == 1
        pebs_gp, pebs_fixed = pebs_counter_list(e.get("PEBScounters", ""))
        if not precise:
            pebs_gp, pebs_fixed = set(), set()
        pebs_only = num(e.get("CollectPEBSRecord", "0")) == 3
        pdist_gp, pdist_fixed = pebs_counter_list(e.get("PDISTCounter", ""))
        if not precise:
            pdist_gp, pdist_fixed = set(), set()
    if "PDISTCounter" not in e and e["EventName"] == "INST_RETIRED.PREC_DIST":
        pdist_gp, pdist_fixed = set(pebs_gp), set(pebs_fixed)
    assert all(c < 7 for c in pdist_gp) and pdist_fixed <= {0}, e["EventName"]
    # Offcore events name two encodings; the generic OFFCORE_RESPONSE of
    # older files does so without an MSR value (the user gives offcore_rsp=).
    ocr = len(codes) == 2 or len(umasks) == 2
    if ocr:
        assert msrs in ([MSR_OFFCORE_RSP_0, MSR_OFFCORE_RSP_1], [0]), e["EventName"]
    else:
        assert len(codes) == 1 and len(umasks) == 1 and len(msrs) == 1, e["EventName"]
    flags = 0
    flags |= EVF_INV if num(e.get("Invert")) else 0
    flags |= EVF_EDGE if num(e.get("EdgeDetect")) else 0
    flags |= EVF_ANY if num(e.get("AnyThread")) else 0
    flags |= EVF_TAKEN_ALONE if num(e.get("TakenAlone")) else 0
    flags |= EVF_DATA_LA if num(e.get("Data_LA")) else 0
    flags |= EVF_PEBS_ONLY if pebs_only else 0
    flags |= EVF_OCR_ALT if ocr else 0
    return {
        "name": e["EventName"],
        "event": codes[0], "umask": umasks[0],
        "ocr_pair": (tuple(codes * 2)[:2], tuple(umasks * 2)[:2]) if ocr else None,
        "cmask": num(e.get("CounterMask")),
        "flags": flags,
        "gp": bits(gp), "fixed": bits(fixed),
        "pebs_gp": bits(pebs_gp), "pebs_fixed": bits(pebs_fixed),
        "pdist": bits(pdist_gp) | (EV_PDIST_FIXED0 if pdist_fixed else 0),
        "msr": msrs[0], "msr_value": num(e.get("MSRValue")),
        "umask_ext": num(e.get("UMaskExt")),
        "sav": num(e.get("SampleAfterValue")),
    }


def load_file(root, relpath):
    with open(os.path.join(root, relpath.lstrip("/"))) as f:
        data = json.load(f)
    events = data["Events"] if isinstance(data, dict) else data
    header = data.get("Header", {}) if isinstance(data, dict) else {}
    legacy = not any("PEBScounters" in e for e in events)
    out = [parse_event(e, legacy) for e in events if num(e.get("Deprecated")) != 1]
    out.sort(key=lambda ev: ev["name"].lower().encode())
    names = [ev["name"].lower() for ev in out]
    assert len(names) == len(set(names)), relpath + ": duplicate names"
    pairs = {ev["ocr_pair"] for ev in out if ev["ocr_pair"]}
    assert len(pairs) <= 1, relpath + ": offcore events disagree on encodings"
    return out, legacy, (pairs.pop() if pairs else ((0, 0), (0, 0))), header


def read_mapfile(root):
    with open(os.path.join(root, "mapfile.csv")) as f:
        return [r for r in csv.DictReader(f) if r["EventType"] in ("core", "hybridcore")]


def parse_signature(fm):
    """'GenuineIntel-6-55-[01234]' -> (6, 0x55, lo, hi)."""
    parts = fm.split("-")
    family, model = int(parts[1], 16), int(parts[2], 16)
    lo, hi = 0, 15
    if len(parts) > 3:
        steps = [int(c, 16) for c in parts[3].strip("[]")]
        lo, hi = min(steps), max(steps)
        assert steps == list(range(lo, hi + 1)), fm
    return family, model, lo, hi


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(root):
    rows = read_mapfile(root)
    ctx = Ctx()
    tables = []  # (model tuple, events, legacy, ocr, relpath, version)
    for directory, stem, cpu, desc in MODELS:
        paths = sorted({r["Filename"] for r in rows
                        if r["Filename"].startswith("/" + directory + "/") and stem + ".json" in r["Filename"]})
        assert len(paths) == 1, (directory, stem, paths)
        events, legacy, ocr, _ = load_file(root, paths[0])
        version = sorted({r["Version"] for r in rows if r["Filename"] == paths[0]})[-1]
        for ev in events:
            ctx.names.add(ev["name"])
            ctx.savs.add(ev["sav"])
        tables.append(((directory, stem, cpu, desc), events, legacy, ocr, paths[0], version))

    names = sorted(ctx.names)
    name_index = {n: i for i, n in enumerate(names)}
    savs = sorted(ctx.savs)
    sav_index = {v: i for i, v in enumerate(savs)}
    assert len(names) < 65536 and len(savs) < 256

    out = []
    w = out.append
    w("/* GENERATED by tools/gen-events.py from Intel perfmon data (BSD-3,")
    w(" * ../shared/perfmon/SOURCE.md). Do not edit: change the generator and")
    w(" * rerun `python3 tools/gen-events.py ../shared/perfmon`. Layout in")
    w(" * pmu/events.h. */")
    w('#include "events.h"')
    w("")
    # Name pool: one string, NUL-separated, plus offsets.
    offsets, pos, pool_lines = [], 0, []
    for n in names:
        offsets.append(pos)
        pos += len(n) + 1
        pool_lines.append("\t" + c_str(n + "\0").replace("\x00", "\\0"))
    w("const char event_name_pool[] =")
    w("\n".join(pool_lines) + ";")
    w("")
    w("const u32 event_name_off[] = {")
    for i in range(0, len(offsets), 8):
        w("\t" + " ".join("%d," % o for o in offsets[i:i + 8]))
    w("};")
    w("")
    w("const u32 event_sample_after[] = {")
    w("\t" + " ".join("%d," % v for v in savs))
    w("};")
    w("")

    # Entry arrays, deduplicated by content.
    arrays = {}  # tuple of entry tuples -> C name
    table_arrays = []
    for (directory, stem, cpu, desc), events, legacy, ocr, path, version in tables:
        entries = []
        for ev in events:
            extra = 0
            if ev["msr"] or ev["umask_ext"]:
                extra = ctx.extra((ev["msr_value"], ev["msr"], ev["umask_ext"]))
            entries.append((name_index[ev["name"]], ev["event"], ev["umask"], ev["cmask"],
                            ev["flags"], ev["gp"], ev["pebs_gp"], ev["fixed"],
                            ev["pebs_fixed"], extra, sav_index[ev["sav"]], ev["pdist"]))
        key = tuple(entries)
        if key not in arrays:
            arrays[key] = "ev_" + cpu.replace("-", "_")
            w("/* %s %s */" % (path.lstrip("/"), version))
            w("static const struct ev_entry %s[] = {" % arrays[key])
            for (n, e, u, cm, fl, gp, pgp, fx, pfx, ex, sav, pd) in entries:
                w("\t{ %d, 0x%02x, 0x%02x, %d, 0x%02x, 0x%x, 0x%x, 0x%x, 0x%x, %d, %d, 0x%x }, /* %s */"
                  % (n, e, u, cm, fl, gp, pgp, fx, pfx, ex, sav, pd, names[n]))
            w("};")
            w("")
        table_arrays.append(arrays[key])

    w("const struct ev_extra event_extras[] = {")
    for value, msr, umask_ext in ctx.extras:
        w("\t{ 0x%x, 0x%x, 0x%02x }," % (value, msr, umask_ext))
    w("};")
    w("")

    core_type_of = {}
    for r in rows:
        if r["Core Type"]:
            core_type_of[r["Filename"]] = int(r["Core Type"], 16)
    w("const struct event_table event_tables[] = {")
    for ((directory, stem, cpu, desc), events, legacy, ocr, path, version), arr in zip(tables, table_arrays):
        gp = fixed = 0
        for ev in events:
            gp |= ev["gp"]
            fixed |= ev["fixed"]
        (e0, e1), (u0, u1) = ocr
        used = 0
        for ev in events:
            if ev["msr"] in (MSR_OFFCORE_RSP_0, MSR_OFFCORE_RSP_1):
                used |= ev["msr_value"]
        v0, v1 = (m | used for m in OFFCORE_VALID[cpu])
        w("\t{ %s, %s, %s, %s, %d, 0x%x, 0x%x, 0x%02x, { 0x%02x, 0x%02x }, { 0x%02x, 0x%02x }, %s, { 0x%xULL, 0x%xULL } },"
          % (c_str(cpu), c_str(desc), c_str(path.lstrip("/") + " " + version), arr, len(events),
             gp, fixed, core_type_of.get(path, 0), e0, e1, u0, u1, "true" if legacy else "false",
             v0, v1))
    w("};")
    w("const size_t event_table_count = ARRAY_SIZE(event_tables);")
    w("")

    table_of_path = {t[4]: i for i, t in enumerate(tables)}
    w("const struct event_model event_models[] = {")
    seen = set()
    for r in rows:
        if r["Filename"] not in table_of_path:
            continue
        family, model, lo, hi = parse_signature(r["Family-model"])
        core_type = int(r["Core Type"], 16) if r["Core Type"] else 0
        native = int(r["Native Model ID"], 16) if r["Native Model ID"] else 0
        row = (family, model, lo, hi, core_type, native, table_of_path[r["Filename"]])
        if row in seen:
            continue  # the mapfile repeats some rows
        seen.add(row)
        w("\t{ %d, 0x%02x, %d, %d, 0x%02x, 0x%x, %d }, /* %s %s */"
          % (row + (r["Family-model"], tables[row[6]][0][2])))
    w("};")
    w("const size_t event_model_count = ARRAY_SIZE(event_models);")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write("usage: python3 tools/gen-events.py PERFMON_DIR [-o pmu/events_data.c]\n")
        return 2
    root = argv[1]
    dest = "pmu/events_data.c"
    if len(argv) == 4 and argv[2] == "-o":
        dest = argv[3]
    text = generate(root)
    with open(dest, "w") as f:
        f.write(text)
    sys.stderr.write("wrote %s (%d bytes)\n" % (dest, len(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
