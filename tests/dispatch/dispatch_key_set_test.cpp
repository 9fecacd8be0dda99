// DispatchKey / DispatchKeySet: the bit layout, set algebra, the runtime table index and the named masks.
// Every expected number below is derived by hand from the key lists in DESIGN.md ("Dispatch keys"):
//   backends (bits 0..3):     CPU, CUDA, PrivateUse1, Meta
//   functionalities (bit f+3): Dense=1, BackendSelect=2, DispatchMode=3, FuncTorchDynamicLayerBackMode=4,
//     Functionalize=5, ADInplaceOrView=6, AutogradFunctionality=7, AutocastCPU=8, AutocastCUDA=9,
//     FuncTorchBatched=10, FuncTorchGradWrapper=11, FuncTorchDynamicLayerFrontMode=12, PreDispatch=13
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dispatch/DispatchKeySet.h"

using mt::BackendComponent;
using mt::DispatchKey;
using mt::DispatchKeySet;

namespace {
uint64_t raw(DispatchKeySet ks) { return ks.raw_repr(); }

// Every runtime key (Undefined first), as the dispatch table lists them.
std::vector<DispatchKey> runtime_keys() {
  std::vector<DispatchKey> keys{DispatchKey::Undefined};
  DispatchKeySet(DispatchKeySet::FULL).for_each_key([&](DispatchKey k) { keys.push_back(k); });
  return keys;
}
}  // namespace

TEST(DispatchKeyLayout, EnumValuesAndCountsMatchTheDesign) {
  EXPECT_EQ(mt::num_backends, 4);
  EXPECT_EQ(mt::num_functionality_keys, 14);  // Undefined + 13 functionalities
  // 12 non-per-backend slots (Undefined included) + 2 per-backend functionalities x 4 backends.
  EXPECT_EQ(mt::num_runtime_entries, 20);
  EXPECT_EQ(static_cast<int>(DispatchKey::Dense), 1);
  EXPECT_EQ(static_cast<int>(DispatchKey::AutogradFunctionality), 7);
  EXPECT_EQ(static_cast<int>(DispatchKey::PreDispatch), 13);
  EXPECT_EQ(static_cast<int>(DispatchKey::CPU), 15);
  EXPECT_EQ(static_cast<int>(DispatchKey::Meta), 18);
  EXPECT_EQ(static_cast<int>(DispatchKey::AutogradCPU), 20);
  EXPECT_EQ(static_cast<int>(DispatchKey::AutogradMeta), 23);
  EXPECT_EQ(static_cast<int>(DispatchKey::Autograd), 24);
  EXPECT_EQ(static_cast<int>(DispatchKey::CompositeExplicitAutograd), 26);
}

TEST(DispatchKeyLayout, BackendBitsAreLowAndFunctionalityBitsHigh) {
  EXPECT_EQ(raw(DispatchKeySet(BackendComponent::CPUBit)), 0x1u);
  EXPECT_EQ(raw(DispatchKeySet(BackendComponent::CUDABit)), 0x2u);
  EXPECT_EQ(raw(DispatchKeySet(BackendComponent::PrivateUse1Bit)), 0x4u);
  EXPECT_EQ(raw(DispatchKeySet(BackendComponent::MetaBit)), 0x8u);
  EXPECT_EQ(raw(DispatchKeySet(BackendComponent::InvalidBit)), 0x0u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::Dense)), 0x10u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::BackendSelect)), 0x20u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::ADInplaceOrView)), 0x200u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::AutogradFunctionality)), 0x400u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::AutocastCPU)), 0x800u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::PreDispatch)), 0x10000u);
  // Runtime per-backend keys set a functionality bit and a backend bit.
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::CPU)), 0x11u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::Meta)), 0x18u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::AutogradCUDA)), 0x402u);
  // Undefined and alias keys are not representable: the empty set.
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Undefined).empty());
  EXPECT_TRUE(DispatchKeySet(DispatchKey::Autograd).empty());
  EXPECT_TRUE(DispatchKeySet(DispatchKey::CompositeImplicitAutograd).empty());
  EXPECT_EQ(raw(DispatchKeySet(DispatchKeySet::FULL)), 0x1FFFFu);
  EXPECT_EQ(raw(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView})), 0x611u);
}

