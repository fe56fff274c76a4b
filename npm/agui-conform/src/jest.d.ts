import type { AguiConformMatchers } from "./matchers.js";

declare global {
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Matchers<R, T = {}> extends AguiConformMatchers<R> {}
  }
}

declare module "expect" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<R extends void | Promise<void>, T = unknown> extends AguiConformMatchers<R> {}
}
