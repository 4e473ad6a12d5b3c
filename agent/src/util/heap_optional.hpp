#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace ibkit {

// An optional whose value lives on the heap: one pointer where the value is absent, for a
// member that most of a million elements leave empty (a sweep pair's report, 200 bytes inline).
// It converts from T and from std::optional<T> as std::optional does; copies copy the value.
template <class T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): as std::optional
  HeapOptional(T value)            // NOLINT(google-explicit-constructor)
      : value_(std::make_unique<T>(std::move(value))) {}
  HeapOptional(std::optional<T> value) {  // NOLINT(google-explicit-constructor)
    if (value) value_ = std::make_unique<T>(std::move(*value));
  }
  HeapOptional(const HeapOptional& other) : value_(copy_of(other)) {}
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(const HeapOptional& other) {
    if (this != &other) value_ = copy_of(other);
    return *this;
  }
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  ~HeapOptional() = default;

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  void reset() { value_.reset(); }

 private:
  static std::unique_ptr<T> copy_of(const HeapOptional& other) {
    return other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
  }

  std::unique_ptr<T> value_;
};

}  // namespace ibkit
