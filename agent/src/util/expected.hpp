#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ibkit {

// An error that crossed a boundary (file, syscall, parser), as a message a person can act on.
struct Error {
  std::string message;
  bool environment = false;  // the machine cannot do this at all (no RDMA device): exit code 3
  int errnum = 0;            // the errno it came from (posix_error); 0 when none
};

// Nothing: the value of an Expected that only reports success or an Error.
struct Done {};

// A value or the Error that prevented it. Errors are values at boundaries; callers decide.
template <class T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Expected(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() { return std::get<T>(state_); }
  const T& value() const { return std::get<T>(state_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }

  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace ibkit
