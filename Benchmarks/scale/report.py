#!/usr/bin/env python3
"""Turns the raw log of Benchmarks/scale-bench.sh into the results file and the Markdown report.

    report.py scale-log.tsv scale-results.json scale-results.md

The log has one tab-separated record per line; its first field says what it is:
  machine KEY VALUE | settings KEY VALUE | config LABEL supported|unsupported NOTE
  generated FORMAT N SECONDS | input FORMAT N BYTES SHA256 | skip FORMAT N WHY
  floor FORMAT N RUN READ_S WRITE_S BYTES
  run FORMAT N mapc|peer LABEL RUN ok|failed|refused SECONDS RSS_KB BYTES SHA256 NOTE
  compare FORMAT N WHAT AGAINST VERDICT | peers_skipped FORMAT N WHY

The JSON holds everything measured plus what is derived from it (time per object, the marginal
slope between neighbouring sizes and its ratio to the reference size's slope, the ratio to the
I/O floor, the peers' ratios), so that the table and the plot (plot.py) show the same numbers.
"""
import json
import statistics
import sys

PEERS = {"json": ["jq", "python"], "sqlite": ["python"]}
LINEAR_LIMIT = 1.3


def parse(path):
    res = {"machine": {}, "settings": {}, "configs": [], "formats": {}}

    def size(fmt, n):
        sizes = res["formats"].setdefault(fmt, {})
        return sizes.setdefault(str(n), {
            "records": int(n), "mapc": {}, "peers": {}, "compares": [], "floor_runs": []})

    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        kind = f[0]
        if kind in ("machine", "settings"):
            res[kind][f[1]] = f[2] if len(f) > 2 else ""
        elif kind == "config":
            res["configs"].append({"label": f[1], "supported": f[2] == "supported", "note": f[3]})
        elif kind == "generated":
            size(f[1], f[2])["generated_s"] = float(f[3])
        elif kind == "input":
            s = size(f[1], f[2])
            s["input_bytes"], s["input_sha256"] = int(f[3]), f[4]
        elif kind == "skip":
            size(f[1], f[2])["skipped"] = f[3]
        elif kind == "floor":
            size(f[1], f[2])["floor_runs"].append(
                {"read_s": float(f[4]), "write_s": float(f[5]), "bytes": int(f[6])})
        elif kind == "run":
            fmt, n, tool, label, run, status, secs, kb, nbytes, sha, note = f[1:12]
            s = size(fmt, n)
            entry = (s["mapc"] if tool == "mapc" else s["peers"]).setdefault(label, {"runs": []})
            entry["runs"].append({
                "run": int(run), "status": status,
                "time_s": float(secs) if secs else None, "rss_kb": int(kb) if kb else None,
                "output_bytes": int(nbytes) if nbytes else None, "output_sha256": sha or None,
                "note": note})
        elif kind == "compare":
            size(f[1], f[2])["compares"].append({"what": f[3], "against": f[4], "verdict": f[5]})
        elif kind == "peers_skipped":
            size(f[1], f[2])["peers_note"] = f[3]
    return res


def summarize(entry):
    """Median time and largest RSS of the successful runs; the status of the first failure."""
    runs = entry["runs"]
    bad = [r for r in runs if r["status"] != "ok"]
    ok = [r for r in runs if r["status"] == "ok"]
    entry["status"] = bad[0]["status"] if bad else "ok"
    entry["note"] = bad[0]["note"] if bad else "; ".join(sorted({r["note"] for r in ok if r["note"]}))
    if ok and not bad:
        entry["time_s"] = statistics.median(r["time_s"] for r in ok)
        entry["rss_kb"] = max(r["rss_kb"] for r in ok)
        entry["output_bytes"] = ok[-1]["output_bytes"]
        entry["output_sha256"] = ok[0]["output_sha256"]


