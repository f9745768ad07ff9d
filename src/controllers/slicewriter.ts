// What the EndpointSlice and EndpointSlice mirroring controllers share: reconciling the slices
// one owner (a Service, or mirrored Endpoints) has with those it should have (pkg/controller/
// endpointslice reconciler.go finalize, and the mirroring reconciler's): slices are matched by
// address type and port set; a match that differs is updated, what is missing is created
// (turned into an update of a slice that would be deleted when one is owned by the same
// object: a placeholder is filled in place), what is left over is deleted, in that order.
// Its own writes are remembered until the informer shows them (upstream's
// endpointSliceTracker), so a sync right after a create does not create the slice again.

import { stableJSON } from '../api/stablejson.js';
import type { EndpointSlice } from '../api/types.js';
import { isNamespaceTerminating, isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { endpointSlicesRef } from '../client/resources.js';
import { portSetKey } from '../policy/endpoints.js';
import { errorText } from './errors.js';

/** A slice write that failed, worded as the reconcilers wrap it; `cause` is the API error. */
export class SliceWriteError extends Error {
  constructor(message: string, override readonly cause: unknown) {
    super(message);
  }
}

const sliceKey = (s: EndpointSlice) => `${s.addressType}\u0000${portSetKey(s.ports)}`;
const view = (s: EndpointSlice) =>
  stableJSON({ e: s.endpoints ?? [], p: s.ports ?? [], l: s.metadata?.labels ?? {}, a: s.metadata?.annotations ?? {}, o: s.metadata?.ownerReferences ?? [], t: s.addressType });

export class SliceWriter {
  private readonly written = new Map<string, { slices: Map<string, EndpointSlice>; deleted: Set<string> }>();

  constructor(private readonly client: KubeClient) {}

  forget(key: string): void {
    this.written.delete(key);
  }

  /** The informer's slices with this writer's own writes the informer has not shown yet. */
  withWritten(key: string, seen: EndpointSlice[]): EndpointSlice[] {
    const w = this.written.get(key);
    if (!w) return seen;
    const rv = (s: EndpointSlice | undefined) => Number(s?.metadata?.resourceVersion ?? 0);
    const out = new Map(seen.map((s) => [s.metadata?.name ?? '', s]));
    for (const [n, s] of w.slices) {
      if (rv(out.get(n)) >= rv(s)) w.slices.delete(n);
      else out.set(n, s);
    }
    for (const n of w.deleted) {
      if (out.has(n)) out.delete(n);
      else w.deleted.delete(n);
    }
    if (w.slices.size === 0 && w.deleted.size === 0) this.written.delete(key);
    return [...out.values()];
  }

  private track(key: string): { slices: Map<string, EndpointSlice>; deleted: Set<string> } {
    let w = this.written.get(key);
    if (!w) this.written.set(key, (w = { slices: new Map(), deleted: new Set() }));
    return w;
  }

  /**
   * Makes `existing` (the owner's slices) into `want` (new slice objects with a generateName).
   * `ownerUID` is the owner's uid; `of` ends the error wording ("for Service ns/name").
   */
  async reconcile(key: string, namespace: string, want: readonly EndpointSlice[], existing: readonly EndpointSlice[], ownerUID: string, of: string): Promise<void> {
    const unused = [...existing].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const creates: EndpointSlice[] = [];
    const updates: EndpointSlice[] = [];
    const onto = (next: EndpointSlice, have: EndpointSlice): EndpointSlice => {
      const { generateName: _g, ...meta } = next.metadata ?? {};
      return { ...next, metadata: { ...have.metadata, ...meta, name: have.metadata?.name } };
    };
    for (const next of want) {
      const i = unused.findIndex((s) => sliceKey(s) === sliceKey(next));
      if (i < 0) {
        creates.push(next);
        continue;
      }
      const [have] = unused.splice(i, 1) as [EndpointSlice];
      const merged = onto(next, have);
      if (view(have) !== view(merged)) updates.push(merged);
    }
    for (let i = 0; i < unused.length && creates.length > 0; ) {
      const old = unused[i]!;
      const next = creates[creates.length - 1]!;
      if (old.addressType === next.addressType && (old.metadata?.ownerReferences ?? []).some((r) => r.uid === ownerUID)) {
        creates.pop();
        updates.push(onto(next, old));
        unused.splice(i, 1);
      } else i++;
    }
    for (const s of [...creates, ...updates]) {
      const isUpdate = !!s.metadata?.resourceVersion;
      let done: EndpointSlice;
      try {
        done = isUpdate ? await this.client.update<EndpointSlice>(endpointSlicesRef, namespace, s) : await this.client.create<EndpointSlice>(endpointSlicesRef, namespace, s);
      } catch (e) {
        // Creates into a namespace being deleted keep failing: dropped, as upstream drops them.
        if (!isUpdate && isNamespaceTerminating(e)) return;
        throw new SliceWriteError(isUpdate ? `failed to update ${s.metadata?.name} EndpointSlice ${of}: ${errorText(e)}` : `failed to create EndpointSlice ${of}: ${errorText(e)}`, e);
      }
      this.track(key).slices.set(done.metadata?.name ?? '', done);
    }
    for (const s of unused) {
      const n = s.metadata?.name ?? '';
      try {
        await this.client.delete(endpointSlicesRef, namespace, n);
      } catch (e) {
        if (!isStatus(e, 404)) throw new SliceWriteError(`failed to delete ${n} EndpointSlice ${of}: ${errorText(e)}`, e);
      }
      this.track(key).slices.delete(n);
      this.track(key).deleted.add(n);
    }
  }
}
