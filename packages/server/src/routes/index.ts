import type { RouteDef } from '../route.js';
import { accountRoutes } from './account.js';
import { creditRoutes } from './credits.js';
import { metaRoutes } from './meta.js';
import { publicRoutes } from './public.js';
import { sessionRoutes } from './sessions.js';
import { tokenRoutes } from './tokens.js';
import { webhookRoutes } from './webhooks.js';

/** Every operation of the API. A capability adds its routes file here. */
export const routes: RouteDef[] = [...metaRoutes, ...tokenRoutes, ...accountRoutes, ...creditRoutes, ...webhookRoutes, ...sessionRoutes, ...publicRoutes];
