#!/usr/bin/env bash
# Layer kernel: vp, u^{n-1} and phi loaded a plane ahead (new) against 041e069 (old).
set -u
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d); O=gpu/bin-old/wavefd; N=gpu/bin-new/wavefd
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
echo "== registers of the layer kernels (float R=4 V=4 PML)"
for b in $O $N; do cuobjdump --dump-resource-usage $b 2>/dev/null | grep -A1 "LayerStreamIfLi4ELi4ELi1E" | grep -o "REG:[0-9]*.*STACK:[0-9]*" | head -2; done
echo "== minimod 100^3: slices at 500/1000, old vs new, every work"
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
for w in seven-domain three-domain unified; do for v in auto layer; do
  for b in old new; do gpu/bin-$b/wavefd seismic $S --scheme.work $w --scheme.variant $v --output.slices $W/$b-$w-$v 2>&1 | grep "min u" | sed "s/^/$b $w $v: /"; done
  for st in 000500 001000; do cmp -s $W/old-$w-$v-$st.bin $W/new-$w-$v-$st.bin && echo "$w $v $st: same bits" || echo "$w $v $st: DIFFERS"; done
done; done
echo "== minimod 1000^3, 300 steps"
for rep in 1 2; do for b in old new; do for w in seven-domain three-domain; do
  gpu/bin-$b/wavefd seismic inputs/seismic-minimod-1000.toml --scheme.steps 300 --scheme.work $w --output.progress none \
    --output.summary $OUT/$b-$w-$rep.json 2>&1 | grep -E "s for|per step" | sed "s/wavefd seismic: //" | tr '\n' ' ' | sed "s/^/$b $w $rep: /"; echo
done; done; done
