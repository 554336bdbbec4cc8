#pragma once
// Halo interface: start() begins filling the ghost layers of a field, finish() completes it.
// The time loop updates the interior between the two, so overlapping communication with
// computation is a property of the loop, not of each transport. The single-rank halo applies the
// physical boundary (periodic wrap or rigid odd reflection); MPI transports implement the same
// interface.
#include <memory>
#include <string>

#include "wavefd/grid.hpp"

namespace wavefd {

enum class Boundary { periodic, rigid };
std::string_view to_string(Boundary b);
Boundary parse_boundary(std::string_view name);  // throws Error naming the accepted values

template <class T>
class Halo {
 public:
  virtual ~Halo() = default;
  virtual std::string name() const = 0;
  virtual void start(Field<T>& f) = 0;
  virtual void finish(Field<T>& f) = 0;
};

// Fills ghosts from the field itself, every ghost point in one kernel, edges and corners
// included (the same values as filling x, then y over x ghosts, then z over both).
//  periodic: ghost -g <- n-g, ghost n-1+g <- g-1.
//  rigid:    the walls are nodes at -1 and n where u = 0; ghosts are odd reflections about them:
//            u(-1-m) = -u(-1+m), u(n+m) = -u(n-m).
template <class T>
std::unique_ptr<Halo<T>> make_local_halo(Boundary b);

}  // namespace wavefd
