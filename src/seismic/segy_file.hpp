#pragma once
// What the SEG-Y reader and writers share (segy.hpp): segyio's file handle, closed when it goes out
// of scope, and the header fields segyio 1.8 and 1.9 spell differently.
#include <segyio/segy.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace wavefd::segy {

struct Close {
  void operator()(segy_file* f) const { segy_close(f); }
};
using File = std::unique_ptr<segy_file, Close>;

inline File open(const std::string& path, const char* mode) { return File(segy_open(path.c_str(), mode)); }

// Closes `f`, flushing it; false when the flush failed.
inline bool close(File& f) { return segy_close(f.release()) == SEGY_OK; }

// SEG-Y revision 1.0 in bytes 3501-3502 of the file (segyio 1.8 has one 2-byte field there,
// 1.9 two 1-byte fields): written directly into the binary header.
inline void set_revision_1(char* binheader) {
  binheader[SEGY_BIN_SEGY_REVISION - SEGY_TEXT_HEADER_SIZE - 1] = 1;
  binheader[SEGY_BIN_SEGY_REVISION - SEGY_TEXT_HEADER_SIZE] = 0;
}

// The 3200-byte textual header: 40 cards of 80 characters, "C 1 " ... "C40 " and then `lines`
// (ASCII, cut at 76 characters; segyio writes them as EBCDIC); the last card ends it.
inline std::string textual_header(const std::vector<std::string>& lines) {
  std::string text(SEGY_TEXT_HEADER_SIZE, ' ');
  for (int card = 0; card < 40; ++card) {
    char head[8];
    std::snprintf(head, sizeof head, "C%2d ", card + 1);
    std::string line = card == 39 ? "END TEXTUAL HEADER" : std::size_t(card) < lines.size() ? lines[std::size_t(card)] : "";
    for (char& c : line)
      if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
    text.replace(std::size_t(card) * 80, 4, head);
    text.replace(std::size_t(card) * 80 + 4, std::min<std::size_t>(line.size(), 76), line, 0, 76);
  }
  return text;
}

// The file's textual and binary headers (revision 1, IEEE floats, the binary header's `fields`
// besides), and the format set on `f` for its traces. Returns the first trace's byte offset, or
// -1 when a write failed.
inline long write_file_headers(File& f, const std::string& textual, const std::vector<std::pair<int, int>>& fields) {
  char bin[SEGY_BINARY_HEADER_SIZE] = {};
  if (segy_set_bfield(bin, SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE) != SEGY_OK) return -1;
  for (const auto& [field, value] : fields)
    if (segy_set_bfield(bin, field, value) != SEGY_OK) return -1;
  set_revision_1(bin);
  if (segy_write_textheader(f.get(), 0, textual.c_str()) != SEGY_OK || segy_write_binheader(f.get(), bin) != SEGY_OK ||
      segy_set_format(f.get(), SEGY_IEEE_FLOAT_4_BYTE) != SEGY_OK)
    return -1;
  return segy_trace0(bin);
}

// Coordinates and elevations in centimetres: the scalar -100 of SEG-Y's trace header.
inline constexpr int coordinate_scalar = -100;

}  // namespace wavefd::segy
