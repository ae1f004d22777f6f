/** The accounts domain's public face: what the pages and other domains may import from it. */
export * from './account-access';
export * from './account-tokens';
export * from './api-tokens';
export * from './auth';
export * from './invitations';
export * from './login-limiter';
export * from './passkeys';
export * from './password-reset';
export * from './passwords';
export * from './pending-sign-ins';
export * from './sessions';
export * from './two-factor';
export * from './users';
