// Where a request of `fsapi api` really goes, decided on the URL the transport will send (requestUrl,
// src/api/http.ts), never on the path as typed: `/v1/./transfer`, `/v1/%2e/transfer`, `/v1/x/../transfer`
// and `/v1\transfer` are all sent as POST /v1/transfer, so a check of the typed text let them through.
//
// Two questions, both on that URL:
// - does it stay at the base address (same scheme, host and port, under the base's own path)? A path
//   that leaves it is refused whatever the method;
// - which endpoint does the API see? A server may decode what URL keeps (`%2F`, `%252e`), fold case,
//   drop a trailing slash, repeated slashes or `;parameters`; each of these is undone here, so every
//   spelling any server might route to the transfer endpoint counts as the transfer endpoint.
import { UsageError } from '../errors.js';
import { requestOrigin, requestUrl } from './http.js';

export interface ApiTarget {
  /** What goes on the wire. */
  url: URL;
  /** The path below the base address as the most lenient server would route it: lower case, no dots. */
  endpoint: string;
  /** The same for the whole path, base address's path included. */
  absolute: string;
}

/** At most this many rounds of percent-decoding: `%25252e` is still a dot to a server that decodes thrice. */
const DECODE_ROUNDS = 4;

/**
 * The URL of a request below `baseUrl` (undefined: the local simulator) and the endpoint it reaches.
 * Throws UsageError (exit 2, nothing sent) when the URL leaves the base address.
 */
export function resolveApiTarget(baseUrl: string | undefined, path: string, searchParams?: URLSearchParams): ApiTarget {
  const origin = requestOrigin(baseUrl);
  const base = new URL(origin);
  let url: URL;
  try {
    url = requestUrl(origin, path, searchParams);
  } catch {
    throw new UsageError(
      `the path ${JSON.stringify(path)} does not make a valid URL`,
      'paths are below the base address, for example: fsapi api GET /v1/account',
    );
  }
  const outside = () =>
    new UsageError(
      `the path ${JSON.stringify(path)} resolves to ${url.origin}${url.pathname}, outside the base address ${origin}; nothing was sent`,
      'give a path below the base address, without .. segments',
    );
  if (url.origin !== base.origin || url.username !== '' || url.password !== '') throw outside();
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) throw outside();
  // The same question as a lenient server answers it: its decoded path must still be under the base's.
  const lenient = lenientPath(url.pathname);
  const lenientBase = lenientPath(basePath || '/');
  if (lenientBase !== '' && lenient !== lenientBase && !lenient.startsWith(`${lenientBase}/`)) throw outside();
  return { url, endpoint: lenient.slice(lenientBase.length) || '/', absolute: lenient || '/' };
}

/**
 * Whether the request reaches the transfer endpoint: below the base address, or at the host's root (a
 * base address of `https://host/v1` makes `/transfer` that very endpoint).
 */
export function reachesTransfer(target: ApiTarget): boolean {
  return isTransferEndpoint(target.endpoint) || isTransferEndpoint(target.absolute);
}

/** Whether `endpoint` (ApiTarget.endpoint) is the transfer endpoint, however it was spelled. */
export function isTransferEndpoint(endpoint: string): boolean {
  // `/v1/transfer.json`: some frameworks route a suffix to the plain path.
  return endpoint === '/v1/transfer' || /^\/v1\/transfer\.[^/]*$/.test(endpoint);
}

/**
 * A path as the most lenient server would route it: percent-escapes of ASCII decoded (repeatedly),
 * backslashes as slashes, dot segments resolved, `;parameters` and trailing dots or spaces of a segment
 * dropped, repeated and trailing slashes dropped, lower case. Never sent: only compared.
 */
export function lenientPath(pathname: string): string {
  let path = pathname;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    const decoded = path.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\/g, '/');
    // A decoded `?` or `#` ends the path for a server that decodes before it routes.
    const cut = decoded.search(/[?#]/);
    path = resolveDots(cut === -1 ? decoded : decoded.slice(0, cut));
    if (!/%[0-7][0-9a-f]/i.test(path)) break;
  }
  const segments = path
    .split('/')
    .map((segment) => segment.replace(/;.*$/, '').replace(/[\s\u0000-\u001f.]+$/, ''))
    .filter((segment) => segment !== '');
  return `/${segments.join('/')}`.toLowerCase().replace(/^\/$/, '');
}

/** RFC 3986 dot-segment removal, as URL does it for a path that starts with `/`. */
function resolveDots(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out.join('/');
}
