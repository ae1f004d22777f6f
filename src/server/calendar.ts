/** Calendar boundaries in the server's time zone, as the dashboard counts them. */

/** Midnight on the first of this month, server time zone. */
export function startOfMonth(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), 1);
}

/** Midnight on this ISO week's Monday, server time zone. */
export function startOfIsoWeek(now: Date): Date {
  const daysSinceMonday = (now.getDay() + 6) % 7;
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysSinceMonday);
}
