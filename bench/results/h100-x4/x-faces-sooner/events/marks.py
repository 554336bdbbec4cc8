import csv, glob, os, statistics, sys
names = {0:"begin",1: "post", 2: "readySent", 3: "x0PeerReady", 4: "x0Packed", 5: "x0Landed", 6: "x1PeerReady", 7: "x1Packed",
         8: "x1Landed", 9: "lateCopied", 10: "lateLanded", 11: "x0Seen", 12: "x1Seen", 13: "unpacked"}
for d in sys.argv[1:]:
  print(d)
  for rank in range(4):
    files = glob.glob(os.path.join(d, "rank%d-inst*.csv" % rank))
    if not files: continue
    f = max(files, key=os.path.getsize)
    rows = [(int(a), int(b), float(c)) for a, b, c in csv.reader(open(f))]
    ex = sorted({r[0] for r in rows})
    keep = set(ex[25:110])
    by = {}
    for e, m, us in rows:
        if e in keep: by.setdefault(m, []).append(us)
    print("  r%d (%d ex):" % (rank, len(ex)), " ".join("%s %.0f" % (names[m], statistics.median(v)) for m, v in sorted(by.items()) if m))
