// One watch response: the events of a store watch written as newline-delimited JSON, with a bound
// on what may wait for a slow client, BOOKMARK events, and timeoutSeconds. Follows
// kube-apiserver's storage/cacher (cache_watcher.go: a watcher has a bounded buffer and is
// terminated, counted in apiserver_terminated_watchers_total, when it cannot keep up; bookmarks
// roughly every minute and shortly before the watch's deadline) and endpoints/handlers/watch.go
// (framing, the stream simply ends when the watcher goes).
//
// The store delivers events synchronously, so nothing upstream of this file can wait for a slow
// reader: this is where an event waits, and so where the bound is kept. The events of the
// watch's start (the current objects for resourceVersion 0, a replay from an older one) are
// written as the socket drains: they are the size of a list, which the server holds anyway.
// Live events may hold at most `bufferBytes` (counting what the socket has not yet taken); an
// event that does not fit terminates the watcher, and the client re-lists or re-watches from the
// last resourceVersion it saw. Upstream blocks the dispatcher for a short time budget before
// giving up; a synchronous fan-out cannot block, so here the budget is the buffer itself.

import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../api/types.js';
import { validateWatchOptions } from '../api/validation/watchoptions.js';
import type { Api, ListOptions, WatchEventType } from './rest.js';
import { int64Param } from './queryparams.js';
import { statusErrors } from './status.js';
import { groupVersion, type ResourceDef } from './resources.js';
import { toTable, type IncludeObject } from './tables.js';
import { escapeHTML } from './jsontext.js';
import { partialObjectMetadata } from './partialmetadata.js';
import type { EventLines } from './encoding.js';
import type { Cacher } from './watchcache.js';

export interface WatchStreamOptions {
  /** Most bytes of live events one watcher may have waiting for its client. */
  bufferBytes: number;
  /** Time between BOOKMARK events for watches that allow them. */
  bookmarkIntervalMs: number;
  /** Called once per watch when its stream ends. */
  onEnd?(end: WatchEnd): void;
}

export interface WatchEnd {
  group: string;
  resource: string;
  /** Cut off because the client did not keep up. */
  terminated: boolean;
  /** The most bytes of live events that waited at once (server queue plus socket buffers). */
  peakLiveBytes: number;
}

/** A few hundred events of a typical object: room for a client's hiccup, not for a stalled one. */
export const defaultWatchBufferBytes = 4 * 1024 * 1024;
/** cacher.go's bookmarkFrequency. */
export const defaultBookmarkIntervalMs = 60_000;
/** cache_watcher.go sends the last bookmark this long before the watch's deadline. */
const bookmarkBeforeDeadlineMs = 2_000;

interface Queued {
  data: Buffer;
  initial: boolean;
}

export interface WatchRequest {
  api: Api;
  /** Serves the watch when it can (see watchcache.ts); else the store does. */
  cacher?: Cacher;
  def: ResourceDef;
  namespace: string | undefined;
  list: ListOptions;
  query: URLSearchParams;
  table: boolean;
  /** The Table's group version (meta.k8s.io/v1 or v1beta1), when `table`. */
  tableVersion?: string;
  /** The apiVersion of the PartialObjectMetadata each event's object becomes, when asked for. */
  partial?: string;
  include: IncludeObject;
  res: ServerResponse;
}

