// kube-apiserver's endpoint reconciler for the `kubernetes` Service (pkg/controlplane/reconcilers
// lease.go, --endpoint-reconciler-type lease): every 10 s each API server renews a lease on its
// advertised address (`/registry/masterleases/<ip>` in the store, live for 15 s), and writes the
// Endpoints and the EndpointSlice `kubernetes` in default with the addresses of the live leases
// and its port (src/policy/apiserverendpoints.ts); on a clean shutdown it drops its lease and
// writes them again without itself. The port is put right at start only, as the kubernetes
// Service's: later rounds keep the one written, so servers on different ports sharing a store
// (tests) do not take turns rewriting it. A server with no address that can be an endpoint (only
// loopback: validation refuses 127.0.0.0/8) holds no lease.

import { stableJSON } from '../api/stablejson.js';
import type { Endpoints, EndpointSlice, KubeObject } from '../api/types.js';
import { kubernetesEndpoints, kubernetesEndpointSlice, kubernetesServiceName, liveLeaseIPs } from '../policy/apiserverendpoints.js';
import type { Api, RequestInfo } from './rest.js';
import { StatusError } from './status.js';

export const masterLeasePrefix = '/registry/masterleases/';

export class KubernetesEndpointsReconciler {
  constructor(
    private readonly api: Api,
    private readonly ip: string | undefined,
    private readonly port: number,
    private readonly req: RequestInfo,
  ) {}

  /**
   * Renews this server's lease and writes the Endpoints and EndpointSlice of the live leases (with
   * this server's port when `updatePort`); `between` is awaited before each of the three (at
   * start: a turn of the server's I/O, src/apiserver/startturns.ts).
   */
  async reconcile(updatePort = false, between?: () => Promise<void>): Promise<void> {
    if (this.ip) await this.renewLease(this.ip);
    await between?.();
    await this.write(updatePort, between);
  }

  /** Drops this server's lease and writes the objects without it (RemoveEndpoints). */
  async remove(): Promise<void> {
    if (!this.ip) return;
    const key = masterLeasePrefix + this.ip;
    const kv = await this.api.store.get(key);
    if (kv) await this.api.store.txn([{ key, modRevision: kv.modRevision }], [{ op: 'delete', key }]);
    await this.write(false);
  }

  private async renewLease(ip: string): Promise<void> {
    const key = masterLeasePrefix + ip;
    const value = JSON.stringify({ ip, renewTime: this.api.now().getTime() });
    const kv = await this.api.store.get(key);
    if (kv) await this.api.store.update(key, value, kv.modRevision);
    else await this.api.store.create(key, value);
  }

  private async leaseIPs(): Promise<string[]> {
    const leases: { ip: string; renewTime: number }[] = [];
    for (const kv of (await this.api.store.list(masterLeasePrefix)).items) {
      try {
        const l = JSON.parse(kv.value) as { ip?: unknown; renewTime?: unknown };
        if (typeof l.ip === 'string' && typeof l.renewTime === 'number') leases.push({ ip: l.ip, renewTime: l.renewTime });
      } catch {
        // A lease that does not parse counts as expired.
      }
    }
    return liveLeaseIPs(leases, this.api.now().getTime());
  }

  private async write(updatePort: boolean, between?: () => Promise<void>): Promise<void> {
    const ips = await this.leaseIPs();
    let port = this.port;
    if (!updatePort) {
      const have = await this.api.tryGet<Endpoints>(this.api.def('endpoints'), 'default', kubernetesServiceName);
      port = have?.subsets?.[0]?.ports?.find((p) => p.name === 'https')?.port ?? port;
    }
    await this.put('endpoints', kubernetesEndpoints(ips, port), (o) => stableJSON([(o as Endpoints).subsets ?? [], o.metadata?.labels ?? {}]));
    await between?.();
    await this.put('endpointslices', kubernetesEndpointSlice(ips, port), (o) => stableJSON([(o as EndpointSlice).endpoints ?? [], (o as EndpointSlice).ports ?? [], o.metadata?.labels ?? {}]));
  }

  private async put(resource: string, want: KubeObject, view: (o: KubeObject) => string): Promise<void> {
    const def = this.api.def(resource);
    const have = await this.api.tryGet(def, 'default', kubernetesServiceName);
    if (have && view(have) === view(want)) return;
    try {
      if (have) await this.api.update(def, 'default', kubernetesServiceName, { ...want, metadata: { ...have.metadata, labels: want.metadata?.labels } } as KubeObject, { ...this.req, warnings: [] });
      else await this.api.create(def, 'default', want, { ...this.req, warnings: [] });
    } catch (e) {
      // Another server wrote first: its next round or ours puts it right.
      if (!(e instanceof StatusError && e.code === 409)) throw e;
    }
  }
}