def derive(res):
    ref_size = int(res["settings"].get("slope_ref", 300000))
    labels = [c["label"] for c in res["configs"] if c["supported"]]
    res["series"] = {}
    for fmt, sizes in res["formats"].items():
        rows = sorted(sizes.values(), key=lambda s: s["records"])
        sizes_sorted = {str(s["records"]): s for s in rows}
        res["formats"][fmt] = sizes_sorted
        for s in rows:
            for entry in list(s["mapc"].values()) + list(s["peers"].values()):
                summarize(entry)
            if s["floor_runs"]:
                fr = s["floor_runs"]
                read = statistics.median(r["read_s"] for r in fr)
                write = statistics.median(r["write_s"] for r in fr)
                s["floor"] = {"read_s": read, "write_s": write, "total_s": read + write,
                              "output_bytes": fr[0]["bytes"]}
        for label in labels:
            points = []
            prev = None
            for s in rows:
                e = s["mapc"].get(label)
                if not e or e.get("status") != "ok":
                    continue
                n, t = s["records"], e["time_s"]
                p = {"records": n, "time_s": t, "rss_kb": e["rss_kb"],
                     "per_object_us": t / n * 1e6}
                if prev:
                    p["slope_us"] = (t - prev["time_s"]) / (n - prev["records"]) * 1e6
                    p["slope_from"] = prev["records"]
                if "floor" in s:
                    p["floor_s"] = s["floor"]["total_s"]
                    p["floor_ratio"] = t / s["floor"]["total_s"] if s["floor"]["total_s"] > 0 else None
                for peer, pe in s["peers"].items():
                    if pe.get("status") == "ok":
                        p.setdefault("peers", {})[peer] = {"time_s": pe["time_s"], "ratio": pe["time_s"] / t}
                points.append(p)
                prev = p
            with_slope = [p for p in points if "slope_us" in p]
            ref = next((p for p in with_slope if p["records"] == ref_size), with_slope[0] if with_slope else None)
            verdict = "not measured (needs a slope beyond the reference size)"
            if ref:
                for p in with_slope:
                    p["slope_ratio"] = p["slope_us"] / ref["slope_us"] if ref["slope_us"] > 0 else None
                beyond = [p for p in with_slope if p["records"] > ref["records"]]
                if beyond and all(p["slope_ratio"] for p in beyond):
                    worst = max(max(p["slope_ratio"], 1 / p["slope_ratio"]) for p in beyond)
                    verdict = (f"{'met' if worst <= LINEAR_LIMIT else 'NOT met'}: slopes beyond "
                               f"{ref['records']:,} records within {worst:.2f}x of its slope "
                               f"(limit {LINEAR_LIMIT}x)")
            res["series"].setdefault(fmt, {})[label] = {
                "points": points, "slope_ref": ref["records"] if ref else None, "linear": verdict}


def fmt_s(x):
    if x is None:
        return "—"
    return f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def fmt_mb(kb):
    return "—" if kb is None else f"{kb / 1024:,.0f} MB"


