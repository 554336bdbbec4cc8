#pragma once
// SEG-Y files through segyio (libsegyio, an optional dependency: WAVEFD_ENABLE_SEGYIO). The
// functions below are defined only in a build that found it (`segy_support`); callers test the
// flag with `if constexpr`, so a build without segyio never calls one.
//
// Receiver traces (receivers.format = segy): SEG-Y rev 1, big-endian, IEEE float samples (format
// code 5), one trace per receiver in receiver order, all of one length. Binary header: samples,
// sample interval (µs, rounded: the exact one is in the textual header), format 5, metres.
// Trace headers: trace numbers (1, 5, 13), samples (115) and interval (117); the receiver at
// GroupX, GroupY (81, 85) and ReceiverGroupElevation = -depth (41); the first source at SourceX,
// SourceY (73, 77) and SourceDepth (49); coordinates and elevations in centimetres (scalars -100
// at 71 and 69); offset (37) the horizontal source-receiver distance in whole metres.
// python3-segyio: `f = segyio.open(path, ignore_geometry=True); f.trace.raw[:]` (receivers x
// samples), `f.attributes(segyio.TraceField.GroupX)[:] / 100`.
//
// Velocity models (velocity.model = segy): one trace per (x, y) column of the grid, x fastest
// (trace i + nx * j holds the column (i, j)), its samples along z from the top; 4-byte IBM or IEEE
// floats (format 1 or 5), big- or little-endian. The file's sample interval is not read: the
// spacing is grid.spacing.
#include <memory>
#include <string>
#include <vector>

#include "wavefd/trace_file.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

class VelocityModel;

#ifdef WAVEFD_HAVE_SEGYIO
inline constexpr bool segy_support = true;
#else
inline constexpr bool segy_support = false;
#endif

// Why SEG-Y rev 1 cannot hold traces of `samples` samples `interval` seconds apart (at most 32767
// samples; an interval of 1 .. 32767 µs once rounded), or "" when it can.
std::string segy_trace_limits(std::size_t samples, double interval);

// Writes `t` as SEG-Y (above) whole or not at all; `notes` are extra lines of the textual header
// (ASCII, cut at 75 characters). Throws Error naming `key` (the deck key of the path) when it
// cannot; then neither the temporary file nor a partial `path` is left.
void write_segy_traces(const std::string& path, const Traces& t, const std::vector<std::string>& notes,
                       const std::string& key);

// velocity.file of velocity.model = segy: checks the headers against the grid (n points, spacing h)
// and throws Error naming velocity.file for a file that is unreadable, not SEG-Y, of a sample
// format other than 1 or 5, or of a trace or sample count other than the grid's. fill() reads the
// traces and samples of its box only.
std::unique_ptr<VelocityModel> open_segy_velocity(const std::string& path, const Index3& n, double h);
// Writes such a file (IEEE float, big-endian; tests and conversions), whole or not at all:
// nx * ny * nz speeds, x fastest, as in write_raw_velocity. Trace headers: inline j + 1 and
// crossline i + 1 (189, 193), the column's position at CDP X/Y (181, 185) in centimetres.
void write_segy_velocity(const std::string& path, const Index3& n, double h, const std::vector<float>& speeds);

}  // namespace wavefd
