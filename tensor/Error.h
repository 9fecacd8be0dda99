#pragma once
// mt::Error and its subclasses, and the MT_CHECK family that builds their messages.
// Every failure a user can cause is reported through these, with a message that names the bad value
// and what was expected.
#include <sstream>
#include <stdexcept>
#include <string>

namespace mt {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
  // The message without any decoration, as PyTorch's `e.msg()`.
  std::string msg() const { return what(); }
};

class NotImplementedError : public Error { using Error::Error; };
class TypeError : public Error { using Error::Error; };
class ValueError : public Error { using Error::Error; };
class IndexError : public Error { using Error::Error; };
class RuntimeError : public Error { using Error::Error; };

namespace detail {
template <typename... Args>
std::string str_cat(const Args&... args) {
  std::ostringstream ss;
  (ss << ... << args);
  return ss.str();
}
// Out of line and cold so the check itself stays a compare and a branch.
template <typename E, typename... Args>
[[noreturn, gnu::cold, gnu::noinline]] void throw_error(const Args&... args) {
  throw E(str_cat(args...));
}
}  // namespace detail

}  // namespace mt

#define MT_CHECK_AS(ErrorType, cond, ...)                                  \
  do {                                                                     \
    if (__builtin_expect(!(cond), 0)) {                                    \
      ::mt::detail::throw_error<ErrorType>(__VA_ARGS__);                   \
    }                                                                      \
  } while (0)

// The generic check: RuntimeError, PyTorch's default for TORCH_CHECK.
#define MT_CHECK(cond, ...) MT_CHECK_AS(::mt::RuntimeError, cond, __VA_ARGS__)
#define MT_CHECK_TYPE(cond, ...) MT_CHECK_AS(::mt::TypeError, cond, __VA_ARGS__)
#define MT_CHECK_VALUE(cond, ...) MT_CHECK_AS(::mt::ValueError, cond, __VA_ARGS__)
#define MT_CHECK_INDEX(cond, ...) MT_CHECK_AS(::mt::IndexError, cond, __VA_ARGS__)
#define MT_CHECK_NOT_IMPLEMENTED(cond, ...) MT_CHECK_AS(::mt::NotImplementedError, cond, __VA_ARGS__)
// Internal invariant violated: a bug in microtorch, never a user's fault.
#define MT_INTERNAL_ASSERT(cond, ...)                                              \
  MT_CHECK_AS(::mt::RuntimeError, cond, "microtorch internal assert failed at ",   \
              __FILE__, ":", __LINE__, ": " #cond ". " __VA_OPT__(, ) __VA_ARGS__)
