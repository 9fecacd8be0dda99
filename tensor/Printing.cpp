// operator<< for tensors, printing exactly what PyTorch's repr prints (with "mt." for "torch."): the
// same number formatting, column widths, line wrapping at 80 characters, summarisation of large
// tensors and dtype/device/size suffixes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tensor/Allocator.h"
#include "tensor/Tensor.h"

namespace mt {

namespace {

// PyTorch's default print options.
constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;  // more elements than this are summarised
constexpr int64_t kEdgeItems = 3;     // elements kept at each end of a summarised dim
constexpr int64_t kLineWidth = 80;

// `format` takes a precision and a double: "%.*f" or "%.*e".
std::string printf_double(const char* format, int precision, double v) {
  const int n = std::snprintf(nullptr, 0, format, precision, v);
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(s.data(), s.size(), format, precision, v);
  s.pop_back();
  return s;
}

// Python prints every NaN as "nan", where printf may print "-nan".
std::string nonfinite_str(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

// Chooses one format for all the (shown) elements of a tensor, as PyTorch's _Formatter does: floats
// whose finite non-zero values are all integers print as "3.", others with 4 decimals, and in
// scientific notation when their magnitudes span more than 1000x or leave [1e-4, 1e8].
class Formatter {
 public:
  Formatter(ScalarType dtype, const std::vector<Scalar>& values) : floating_(is_floating_point(dtype)) {
    if (!floating_) {
      for (const Scalar& v : values) max_width_ = std::max(max_width_, unpadded(v).size());
      return;
    }
    std::vector<double> finite;
    for (const Scalar& v : values) {
      const double d = v.toDouble();
      if (std::isfinite(d) && d != 0) finite.push_back(d);
    }
    if (finite.empty()) return;
    double min_abs = INFINITY, max_abs = 0;
    for (double d : finite) {
      min_abs = std::min(min_abs, std::abs(d));
      max_abs = std::max(max_abs, std::abs(d));
      int_mode_ = int_mode_ && d == std::ceil(d);
    }
    sci_mode_ = max_abs / min_abs > 1000. || max_abs > 1.e8 || (!int_mode_ && min_abs < 1.e-4);
    for (double d : finite) max_width_ = std::max(max_width_, unpadded(d).size());
  }

  size_t width() const { return max_width_; }

  // The element right-aligned to the common width.
  std::string format(const Scalar& v) const {
    const std::string s = unpadded(v);
    return std::string(max_width_ - std::min(max_width_, s.size()), ' ') + s;
  }

 private:
  std::string unpadded(const Scalar& v) const {
    if (v.isBoolean()) return v.toBool() ? "True" : "False";
    if (!floating_) return std::to_string(v.toLong());
    const double d = v.toDouble();
    if (!std::isfinite(d)) return nonfinite_str(d);
    if (sci_mode_) return printf_double("%.*e", kPrecision, d);
    if (int_mode_) return printf_double("%.*f", 0, d) + ".";
    return printf_double("%.*f", kPrecision, d);
  }

  bool floating_;
  bool int_mode_ = true;
  bool sci_mode_ = false;
  size_t max_width_ = 1;
};

// The indices of a dim that are printed: all of them, or when summarising the first and last
// kEdgeItems around a -1 that stands for "...".
std::vector<int64_t> shown_indices(int64_t size, bool summarize) {
  std::vector<int64_t> shown;
  const bool cut = summarize && size > 2 * kEdgeItems;
  for (int64_t i = 0; i < size; ++i) {
    if (cut && i == kEdgeItems) {
      shown.push_back(-1);
      i = size - kEdgeItems;
    }
    shown.push_back(i);
  }
  return shown;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

// A separator that ends the line, leaves `blank_lines` empty lines and indents by `indent`.
std::string line_break(int64_t blank_lines, int64_t indent) {
  return std::string(",").append(blank_lines + 1, '\n').append(indent, ' ');
}

std::string bracketed(const std::string& s) { return std::string("[").append(s).append("]"); }

// Walks a CPU tensor's elements in logical order through its strides.
// A CPU tensor with the sizes, strides and values of a device tensor: the span of memory its elements
// lie in, copied byte for byte.
intrusive_ptr<TensorImpl> host_copy(const TensorImpl& t) {
  auto copy = TensorImpl::empty_strided(t.sizes(), t.strides(), t.dtype(), Device(kCPU));
  int64_t extent = 1;
  for (size_t d = 0; d < t.sizes().size(); ++d) extent += (t.sizes()[d] - 1) * t.strides()[d];
  get_allocator(t.device().type())->copy_to_host(copy->data(), t.data(), extent * t.itemsize());
  return copy;
}

class TensorPrinter {
 public:
  explicit TensorPrinter(const TensorImpl& t)
      : t_(t), base_(static_cast<const char*>(t.data())), summarize_(t.numel() > kThreshold) {}

  std::string str(int64_t indent) const {
    std::vector<Scalar> shown;
    collect(0, 0, shown);
    const Formatter formatter(t_.dtype(), shown);
    return str(formatter, 0, 0, indent);
  }

 private:
  Scalar at(int64_t offset) const {
    const char* p = base_ + offset * static_cast<int64_t>(t_.itemsize());
    switch (t_.dtype()) {
#define MT_CASE(cpp, name, _) \
  case ScalarType::name:      \
    return Scalar(*reinterpret_cast<const cpp*>(p));
      MT_FORALL_SCALAR_TYPES(MT_CASE)
#undef MT_CASE
      default:
        MT_CHECK_TYPE(false, "cannot print a tensor of dtype ", t_.dtype());
    }
    return Scalar();
  }

  // The elements that will be printed, so that the format fits them and not the hidden ones.
  void collect(int64_t dim, int64_t offset, std::vector<Scalar>& out) const {
    if (dim == t_.dim()) return out.push_back(at(offset));
    for (int64_t i : shown_indices(t_.size(dim), summarize_)) {
      if (i >= 0) collect(dim + 1, offset + i * t_.stride(dim), out);
    }
  }

  std::string str(const Formatter& f, int64_t dim, int64_t offset, int64_t indent) const {
    if (dim == t_.dim()) return f.format(at(offset));
    std::vector<std::string> items;
    const bool last_dim = dim == t_.dim() - 1;
    for (int64_t i : shown_indices(t_.size(dim), summarize_)) {
      if (i < 0) {
        items.push_back(last_dim ? " ..." : "...");
      } else {
        const int64_t at_i = offset + i * t_.stride(dim);
        items.push_back(last_dim ? f.format(at(at_i)) : str(f, dim + 1, at_i, indent + 1));
      }
    }
    if (!last_dim) {
      // Blank lines between blocks: one fewer than the dims below.
      return bracketed(join(items, line_break(t_.dim() - dim - 2, indent + 1)));
    }
    const int64_t per_line = std::max<int64_t>(1, (kLineWidth - indent) / static_cast<int64_t>(f.width() + 2));
    std::vector<std::string> lines;
    for (size_t i = 0; i < items.size(); i += per_line) {
      const auto end = items.begin() + std::min(items.size(), i + per_line);
      lines.push_back(join(std::vector<std::string>(items.begin() + i, end), ", "));
    }
    return bracketed(join(lines, line_break(0, indent + 1)));
  }

  const TensorImpl& t_;
  const char* base_;
  bool summarize_;
};

std::string tuple_str(IntArrayRef sizes) {
  std::ostringstream ss;
  ss << "(";
  for (size_t i = 0; i < sizes.size(); ++i) ss << (i ? ", " : "") << sizes[i];
  return ss.str() + (sizes.size() == 1 ? ",)" : ")");
}

std::string dtype_str(ScalarType t) {
  std::ostringstream ss;
  ss << t;
  return ss.str();
}

// Appends ", suffix" to the last line, or starts a new line when it would pass the line width.
std::string add_suffixes(std::string s, const std::vector<std::string>& suffixes, int64_t indent) {
  const size_t newline = s.rfind('\n');
  int64_t last_line_len = static_cast<int64_t>(s.size()) - (newline == std::string::npos ? -1 : newline) + 1;
  for (const std::string& suffix : suffixes) {
    const auto len = static_cast<int64_t>(suffix.size());
    if (last_line_len + len + 2 > kLineWidth) {
      s += ",\n" + std::string(indent, ' ') + suffix;
      last_line_len = indent + len;
    } else {
      s += ", " + suffix;
      last_line_len += len + 2;
    }
  }
  return s + ")";
}

// A transform's wrapper as PyTorch shows it: its header, then the wrapped tensor indented by 4.
std::string wrapper_str(const TensorImpl::WrapperRepr& wrapper) {
  std::ostringstream value;
  value << Tensor(wrapper.value);
  std::string out = wrapper.header + ", value=\n    ";
  for (char c : value.str()) out += c == '\n' ? std::string("\n    ") : std::string(1, c);
  return out + "\n)";
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "[ Tensor (undefined) ]";
  if (auto wrapper = t.unsafeGetTensorImpl()->wrapper_repr()) return os << wrapper_str(*wrapper);
  const std::string prefix = "tensor(";
  const auto indent = static_cast<int64_t>(prefix.size());
  const ScalarType dtype = t.dtype();
  std::vector<std::string> suffixes;
  if (!t.is_cpu()) suffixes.push_back("device='" + t.device().str() + "'");
  std::string body;
  if (t.is_meta() || t.unsafeGetTensorImpl()->is_fake()) {
    // No data to show: "..." and the size.
    suffixes.push_back("size=" + tuple_str(t.sizes()));
    if (dtype != get_default_dtype()) suffixes.push_back("dtype=" + dtype_str(dtype));
    if (!t.is_meta()) suffixes.push_back("fake=True");
    body = "...";
  } else if (t.numel() == 0) {
    // The shape is shown unless it is (0,), and the dtype unless it is the default float: with no
    // elements there is nothing to tell an int64 tensor from a float one.
    if (t.dim() != 1) suffixes.push_back("size=" + tuple_str(t.sizes()));
    if (dtype != get_default_dtype()) suffixes.push_back("dtype=" + dtype_str(dtype));
    body = "[]";
  } else {
    // int64 and bool show in the values themselves; the default float by its decimal point.
    if (dtype != get_default_dtype() && dtype != kInt64 && dtype != kBool) {
      suffixes.push_back("dtype=" + dtype_str(dtype));
    }
    const TensorImpl& holder = t.unsafeGetTensorImpl()->data_holder();
    body = holder.device().is_cpu() ? TensorPrinter(holder).str(indent) : TensorPrinter(*host_copy(holder)).str(indent);
  }
  return os << add_suffixes(prefix + body, suffixes, indent);
}

}  // namespace mt
