/** Business constants and limits, in one place for browser and server. */

export const DAY_MS = 86_400_000;
export const API_TIMEOUT_MS = 30_000;
export const DASHBOARD_REFETCH_MS = 300_000;
export const TOKEN_STATUS_POLL_MS = 30_000;
export const FEEDBACK_SHORT_MS = 3_000;
export const FEEDBACK_LONG_MS = 5_000;
export const SERVER_BUSY_WAIT_MINUTES = 30;

export const MOBILE_BREAKPOINT_PX = 1024;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const TRACKING_NUMBER_MIN = 8;

export const RECEIPTS_PAGE_SIZE = 20;
/** The Sort By choices of the receipts screen. */
export const RECEIPT_SORT_KEYS = [
  'receivedDate',
  'number',
  'shipperName',
  'consigneeName',
  'status',
] as const;
/** Every key the list API sorts by: the screen's, and the receipt's other text columns. */
export const LIST_SORT_KEYS = [
  ...RECEIPT_SORT_KEYS,
  'destination',
  'modeOfTransportation',
  'origin',
] as const;
export const DEFAULT_RECEIPT_SORT = { sortBy: 'receivedDate', sortOrder: 'desc' } as const;

export const ASSIGNMENT_PAGE_SIZE = 30;

export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['jpeg', 'jpg', 'png', 'gif', 'webp'] as const;
export const BACKGROUND_MAX_BYTES = 4 * 1024 * 1024;

export const CARD_OPACITY_DEFAULT = 0.9;
export const CARD_OPACITY_MIN = 0.1;
export const CARD_OPACITY_MAX = 1;
export const CARD_OPACITY_STEP = 0.05;

export const TOKEN_WARNING_MINUTES = 5;
export const TOKEN_AUTO_REFRESH_MINUTES = 5;
export const REFRESH_EXPIRY_MIN_SECONDS = 300;
export const REFRESH_EXPIRY_MAX_SECONDS = 31_536_000;
export const OAUTH_POPUP = { width: 500, height: 700, closedCheckMs: 1_000 } as const;

export const MAP_ZOOM_WAREHOUSE = 15;
export const MAP_ZOOM_ROUTE = 3;
export const ANIMATION_AIR_MS = 8_000;
export const ANIMATION_OCEAN_MS = 12_000;

export const SIZE_BASE = 1024;
export const NUMBER_DECIMALS = 3;
export const COUNT_DECIMALS = 0;

export const ROLES = ['admin', 'admin-viewer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** daisyUI's dark base colour, the shell's background (the web app manifest's and the pages' theme colour). */
export const THEME_COLOUR = '#1d232a';

/**
 * Local-storage key under which the signed-in user is kept; it goes when the session does
 * (sign-out, a 401, a page without a session).
 */
export const STORED_USER_KEY = 'user';
/** The cookie that carries the session token (src/server/http/session.ts). */
export const SESSION_COOKIE = 'portal_session';

/**
 * Inlined in every page rendered without a session (BareLayout.astro): the profile the sign-in form
 * stored belongs to a session that is over, so it goes, as the service worker's kept pages do.
 */
export const FORGET_STORED_USER_SCRIPT = `try{localStorage.removeItem(${JSON.stringify(STORED_USER_KEY)})}catch(e){}`;