TEST(DispatchKeyLayout, PerBackendKeyConversions) {
  EXPECT_EQ(mt::toFunctionalityKey(DispatchKey::AutogradCUDA), DispatchKey::AutogradFunctionality);
  EXPECT_EQ(mt::toFunctionalityKey(DispatchKey::Meta), DispatchKey::Dense);
  EXPECT_EQ(mt::toFunctionalityKey(DispatchKey::FuncTorchBatched), DispatchKey::FuncTorchBatched);
  EXPECT_EQ(mt::toBackendComponent(DispatchKey::AutogradMeta), BackendComponent::MetaBit);
  EXPECT_EQ(mt::toBackendComponent(DispatchKey::PrivateUse1), BackendComponent::PrivateUse1Bit);
  EXPECT_EQ(mt::toBackendComponent(DispatchKey::ADInplaceOrView), BackendComponent::InvalidBit);
  EXPECT_EQ(mt::toRuntimePerBackendFunctionalityKey(DispatchKey::Dense, BackendComponent::CUDABit), DispatchKey::CUDA);
  EXPECT_EQ(mt::toRuntimePerBackendFunctionalityKey(DispatchKey::AutogradFunctionality, BackendComponent::CPUBit),
            DispatchKey::AutogradCPU);
  EXPECT_EQ(mt::getAutogradKeyFromBackend(BackendComponent::PrivateUse1Bit), DispatchKey::AutogradPrivateUse1);
  EXPECT_TRUE(mt::isAliasDispatchKey(DispatchKey::CompositeExplicitAutograd));
  EXPECT_FALSE(mt::isAliasDispatchKey(DispatchKey::AutogradMeta));
  EXPECT_TRUE(mt::isBackendDispatchKey(DispatchKey::Meta));
  EXPECT_FALSE(mt::isBackendDispatchKey(DispatchKey::AutogradCPU));
  EXPECT_TRUE(mt::isRuntimePerBackendKey(DispatchKey::AutogradPrivateUse1));
  EXPECT_FALSE(mt::isRuntimePerBackendKey(DispatchKey::StartOfAutogradBackends));
  EXPECT_FALSE(mt::isRuntimePerBackendKey(DispatchKey::Autograd));
}

TEST(DispatchKeySetOps, HasNeedsEveryBitOfTheKey) {
  const DispatchKeySet cpu_tensor({DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU});
  EXPECT_TRUE(cpu_tensor.has(DispatchKey::CPU));
  EXPECT_TRUE(cpu_tensor.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(cpu_tensor.has(DispatchKey::Dense));
  EXPECT_FALSE(cpu_tensor.has(DispatchKey::CUDA));
  EXPECT_FALSE(cpu_tensor.has(DispatchKey::AutogradCUDA));
  EXPECT_FALSE(cpu_tensor.has(DispatchKey::Undefined));
  EXPECT_FALSE(cpu_tensor.has(DispatchKey::Autograd));  // alias keys have no bits
  EXPECT_TRUE(cpu_tensor.has_backend(BackendComponent::CPUBit));
  EXPECT_FALSE(cpu_tensor.has_backend(BackendComponent::MetaBit));
  // Bits combine across keys: Autograd functionality from AutogradCUDA plus the CPU backend bit.
  const DispatchKeySet mixed({DispatchKey::CPU, DispatchKey::AutogradCUDA});
  EXPECT_TRUE(mixed.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(mixed.has(DispatchKey::CUDA));
  EXPECT_TRUE(cpu_tensor.has_all(DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView})));
  EXPECT_FALSE(cpu_tensor.has_all(DispatchKeySet({DispatchKey::CPU, DispatchKey::BackendSelect})));
  EXPECT_TRUE(cpu_tensor.has_any(DispatchKeySet({DispatchKey::Meta, DispatchKey::BackendSelect})));  // Dense bit
  EXPECT_FALSE(cpu_tensor.has_any(DispatchKeySet({DispatchKey::BackendSelect, DispatchKey::PreDispatch})));
}

TEST(DispatchKeySetOps, AddAndUnionSetBits) {
  const DispatchKeySet ks = DispatchKeySet(DispatchKey::CPU).add(DispatchKey::AutogradMeta);
  EXPECT_EQ(raw(ks), 0x419u);  // Dense, Autograd, CPU bit, Meta bit
  EXPECT_EQ(ks.add(DispatchKeySet(DispatchKey::PreDispatch)), ks | DispatchKeySet(DispatchKey::PreDispatch));
  EXPECT_EQ(raw(ks & DispatchKeySet(DispatchKey::Meta)), 0x18u);
  EXPECT_EQ(raw(ks ^ DispatchKeySet(DispatchKey::CPU)), 0x408u);
}

