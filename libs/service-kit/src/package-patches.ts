/**
 * Our patches of third-party packages (`patches/<package>+<version>+NNN+<name>.patch`), applied by
 * patch-package in `npm ci`'s postinstall. Each patched module carries `tailsyncPatch = <name>`, so
 * a process can tell an install that skipped them (`--ignore-scripts`, a copied `node_modules`).
 */
export interface PackagePatch {
  name: string;
  /** The module the patch marks (a `require` id). */
  module: string;
}

/** The names of the patches the installed package lacks. */
export function missingPatches(patches: readonly PackagePatch[], load: (id: string) => unknown = require): string[] {
  return patches.filter(({ name, module }) => (load(module) as { tailsyncPatch?: unknown } | undefined)?.tailsyncPatch !== name).map(({ name }) => name);
}

/** Throws, naming what is missing and how to apply it, unless the package has every patch. */
export function assertPatched(packageName: string, patchFiles: string, patches: readonly PackagePatch[], load?: (id: string) => unknown): void {
  const missing = missingPatches(patches, load);
  if (missing.length === 0) return;
  throw new Error(`${packageName} lacks our patches ${missing.join(', ')} (${patchFiles}): install with \`npm ci\`, whose postinstall applies them (patch-package)`);
}
