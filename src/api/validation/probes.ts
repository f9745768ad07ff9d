// Probes and lifecycle hooks (validateLivenessProbe, validateReadinessProbe, validateStartupProbe,
// validateProbe, validateLifecycle, validateHandler and the actions it checks).
//
// As in container.ts, what API defaulting always fills (a probe's successThreshold, an httpGet
// path and scheme) is checked only when present. Feature gates as in v1.32:
// PodLifecycleSleepAction is on; PodLifecycleSleepActionAllowZero is alpha and off, so a sleep
// of 0 seconds is refused. lifecycle.stopSignal (1.33, alpha gate ContainerStopSignals) is not
// validated.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { HTTPGetAction, Lifecycle, LifecycleHandler, Probe } from '../types.js';
import { isValidPortName, isValidPortNum, regexError } from './names.js';
import { isNegativeErrorMsg } from './objectmeta.js';

const moreThanOneHandlerMsg = 'may not specify more than 1 handler type';
const supportedHTTPSchemes = ['HTTP', 'HTTPS'];
const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameRe = new RegExp(`^${httpHeaderNameFmt}$`);

/** The union of ProbeHandler and LifecycleHandler (upstream's commonHandler). */
type Handler = Probe & LifecycleHandler;
const probeHandlerKinds = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const lifecycleHandlerKinds = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;
type HandlerKind = (typeof probeHandlerKinds)[number] | (typeof lifecycleHandlerKinds)[number];

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A Go int field: absent (or null) decodes to 0. */
function int(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** IsHTTPHeaderName. */
export function isHTTPHeaderName(value: string): string[] {
  return httpHeaderNameRe.test(value) ? [] : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", httpHeaderNameFmt, 'X-Header-Name')];
}

const probeNumberFields = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;
const lifecycleHooks = ['postStart', 'preStop'] as const;

// The validators below append to the list they are given (a new one when none is) and return it.

/** ValidatePortNumOrName: a number is a port number, a string an IANA_SVC_NAME; absent is the int 0. */
export function validatePortNumOrName(port: unknown, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (typeof port === 'string') {
    for (const m of isValidPortName(port)) errs.push(fieldError.invalid(path, port, m));
    return errs;
  }
  const n = int(port);
  for (const m of isValidPortNum(n)) errs.push(fieldError.invalid(path, n, m));
  return errs;
}

function validateExecAction(exec: Handler['exec'], path: FieldPath, errs: FieldError[]): FieldError[] {
  const command = exec?.command;
  if (!Array.isArray(command) || command.length === 0) errs.push(fieldError.required(path.child('command')));
  return errs;
}

function validateHTTPGetAction(http: HTTPGetAction, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (http.path !== undefined && http.path !== null && String(http.path).length === 0) errs.push(fieldError.required(path.child('path')));
  validatePortNumOrName(http.port, path.child('port'), errs);
  if (http.scheme !== undefined && http.scheme !== null) {
    const scheme = String(http.scheme);
    if (!supportedHTTPSchemes.includes(scheme)) errs.push(fieldError.notSupported(path.child('scheme'), scheme, supportedHTTPSchemes));
  }
  for (const header of Array.isArray(http.httpHeaders) ? http.httpHeaders : []) {
    const name = typeof header?.name === 'string' ? header.name : '';
    for (const m of isHTTPHeaderName(name)) errs.push(fieldError.invalid(path.child('httpHeaders'), name, m));
  }
  return errs;
}

/** validateSleepAction, with AllowPodLifecycleSleepActionZeroValue off (1.32). */
function validateSleepAction(sleep: Handler['sleep'], gracePeriod: number | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  // No grace period means the pod's own error is reported; this one would only repeat it.
  if (gracePeriod === undefined) return errs;
  const seconds = int(sleep?.seconds);
  if (seconds > 0 && seconds <= gracePeriod) return errs;
  errs.push(
    fieldError.invalid(
      path,
      seconds,
      `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
    ),
  );
  return errs;
}

function validateAction(kind: HandlerKind, h: Handler, gracePeriod: number | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  switch (kind) {
    case 'exec':
      return validateExecAction(h.exec, path, errs);
    case 'httpGet':
      return validateHTTPGetAction(h.httpGet!, path, errs);
    case 'tcpSocket':
      return validatePortNumOrName(h.tcpSocket?.port, path.child('port'), errs);
    case 'grpc':
      return validatePortNumOrName(int(h.grpc?.port), path.child('port'), errs);
    case 'sleep':
      return validateSleepAction(h.sleep, gracePeriod, path, errs);
  }
}

/** validateHandler: exactly one action; the first one set is checked, each later one Forbidden. */
function validateHandler(h: Handler, kinds: readonly HandlerKind[], gracePeriod: number | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  let count = 0;
  for (const kind of kinds) {
    if (!isSet(h?.[kind])) continue;
    if (count > 0) {
      errs.push(fieldError.forbidden(path.child(kind), moreThanOneHandlerMsg));
    } else {
      count++;
      validateAction(kind, h, gracePeriod, path.child(kind), errs);
    }
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

/** validateProbe: the handler, then non-negative numbers and a positive terminationGracePeriodSeconds. */
function validateProbe(probe: Probe, gracePeriod: number | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  validateHandler(probe, probeHandlerKinds, gracePeriod, path, errs);
  for (const f of probeNumberFields) {
    const v = int(probe[f]);
    if (v < 0) errs.push(fieldError.invalid(path.child(f), v, isNegativeErrorMsg));
  }
  const tgps = probe.terminationGracePeriodSeconds;
  if (typeof tgps === 'number' && tgps <= 0) errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  return errs;
}

/** validateLivenessProbe and validateStartupProbe: successThreshold must be 1. */
function validateSingleSuccessProbe(probe: Probe | undefined, gracePeriod: number | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isSet(probe)) return errs;
  validateProbe(probe!, gracePeriod, path, errs);
  const st = probe!.successThreshold;
  if (isSet(st) && st !== 1) errs.push(fieldError.invalid(path.child('successThreshold'), st, 'must be 1'));
  return errs;
}

export const validateLivenessProbe = validateSingleSuccessProbe;
export const validateStartupProbe = validateSingleSuccessProbe;

/** validateReadinessProbe: terminationGracePeriodSeconds may not be set. */
export function validateReadinessProbe(probe: Probe | undefined, gracePeriod: number | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isSet(probe)) return errs;
  validateProbe(probe!, gracePeriod, path, errs);
  const tgps = probe!.terminationGracePeriodSeconds;
  if (isSet(tgps)) errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'));
  return errs;
}

/** validateLifecycle: each hook that is set. */
export function validateLifecycle(lifecycle: Lifecycle, gracePeriod: number | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  for (const hook of lifecycleHooks) {
    const h = lifecycle?.[hook];
    if (isSet(h)) validateHandler(h as Handler, lifecycleHandlerKinds, gracePeriod, path.child(hook), errs);
  }
  return errs;
}

/**
 * The lifecycle and probe checks of a regular container or a restartable init container,
 * in validateContainers' order. Paths are built only for what is set.
 */
export function validateLifecycleAndProbes(
  c: { lifecycle?: Lifecycle; livenessProbe?: Probe; readinessProbe?: Probe; startupProbe?: Probe },
  gracePeriod: number | undefined,
  path: FieldPath,
  errs: FieldError[] = [],
): FieldError[] {
  if (isSet(c?.lifecycle)) validateLifecycle(c.lifecycle!, gracePeriod, path.child('lifecycle'), errs);
  if (isSet(c?.livenessProbe)) validateLivenessProbe(c.livenessProbe, gracePeriod, path.child('livenessProbe'), errs);
  if (isSet(c?.readinessProbe)) validateReadinessProbe(c.readinessProbe, gracePeriod, path.child('readinessProbe'), errs);
  if (isSet(c?.startupProbe)) validateStartupProbe(c.startupProbe, gracePeriod, path.child('startupProbe'), errs);
  return errs;
}
