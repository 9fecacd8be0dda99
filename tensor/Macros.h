#pragma once
// Token pasting that expands its arguments first, for unique names in registration macros.
#define MT_CONCAT_INNER(a, b) a##b
#define MT_CONCAT(a, b) MT_CONCAT_INNER(a, b)
