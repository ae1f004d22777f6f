import type { APIRoute } from 'astro';
import { json, sandboxOf } from '~/server/provider/sandbox/http';

// Sandbox provider: its authorization server metadata (RFC 8414 §3, the issuer's path after the well-known name).
export const GET: APIRoute = (context) => json(sandboxOf(context).authorization.metadata());
