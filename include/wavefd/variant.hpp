#pragma once
// Kernel variants: each one updates an index box of the two-step scheme
//   u_prev <- sum_k gamma_k u[. + l_k] - u_prev        (Hamilton eq. 2, u+ overwrites u-)
// A variant is a small object in a registry (src/kernels/registry.cpp): a name, a supports()
// predicate and apply() for float and double. Adding a variant = one file + one registry line.
#include <memory>
#include <string>
#include <vector>

#include "wavefd/grid.hpp"
#include "wavefd/stencil.hpp"

namespace wavefd {

// The stencil as kernels see it: flat offsets for this layout and two-step weights gamma.
template <class T>
struct DeviceStencil {
  Kokkos::View<const index_t*> flat_offsets;  // l_k as offsets into the flat array
  Kokkos::View<const T*> gamma;                // gamma_k = lambda^2 a_k + 2 [l_k == 0]
  int size = 0;                                // K
  int radius = 0;
  std::vector<double> host_gamma;              // the same weights (rounded to T), on the host
  std::vector<Offset> offsets;
};

template <class T>
DeviceStencil<T> make_device_stencil(const Stencil& s, double courant, const Layout& layout);

// Star stencils: c[0] = the centre weight, c[m] = the weight at distance m on every axis
// (m = 1..radius), read from the stored (rounded) gammas. Throws Error for a non-star layout.
template <class T>
std::vector<T> star_axis_weights(const DeviceStencil<T>& d);

// Everything a variant needs for one update.
template <class T>
struct TwoStepArgs {
  Kokkos::View<const T*> u;     // u^n, read only
  Kokkos::View<T*> u_prev;      // u^{n-1} on entry, u^{n+1} on exit
  Layout layout;
  const Stencil* stencil = nullptr;
  const DeviceStencil<T>* weights = nullptr;
  Kokkos::DefaultExecutionSpace exec{};
};

class Variant {
 public:
  virtual ~Variant() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual bool supports(const Stencil& s, Precision p) const = 0;
  virtual void apply(const TwoStepArgs<float>& a, const Box& box) const = 0;
  virtual void apply(const TwoStepArgs<double>& a, const Box& box) const = 0;
};

// Implements both apply() overloads with one template: Derived::template run<T>(args, box).
template <class Derived>
class VariantFor : public Variant {
 public:
  void apply(const TwoStepArgs<float>& a, const Box& box) const override {
    static_cast<const Derived&>(*this).template run<float>(a, box);
  }
  void apply(const TwoStepArgs<double>& a, const Box& box) const override {
    static_cast<const Derived&>(*this).template run<double>(a, box);
  }
};

// All registered variants, in registry order.
const std::vector<std::unique_ptr<Variant>>& variants();
// A variant by name ("auto" picks the preferred one supporting the stencil); throws Error.
const Variant& select_variant(const std::string& name, const Stencil& s, Precision p);
std::vector<std::string> variant_names();

}  // namespace wavefd