export async function serveWatch(w: WatchRequest, opts: WatchStreamOptions): Promise<void> {
  const { api, def, res } = w;
  // Decoded before the stream starts, so a bad value is a 400, not a cut stream.
  const timeout = int64Param(w.query, 'timeoutSeconds') ?? 0;
  // Headers wait until the watch has started, so that a request it refuses (a bad selector or
  // resourceVersion) still gets its HTTP status.
  const startStream = () => {
    if (res.headersSent) return;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
  };

  const queue: Queued[] = [];
  let head = 0;
  let queuedBytes = 0;
  let initialQueuedBytes = 0;
  let waitingForDrain = false;
  let starting = true;
  let ending = false;
  let closed = false;
  let terminated = false;
  let peakLiveBytes = 0;
  let firstRow = true;
  const timers: NodeJS.Timeout[] = [];
  let watch: { cancel(): void } | undefined;

  // Everything the client has not taken yet, less the start's events still in the queue.
  const liveBytes = () => res.writableLength + queuedBytes - initialQueuedBytes;

  const pump = () => {
    startStream();
    // One write to the socket for everything queued (one TLS record, one syscall), not one each.
    res.cork();
    while (head < queue.length && !waitingForDrain) {
      const item = queue[head]!;
      queue[head++] = undefined as unknown as Queued;
      queuedBytes -= item.data.length;
      if (item.initial) initialQueuedBytes -= item.data.length;
      if (!res.write(item.data)) {
        waitingForDrain = true;
        res.once('drain', onDrain);
      }
    }
    res.uncork();
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    if (ending && !waitingForDrain && queue.length === 0 && !res.writableEnded) res.end();
  };
  // The store delivers a batch's events in one synchronous run: they are written together after it.
  let pumpScheduled = false;
  const schedulePump = () => {
    if (pumpScheduled) return;
    pumpScheduled = true;
    queueMicrotask(() => {
      pumpScheduled = false;
      if (!closed || ending) pump();
    });
  };
  const onDrain = () => {
    waitingForDrain = false;
    if (!closed || ending) pump();
  };

  const end = (how: 'graceful' | 'terminate' | 'gone') => {
    if (closed) return;
    closed = true;
    for (const t of timers) clearTimeout(t);
    watch?.cancel();
    if (how === 'graceful') {
      ending = true;
      pump();
    } else {
      queue.length = 0;
      head = queuedBytes = initialQueuedBytes = 0;
      // Ending politely would queue the final chunk behind what the client is not reading.
      res.destroy();
    }
    opts.onEnd?.({ group: def.group, resource: def.resource, terminated, peakLiveBytes });
  };

  const tableVersion = w.tableVersion ?? 'meta.k8s.io/v1';
  const tableForm = w.table ? { resource: def.resource, include: w.include, apiVersion: tableVersion, now: () => api.now().getTime() } : undefined;
  // `lines`, from the watch cache, is the event's encoding shared by every watcher; the first
  // Table row of a stream carries the column definitions, so it is this stream's own.
  const enqueue = (type: WatchEventType, object: unknown, lines?: EventLines) => {
    if (closed) return;
    const row = w.table && type !== 'ERROR' && type !== 'BOOKMARK';
    // A Status (an ERROR event's object) is never transformed (doTransformObject).
    const partial = w.partial !== undefined && type !== 'ERROR' ? w.partial : undefined;
    let data: Buffer;
    if (lines && !(row && firstRow)) {
      data = lines.line(type, row ? tableForm : partial !== undefined ? { partial } : undefined);
    } else {
      let payload = object;
      if (row) {
        payload = toTable(def.resource, [object as KubeObject], { include: w.include, now: api.now().getTime(), withColumns: firstRow, apiVersion: tableVersion });
        firstRow = false;
      } else if (partial !== undefined) payload = partialObjectMetadata(partial, object as KubeObject);
      data = Buffer.from(escapeHTML(JSON.stringify({ type, object: payload })) + '\n');
    }
    if (!starting) {
      if (liveBytes() + data.length > opts.bufferBytes) {
        terminated = true;
        end('terminate');
        return;
      }
    }
    queue.push({ data, initial: starting });
    queuedBytes += data.length;
    if (starting) initialQueuedBytes += data.length;
    else peakLiveBytes = Math.max(peakLiveBytes, liveBytes());
    schedulePump();
  };

  const invalid = validateWatchOptions(w.list);
  if (invalid.length) throw statusErrors.invalidListOptions(invalid);
  // The response's close covers both a finished stream and a client that went away.
  res.on('close', () => end('gone'));
  try {
    const sink = { send: enqueue, close: () => end('graceful') };
    watch = (await w.cacher?.watch(def, w.namespace, w.list, sink)) ?? (await api.watch(def, w.namespace, w.list, sink));
  } catch (e) {
    closed = true;
    if (!res.headersSent) throw e;
    res.destroy();
    return;
  }
  starting = false;
  if (closed) {
    watch.cancel();
    return;
  }
  startStream();

  // Without timeoutSeconds a watch stays open: kubectl get -w exits when the stream closes.
  // setTimeout fires at once beyond 2^31-1 ms; so long a watch is one without a deadline.
  const timeoutMs = timeout > 0 && timeout * 1000 <= 2 ** 31 - 1 ? timeout * 1000 : 0;
  if (timeoutMs) timers.push(setTimeout(() => end('graceful'), timeoutMs));

  if (w.list.allowWatchBookmarks) {
    const bookmark = () => {
      api.store.currentRevision().then(
        // Every event up to the current revision has been delivered: the store delivers on commit.
        (rev) => enqueue('BOOKMARK', { kind: def.kind, apiVersion: groupVersion(def), metadata: { resourceVersion: String(rev) } }),
        () => end('gone'),
      );
    };
    const every = setInterval(bookmark, opts.bookmarkIntervalMs);
    timers.push(every);
    if (timeoutMs > bookmarkBeforeDeadlineMs) timers.push(setTimeout(bookmark, timeoutMs - bookmarkBeforeDeadlineMs));
  }
}
