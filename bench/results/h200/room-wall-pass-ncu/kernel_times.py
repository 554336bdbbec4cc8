#!/usr/bin/env python3
"""Per kernel: launches, mean time and DRAM bytes, from an ncu --csv --page raw file (or its trimmed copy)."""
import collections, csv, re, sys

lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
rows = list(csv.reader(lines[start:]))
header, data = rows[0], [r for r in rows[2:] if len(rows[0]) == len(r)]
col = {name: header.index(name) for name in ("Kernel Name", "Grid Size", "gpu__time_duration.sum",
                                             "dram__bytes_read.sum", "dram__bytes_write.sum")}
number = lambda s: float(s.replace(",", ""))
kernels = collections.OrderedDict()
for r in data:
    names = re.findall(r"wavefd::[A-Za-z_:<>0-9]+|star_tma_kernel", r[col["Kernel Name"]])
    key = (names[0] if names else r[col["Kernel Name"]][:60]) + " " + r[col["Grid Size"]]
    k = kernels.setdefault(key, [0, 0.0, 0.0, 0.0])
    k[0] += 1
    k[1] += number(r[col["gpu__time_duration.sum"]])  # ns
    k[2] += number(r[col["dram__bytes_read.sum"]])
    k[3] += number(r[col["dram__bytes_write.sum"]])
print(f"{'launches':>8} {'us each':>10} {'MB read':>9} {'MB written':>10} {'GB/s':>7}  kernel (grid)")
for key, (n, t, rd, wr) in kernels.items():
    print(f"{n:8d} {t / n / 1e3:10.1f} {rd / n / 1e6:9.1f} {wr / n / 1e6:10.1f} {(rd + wr) / t:7.0f}  {key}")
