// ControllerExpectations (pkg/controller/controller_utils.go): how many creations and deletions a
// controller still waits to see in its informer before it trusts the cache again. A sync sets
// them before writing; each pod add or delete the informer delivers lowers them; a key whose
// expectations are met, or older than five minutes (a lost watch event must not wedge it), may
// sync fully again. Deletions are tracked by pod key, as UIDTrackingControllerExpectations does,
// so a pod seen deleted twice (update with deletionTimestamp, then delete) counts once.
//
// Written for the DaemonSet controller; the ReplicaSet controller upstream uses the same type,
// so this file is the one to unify with theirs.

/** ExpectationsTimeout. */
export const expectationsTimeoutMs = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  deleting: Set<string>;
  at: number;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly now: () => number = Date.now) {}

  /** SatisfiedExpectations: none recorded, all observed, or expired. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.at > expectationsTimeoutMs;
  }

  /** SetExpectations: the creations and the pods (by key) about to be deleted. */
  set(key: string, add: number, deleting: readonly string[]): void {
    this.byKey.set(key, { add, del: deleting.length, deleting: new Set(deleting), at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** A pod deletion seen (or a delete that failed): counted once per pod. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.byKey.get(key);
    if (e?.deleting.delete(podKey)) e.del--;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}
