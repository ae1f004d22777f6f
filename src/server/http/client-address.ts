/** The client address the login limiter keys on: X-Forwarded-For only behind a trusted proxy. */
export function clientAddress(
  request: Request,
  socketAddress: string,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    // The proxy appends the address it saw; earlier entries are whatever the client claimed.
    const forwarded = request.headers
      .get('x-forwarded-for')
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const last = forwarded?.at(-1);
    if (last) return last.slice(0, 64);
  }
  return socketAddress;
}
