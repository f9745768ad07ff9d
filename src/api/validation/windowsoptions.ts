// Windows security options (pkg/apis/core/validation, v1.32): the fields of windowsOptions,
// wherever it is set (validateWindowsSecurityContextOptions, called from the pod's and every
// container's security context), and the HostProcess rules every pod passes through
// (validateWindowsHostProcessPod). Whether windowsOptions may be set at all depends on
// spec.os (osfields.ts).
//
// HostProcess containers are refused upstream unless the API server runs with
// --allow-privileged; Bulkhead has no such switch (privileged containers are not refused
// either), so that last rule is not applied.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodSpec, WindowsSecurityContextOptions } from '../types.js';
import { byteLength, isDNS1123Subdomain } from './names.js';
import { visitContainersWithPath } from './visitcontainers.js';

const maxGMSACredentialSpecLengthInKiB = 64;
const maxGMSACredentialSpecLength = maxGMSACredentialSpecLengthInKiB * 1024;
const maxRunAsUserNameDomainLength = 256;
const maxRunAsUserNameUserLength = 104;

// Go's regexps, which match runes: hence the u flag.
const ctrlRe = /[\x00-\x1f\x7f]/;
/** A NetBios domain: not starting with a dot, 1 to 15 characters, none of \ / : * ? " < > |. */
const validNetBiosRe = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const dnsLabelFormat = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const validWindowsUserDomainDNSRe = new RegExp(`^${dnsLabelFormat}(?:\\.${dnsLabelFormat})*$`, 'u');
const invalidUserNameCharsRe = /["/\\:;|=,+*?<>@[\]]/;
const invalidUserNameDotsSpacesRe = /^[. ]+$/;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The checks of runAsUserName, which all report the whole value at `path`. */
function validateRunAsUserName(name: string, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (name.length === 0) {
    errs.push(fieldError.invalid(path, name, 'runAsUserName cannot be an empty string'));
    return errs;
  }
  if (ctrlRe.test(name)) {
    errs.push(fieldError.invalid(path, name, 'runAsUserName cannot contain control characters'));
    return errs;
  }
  const parts = name.split('\\');
  if (parts.length > 2) {
    errs.push(fieldError.invalid(path, name, 'runAsUserName cannot contain more than one backslash'));
    return errs;
  }
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0]! : '';
  const user = hasDomain ? parts[1]! : parts[0]!;
  if (byteLength(domain) >= maxRunAsUserNameDomainLength) {
    errs.push(fieldError.invalid(path, name, `runAsUserName's Domain length must be under ${maxRunAsUserNameDomainLength} characters`));
  }
  if (hasDomain && !(validNetBiosRe.test(domain) || validWindowsUserDomainDNSRe.test(domain))) {
    errs.push(fieldError.invalid(path, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
  }
  const userBytes = byteLength(user);
  if (userBytes === 0) errs.push(fieldError.invalid(path, name, "runAsUserName's User cannot be empty"));
  else if (userBytes > maxRunAsUserNameUserLength) {
    errs.push(fieldError.invalid(path, name, `runAsUserName's User length must not be longer than ${maxRunAsUserNameUserLength} characters`));
  }
  if (invalidUserNameDotsSpacesRe.test(user)) errs.push(fieldError.invalid(path, name, "runAsUserName's User cannot contain only periods or spaces"));
  if (invalidUserNameCharsRe.test(user)) {
    errs.push(fieldError.invalid(path, name, 'runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]'));
  }
  return errs;
}

/** validateWindowsSecurityContextOptions. */
export function validateWindowsSecurityContextOptions(
  opts: WindowsSecurityContextOptions | undefined | null,
  path: FieldPath,
  errs: FieldError[] = [],
): FieldError[] {
  if (opts === undefined || opts === null || typeof opts !== 'object') return errs;
  if (isSet(opts.gmsaCredentialSpecName)) {
    // gmsaCredentialSpecName names a GMSACredentialSpec custom resource.
    const name = str(opts.gmsaCredentialSpecName);
    for (const m of isDNS1123Subdomain(name)) errs.push(fieldError.invalid(path.child('gmsaCredentialSpecName'), name, m));
  }
  if (isSet(opts.gmsaCredentialSpec)) {
    const spec = str(opts.gmsaCredentialSpec);
    const len = byteLength(spec);
    if (len === 0) errs.push(fieldError.invalid(path.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (len > maxGMSACredentialSpecLength) {
      errs.push(fieldError.invalid(path.child('gmsaCredentialSpec'), spec, `gmsaCredentialSpec size must be under ${maxGMSACredentialSpecLengthInKiB} KiB`));
    }
  }
  if (isSet(opts.runAsUserName)) validateRunAsUserName(str(opts.runAsUserName), path.child('runAsUserName'), errs);
  return errs;
}

function hostProcessOf(opts: WindowsSecurityContextOptions | undefined | null): boolean | undefined {
  const v = opts?.hostProcess;
  return typeof v === 'boolean' ? v : undefined;
}

/**
 * validateWindowsHostProcessPod: a container's hostProcess agrees with the pod's; if any
 * container is a HostProcess container (its own setting, or the pod's), all are and the pod
 * uses the host network.
 */
export function validateWindowsHostProcessPod(spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const podHostProcess = hostProcessOf(spec.securityContext?.windowsOptions);
  let containers = 0;
  let hostProcessContainers = 0;
  visitContainersWithPath(spec, path, (c, cPath) => {
    containers++;
    const own = hostProcessOf(c.securityContext?.windowsOptions);
    if (podHostProcess !== undefined && own !== undefined && podHostProcess !== own) {
      errs.push(
        fieldError.invalid(cPath.child('securityContext', 'windowsOptions', 'hostProcess'), own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`),
      );
    }
    if (own === true || (own === undefined && podHostProcess === true)) hostProcessContainers++;
  });
  if (hostProcessContainers > 0) {
    if (hostProcessContainers !== containers) {
      errs.push(fieldError.invalid(path, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    }
    if (spec.hostNetwork !== true) errs.push(fieldError.invalid(path.child('hostNetwork'), false, 'hostNetwork must be true if pod contains any hostProcess containers'));
  }
  return errs;
}
