/**
 * A body the portal refused part-way (over its size limit, or by its Content-Length before a byte was
 * read) may still be arriving once the answer is out. Closing the connection then would reset it, and a
 * reset can destroy the answer before the sender reads it: the sender sees "connection reset" instead
 * of the 413 and its message. So the rest is read and dropped first, as nginx's lingering close does:
 * while bytes keep coming, up to a total time, and no longer than a pause in them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DiscardLimits {
  /** The pause in a refused body's bytes after which the connection is closed (closed within twice it). */
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
    const { socket } = request;
    // The socket's count of bytes read, not 'data' events, tells that the sender is still sending: Node
    // drops the rest of a body no one began to read (IncomingMessage._dump) without emitting them. Once
    // the body is complete the connection is left alone, whatever comes next on it.
    let bytesSeen = socket.bytesRead;
    let checkedAt = performance.now();
    const stop = () => {
      clearInterval(pauses);
      clearTimeout(total);
      request.off('end', stop);
      socket.off('close', stop);
    };
    const pauses = setInterval(() => {
      if (request.complete) return stop();
      // A check this late means this process stalled (a long collection, a busy machine): timers run
      // before the bytes that came meanwhile are read, so the stall is no pause of the sender's.
      const now = performance.now();
      const stalled = now - checkedAt > 1.5 * limits.idleMs;
      checkedAt = now;
      if (socket.bytesRead === bytesSeen && !stalled) socket.destroy();
      bytesSeen = socket.bytesRead;
    }, limits.idleMs).unref();
    const total = setTimeout(() => {
      if (!request.complete) socket.destroy();
    }, limits.totalMs).unref();
    request.once('end', stop);
    socket.once('close', stop);
    // A reader the refusal stopped still listens for 'readable', which keeps the stream from flowing;
    // once it is gone, a stream with a 'data' listener flows (one without would stop).
    request.removeAllListeners('readable');
    request.on('data', () => {});
  });
}
