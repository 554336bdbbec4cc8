# The share of a voxel file's cells that the bulk update covers when each tile of TX x BY columns
# streams the union of its columns' z ranges of air (cuda-star-tma: 128 floats x 16 rows), and with
# per-column ranges (1 x 1). Run: python3 tile_fraction.py FILE.voxels (numpy).
import json, sys, numpy as np
path = sys.argv[1]
data = open(path, 'rb').read()
nl = data.index(b'\n'); head = json.loads(data[:nl]); pos = nl + 1
n = head['cells']; total = n[0]*n[1]*n[2]
air = np.zeros(total, dtype=np.uint8)
at = 0; val = 0
for r in range(head['air_runs']):
    x = 0; shift = 0
    while True:
        b = data[pos]; pos += 1
        x |= (b & 0x7f) << shift; shift += 7
        if b < 0x80: break
    if val: air[at:at+x] = 1
    at += x; val ^= 1
    if at >= total: break
air = air.reshape(n[2], n[1], n[0])
print('cells', n, 'air', air.mean())
has = air.any(axis=0)  # (y, x)
lo = np.where(has, np.argmax(air, axis=0), 0)
hi = np.where(has, n[2] - np.argmax(air[::-1], axis=0), 0)
for TX, BY in ((128, 16), (1, 1)):
    upd = 0
    for y0 in range(0, n[1], BY):
        for x0 in range(0, n[0], TX):
            h = has[y0:y0+BY, x0:x0+TX]
            if not h.any(): continue
            l = lo[y0:y0+BY, x0:x0+TX][h].min(); u = hi[y0:y0+BY, x0:x0+TX][h].max()
            upd += (u - l) * h.shape[0] * h.shape[1]
    print(f'tile {TX}x{BY}: updated fraction {upd/total:.4f}')
