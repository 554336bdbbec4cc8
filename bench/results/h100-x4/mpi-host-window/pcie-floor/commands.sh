#!/usr/bin/env bash
# The host link's floor: gpu/pcie/pcie_copy.cu on every GPU of the lease.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-$PWD/gpu-out}
nvidia-smi -L | tee "$O/log.txt"; nvidia-smi topo -m > "$O/topo.txt" 2>&1
nvidia-smi -q | grep -A3 -i "PCIe Generation\|Link Width" | head -40 > "$O/pcie-link.txt" 2>&1
lscpu | head -20 > "$O/lscpu.txt"
nvcc -O2 -o /tmp/pcie gpu/pcie/pcie_copy.cu && /tmp/pcie | tee -a "$O/log.txt"
