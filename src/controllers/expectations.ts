// What a controller is waiting to see in its informer before it acts on a key again
// (pkg/controller/controller_utils.go ControllerExpectations and
// UIDTrackingControllerExpectations, and the Job controller's uidTrackingExpectations): after
// asking for N creates and some deletes, the controller does not manage that key's pods again
// until the informer has shown all of them (or the record is 5 minutes old: a lost watch event
// must not wedge it), so an informer that lags behind the writes never makes it create or
// delete twice. Deletions are counted (the Job controller's way) or tracked by pod key (the
// ReplicaSet and DaemonSet controllers' way), so that a deletion seen twice (the update with a
// deletionTimestamp, then the delete) counts once.

/** controller.ExpectationsTimeout. */
export const expectationsTimeoutMs = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  /** The pod keys expected to go, when deletions are tracked by key. */
  deleting?: Set<string>;
  at: number;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** SatisfiedExpectations: none recorded, all observed, or recorded too long ago. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.at > expectationsTimeoutMs;
  }

  /** SetExpectations: creations, and deletions as a count or as the pod keys about to go. */
  set(key: string, add: number, deleting: number | readonly string[]): void {
    const tracked = typeof deleting === 'number' ? undefined : new Set(deleting);
    this.byKey.set(key, { add, del: tracked ? tracked.size : (deleting as number), ...(tracked ? { deleting: tracked } : {}), at: this.now() });
  }

  /** ExpectCreations: replaces what was expected for the key. */
  expectCreations(key: string, n: number): void {
    this.set(key, n, 0);
  }

  /** ExpectDeletions: a count, or (UID tracking) the pod keys that are to disappear. */
  expectDeletions(key: string, pods: number | readonly string[]): void {
    this.set(key, 0, pods);
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /**
   * A deletion seen (or a delete that failed). Where pod keys are tracked, only an expected pod
   * counts, once; otherwise every call counts.
   */
  deletionObserved(key: string, podKey?: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    if (e.deleting) {
      if (podKey !== undefined && e.deleting.delete(podKey)) e.del--;
    } else e.del--;
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }

  /** For tests: what is still expected. */
  pending(key: string): { add: number; del: number } | undefined {
    const e = this.byKey.get(key);
    return e ? { add: e.add, del: e.del } : undefined;
  }
}

/** The Job controller's uidTrackingExpectations: per job, the pod uids whose finalizer removal has not been seen yet. */
export class UidTrackingExpectations {
  private readonly uids = new Map<string, Set<string>>();

  get(key: string): ReadonlySet<string> {
    return new Set(this.uids.get(key) ?? []);
  }

  expect(key: string, uids: readonly string[]): void {
    let s = this.uids.get(key);
    if (!s) this.uids.set(key, (s = new Set()));
    for (const u of uids) s.add(u);
  }

  observed(key: string, uid: string): void {
    const s = this.uids.get(key);
    if (!s) return;
    s.delete(uid);
    if (s.size === 0) this.uids.delete(key);
  }

  delete(key: string): void {
    this.uids.delete(key);
  }
}
