import type { APIRoute } from 'astro';
import { json, sandboxOf } from '~/server/provider/sandbox/http';

// Sandbox provider: its OAuth2 authorization server metadata (the issuer's path after the well-known name).
export const GET: APIRoute = (context) => json(sandboxOf(context).authorization.metadata());
