// `import "agui-conform/vitest"` (in a test file, or in vitest's
// setupFiles) registers the matchers on vitest's expect.
import { expect } from "vitest";
import { matchers } from "./matchers.js";

expect.extend(matchers);
