import type { APIRoute } from 'astro';
import { notFound } from '~/server/provider/sandbox/http';

// Sandbox provider: any path it does not serve.
export const ALL: APIRoute = () => notFound();
