/** The oidc-provider test server as a process of its own, for the browser tests (playwright.config.ts starts it). */
import { startOidcServer } from './oidc-server.ts';

const server = await startOidcServer({
  port: Number(process.env.OIDC_PORT),
  redirectUri: process.env.OIDC_REDIRECT_URI!,
  clientSecret: process.env.OIDC_CLIENT_SECRET!,
  accessTokenSeconds: Number(process.env.OIDC_ACCESS_TOKEN_SECONDS || 300),
});
console.log(`oidc-provider test server at ${server.issuer}`);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void server.stop().then(() => process.exit(0)));
