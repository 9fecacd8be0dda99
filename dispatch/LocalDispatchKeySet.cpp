#include "dispatch/LocalDispatchKeySet.h"

namespace mt::detail {

thread_local constinit PODLocalDispatchKeySet raw_local_dispatch_key_set{0, 0};

}  // namespace mt::detail