TEST(DispatchKeySetOps, RemoveAndMinusNeverClearBackendBits) {
  const DispatchKeySet ks({DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU});
  // remove(AutogradCUDA) removes the whole Autograd functionality, keeps both backend bits.
  EXPECT_EQ(ks.remove(DispatchKey::AutogradCUDA), DispatchKeySet({DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::ADInplaceOrView}));
  // remove(CPU) removes Dense; the CPU and CUDA bits stay.
  EXPECT_EQ(raw(ks.remove(DispatchKey::CPU)), 0x603u);
  // Set difference: same rule.
  EXPECT_EQ(raw(ks - DispatchKeySet(DispatchKey::AutogradCPU)), 0x213u);
  EXPECT_EQ(raw(DispatchKeySet(DispatchKey::CUDA) - DispatchKeySet(DispatchKey::CPU)), 0x2u);
  EXPECT_EQ(raw(ks - DispatchKeySet(BackendComponent::CPUBit)), raw(ks));  // backend bits survive '-'
  EXPECT_EQ(raw(ks - DispatchKeySet(DispatchKeySet::FULL)), 0x3u);
  // Only remove_backend clears a backend bit.
  EXPECT_EQ(raw(ks.remove_backend(BackendComponent::CUDABit)), 0x611u);
}

TEST(DispatchKeySetOps, HighestPriorityTypeIdCombinesHighestFunctionalityAndHighestBackend) {
  EXPECT_EQ(DispatchKeySet().highestPriorityTypeId(), DispatchKey::Undefined);
  EXPECT_EQ(DispatchKeySet(DispatchKey::CPU).highestPriorityTypeId(), DispatchKey::CPU);
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU}).highestPriorityTypeId(),
            DispatchKey::AutogradCPU);
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::CUDA}).highestPriorityTypeId(), DispatchKey::CUDA);
  // Meta is the highest backend bit, so it wins over CPU.
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::Meta}).highestPriorityTypeId(),
            DispatchKey::AutogradMeta);
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::BackendSelect}).highestPriorityTypeId(),
            DispatchKey::BackendSelect);
  EXPECT_EQ(DispatchKeySet({DispatchKey::AutogradCPU, DispatchKey::PreDispatch}).highestPriorityTypeId(),
            DispatchKey::PreDispatch);
  EXPECT_EQ(DispatchKeySet(DispatchKey::PrivateUse1).highestBackendKey(), BackendComponent::PrivateUse1Bit);
  EXPECT_EQ(DispatchKeySet(DispatchKey::AutogradMeta).highestFunctionalityKey(), DispatchKey::AutogradFunctionality);
  EXPECT_EQ(DispatchKeySet(DispatchKey::CPU).getBackendIndex(), 0);
  EXPECT_EQ(DispatchKeySet(DispatchKey::CUDA).getBackendIndex(), 1);
  EXPECT_EQ(DispatchKeySet(DispatchKey::PrivateUse1).getBackendIndex(), 2);
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::Meta}).getBackendIndex(), 3);
  EXPECT_EQ(DispatchKeySet(DispatchKey::BackendSelect).getBackendIndex(), 0);
}

TEST(DispatchTableIndex, HandCheckedSlots) {
  using mt::getDispatchTableIndexForDispatchKey;
  EXPECT_EQ(DispatchKeySet().getDispatchTableIndexForDispatchKeySet(), 0);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::Undefined), 0);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::CPU), 1);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::CUDA), 2);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::PrivateUse1), 3);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::Meta), 4);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::BackendSelect), 5);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::DispatchMode), 6);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::FuncTorchDynamicLayerBackMode), 7);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::Functionalize), 8);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::ADInplaceOrView), 9);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::AutogradCPU), 10);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::AutogradCUDA), 11);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::AutogradPrivateUse1), 12);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::AutogradMeta), 13);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::AutocastCPU), 14);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::AutocastCUDA), 15);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::FuncTorchBatched), 16);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::FuncTorchGradWrapper), 17);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::FuncTorchDynamicLayerFrontMode), 18);
  EXPECT_EQ(getDispatchTableIndexForDispatchKey(DispatchKey::PreDispatch), 19);
  // A whole tensor's set lands in the slot of its highest key.
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU})
                .getDispatchTableIndexForDispatchKeySet(),
            10);
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::Meta}).getDispatchTableIndexForDispatchKeySet(), 4);
}

TEST(DispatchTableIndex, EveryRuntimeKeyHasItsOwnSlotInTableOrder) {
  const std::vector<DispatchKey> keys = runtime_keys();
  ASSERT_EQ(keys.size(), static_cast<size_t>(mt::num_runtime_entries));
  std::set<int> seen;
  for (size_t i = 0; i < keys.size(); ++i) {
    const int idx = mt::getDispatchTableIndexForDispatchKey(keys[i]);
    EXPECT_EQ(idx, static_cast<int>(i)) << keys[i];  // for_each_key walks the table in order
    EXPECT_GE(idx, 0);
    EXPECT_LT(idx, mt::num_runtime_entries);
    seen.insert(idx);
  }
  EXPECT_EQ(seen.size(), keys.size());
}

