// HTTP plumbing of the Worker: JSON responses, errors as {"error": "..."},
// bodies read under a byte limit, the bearer token.

/** An error with its HTTP status, answered as `{"error": message}`. */
export class HttpError extends Error {
  constructor(status, message, headers = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export function json(value, status = 200, headers = {}) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorResponse(e) {
  return json({ error: e.message }, e.status, e.headers);
}

/** Default limit of a request body (bytes): 1 MiB; the `MAX_BODY_BYTES` variable overrides it. */
export const DEFAULT_MAX_BODY = 1 << 20;

export function maxBodyBytes(env) {
  const v = Number(env.MAX_BODY_BYTES ?? DEFAULT_MAX_BODY);
  return Number.isSafeInteger(v) && v > 0 ? v : DEFAULT_MAX_BODY;
}

/**
 * Bytes past the limit that are still read (and thrown away) before the 413
 * is sent: a client still writing its body when the server answers and
 * closes sees a reset connection ("fetch failed", EPIPE) instead of the 413,
 * so a body up to `limit + DRAIN_BYTES` is drained first. A longer one is cut off.
 */
export const DRAIN_BYTES = 16 << 20;

/**
 * The body as text: at most `limit` bytes (413 beyond, after draining up to
 * {@link DRAIN_BYTES} more so the client reads the answer), valid UTF-8 (400
 * otherwise). An absent body is ''.
 */
export async function readBody(request, limit) {
  const declared = request.headers.get('content-length');
  const declaredOver = declared !== null && Number(declared) > limit;
  const tooLong = () =>
    new HttpError(
      413,
      declaredOver ? `the body is ${declared} bytes, more than the limit of ${limit}` : `the body is more than the limit of ${limit} bytes`,
    );
  if (declaredOver && (request.body === null || Number(declared) > limit + DRAIN_BYTES)) {
    await request.body?.cancel();
    throw tooLong();
  }
  if (request.body === null) return '';
  // Past the limit the chunks are dropped, and reading stops at the drain cap.
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size <= limit) chunks.push(value);
    else if (size > limit + DRAIN_BYTES) {
      await reader.cancel();
      break;
    }
  }
  if (size > limit || declaredOver) throw tooLong();
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, 'the body is not valid UTF-8');
  }
}

/** The body parsed as JSON (`undefined` when empty when `optional`). */
export async function readJson(request, limit, { optional = false } = {}) {
  const text = await readBody(request, limit);
  if (text.trim() === '') {
    if (optional) return undefined;
    throw new HttpError(400, 'the body must be a JSON object');
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `invalid JSON: ${e.message}`);
  }
}

/** `{"text": "..."}`: the text, a non-empty string. */
export async function readText(request, limit) {
  const body = await readJson(request, limit);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'the body must be a JSON object {"text": "..."}');
  }
  if (!('text' in body)) throw new HttpError(400, 'missing field text (a string)');
  if (typeof body.text !== 'string') {
    throw new HttpError(400, `invalid field text: must be a string, got ${body.text === null ? 'null' : typeof body.text}`);
  }
  if (body.text.length === 0) throw new HttpError(400, 'invalid field text: must not be empty');
  return body.text;
}

/** Compares the bearer token in constant time (for equal lengths). */
export function authorised(request, token) {
  const header = request.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) return false;
  const a = new TextEncoder().encode(m[1].trim());
  const b = new TextEncoder().encode(token);
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
