// Module hooks for shadow mode (shadow.ts): the compiled managedfields.js and apply.js of
// src/apiserver/patch get their exported updateManagedFields / applyPatch wrapped as they load.

const shadow = new URL('./shadow.js', import.meta.url).href;

const wrapped: Record<string, string> = {
  '/src/apiserver/patch/managedfields.js': `import { shadowUpdate as __shadow } from '${shadow}';\nupdateManagedFields = __shadow(updateManagedFields);\n`,
  '/src/apiserver/patch/apply.js': `import { shadowApply as __shadow } from '${shadow}';\napplyPatch = __shadow(applyPatch);\n`,
};

interface Loaded {
  format?: string;
  source?: string | ArrayBuffer | Uint8Array;
  shortCircuit?: boolean;
}

export async function load(url: string, context: unknown, nextLoad: (url: string, context: unknown) => Promise<Loaded>): Promise<Loaded> {
  const loaded = await nextLoad(url, context);
  const suffix = Object.keys(wrapped).find((s) => url.endsWith(s) && url.includes('/dist/'));
  if (!suffix || loaded.source === undefined) return loaded;
  const text = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
  // The exported function is a declaration, so the module may rebind it; importers see the wrapper.
  return { ...loaded, source: `${text}\n${wrapped[suffix]}` };
}