TEST(DispatchTableIndex, IndexOfAnySetIsTheIndexOfItsHighestPriorityKey) {
  // Exhaustive over every functionality subset combined with every non-empty backend subset.
  const uint64_t functionality_subsets = uint64_t(1) << (mt::num_functionality_keys - 1);
  for (uint64_t f = 1; f < functionality_subsets; ++f) {
    for (uint64_t b = 1; b <= DispatchKeySet::full_backend_mask; ++b) {
      const DispatchKeySet ks(DispatchKeySet::RAW, (f << mt::num_backends) | b);
      ASSERT_EQ(ks.getDispatchTableIndexForDispatchKeySet(),
                mt::getDispatchTableIndexForDispatchKey(ks.highestPriorityTypeId()))
          << ks;
    }
  }
}

TEST(DispatchKeySetMasks, FullAfterKeepsEverythingStrictlyBelow) {
  EXPECT_EQ(raw(mt::after_autograd_keyset), 0x3FFu);
  EXPECT_TRUE(mt::after_autograd_keyset.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(mt::after_autograd_keyset.has(DispatchKey::CPU));
  EXPECT_TRUE(mt::after_autograd_keyset.has(DispatchKey::Meta));
  EXPECT_FALSE(mt::after_autograd_keyset.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(mt::after_autograd_keyset.has(DispatchKey::AutocastCPU));
  // A per-backend key means its functionality.
  EXPECT_EQ(DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::AutogradCUDA), mt::after_autograd_keyset);
  EXPECT_EQ(raw(mt::after_ADInplaceOrView_keyset), 0x1FFu);
  EXPECT_FALSE(mt::after_ADInplaceOrView_keyset.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(mt::after_ADInplaceOrView_keyset.has(DispatchKey::Functionalize));
  EXPECT_EQ(raw(mt::after_func_keyset), 0xFFu);
  EXPECT_EQ(raw(mt::after_DispatchMode_keyset), 0x3Fu);
  const DispatchKeySet cpu_call({DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU});
  EXPECT_EQ(cpu_call & mt::after_autograd_keyset, DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView}));
  EXPECT_EQ(cpu_call & mt::after_ADInplaceOrView_keyset, DispatchKeySet(DispatchKey::CPU));
}

TEST(DispatchKeySetMasks, NamedSetsAndDefaults) {
  EXPECT_EQ(mt::autocast_dispatch_keyset, DispatchKeySet({DispatchKey::AutocastCPU, DispatchKey::AutocastCUDA}));
  EXPECT_EQ(raw(mt::autograd_dispatch_keyset_with_ADInplaceOrView), 0x600u);
  EXPECT_EQ(raw(mt::backend_functionality_keys), 0x1Fu);
  EXPECT_EQ(mt::default_included_set, DispatchKeySet({DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView}));
  EXPECT_EQ(mt::default_excluded_set, DispatchKeySet({DispatchKey::AutocastCPU, DispatchKey::AutocastCUDA}));
}

