#!/usr/bin/env python3
"""Generates events/events_data.c, bareperf's core-PMU event tables (Intel
and AMD Zen).

Usage (from the repository root):

    python3 tools/gen-events.py ../shared/perfmon [--amd AMD_DIR] [-o events/events_data.c]

Input: Intel's perfmon data (mapfile.csv and */events/*_core.json, BSD-3,
see ../shared/perfmon/SOURCE.md), and the AMD Zen event JSON of the Linux
kernel (tools/perf/pmu-events/arch/x86/amdzen1..5 and mapfile.csv, GPL-2.0,
from Debian's linux-source-6.12). AMD_DIR is that x86 directory; without
--amd, tools/amd-events-json extracts it from
/usr/src/linux-source-6.12.tar.xz into build/ (once) and names it. Output:
compact C tables described in events/events.h. The output is committed,
the JSON is not: regenerating is optional and only needed to pick up new
data or a new model (add it to MODELS or AMD_MODELS below). The output
depends only on the input files (sorted iteration everywhere, no dates),
so running it twice gives the same bytes.

Choices (documented in docs/events.md too):
- Deprecated events are skipped.
- Skylake-era files give counters for hyper-threading on ("Counter"), not
  "CounterHTOff": the safe set when the sibling thread may be counting.
- PEBS counters: "PEBScounters" when "Precise" is 1 (newer files); in the
  Atom files (PEBScounters, no Precise) "PEBScounters" when "PEBS" is 1 or
  2; in older big-core files the "Counter" set when "PEBS" is 1 or 2.
- Fixed counters: the Nehalem, Westmere, Bonnell and Silvermont files
  number them from 1.
- Offcore events that name one MSR of the pair have that MSR's encoding
  alone; Nova Lake's umask/MSR lists give the first pair.
- PDIST counters (":ppp"): "PDISTCounter" where the file has it; otherwise
  only INST_RETIRED.PREC_DIST, on its PEBS counters.
- Offcore events list two encodings ("0xB7, 0xBB" or umask "0x01,0x02")
  paired with MSR 0x1A6/0x1A7: the entry holds the first, the table holds
  the pair (EVF_OCR_ALT).
- Store events (EVF_STORE): Sandy/Ivy Bridge's PRECISE_STORE event, and
  the data-address events whose name says they count stores
  (store_event()).
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys

# perfmon directory, file-name substring, --cpu name, description.
# Hybrid parts: the P-core table takes the plain name, the E-core "-e".
MODELS = [
    ("NHM-EP", "NehalemEP_core", "nhm", "Nehalem client and EP (Core i7 9xx, Xeon 5500)"),
    ("NHM-EX", "NehalemEX_core", "nhm-ex", "Nehalem EX (Xeon 7500)"),
    ("WSM-EP-SP", "WestmereEP-SP_core", "wsm", "Westmere client and EP single-socket"),
    ("WSM-EP-DP", "WestmereEP-DP_core", "wsm-dp", "Westmere EP dual-socket (Xeon 5600)"),
    ("WSM-EX", "WestmereEX_core", "wsm-ex", "Westmere EX (Xeon E7)"),
    ("BNL", "bonnell_core", "bnl", "Bonnell (first Atom)"),
    ("SLM", "Silvermont_core", "slm", "Silvermont and Airmont (Atom)"),
    ("KNL", "knightslanding_core", "knl", "Knights Landing and Knights Mill (Xeon Phi)"),
    ("GLM", "goldmont_core", "glm", "Goldmont (Atom)"),
    ("GLP", "goldmontplus_core", "glp", "Goldmont Plus (Atom)"),
    ("EHL", "elkhartlake_core", "ehl", "Elkhart Lake and Jasper Lake (Tremont)"),
    ("SNR", "snowridgex_core", "snr", "Snow Ridge (Tremont server)"),
    ("SNB", "sandybridge_core", "snb", "Sandy Bridge client"),
    ("JKT", "Jaketown_core", "jkt", "Sandy Bridge EP (Jaketown)"),
    ("IVB", "ivybridge_core", "ivb", "Ivy Bridge client"),
    ("IVT", "ivytown_core", "ivt", "Ivy Bridge EP (Ivytown)"),
    ("HSW", "haswell_core", "hsw", "Haswell client"),
    ("HSX", "haswellx_core", "hsx", "Haswell server"),
    ("BDW", "broadwell_core", "bdw", "Broadwell client"),
    ("BDW-DE", "broadwellde_core", "bdw-de", "Broadwell DE"),
    ("BDX", "broadwellx_core", "bdx", "Broadwell server"),
    ("SKL", "skylake_core", "skl", "Skylake client (also Kaby/Coffee/Comet Lake)"),
    ("SKX", "skylakex_core", "skx", "Skylake server"),
    ("CLX", "cascadelakex_core", "clx", "Cascade Lake server (and Cooper Lake)"),
    ("ICL", "icelake_core", "icl", "Ice Lake client"),
    ("ICX", "icelakex_core", "icx", "Ice Lake server"),
    ("TGL", "tigerlake_core", "tgl", "Tiger Lake"),
    ("RKL", "rocketlake_core", "rkl", "Rocket Lake"),
    ("SPR", "sapphirerapids_core", "spr", "Sapphire Rapids"),
    ("EMR", "emeraldrapids_core", "emr", "Emerald Rapids"),
    ("GNR", "graniterapids_core", "gnr", "Granite Rapids"),
    ("SRF", "sierraforest_core", "srf", "Sierra Forest (Crestmont E-core server)"),
    ("GRR", "grandridge_core", "grr", "Grand Ridge (Crestmont)"),
    ("CWF", "clearwaterforest_core", "cwf", "Clearwater Forest (Darkmont E-core server)"),
    ("ADL", "alderlake_goldencove_core", "adl", "Alder/Raptor Lake P-core (Golden Cove)"),
    ("ADL", "alderlake_gracemont_core", "adl-e", "Alder/Raptor Lake E-core (Gracemont)"),
    ("MTL", "meteorlake_redwoodcove_core", "mtl", "Meteor Lake P-core (Redwood Cove)"),
    ("MTL", "meteorlake_crestmont_core", "mtl-e", "Meteor Lake E-core (Crestmont)"),
    ("ARL", "arrowlake_lioncove_core", "arl", "Arrow Lake P-core (Lion Cove)"),
    ("ARL", "arrowlake_skymont_core", "arl-e", "Arrow Lake E-core (Skymont)"),
    ("ARL", "arrowlake_crestmont_core", "arl-lpe", "Arrow Lake low-power E-core (Crestmont)"),
    ("LNL", "lunarlake_lioncove_core", "lnl", "Lunar Lake P-core (Lion Cove)"),
    ("LNL", "lunarlake_skymont_core", "lnl-e", "Lunar Lake E-core (Skymont)"),
    ("PTL", "pantherlake_cougarcove_core", "ptl", "Panther Lake P-core (Cougar Cove)"),
    ("PTL", "pantherlake_darkmont_core", "ptl-e", "Panther Lake E-core (Darkmont)"),
    ("NVL", "novalake_coyotecove_core", "nvl", "Nova Lake P-core (Coyote Cove)"),
    ("NVL", "novalake_arcticwolf_core", "nvl-e", "Nova Lake E-core (Arctic Wolf)"),
]

# Valid bits of MSR_OFFCORE_RSP_0 and _1 per table, as Linux's extra_regs
# (arch/x86/events/intel/core.c, intel_pmu_init and the hybrid init
# helpers) give them: intel_nehalem_extra_regs (RSP_0 only),
# intel_westmere_extra_regs, intel_snb_extra_regs, intel_snbep_extra_regs
# (Jaketown, Ivytown, Haswell, Broadwell), intel_skl_extra_regs (and
# Skylake-X, Cascade Lake), intel_knl_extra_regs, intel_slm_extra_regs,
# intel_glm_extra_regs (Goldmont and Goldmont Plus), intel_tnt_extra_regs
# (Tremont: Elkhart Lake, Snow Ridge), intel_icl_extra_regs (and Rocket
# Lake), intel_spr_extra_regs (and glc, gnr, rwc: the same mask),
# intel_grt_extra_regs, intel_cmt_extra_regs (Crestmont: Sierra Forest,
# Grand Ridge; Darkmont: Clearwater Forest, Panther Lake's E-core;
# Skymont), intel_lnc_extra_regs (Lion Cove, Cougar Cove). Bonnell has no
# offcore response; Nova Lake's cores have none either (their
# MSR_OMR_0..3 take its place). The table gets this mask OR every bit
# Intel's own file uses for the table's OCR events: the file documents the
# part, and Linux's mask can lag it (alderlake_gracemont_core.json's
# OCR.PARTIAL_STREAMING_WR.* and OCR.FULL_STREAMING_WR.* set bits 46 and
# 47, outside intel_grt_extra_regs' 0x3fffffffff).
RSP_NONE = (0, 0)
RSP_NHM = (0xffff, 0)
RSP_WSM = (0xffff, 0xffff)
RSP_SNB = (0x3f807f8fff, 0x3f807f8fff)
RSP_SNBEP = (0x3fffff8fff, 0x3fffff8fff)
RSP_KNL = (0x799ffbb6e7, 0x399ffbffe7)
RSP_SLM = (0x768005ffff, 0x368005ffff)
RSP_GLM = (0x760005ffbf, 0x360005ffbf)
RSP_TNT = (0x800ff0ffffff9fff, 0xff0ffffff9fff)
RSP_SKL = (0x3fffff8fff, 0x3fffff8fff)
RSP_ICL = (0x3fffffbfff, 0x3fffffbfff)
RSP_GLC = (0x3fffffffff, 0x3fffffffff)
RSP_CMT = (0x800ff3ffffffffff, 0xff3ffffffffff)
RSP_LNC = (0xfffffffffff, 0xfffffffffff)
OFFCORE_VALID = {
    "nhm": RSP_NHM, "nhm-ex": RSP_NHM, "wsm": RSP_WSM, "wsm-dp": RSP_WSM, "wsm-ex": RSP_WSM,
    "bnl": RSP_NONE, "slm": RSP_SLM, "knl": RSP_KNL, "glm": RSP_GLM, "glp": RSP_GLM,
    "ehl": RSP_TNT, "snr": RSP_TNT, "snb": RSP_SNB, "ivb": RSP_SNB, "jkt": RSP_SNBEP,
    "ivt": RSP_SNBEP, "hsw": RSP_SNBEP, "hsx": RSP_SNBEP, "bdw": RSP_SNBEP,
    "bdw-de": RSP_SNBEP, "bdx": RSP_SNBEP, "skl": RSP_SKL, "skx": RSP_SKL, "clx": RSP_SKL,
    "icl": RSP_ICL, "icx": RSP_ICL, "tgl": RSP_ICL, "rkl": RSP_ICL,
    "spr": RSP_GLC, "emr": RSP_GLC, "gnr": RSP_GLC, "srf": RSP_CMT, "grr": RSP_CMT,
    "cwf": RSP_CMT, "adl": RSP_GLC, "adl-e": RSP_GLC,
    "mtl": RSP_GLC, "mtl-e": RSP_CMT, "arl": RSP_LNC, "arl-e": RSP_CMT, "arl-lpe": RSP_CMT,
    "lnl": RSP_LNC, "lnl-e": RSP_CMT, "ptl": RSP_LNC, "ptl-e": RSP_CMT,
    "nvl": RSP_NONE, "nvl-e": RSP_NONE,
}

MSR_OFFCORE_RSP_0 = 0x1A6
MSR_OFFCORE_RSP_1 = 0x1A7

# AMD: directory of the Linux JSON, --cpu name, Zen generation, description.
# The families and models each covers come from the mapfile's regexes
# (amd_model_ranges).
AMD_MODELS = [
    ("amdzen1", "zen1", 1, "AMD Zen and Zen+ (family 17h models 00h-2Fh)"),
    ("amdzen2", "zen2", 2, "AMD Zen 2 (family 17h models 30h and up)"),
    ("amdzen3", "zen3", 3, "AMD Zen 3 (family 19h models 00h-0Fh, 20h-2Fh, 40h-5Fh)"),
    ("amdzen4", "zen4", 4, "AMD Zen 4 (family 19h, the other models)"),
    ("amdzen5", "zen5", 5, "AMD Zen 5 (family 1Ah)"),
]
OFFCORE_VALID.update({cpu: RSP_NONE for _, cpu, _, _ in AMD_MODELS})
# Every Zen core event may run on any of the six core counters
# (PerfCtrExtCore, APM Vol. 2 "Core Performance Monitor Counters"): the
# JSON names no counters. Events with these codes are "large increment per
# cycle" events that need a counter pair, an even counter and the odd one
# after it, on family 17h and later: Linux's amd_is_pair_event_code()
# (0x003, Retired SSE/AVX FLOPs), used by amd_get_event_constraints_f17h
# and _f19h (arch/x86/events/amd/core.c, Linux 6.12).
AMD_GP_MASK = 0x3F
AMD_PAIR_EVENT_CODES = (0x003,)
AMD_LINUX = "linux-6.12"  # the source's version, in each table's "source"



# Parts Intel has published no event file for, described from Linux's own
# tables instead: the fixed-counter and memory events a Linux constraint
# table names, with the encodings and counter masks Linux gives them, and
# the architectural events on every GP counter, in the perfmon fields
# parse_event reads. Names are those of Intel's files for the same
# encodings on the previous core of the line (Granite Rapids' Redwood
# Cove), the names Linux's comments give, with that file's sample-after
# values. Replace by Intel's file when it appears.
#
# Diamond Rapids (Panther Cove, family 19 model 01h, Linux
# INTEL_DIAMONDRAPIDS_X): "perf/x86/intel: Add core PMU support for DMR"
# (tip perf/core d345b6bb8860, 2026-01-15) and "Add support for PEBS
# memory auxiliary info field in DMR": intel_pnc_event_constraints (GP
# masks: 0xd0/0xd1/0xd4 on 0xf, MEM_TRANS_RETIRED.LOAD_LATENCY 0x01cd on
# 0xfc, STORE_SAMPLE 0x02cd on 0x3; fixed 0-3), intel_pnc_pebs_event_
# constraints (DATALA_LD/ST for MEM_INST_RETIRED.*, LDLAT/STLAT,
# INST_RETIRED.PREC_DIST on fixed 0 alone; everything else PEBS on its
# counters, PMU_FL_PEBS_ALL), intel_pnc_extra_regs (the load-latency
# threshold MSR 3F6H; OMR_0..3 replace the offcore-response MSRs, so no
# OCR event here). Eight GP counters, as every constraint mask fits.
MSR_PEBS_LD_LAT_THRESHOLD = 0x3F6
GP8 = "0,1,2,3,4,5,6,7"


def _linux_event(name, code, umask, counter, pebs=None, sav=100003, **more):
    e = {"EventName": name, "EventCode": "0x%02x" % code, "UMask": "0x%02x" % umask,
         "Counter": counter, "SampleAfterValue": str(sav),
         "Precise": "1" if pebs is not None else "0", "PEBScounters": pebs or ""}
    e.update({k: str(v) for k, v in more.items()})
    return e


DMR_EVENTS = [
    _linux_event("INST_RETIRED.ANY", 0x00, 0x01, "Fixed counter 0", pebs="32",
                 PDISTCounter="32", sav=2000003),
    _linux_event("INST_RETIRED.ANY_P", 0xC0, 0x00, GP8, pebs=GP8, sav=2000003),
    _linux_event("CPU_CLK_UNHALTED.THREAD", 0x00, 0x02, "Fixed counter 1", pebs="33", sav=2000003),
    _linux_event("CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00, GP8, pebs=GP8, sav=2000003),
    _linux_event("CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, "Fixed counter 2", sav=2000003),
    _linux_event("CPU_CLK_UNHALTED.REF_TSC_P", 0x3C, 0x01, GP8, sav=2000003),
    _linux_event("TOPDOWN.SLOTS", 0x00, 0x04, "Fixed counter 3", pebs="35", sav=10000003),
    _linux_event("BR_INST_RETIRED.ALL_BRANCHES", 0xC4, 0x00, GP8, pebs=GP8, sav=400009),
    _linux_event("BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, GP8, pebs=GP8, sav=400009),
    _linux_event("MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81, "0,1,2,3", pebs="0,1,2,3", Data_LA=1,
                 sav=1000003),
    _linux_event("MEM_INST_RETIRED.ALL_STORES", 0xD0, 0x82, "0,1,2,3", pebs="0,1,2,3", Data_LA=1,
                 sav=1000003),
    _linux_event("MEM_INST_RETIRED.LOCK_LOADS", 0xD0, 0x21, "0,1,2,3", pebs="0,1,2,3", Data_LA=1,
                 sav=100007),
    _linux_event("MEM_INST_RETIRED.SPLIT_LOADS", 0xD0, 0x41, "0,1,2,3", pebs="0,1,2,3", Data_LA=1),
    _linux_event("MEM_INST_RETIRED.SPLIT_STORES", 0xD0, 0x42, "0,1,2,3", pebs="0,1,2,3", Data_LA=1),
    _linux_event("MEM_INST_RETIRED.STLB_MISS_LOADS", 0xD0, 0x11, "0,1,2,3", pebs="0,1,2,3",
                 Data_LA=1),
    _linux_event("MEM_INST_RETIRED.STLB_MISS_STORES", 0xD0, 0x12, "0,1,2,3", pebs="0,1,2,3",
                 Data_LA=1),
    _linux_event("MEM_TRANS_RETIRED.STORE_SAMPLE", 0xCD, 0x02, "0,1", pebs="0,1", Data_LA=1,
                 sav=1000003),
] + [
    _linux_event("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_%d" % t, 0xCD, 0x01, "2,3,4,5,6,7",
                 pebs="2,3,4,5,6,7", Data_LA=1, MSRIndex="0x3F6", MSRValue="0x%x" % t,
                 sav=sav)
    for t, sav in ((4, 100003), (8, 50021), (16, 20011), (32, 100007), (64, 2003), (128, 1009),
                   (256, 503), (512, 101))
]

# cpu name, description, source, family, model, events
LINUX_MODELS = [
    ("dmr", "Diamond Rapids (Panther Cove), from Linux's tables: Intel has published no file",
     "Linux perf/core d345b6bb8860 (intel_pnc_event_constraints)", 19, 0x01, DMR_EVENTS),
]
OFFCORE_VALID.update({cpu: RSP_NONE for cpu, _, _, _, _, _ in LINUX_MODELS})


def header_constants(path=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "..", "events", "events.h")):
    """The values the C side reads the tables by (struct ev_entry.flags and
    .pdist, the name dictionary's block length), taken from events/events.h
    itself so the two cannot drift apart."""
    values = {}
    with open(path) as f:
        for m in re.finditer(r"^#define\s+(EVF_\w+|EVX_\w+|EV_PDIST_FIXED0|EVENT_NAME_BLOCK)\s+(0x[0-9a-fA-F]+|\d+)",
                             f.read(), re.M):
            values[m.group(1)] = int(m.group(2), 0)
    return values


_FLAGS = header_constants()
EVF_INV, EVF_EDGE, EVF_ANY = _FLAGS["EVF_INV"], _FLAGS["EVF_EDGE"], _FLAGS["EVF_ANY"]
EVF_TAKEN_ALONE, EVF_DATA_LA = _FLAGS["EVF_TAKEN_ALONE"], _FLAGS["EVF_DATA_LA"]
EVF_PEBS_ONLY, EVF_OCR_ALT = _FLAGS["EVF_PEBS_ONLY"], _FLAGS["EVF_OCR_ALT"]
EVF_STORE, EV_PDIST_FIXED0 = _FLAGS["EVF_STORE"], _FLAGS["EV_PDIST_FIXED0"]
EVX_AMD_PAIR = _FLAGS["EVX_AMD_PAIR"]
assert _FLAGS["EVX_EVENT_HI"] == 0x0F  # ev_extra.amd: EventSelect[11:8] below the flags


def num(s):
    """A perfmon number field: '0x3F6', '0X00', '12', '' or 'null'."""
    s = (s or "").strip()
    if s in ("", "null", "NA"):
        return 0
    return int(s, 16) if s.lower().startswith("0x") else int(s)


def counter_list(s, fixed_base=0):
    """'0,1,2,3' -> GP set; 'Fixed counter 1' -> fixed set; 'NA' -> empty.
    fixed_base: the number the file gives IA32_FIXED_CTR0 (fixed_base_of)."""
    gp, fixed = set(), set()
    for part in (s or "").split(","):
        part = part.strip()
        if part in ("", "NA", "null"):
            continue
        m = re.fullmatch(r"Fixed counter (\d+)", part)
        if m:
            fixed.add(int(m.group(1)) - fixed_base)
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
        # (value, msr, umask_ext, amd, fixed, pebs_fixed); 0 = none
        self.extras = [(0, 0, 0, 0, 0, 0)]
        self.extra_index = {(0, 0, 0, 0, 0, 0): 0}
        self.names = set()
        self.savs = set()

    def add_events(self, events):
        for ev in events:
            self.names.add(ev["name"])
            self.savs.add(ev["sav"])

    def extra(self, key):
        if key not in self.extra_index:
            self.extra_index[key] = len(self.extras)
            self.extras.append(key)
        return self.extra_index[key]


def fixed_base_of(events):
    """The Nehalem, Westmere, Bonnell and Silvermont files count fixed
    counters from 1 (INST_RETIRED.ANY is "Fixed counter 1", the reference
    cycles "Fixed counter 3"); later files from 0, as the SDM numbers
    IA32_FIXED_CTR0..2."""
    named = set()
    for e in events:
        named |= counter_list(e["Counter"])[1]
    return 1 if named and 0 not in named else 0


def pebs_style_of(events):
    """How a file marks PEBS events (read each format as it is):
    "precise": Ice Lake and later, "Precise" 1 with "PEBScounters";
    "atom": Silvermont to Tremont and Knights Landing, "PEBS" 1 or 2 with
    "PEBScounters" and no "Precise";
    "legacy": the big cores up to Skylake, "PEBS" 1 or 2 on the event's
    own "Counter" set."""
    if any("Precise" in e for e in events):
        return "precise"
    return "atom" if any("PEBScounters" in e for e in events) else "legacy"


def store_event(e):
    """The event's PEBS records describe stores, so their memory fields are
    a store's status, not a load's data source and latency. The files have
    no field that says so for data-address events ("L1_Hit_Indication" is
    also 1 on loads: MEM_INST_RETIRED.ANY, the E-cores' LOAD_LATENCY_GT_*),
    but their names do (MEM_INST_RETIRED.*STORES, MEM_UOPS_RETIRED.*STORES
    and STORE_LATENCY, MEM_TRANS_RETIRED.STORE_SAMPLE), as Linux lists the
    same encodings as store data-address events (the _DATALA_ST
    constraints, arch/x86/events/intel/ds.c). Sandy and Ivy Bridge's
    MEM_TRANS_RETIRED.PRECISE_STORE, the precise-store facility, is marked
    PRECISE_STORE and not Data_LA (events.h: ev_precise_store)."""
    if num(e.get("PRECISE_STORE")):
        assert not num(e.get("Data_LA")), e["EventName"]
        return True
    return bool(num(e.get("Data_LA"))) and "STORE" in e["EventName"].upper()


def parse_event(e, style, fixed_base=0):
    """One JSON event -> dict of the fields we keep."""
    codes = [num(c) for c in e["EventCode"].split(",")]
    umasks = [num(u) for u in e["UMask"].split(",")]
    msrs = [num(m) for m in e.get("MSRIndex", "0").split(",")]
    gp, fixed = counter_list(e["Counter"], fixed_base)
    pdist_gp, pdist_fixed = set(), set()
    if style == "precise":
        precise = num(e.get("Precise", "0")) == 1
        pebs_only = num(e.get("CollectPEBSRecord", "0")) == 3
    else:
        precise = num(e.get("PEBS", "0")) in (1, 2)
        pebs_only = num(e.get("PEBS", "0")) == 2
    pebs_gp, pebs_fixed = set(), set()
    if precise and style == "legacy":
        pebs_gp = set(gp)
    elif precise:
        pebs_gp, pebs_fixed = pebs_counter_list(e.get("PEBScounters", ""))
        pdist_gp, pdist_fixed = pebs_counter_list(e.get("PDISTCounter", ""))
    if e.get("PDIR_COUNTER", "na").lower() not in ("na", "") and pebs_gp:
        # Goldmont Plus names its precise-distribution counter per event.
        pdist_gp, pdist_fixed = counter_list(e["PDIR_COUNTER"])[0], set()
    elif "PDISTCounter" not in e and e["EventName"] == "INST_RETIRED.PREC_DIST":
        pdist_gp, pdist_fixed = set(pebs_gp), set(pebs_fixed)
    assert all(c < 7 for c in pdist_gp) and pdist_fixed <= {0}, e["EventName"]
    # Offcore events name two encodings; the generic OFFCORE_RESPONSE of
    # older files does so without an MSR value (the user gives offcore_rsp=).
    # Where the file names MSR_OFFCORE_RSP_0 alone (the Atom cores'
    # OUTSTANDING events: only RSP_0 has the outstanding-request bit), the
    # event has that one encoding. Nova Lake's off-module events list four
    # umasks, each with its own MSR (ProgrammingRestriction
    # "MSRIndex-UMask"): the table carries the first pair, umask and MSR.
    # Knights Landing's OFFCORE_RESPONSE.STREAMING_STORES.ANY_RESPONSE names
    # MSR_OFFCORE_RSP_1 alone: its encoding is the second.
    pairs = len(codes) == 2 or len(umasks) == 2
    ocr = pairs and msrs in ([MSR_OFFCORE_RSP_0, MSR_OFFCORE_RSP_1], [0])
    if pairs and not ocr:
        assert msrs in ([MSR_OFFCORE_RSP_0], [MSR_OFFCORE_RSP_1]), e["EventName"]
        if msrs == [MSR_OFFCORE_RSP_1]:
            codes, umasks = codes[-1:], umasks[-1:]
    elif e.get("ProgrammingRestriction") == "MSRIndex-UMask":
        assert len(umasks) == len(msrs) and len(codes) == 1, e["EventName"]
    elif not ocr:
        assert len(codes) == 1 and len(umasks) == 1 and len(msrs) == 1, e["EventName"]
    flags = 0
    flags |= EVF_INV if num(e.get("Invert")) else 0
    flags |= EVF_EDGE if num(e.get("EdgeDetect")) else 0
    flags |= EVF_ANY if num(e.get("AnyThread")) else 0
    flags |= EVF_TAKEN_ALONE if num(e.get("TakenAlone")) else 0
    flags |= EVF_DATA_LA if num(e.get("Data_LA")) else 0
    flags |= EVF_PEBS_ONLY if pebs_only else 0
    flags |= EVF_OCR_ALT if ocr else 0
    flags |= EVF_STORE if store_event(e) else 0
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
        "amd": 0,
    }


def sorted_events(events, label):
    """events in the tables' order: by name, case-insensitively (the
    lookups' binary search); no name twice."""
    events.sort(key=lambda ev: ev["name"].lower().encode())
    names = [ev["name"].lower() for ev in events]
    assert events and len(names) == len(set(names)), label + ": no events or duplicate names"
    return events


def load_file(root, relpath):
    with open(os.path.join(root, relpath.lstrip("/"))) as f:
        data = json.load(f)
    events = data["Events"] if isinstance(data, dict) else data
    header = data.get("Header", {}) if isinstance(data, dict) else {}
    style = pebs_style_of(events)
    legacy = style == "legacy"
    base = fixed_base_of(events)
    out = sorted_events([parse_event(e, style, base) for e in events
                         if num(e.get("Deprecated")) != 1], relpath)
    pairs = {ev["ocr_pair"] for ev in out if ev["ocr_pair"]}
    assert len(pairs) <= 1, relpath + ": offcore events disagree on encodings"
    return out, legacy, (pairs.pop() if pairs else ((0, 0), (0, 0))), header


def read_mapfile(root):
    with open(os.path.join(root, "mapfile.csv")) as f:
        return [r for r in csv.DictReader(f) if r["EventType"] in ("core", "hybridcore")]


def parse_signature(fm):
    """'GenuineIntel-6-55-[01234]' -> (6, 0x55, lo, hi). The family is
    decimal and the model hexadecimal, as perf prints its CPUID string
    ("GenuineIntel-18-1" is Nova Lake, family 18)."""
    parts = fm.split("-")
    family, model = int(parts[1], 10), int(parts[2], 16)
    lo, hi = 0, 15
    if len(parts) > 3:
        steps = [int(c, 16) for c in parts[3].strip("[]")]
        lo, hi = min(steps), max(steps)
        assert steps == list(range(lo, hi + 1)), fm
    return family, model, lo, hi


# ---- AMD Zen (Linux's tools/perf/pmu-events/arch/x86/amdzen*) ----------

# The fields a Zen core event may have; any other (a counter list, a
# counter mask) would need handling here first.
AMD_CORE_FIELDS = {"EventName", "EventCode", "UMask", "BriefDescription",
                   "BriefDescript6ion", "PublicDescription", "Deprecated"}


def amd_skip_reason(e):
    """Why a Zen JSON entry is not a core event of the table, or None:
    metrics (MetricExpr, no EventCode) are formulas over events; entries
    with a "Unit" belong to the L3, data-fabric or memory-controller PMUs
    (L3PMC, DFPMC, UMCPMC); deprecated ones are skipped as Intel's are."""
    if "MetricExpr" in e or "EventCode" not in e:
        return "metric"
    if e.get("Unit"):
        return "uncore " + e["Unit"]
    if num(e.get("Deprecated")) == 1:
        return "deprecated"
    return None


def parse_amd_event(e):
    """One Zen core event -> the dict parse_event gives. The code has 12
    bits (PERF_CTL EventSelect[11:8] in bits 35:32): the row keeps [7:0],
    the side table [11:8] (ev_extra.amd, with EVX_AMD_PAIR)."""
    assert set(e) <= AMD_CORE_FIELDS, (e["EventName"], set(e) - AMD_CORE_FIELDS)
    code = num(e["EventCode"])
    assert code < 0x1000 and num(e.get("UMask")) < 0x100, e["EventName"]
    return {
        "name": e["EventName"], "event": code, "umask": num(e.get("UMask")),
        "ocr_pair": None, "cmask": 0, "flags": 0,
        "gp": AMD_GP_MASK, "fixed": 0, "pebs_gp": 0, "pebs_fixed": 0, "pdist": 0,
        "msr": 0, "msr_value": 0, "umask_ext": 0, "sav": 0,
        "amd": (code >> 8) | (EVX_AMD_PAIR if code in AMD_PAIR_EVENT_CODES else 0),
    }


def load_amd_dir(root, directory, skipped):
    """Every core event of one amdzenN directory, sorted as load_file
    sorts; counts what it leaves out by reason into skipped."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, directory, "*.json"))):
        with open(path) as f:
            for e in json.load(f):
                reason = amd_skip_reason(e)
                if reason:
                    skipped[reason] = skipped.get(reason, 0) + 1
                else:
                    out.append(parse_amd_event(e))
    return sorted_events(out, directory)


def amd_mapfile(root):
    """The AuthenticAMD rows of Linux's x86 mapfile.csv, in file order
    (perf takes the first row that matches)."""
    with open(os.path.join(root, "mapfile.csv")) as f:
        return [r for r in csv.DictReader(f) if r["Family-model"].startswith("AuthenticAMD-")]


def amd_model_ranges(rows):
    """(family, model_lo, model_hi, directory) for every model of every
    family the rows name, as perf matches them: the CPU string
    "AuthenticAMD-<family decimal>-<model hex>" against each row's POSIX
    extended regex, whole string, first row wins (strcmp_cpuid_str in
    tools/perf/arch/x86/util/header.c, Linux 6.12)."""
    families = sorted({int(r["Family-model"].split("-")[1]) for r in rows})
    pats = [(re.compile(r["Family-model"].replace("[[:xdigit:]]", "[0-9A-Fa-f]")), r["Filename"])
            for r in rows]
    ranges = []
    for family in families:
        for model in range(256):
            cpu = "AuthenticAMD-%d-%X" % (family, model)
            directory = next((d for p, d in pats if p.fullmatch(cpu)), None)
            if directory is None:
                continue
            if ranges and ranges[-1][0] == family and ranges[-1][2] == model - 1 \
                    and ranges[-1][3] == directory:
                ranges[-1] = (family, ranges[-1][1], model, directory)
            else:
                ranges.append((family, model, model, directory))
    return ranges


def default_amd_root():
    """tools/amd-events-json: the Zen JSON under build/, extracted from
    Debian's linux-source-6.12 the first time."""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "amd-events-json")
    return subprocess.run([tool], check=True, capture_output=True, text=True).stdout.strip()


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


NAME_BLOCK = _FLAGS["EVENT_NAME_BLOCK"]  # a whole name every NAME_BLOCK names


def write_names(w, names):
    """Every event name once, front-coded (events/events.h): per name, one
    octal byte for the characters it shares with the previous name, then
    the rest and a NUL. Every NAME_BLOCK-th name shares nothing, so one
    name can be decoded from its block's start."""
    pieces, blocks, pos, prev = [], [], 0, ""
    for i, n in enumerate(names):
        assert all(32 < ord(c) < 127 and c not in '"\\' for c in n), n
        assert len(n) < 128, n  # events/event_names.c: its fallback buffers
        shared = 0
        if i % NAME_BLOCK:
            while shared < min(len(n), len(prev), 255) and n[shared] == prev[shared]:
                shared += 1
        else:
            blocks.append(pos)
        pieces.append('\t"\\%03o%s\\000"' % (shared, n[shared:]))
        pos += 1 + len(n) - shared + 1
        prev = n
    w("const char event_name_pack[] =")
    w("\n".join(pieces) + ";")
    w("const u32 event_name_block[] = {")
    for i in range(0, len(blocks), 8):
        w("\t" + " ".join("%d," % o for o in blocks[i:i + 8]))
    w("};")
    w("const u32 event_name_count = %d;" % len(names))
    w("const u32 event_name_bytes = %d;\t/* unpacked, NULs included */"
      % sum(len(n) + 1 for n in names))
    w("")


def load_amd(amd_root, ctx, tables):
    """The Zen tables, appended to tables as generate() holds Intel's; what
    was left out is counted by reason on stderr."""
    rows = amd_mapfile(amd_root)
    skipped = {}
    for directory, cpu, zen, desc in AMD_MODELS:
        version = [r["Version"] for r in rows if r["Filename"] == directory]
        assert len(version) == 1, (directory, version)
        events = load_amd_dir(amd_root, directory, skipped)
        ctx.add_events(events)
        tables.append(((directory, "", cpu, desc), events, False, ((0, 0), (0, 0)),
                       AMD_LINUX + "/" + directory, version[0]))
    sys.stderr.write("AMD: %d Zen core events; left out: %s\n"
                     % (sum(len(t[1]) for t in tables if t[4].startswith(AMD_LINUX)),
                        ", ".join("%s %d" % kv for kv in sorted(skipped.items()))))
    return rows


def load_linux_models(ctx, tables):
    """LINUX_MODELS as tables, and their mapfile rows (one model each)."""
    rows = []
    for cpu, desc, source, family, model, raw in LINUX_MODELS:
        events = sorted_events([parse_event(e, pebs_style_of(raw)) for e in raw], cpu)
        ctx.add_events(events)
        path = "/" + source
        tables.append((("", "", cpu, desc), events, False, ((0, 0), (0, 0)), path, ""))
        rows.append((family, model, path))
    return rows


def generate(root, amd_root):
    rows = read_mapfile(root)
    ctx = Ctx()
    tables = []  # (model tuple, events, legacy, ocr, relpath, version)
    for directory, stem, cpu, desc in MODELS:
        paths = sorted({r["Filename"] for r in rows
                        if r["Filename"].startswith("/" + directory + "/") and stem + ".json" in r["Filename"]})
        assert len(paths) == 1, (directory, stem, paths)
        events, legacy, ocr, _ = load_file(root, paths[0])
        version = sorted({r["Version"] for r in rows if r["Filename"] == paths[0]})[-1]
        ctx.add_events(events)
        tables.append(((directory, stem, cpu, desc), events, legacy, ocr, paths[0], version))
    linux_rows = load_linux_models(ctx, tables)
    amd_rows = load_amd(amd_root, ctx, tables)
    zen_of = {cpu: zen for _, cpu, zen, _ in AMD_MODELS}

    names = sorted(ctx.names)
    name_index = {n: i for i, n in enumerate(names)}
    savs = sorted(ctx.savs)
    sav_index = {v: i for i, v in enumerate(savs)}
    assert len(names) < 65536 and len(savs) < 256

    out = []
    w = out.append
    w("// SPDX-License-Identifier: GPL-2.0-only (part of its data is GPL-2.0: LICENSE)")
    w("/* GENERATED by tools/gen-events.py from Intel perfmon data (BSD-3,")
    w(" * ../shared/perfmon/SOURCE.md) and, for the zen1..zen5 tables, from the")
    w(" * AMD Zen event JSON of Linux %s (tools/perf/pmu-events/arch/x86/amdzen*," % AMD_LINUX[6:])
    w(" * GPL-2.0). Do not edit: change the generator and rerun")
    w(" * `python3 tools/gen-events.py ../shared/perfmon`. Layout in events/events.h. */")
    w('#include "events.h"')
    w("")
    write_names(w, names)
    w("const u32 event_sample_after[] = {")
    w("\t" + " ".join("%d," % v for v in savs))
    w("};")
    w("")

    # Rows: every distinct (name, encoding, constraints) once, shared by
    # the tables that list it (Haswell and Haswell-X, the Westmere files,
    # Skylake-X and Cascade Lake have most rows in common).
    row_index = {}
    table_rows = []
    for (directory, stem, cpu, desc), events, legacy, ocr, path, version in tables:
        rows_of_table = []
        for ev in events:
            # Fixed counters (a few dozen rows) and AMD's code bits 11:8
            # live in the side table with the extra MSR: the row stays 14 B.
            key = (ev["msr_value"], ev["msr"], ev["umask_ext"], ev["amd"],
                   ev["fixed"], ev["pebs_fixed"])
            assert ev["msr"] < 0x10000, ev["name"]  # ev_extra.msr is u16
            extra = ctx.extra(key) if any(key[1:]) else 0
            row = (name_index[ev["name"]], ev["event"] & 0xff, ev["umask"], ev["cmask"],
                   ev["flags"], ev["gp"], ev["pebs_gp"], extra, sav_index[ev["sav"]], ev["pdist"])
            rows_of_table.append(row)
            row_index.setdefault(row, None)
        table_rows.append(rows_of_table)
    ordered = sorted(row_index)
    for i, row in enumerate(ordered):
        row_index[row] = i
    assert len(ordered) < 65536
    w("const struct ev_entry event_rows[] = {")
    for (n, e, u, cm, fl, gp, pgp, ex, sav, pd) in ordered:
        w("\t{ .name = %d, .event = 0x%02x, .umask = 0x%02x, .cmask = %d, .flags = 0x%02x, "
          ".gp = 0x%x, .pebs_gp = 0x%x, .extra = %d, .sav = %d, .pdist = 0x%x }, /* %s */"
          % (n, e, u, cm, fl, gp, pgp, ex, sav, pd, names[n]))
    w("};")
    w("const u32 event_row_count = ARRAY_SIZE(event_rows);")
    w("")
    # Each table: its rows' indices, in name order; identical files share.
    arrays = {}
    table_arrays = []
    for ((directory, stem, cpu, desc), events, legacy, ocr, path, version), rows_of_table \
            in zip(tables, table_rows):
        key = tuple(row_index[r] for r in rows_of_table)
        if key not in arrays:
            arrays[key] = "ev_" + cpu.replace("-", "_")
            w("/* %s %s */" % (path.lstrip("/"), version))
            w("static const u16 %s[] = {" % arrays[key])
            for i in range(0, len(key), 12):
                w("\t" + " ".join("%d," % r for r in key[i:i + 12]))
            w("};")
            w("")
        table_arrays.append(arrays[key])

    w("const struct ev_extra event_extras[] = {")
    for value, msr, umask_ext, amd, fixed, pebs_fixed in ctx.extras:
        w("\t{ .value = 0x%x, .msr = 0x%x, .umask_ext = 0x%02x, .amd = 0x%02x, .fixed = 0x%x, "
          ".pebs_fixed = 0x%x }," % (value, msr, umask_ext, amd, fixed, pebs_fixed))
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
        # Bits the file's own events set: an event that pairs both MSRs
        # (EVF_OCR_ALT) may run on either.
        used0 = used1 = 0
        for ev in events:
            paired = ev["flags"] & EVF_OCR_ALT
            if ev["msr"] == MSR_OFFCORE_RSP_0 or (paired and ev["msr"]):
                used0 |= ev["msr_value"]
            if ev["msr"] == MSR_OFFCORE_RSP_1 or (paired and ev["msr"]):
                used1 |= ev["msr_value"]
        v0 = OFFCORE_VALID[cpu][0] | used0
        v1 = OFFCORE_VALID[cpu][1] | used1
        w("\t{ .name = %s, .desc = %s,\n\t  .source = %s,\n"
          "\t  .rows = %s, .count = %d, .gp_mask = 0x%x, .fixed_mask = 0x%x, .core_type = 0x%02x,\n"
          "\t  .ocr_event = { 0x%02x, 0x%02x }, .ocr_umask = { 0x%02x, 0x%02x }, .legacy_pebs = %s,\n"
          "\t  .offcore_valid = { 0x%xULL, 0x%xULL }, .amd_zen = %d },"
          % (c_str(cpu), c_str(desc), c_str((path.lstrip("/") + " " + version).strip()), arr, len(events),
             gp, fixed, core_type_of.get(path, 0), e0, e1, u0, u1, "true" if legacy else "false",
             v0, v1, zen_of.get(cpu, 0)))
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
        w("\t{ .family = %d, .model = 0x%02x, .model_hi = 0x%02x, .step_lo = %d, .step_hi = %d, "
          ".core_type = 0x%02x, .native_model = 0x%x, .table = %d }, /* %s %s */"
          % (row[:2] + (model,) + row[2:] + (r["Family-model"], tables[row[6]][0][2])))
    for family, model, path in linux_rows:
        w("\t{ .family = %d, .model = 0x%02x, .model_hi = 0x%02x, .step_lo = 0, .step_hi = 15, "
          ".core_type = 0x00, .native_model = 0x0, .table = %d }, /* %s, from Linux */"
          % (family, model, model, table_of_path[path], tables[table_of_path[path]][0][2]))
    table_of_dir = {t[4].split("/")[-1]: i for i, t in enumerate(tables) if t[4].startswith(AMD_LINUX)}
    for family, lo, hi, directory in amd_model_ranges(amd_rows):
        w("\t{ .family = %d, .model = 0x%02x, .model_hi = 0x%02x, .step_lo = 0, .step_hi = 15, "
          ".table = %d }, /* AMD family %Xh, %s */"
          % (family, lo, hi, table_of_dir[directory], family, tables[table_of_dir[directory]][0][2]))
    w("};")
    w("const size_t event_model_count = ARRAY_SIZE(event_models);")
    report_sizes(tables, table_rows, row_index, names, ctx)
    return "\n".join(out) + "\n"


def report_sizes(tables, table_rows, row_index, names, ctx):
    """Bytes each part of the tables takes in the image, on stderr (the
    figures docs/events.md quotes)."""
    entry, extra = 14, 14  # sizeof(struct ev_entry), sizeof(struct ev_extra)
    owners = {}
    for t, rows_of_table in zip(tables, table_rows):
        for r in rows_of_table:
            owners.setdefault(row_index[r], set()).add(t[0][2])
    plain = sum(len(n) + 1 for n in names)  # the names unpacked, NULs included
    say = sys.stderr.write
    say("%-8s %6s %8s %10s\n" % ("model", "events", "index B", "own rows B"))
    for t, rows_of_table in zip(tables, table_rows):
        own = sum(1 for r in set(rows_of_table) if owners[row_index[r]] == {t[0][2]})
        say("%-8s %6d %8d %10d\n" % (t[0][2], len(rows_of_table), 2 * len(rows_of_table), own * entry))
    say("models %d, events %d, distinct rows %d (%d B), names %d (%d B plain), extras %d (%d B)\n"
        % (len(tables), sum(len(r) for r in table_rows), len(row_index), entry * len(row_index),
           len(names), plain, len(ctx.extras), extra * len(ctx.extras)))


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write("usage: python3 tools/gen-events.py PERFMON_DIR [--amd AMD_DIR] "
                         "[-o events/events_data.c]\n")
        return 2
    root, args = argv[1], argv[2:]
    dest, amd_root = "events/events_data.c", None
    while len(args) >= 2 and args[0] in ("-o", "--amd"):
        if args[0] == "-o":
            dest = args[1]
        else:
            amd_root = args[1]
        args = args[2:]
    if args:
        sys.stderr.write("gen-events.py: unexpected %s\n" % " ".join(args))
        return 2
    text = generate(root, amd_root or default_amd_root())
    with open(dest, "w") as f:
        f.write(text)
    sys.stderr.write("wrote %s (%d bytes)\n" % (dest, len(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
