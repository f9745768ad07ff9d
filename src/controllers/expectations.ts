// What a controller is waiting to see in its informer before it acts on a key again
// (pkg/controller/controller_utils.go ControllerExpectations and
// UIDTrackingControllerExpectations): after asking for N creates and some named deletes, the
// controller does not manage that key's replicas again until the informer has shown all of
// them (or the expectation is 5 minutes old), so an informer that lags behind the writes never
// makes it create or delete twice. Creates are counted; deletes are tracked by pod key so that a
// deletion seen twice (the update with a deletionTimestamp, then the delete) counts once.

/** controller.ExpectationsTimeout. */
export const expectationsTimeoutMs = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  deleting: Set<string>;
  at: number;
}

export class Expectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** SatisfiedExpectations: none recorded, all observed, or recorded too long ago. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.at > expectationsTimeoutMs;
  }

  /** ExpectCreations: replaces what was expected for the key. */
  expectCreations(key: string, n: number): void {
    this.byKey.set(key, { add: n, del: 0, deleting: new Set(), at: this.now() });
  }

  /** ExpectDeletions (UID tracking): these pod keys are to disappear. */
  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: 0, del: podKeys.length, deleting: new Set(podKeys), at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** A pod key seen deleted (or being deleted); counts once per key expected. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.byKey.get(key);
    if (e?.deleting.delete(podKey)) e.del--;
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