def render(res):
    out = []
    m, st = res["machine"], res["settings"]
    peer_max = {"json": st.get("peer_max_json"), "sqlite": st.get("peer_max_sqlite")}
    out.append("# Scaling benchmark (issue 41)")
    out.append("")
    out.append(f"{m.get('date', '?')}; mapc {m.get('git_commit', '?')} ({m.get('mapc_version', '?')}); "
               f"sizes {st.get('sizes')}; seed {st.get('seed')}; {st.get('runs')} timed run(s) per "
               f"point (median); load average {m.get('loadavg_start', '?')} at the start, "
               f"{m.get('loadavg_end', '?')} at the end.")
    out.append("")
    out.append("Every run: `sync`, the input read once untimed (page cache), then timed with "
               "`/usr/bin/time -f '%e %M'` (wall time, peak RSS). mapc fsyncs and renames its output; "
               "the peers do not. The I/O floor is reading the input from the page cache plus writing "
               "and fsyncing as many bytes as mapc's output has (`Benchmarks/scale/iofloor.py`). "
               "Slopes are marginal times per record between a size and the one before it (fixed "
               f"cost aside); linear time means every slope beyond the reference size "
               f"(SLOPE_REF, {int(st.get('slope_ref', 300000)):,} records, else the first size with a "
               f"slope) within {LINEAR_LIMIT}x of the slope that ends there.")
    out.append("")
    for c in res["configs"]:
        if not c["supported"]:
            out.append(f"- mapc `{c['label']}`: {c['note']}")
    if any(not c["supported"] for c in res["configs"]):
        out.append("")
    for fmt, sizes in res["formats"].items():
        peers = PEERS.get(fmt, [])
        if fmt == "json" and "peers_json" in st:
            peers = st["peers_json"].split()
        for s in sizes.values():
            if "skipped" in s:
                out.append(f"- {fmt} {s['records']:,} records: {s['skipped']}")
        for label, series in res["series"].get(fmt, {}).items():
            out.append(f"## {fmt}, mapc `{label}`")
            out.append("")
            names = " and ".join(peers)
            out.append(f"Peers ({names}) run up to {int(peer_max[fmt]):,} records only "
                       "(PEER_MAX_JSON, PEER_MAX_SQLITE: they take many times mapc's time and memory). "
                       f"Linear time: {series['linear']}.")
            out.append("")
            head = ["records", "input bytes", "output bytes", "time", "peak RSS", "time / record",
                    "marginal slope per record", "slope / ref. slope", "I/O floor (read + write)",
                    "time / floor"]
            for p in peers:
                head += [p, f"{p} / mapc"]
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "---|" * len(head))
            points = {p["records"]: p for p in series["points"]}
            for s in sizes.values():
                if "skipped" in s:
                    continue
                e = s["mapc"].get(label, {})
                p = points.get(s["records"])
                row = [f"{s['records']:,}", f"{s.get('input_bytes', 0):,}"]
                if p is None:
                    why = e.get("status", "not run")
                    row += [f"{why}: {e.get('note', '')}".strip(": ")] + ["—"] * (len(head) - 3 - 2 * len(peers))
                else:
                    fl = s.get("floor")
                    row += [f"{e['output_bytes']:,}", fmt_s(p["time_s"]), fmt_mb(p["rss_kb"]),
                            f"{p['per_object_us']:.2f} µs",
                            f"{p['slope_us']:.2f} µs (from {p['slope_from']:,})" if "slope_us" in p else "—",
                            (f"{p['slope_ratio']:.2f}" + (" (ref.)" if p["records"] == series["slope_ref"] else ""))
                            if p.get("slope_ratio") else "—",
                            f"{fmt_s(fl['total_s'])} ({fl['read_s']:.2f} + {fl['write_s']:.2f})" if fl else "—",
                            f"{p['floor_ratio']:.1f}x" if p.get("floor_ratio") else "—"]
                for peer in peers:
                    pe = s["peers"].get(peer)
                    if pe is None:
                        row += [f"not run (> {int(peer_max[fmt]):,})" if "peers_note" in s else "—", "—"]
                    elif pe["status"] != "ok":
                        row += [f"failed ({pe['note']})", "—"]
                    else:
                        ratio = f"**{pe['time_s'] / p['time_s']:.1f}x**" if p else "—"
                        row += [f"{fmt_s(pe['time_s'])}, {fmt_mb(pe['rss_kb'])}", ratio]
                out.append("| " + " | ".join(row) + " |")
            out.append("")
    out.append("## Digests (sha256)")
    out.append("")
    out.append("| format | records | file | bytes | sha256 | compared |")
    out.append("|---|---|---|---|---|---|")
    for fmt, sizes in res["formats"].items():
        for s in sizes.values():
            if "input_sha256" not in s:
                continue
            n = f"{s['records']:,}"
            out.append(f"| {fmt} | {n} | input (seed {st.get('seed')}) | {s['input_bytes']:,} | `{s['input_sha256']}` | — |")
            verdicts = {c["what"]: f"{c['verdict']} against {c['against']}" for c in s["compares"]}
            for label, e in s["mapc"].items():
                if e.get("status") == "ok":
                    v = verdicts.get(f"mapc [{label}]", "reference")
                    if e.get("note"):
                        v += f"; {e['note']}"
                    out.append(f"| {fmt} | {n} | mapc `{label}` | {e['output_bytes']:,} | `{e['output_sha256']}` | {v} |")
            for peer, e in s["peers"].items():
                if e.get("status") == "ok":
                    out.append(f"| {fmt} | {n} | {peer} | {e['output_bytes']:,} | `{e['output_sha256']}` | {verdicts.get(peer, '—')} |")
    out.append("")
    out.append("## Machine")
    out.append("")
    for key, name in [("nproc", "nproc"), ("cpu", "CPU (lscpu model name)"), ("memory", "memory"),
                      ("kernel", "kernel"), ("filesystem", "work directory's file system"),
                      ("date", "date"), ("git_commit", "mapc commit (worktree)"),
                      ("mapc_version", "mapc --version"), ("mapc_binary", "mapc binary"),
                      ("swift", "Swift"), ("python", "Python"), ("jq", "jq"),
                      ("loadavg_start", "load average at the start"), ("loadavg_end", "load average at the end")]:
        if key in m:
            out.append(f"- {name}: {m[key]}")
    out.append("")
    return "\n".join(out)


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: report.py LOG RESULTS.json RESULTS.md")
    res = parse(argv[1])
    derive(res)
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(argv[3], "w", encoding="utf-8") as f:
        f.write(render(res))


if __name__ == "__main__":
    main(sys.argv)
