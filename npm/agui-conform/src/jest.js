// `import "agui-conform/jest"` (in a test file, or a file of jest's
// setupFilesAfterEnv) registers the matchers on jest's global expect.
import { matchers } from "./matchers.js";

const expect = globalThis.expect;
if (!expect || typeof expect.extend !== "function") {
  throw new Error(
    "agui-conform/jest: there is no global expect here; import it from a test file or a setupFilesAfterEnv file " +
      "(vitest: import \"agui-conform/vitest\")",
  );
}
expect.extend(matchers);