TEST(DispatchKeyNames, ToStringAndParseRoundTripForEveryKey) {
  int checked = 0;
  for (int k = 0; k <= static_cast<int>(DispatchKey::EndOfAliasKeys); ++k) {
    const auto key = static_cast<DispatchKey>(k);
    // The two sentinels that play InvalidBit for the per-backend ranges have no key name of their own.
    if (key == DispatchKey::StartOfDenseBackends || key == DispatchKey::StartOfAutogradBackends) continue;
    const std::string_view name = mt::toString(key);
    EXPECT_NE(name, "UNKNOWN_DISPATCH_KEY") << k;
    const auto parsed = mt::parseDispatchKey(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(*parsed, key) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 25);  // 27 enum values minus the 2 sentinels
  EXPECT_EQ(mt::toString(DispatchKey::AutogradPrivateUse1), "AutogradPrivateUse1");
  EXPECT_EQ(mt::toString(DispatchKey::CompositeImplicitAutograd), "CompositeImplicitAutograd");
  EXPECT_EQ(mt::toString(BackendComponent::MetaBit), "MetaBit");
  EXPECT_FALSE(mt::parseDispatchKey("NotAKey").has_value());
  EXPECT_FALSE(mt::parseDispatchKey("cpu").has_value());  // names are case-sensitive
  EXPECT_FALSE(mt::parseDispatchKey("StartOfAutogradBackends").has_value());
  std::ostringstream ss;
  ss << DispatchKey::FuncTorchBatched << " " << BackendComponent::CUDABit;
  EXPECT_EQ(ss.str(), "FuncTorchBatched CUDABit");
}

TEST(AliasKeyExpansion, RuntimeKeySetsOfAliasKeys) {
  auto keys_of = [](DispatchKey alias) {
    std::vector<DispatchKey> out;
    mt::getRuntimeDispatchKeySet(alias).for_each_key([&](DispatchKey k) { out.push_back(k); });
    return out;
  };
  using DK = DispatchKey;
  EXPECT_EQ(keys_of(DK::Autograd), (std::vector<DK>{DK::AutogradCPU, DK::AutogradCUDA, DK::AutogradPrivateUse1, DK::AutogradMeta}));
  EXPECT_EQ(keys_of(DK::CompositeExplicitAutograd), (std::vector<DK>{DK::CPU, DK::CUDA, DK::PrivateUse1, DK::Meta}));
  EXPECT_EQ(keys_of(DK::CompositeImplicitAutograd),
            (std::vector<DK>{DK::CPU, DK::CUDA, DK::PrivateUse1, DK::Meta, DK::AutogradCPU, DK::AutogradCUDA,
                             DK::AutogradPrivateUse1, DK::AutogradMeta}));
  EXPECT_EQ(keys_of(DK::AutogradMeta), (std::vector<DK>{DK::AutogradMeta}));  // a runtime key stands for itself
  EXPECT_EQ(keys_of(DK::FuncTorchBatched), (std::vector<DK>{DK::FuncTorchBatched}));
  EXPECT_TRUE(mt::runtimeDispatchKeySetHas(DK::CompositeImplicitAutograd, DK::AutogradMeta));
  EXPECT_TRUE(mt::runtimeDispatchKeySetHas(DK::CompositeExplicitAutograd, DK::PrivateUse1));
  EXPECT_FALSE(mt::runtimeDispatchKeySetHas(DK::CompositeExplicitAutograd, DK::AutogradCPU));
  EXPECT_FALSE(mt::runtimeDispatchKeySetHas(DK::Autograd, DK::CPU));
  EXPECT_FALSE(mt::runtimeDispatchKeySetHas(DK::CompositeImplicitAutograd, DK::FuncTorchBatched));
  EXPECT_TRUE(mt::runtimeDispatchKeySetHas(DK::CPU, DK::CPU));
  EXPECT_FALSE(mt::runtimeDispatchKeySetHas(DK::CPU, DK::CUDA));
  EXPECT_EQ(mt::getBackendKeySetFromAutograd(DK::AutogradCUDA), DispatchKeySet(DK::CUDA));
  EXPECT_EQ(mt::getBackendKeySetFromAutograd(DK::AutogradMeta), DispatchKeySet(DK::Meta));
  EXPECT_TRUE(mt::getBackendKeySetFromAutograd(DK::CPU).empty());
}

TEST(DispatchKeySetIteration, ForEachKeyGoesLowestPriorityFirstWithOneKeyPerBackend) {
  std::vector<DispatchKey> seen;
  DispatchKeySet({DispatchKey::AutogradCUDA, DispatchKey::PreDispatch, DispatchKey::CPU, DispatchKey::ADInplaceOrView})
      .for_each_key([&](DispatchKey k) { seen.push_back(k); });
  // Dense x {CPU, CUDA}, ADInplaceOrView, Autograd x {CPU, CUDA}, PreDispatch.
  EXPECT_EQ(seen, (std::vector<DispatchKey>{DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::ADInplaceOrView,
                                            DispatchKey::AutogradCPU, DispatchKey::AutogradCUDA,
                                            DispatchKey::PreDispatch}));
  seen.clear();
  DispatchKeySet(BackendComponent::CPUBit).for_each_key([&](DispatchKey k) { seen.push_back(k); });
  EXPECT_TRUE(seen.empty());  // a backend bit alone names no runtime key
}

TEST(DispatchKeySetIteration, StrListsKeysInIterationOrder) {
  EXPECT_EQ(DispatchKeySet().str(), "DispatchKeySet()");
  EXPECT_EQ(DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU}).str(),
            "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)");
  EXPECT_EQ(mt::default_excluded_set.str(), "DispatchKeySet(AutocastCPU, AutocastCUDA)");
  std::ostringstream ss;
  ss << DispatchKeySet({DispatchKey::Meta, DispatchKey::BackendSelect});
  EXPECT_EQ(ss.str(), "DispatchKeySet(Meta, BackendSelect)");
}
