// fusec runtime: error reporting without exceptions.
//
// The runtime is linked into ICON and into generated code, which are built without exceptions,
// so fallible functions return a Status (success or a message) or a Result<T> (a value or a
// message).
#ifndef FUSEC_STATUS_H
#define FUSEC_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace fusec {

class Status {
public:
  static Status success() { return Status(); }
  static Status failure(std::string message) {
    Status status;
    status.ok_ = false;
    status.message_ = std::move(message);
    return status;
  }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const std::string &message() const { return message_; }

private:
  bool ok_ = true;
  std::string message_;
};

// A value of type T, or the Status that explains why there is none.
template <typename T> class Result {
public:
  Result(T value) : value_(std::move(value)) {}
  // `failure` must not be a success.
  Result(Status failure) : status_(std::move(failure)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return status_; }
  const std::string &error() const { return status_.message(); }

  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace fusec

#endif // FUSEC_STATUS_H
