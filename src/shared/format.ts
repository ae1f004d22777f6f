/** Display formatting of spec section 3 ("Formatting") and a few labels, shared by pages and islands. */
import type { Role } from './constants';

/** MM/DD/YYYY (en-US); missing or invalid gives 'N/A'. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** The role capitalised, as the top bar and profile show it: 'admin-viewer' → 'Admin-viewer'. */
export function capitalizeRole(role: Role): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** How the user form and tables name a role: admin-viewer is 'admin viewer'. */
export function roleLabel(role: Role): string {
  return role.replace('-', ' ');
}

/** Seconds → 'm:ss', as the login countdown shows them. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function rateLimitMessage(retryAfterSeconds: number | undefined): string {
  return retryAfterSeconds && retryAfterSeconds > 0
    ? `Too many login attempts. Please wait ${formatCountdown(retryAfterSeconds)} before trying again.`
    : 'Too many login attempts. Please try again later.';
}
