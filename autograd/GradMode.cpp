#include "autograd/GradMode.h"

namespace mt {

namespace {
// Stored inverted so that a zero-initialised thread starts with grad mode on.
thread_local bool tls_grad_disabled = false;
}  // namespace

bool GradMode::is_enabled() { return !tls_grad_disabled; }
void GradMode::set_enabled(bool enabled) { tls_grad_disabled = !enabled; }

}  // namespace mt
