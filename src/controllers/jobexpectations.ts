// The Job controller's expectations (pkg/controller/controller_utils.go ControllerExpectations
// and job's tracking_utils.go uidTrackingExpectations): after creating or deleting pods, a job is
// not synced again on its cached pods until the informer has shown those writes (or 5 minutes
// passed), so a sync never acts twice on one state; after removing tracking finalizers, the pods
// it removed them from are not counted again until the informer shows them without it.

/** ExpectationsTimeout: a record older than this no longer holds a sync back. */
export const expectationsTimeoutMs = 5 * 60_000;

export class ControllerExpectations {
  private readonly records = new Map<string, { add: number; del: number; at: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** SatisfiedExpectations: no record, every write seen, or the record expired. */
  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    return (r.add <= 0 && r.del <= 0) || this.now() - r.at > expectationsTimeoutMs;
  }

  expectCreations(key: string, n: number): void {
    this.records.set(key, { add: n, del: 0, at: this.now() });
  }

  expectDeletions(key: string, n: number): void {
    this.records.set(key, { add: 0, del: n, at: this.now() });
  }

  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.add--;
  }

  deletionObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.del--;
  }

  delete(key: string): void {
    this.records.delete(key);
  }
}

/** uidTrackingExpectations: per job, the pod uids whose finalizer removal has not been seen yet. */
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
