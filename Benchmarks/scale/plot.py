#!/usr/bin/env python3
"""The plot of Benchmarks/scale-bench.sh, from the results file report.py writes (the same
numbers as the Markdown table).

    plot.py scale-results.json scale-plot.png

Log-log, records on x. Left: wall time of mapc per format and flag set (solid), the I/O floor of
each format (dashed) and the peers where they ran (dotted). Right: peak RSS in MB, mapc and the
peers. Needs matplotlib (python3 -m pip install --user matplotlib); exits 3 with that advice
when it is missing.
"""
import json
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError:
    print("plot.py: matplotlib is missing: python3 -m pip install --user matplotlib", file=sys.stderr)
    sys.exit(3)

COLORS = {"json": ["tab:blue", "tab:cyan", "tab:purple"], "sqlite": ["tab:red", "tab:orange", "tab:brown"]}
PEER_MARKERS = {"jq": "x", "python": "+"}


def short(n):
    for div, unit in ((1_000_000, "M"), (1_000, "k")):
        if n >= div and n % (div // 10) == 0:
            return f"{n / div:g}{unit}"
    return str(n)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot.py RESULTS.json OUT.png")
    res = json.load(open(argv[1], encoding="utf-8"))
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(13, 6.5))
    for fmt, series in res.get("series", {}).items():
        colors = COLORS.get(fmt, ["tab:green", "tab:olive", "tab:gray"])
        for i, (label, s) in enumerate(series.items()):
            pts = s["points"]
            if not pts:
                continue
            c = colors[i % len(colors)]
            x = [p["records"] for p in pts]
            ax_t.plot(x, [p["time_s"] for p in pts], "o-", color=c, label=f"mapc {fmt} [{label}]")
            ax_m.plot(x, [p["rss_kb"] / 1024 for p in pts], "o-", color=c, label=f"mapc {fmt} [{label}]")
        sizes = [s for s in res["formats"].get(fmt, {}).values() if "floor" in s]
        if sizes:
            ax_t.plot([s["records"] for s in sizes], [s["floor"]["total_s"] for s in sizes], "s--",
                      color=colors[0], alpha=0.6, label=f"I/O floor {fmt}")
        peers = {}
        for s in res["formats"].get(fmt, {}).values():
            for name, e in s.get("peers", {}).items():
                if e.get("status") == "ok":
                    peers.setdefault(name, []).append((s["records"], e["time_s"], e["rss_kb"]))
        for name, rows in peers.items():
            rows.sort()
            m = PEER_MARKERS.get(name, "^")
            ax_t.plot([r[0] for r in rows], [r[1] for r in rows], m + ":", color=colors[0], markersize=9,
                      label=f"{name} peer {fmt}")
            ax_m.plot([r[0] for r in rows], [r[2] / 1024 for r in rows], m + ":", color=colors[0], markersize=9,
                      label=f"{name} peer {fmt}")
    ticks = sorted({s["records"] for sizes in res.get("formats", {}).values() for s in sizes.values()})
    for ax, title, unit in ((ax_t, "wall time", "seconds"), (ax_m, "peak RSS", "MB")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        if ticks:
            ax.set_xticks(ticks, [short(n) for n in ticks])
            ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_xlabel("records")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3)
    m = res.get("machine", {})
    fig.suptitle(f"mapc scaling, diary migration: {m.get('git_commit', '?')}, {m.get('nproc', '?')} cores "
                 f"{m.get('cpu', '')}, {m.get('date', '')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)


if __name__ == "__main__":
    main(sys.argv)
