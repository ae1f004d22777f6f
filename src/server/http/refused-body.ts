/**
 * A body the portal refused part-way (over its size limit, or by its Content-Length before a byte was
 * read) may still be arriving once the answer is out. Closing the connection then would reset it, and a
 * reset can destroy the answer before the sender reads it: the sender sees "connection reset" instead
 * of the 413 and its message. So the rest is read and dropped first, as nginx's lingering close does:
 * while bytes keep coming, up to a total time, and no longer than a pause in them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DiscardLimits {
  /** The longest pause in a refused body's bytes before the connection is closed. */
  idleMs: number;
  /** The longest a refused body is read and dropped at all. */
  totalMs: number;
}

/** nginx's lingering close: a 5 s pause, 30 s in all. */
const NGINX_LIMITS: DiscardLimits = { idleMs: 5_000, totalMs: 30_000 };

/**
 * Once `response` is sent, reads and drops whatever of `request`'s body is still unread. The in-process
 * tests pass longer limits: their sender shares the server's event loop, which a busy machine can stall
 * for longer than a pause nginx allows.
 */
export function discardRefusedBody(
  request: IncomingMessage,
  response: ServerResponse,
  limits: DiscardLimits = NGINX_LIMITS,
): void {
  response.once('finish', () => {
    if (request.complete || request.destroyed) return;
    const close = () => request.socket.destroy();
    const pause = setTimeout(close, limits.idleMs).unref();
    const total = setTimeout(close, limits.totalMs).unref();
    request.once('end', () => {
      clearTimeout(pause);
      clearTimeout(total);
    });
    // The stopped reader still listens for 'readable', which keeps the stream from flowing.
    request.removeAllListeners('readable');
    request.on('data', () => pause.refresh());
  });
}
