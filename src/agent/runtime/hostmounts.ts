// The host's PodMounts (runtime.ts): overlayfs roots (overlay.ts) and namespace pins
// (nspin.ts, CRI-O's pinns), both mounts in the agent's mount namespace, so root only.

import { pinNamespaces, unpinNamespaces } from './nspin.js';
import { mountOverlay, unmountIfMounted } from './overlay.js';
import type { PodMounts } from './runtime.js';

export const hostMounts: PodMounts = {
  mountOverlay,
  unmountIfMounted,
  pinNamespaces: (dir, kinds) => pinNamespaces(dir, kinds),
  unpinNamespaces,
};
