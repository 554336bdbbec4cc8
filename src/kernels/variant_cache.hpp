#pragma once
// Per-precision cache of what a variant builds once from the stencil and layout (a matrix, a
// regrouped weight table), rebuilt only when they change. The cached Views are released by a
// Kokkos finalize hook, since the registry's variants outlive Kokkos.
#include <memory>
#include <mutex>
#include <type_traits>

#include <Kokkos_Core.hpp>

namespace wavefd::kernels {

template <template <class> class Entry>
class VariantCache {
 public:
  // The cached entry for T: kept while fresh(entry) holds, else replaced by build().
  template <class T, class Fresh, class Build>
  const Entry<T>& get(Fresh&& fresh, Build&& build) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!hook_) {
      Kokkos::push_finalize_hook([this] {
        float_.reset();
        double_.reset();
      });
      hook_ = true;
    }
    auto& slot = slot_for<T>();
    if (!slot || !fresh(*slot)) {
      slot.reset();  // free the old entry before building the new one
      slot = std::make_unique<Entry<T>>(build());
    }
    return *slot;
  }

 private:
  template <class T>
  std::unique_ptr<Entry<T>>& slot_for() const {
    if constexpr (std::is_same_v<T, float>) return float_;
    else return double_;
  }
  mutable std::mutex mutex_;
  mutable bool hook_ = false;
  mutable std::unique_ptr<Entry<float>> float_;
  mutable std::unique_ptr<Entry<double>> double_;
};

}  // namespace wavefd::kernels
