#pragma once
// mt::nn::OrderedDict: name -> value in insertion order, as PyTorch's OrderedDict. Modules keep their
// parameters, buffers and children in one, and state_dict() returns one; the order is what
// parameters() and a saved file follow.
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tensor/Error.h"

namespace mt::nn {

template <typename V>
class OrderedDict {
 public:
  using Item = std::pair<std::string, V>;

  // Appends; a key that is already there is an error. The reference is valid until the next insert.
  V& insert(std::string key, V value) {
    MT_CHECK(!index_.count(key), "key '", key, "' is already in the dictionary");
    index_.emplace(key, items_.size());
    items_.emplace_back(std::move(key), std::move(value));
    return items_.back().second;
  }
  // The value of `key`, or nullptr.
  const V* find(const std::string& key) const {
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  V* find(const std::string& key) {
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  bool contains(const std::string& key) const { return index_.count(key) != 0; }
  const V& operator[](const std::string& key) const {
    const V* v = find(key);
    MT_CHECK_INDEX(v != nullptr, "key '", key, "' is not in the dictionary");
    return *v;
  }

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  const std::vector<Item>& items() const { return items_; }

  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    out.reserve(items_.size());
    for (const auto& [k, v] : items_) out.push_back(k);
    return out;
  }
  std::vector<V> values() const {
    std::vector<V> out;
    out.reserve(items_.size());
    for (const auto& [k, v] : items_) out.push_back(v);
    return out;
  }

 private:
  std::vector<Item> items_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace mt::nn
