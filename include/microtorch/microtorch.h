#pragma once
// The one header a user includes: #include <microtorch/microtorch.h>
#include "microtorch/framework.h"
#include "ops/Functions.h"
